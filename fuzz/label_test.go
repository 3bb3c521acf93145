package fuzz

import (
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/charsniff/charsniff/override"
)

var (
	specLabelsOnce sync.Once
	specLabels     map[string]string // lower-case label → canonical name
)

// loadLabels reads the vendored label table: the reference for FuzzLabel.
func loadLabels(t testing.TB) map[string]string {
	specLabelsOnce.Do(func() {
		data, err := os.ReadFile("../internal/spec/whatwg-encoding/encodings.json")
		if err != nil {
			t.Fatal(err)
		}
		var groups []struct {
			Encodings []struct {
				Name   string   `json:"name"`
				Labels []string `json:"labels"`
			} `json:"encodings"`
		}
		if err := json.Unmarshal(data, &groups); err != nil {
			t.Fatal(err)
		}
		specLabels = map[string]string{}
		for _, g := range groups {
			for _, e := range g.Encodings {
				for _, l := range e.Labels {
					specLabels[l] = e.Name
				}
			}
		}
	})
	return specLabels
}

// referenceLookup is the Encoding Standard's get an encoding, written the
// slow, obvious way.
func referenceLookup(labels map[string]string, label string) (string, bool) {
	label = strings.Trim(label, "\t\n\f\r ")
	lower := []byte(label)
	for i, c := range lower {
		if 'A' <= c && c <= 'Z' {
			lower[i] = c + 'a' - 'A'
		}
	}
	name, ok := labels[string(lower)]
	return name, ok
}

func asciiUpper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - ('a' - 'A')
		}
	}
	return string(b)
}

// forbiddenNames are charsets no label may ever yield.
var forbiddenNames = []string{"UTF-7", "CESU-8", "BOCU-1", "SCSU", "UTF-32", "UTF-32LE", "UTF-32BE"}

// FuzzLabel checks that label lookup is total, agrees with the slow
// reference, ignores ASCII case and ASCII whitespace around the label,
// never allocates, and that the opt-in legacy lookup only ever answers one
// of the 40 encodings and agrees with Lookup wherever Lookup succeeds.
func FuzzLabel(f *testing.F) {
	labels := loadLabels(f)
	for l := range labels {
		f.Add(l)
	}
	for _, s := range []string{"", " ", "\u212Aoi8-r", "\u00a0utf-8", "utf-8\u0085", "UTF-7", "utf-32", "GB_2312-80", "g.b.2312(80)", "x-x-big5", "\x00", "utf-8\v"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, label string) {
		e, ok := override.Lookup(label)
		wantName, wantOK := referenceLookup(labels, label)
		if ok != wantOK || (ok && e.Name() != wantName) || (!ok && e != override.Unknown) {
			t.Fatalf("Lookup(%q) = %v, %v, want %q, %v", label, e, ok, wantName, wantOK)
		}
		if e2, ok2 := override.Lookup([]byte(label)); e2 != e || ok2 != ok {
			t.Fatalf("Lookup([]byte(%q)) = %v, %v, Lookup = %v, %v", label, e2, ok2, e, ok)
		}
		for _, variant := range []string{asciiUpper(label), " \t" + label + "\r\n\f"} {
			if e2, ok2 := override.Lookup(variant); e2 != e || ok2 != ok {
				t.Fatalf("Lookup(%q) = %v, %v, but Lookup(%q) = %v, %v", variant, e2, ok2, label, e, ok)
			}
		}
		le, lok := override.LookupLegacy(label)
		if lok != le.Valid() {
			t.Fatalf("LookupLegacy(%q) = %v, %v", label, le, lok)
		}
		if ok && (!lok || le != e) {
			t.Fatalf("LookupLegacy(%q) = %v, %v, want Lookup's %v", label, le, lok, e)
		}
		if le2, lok2 := override.LookupLegacy([]byte(label)); le2 != le || lok2 != lok {
			t.Fatalf("LookupLegacy([]byte(%q)) = %v, %v, LookupLegacy = %v, %v", label, le2, lok2, le, lok)
		}
		for _, bad := range forbiddenNames {
			if strings.EqualFold(le.Name(), bad) {
				t.Fatalf("LookupLegacy(%q) = %v, a forbidden encoding", label, le)
			}
		}
		// Reading memory statistics stops the world; sample one input in
		// eight (allocation does not depend on luck, only on the input).
		if len(label)%8 == 0 {
			if n := allocsPerCall(func() { override.Lookup(label); override.LookupLegacy(label) }); n != 0 {
				t.Fatalf("Lookup(%q) allocated %v times", label, n)
			}
		}
	})
}
