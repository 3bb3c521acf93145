package override

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

type specEncoding struct {
	Name   string   `json:"name"`
	Labels []string `json:"labels"`
}

// loadSpec reads the vendored label table the generator reads.
func loadSpec(t *testing.T) []specEncoding {
	t.Helper()
	data, err := os.ReadFile("../internal/spec/whatwg-encoding/encodings.json")
	if err != nil {
		t.Fatal(err)
	}
	var groups []struct {
		Encodings []specEncoding `json:"encodings"`
	}
	if err := json.Unmarshal(data, &groups); err != nil {
		t.Fatal(err)
	}
	var all []specEncoding
	for _, g := range groups {
		all = append(all, g.Encodings...)
	}
	return all
}

// TestTables walks every row of the standard's label table.
func TestTables(t *testing.T) {
	spec := loadSpec(t)
	if len(spec) != NumEncodings || NumEncodings != 40 {
		t.Fatalf("spec has %d encodings, NumEncodings = %d, want 40", len(spec), NumEncodings)
	}
	nlabels := 0
	for i, se := range spec {
		want := Encoding(i + 1)
		if got := want.Name(); got != se.Name {
			t.Errorf("Encoding(%d).Name() = %q, want %q", i+1, got, se.Name)
		}
		for _, l := range se.Labels {
			nlabels++
			for _, variant := range []string{l, strings.ToUpper(l), " \t" + l + "\n\f\r ", strings.ToUpper(l[:1]) + l[1:]} {
				if got, ok := Lookup(variant); !ok || got != want {
					t.Errorf("Lookup(%q) = %v, %v, want %v, true", variant, got, ok, want)
				}
				if got, ok := Lookup([]byte(variant)); !ok || got != want {
					t.Errorf("Lookup([]byte(%q)) = %v, %v, want %v, true", variant, got, ok, want)
				}
				if got, ok := LookupLegacy(variant); !ok || got != want {
					t.Errorf("LookupLegacy(%q) = %v, %v, want %v, true", variant, got, ok, want)
				}
				if got, ok := LookupLegacy([]byte(variant)); !ok || got != want {
					t.Errorf("LookupLegacy([]byte(%q)) = %v, %v, want %v, true", variant, got, ok, want)
				}
			}
		}
	}
	if nlabels != len(labelList)-1 {
		t.Errorf("spec has %d labels, table has %d", nlabels, len(labelList)-1)
	}
	if got := len(All()); got != 40 {
		t.Errorf("len(All()) = %d, want 40", got)
	}
}

// TestLookup checks Lookup and LookupLegacy, on a string and on bytes,
// against one table: Lookup knows the Encoding Standard's labels, ASCII
// whitespace trimmed and A-Z folded, and nothing else; LookupLegacy knows
// them too, and the spellings UTS #22 matching allows.
func TestLookup(t *testing.T) {
	tests := []struct {
		label          string
		lookup, legacy Encoding // Unknown: not found
	}{
		// The standard's labels.
		{"utf-8", UTF8, UTF8},
		{"UTF8", UTF8, UTF8},
		{"latin1", Windows1252, Windows1252},
		{"iso-8859-1", Windows1252, Windows1252},
		{"US-ASCII", Windows1252, Windows1252},
		{"ISO_8859-1:1987", Windows1252, Windows1252},
		{"gb2312", GBK, GBK},
		{"GB_2312-80", GBK, GBK},
		{"sjis", ShiftJIS, ShiftJIS},
		{"windows-31j", ShiftJIS, ShiftJIS},
		{"windows-31J", ShiftJIS, ShiftJIS},
		{"Shift-JIS", ShiftJIS, ShiftJIS},
		{"SHIFT_JIS", ShiftJIS, ShiftJIS},
		{"x-sjis", ShiftJIS, ShiftJIS},
		{"x-x-big5", Big5, Big5},
		{"ks_c_5601-1987", EUCKR, EUCKR},
		{"KS_C_5601-1987", EUCKR, EUCKR},
		{"EUC-KR", EUCKR, EUCKR},
		{"windows-949", EUCKR, EUCKR},
		{"tis-620", Windows874, Windows874},
		{"TIS-620", Windows874, Windows874},
		{"ISO-8859-11", Windows874, Windows874},
		{"iso-8859-9", Windows1254, Windows1254},
		{"iso-8859-10", ISO8859_10, ISO8859_10},
		{"koi8-ru", KOI8U, KOI8U},
		{"x-mac-ukrainian", XMacCyrillic, XMacCyrillic},
		{"iso-2022-kr", Replacement, Replacement},
		{"hz-gb-2312", Replacement, Replacement},
		{"iso-2022-cn-ext", Replacement, Replacement},
		{"utf-16", UTF16LE, UTF16LE},
		{"UTF-16", UTF16LE, UTF16LE},
		{"unicodefffe", UTF16BE, UTF16BE},
		{"x-user-defined", XUserDefined, XUserDefined},
		{"  \tShift_JIS\r\n", ShiftJIS, ShiftJIS},
		// Lookup trims only ASCII whitespace and folds only A-Z; UTS #22
		// drops every byte that is not an ASCII letter or digit.
		{"\u212Aoi8-r", Unknown, Unknown}, // KELVIN SIGN folds to k under Unicode rules
		{"\u00a0utf-8", Unknown, UTF8},    // NO-BREAK SPACE is not ASCII whitespace
		{"utf-8\u0085", Unknown, UTF8},    // NEXT LINE is not ASCII whitespace
		{"utf-8\v", Unknown, UTF8},        // VT is not ASCII whitespace
		{"utf-8\x00", Unknown, UTF8},
		// UTS #22 alone: case, punctuation and leading zeros are ignored.
		{"utf_8", Unknown, UTF8},
		{"g.b.2312(80)", Unknown, GBK},
		{"iso_8859-01", Unknown, Windows1252},
		{"ISO8859_2", Unknown, ISO8859_2},
		{"iso-8859-002", Unknown, ISO8859_2},
		{"windows 1251", Unknown, Windows1251},
		{"Shift JIS", Unknown, ShiftJIS},
		{"EUC_JP", Unknown, EUCJP},
		{"Extended_UNIX_Code_Packed_Format_for_Japanese", Unknown, EUCJP},
		// The 2008 draft's additional aliases.
		{"windows-932", Unknown, ShiftJIS},
		// A zero that follows a digit is significant.
		{"iso-8859-1-0", Unknown, Windows1252}, // "-0" starts a new number: its zero is leading
		{"windows-125", Unknown, Unknown},
		// Never these, under any spelling.
		{"utf-7", Unknown, Unknown},
		{"UTF-7", Unknown, Unknown},
		{"utf7", Unknown, Unknown},
		{"UNICODE-1-1-UTF-7", Unknown, Unknown},
		{"utf-32", Unknown, Unknown},
		{"UTF-32", Unknown, Unknown},
		{"UTF-32LE", Unknown, Unknown},
		{"utf32be", Unknown, Unknown},
		{"cesu-8", Unknown, Unknown},
		{"CESU-8", Unknown, Unknown},
		{"cesu8", Unknown, Unknown},
		{"bocu-1", Unknown, Unknown},
		{"BOCU-1", Unknown, Unknown},
		{"scsu", Unknown, Unknown},
		{"SCSU", Unknown, Unknown},
		{"ebcdic-us", Unknown, Unknown},
		{"EBCDIC-US", Unknown, Unknown},
		{"ibm037", Unknown, Unknown},
		{"IBM037", Unknown, Unknown},
		{"cp500", Unknown, Unknown},
		{"", Unknown, Unknown},
		{"   ", Unknown, Unknown},
		{"-_.()", Unknown, Unknown},
		{"x-user-defined-but-much-longer-than-any-label", Unknown, Unknown},
		{strings.Repeat("a", 1000), Unknown, Unknown},
	}
	for _, tc := range tests {
		e, ok := Lookup(tc.label)
		checkFound(t, "Lookup", tc.label, e, ok, tc.lookup)
		e, ok = Lookup([]byte(tc.label))
		checkFound(t, "Lookup([]byte)", tc.label, e, ok, tc.lookup)
		e, ok = LookupLegacy(tc.label)
		checkFound(t, "LookupLegacy", tc.label, e, ok, tc.legacy)
		e, ok = LookupLegacy([]byte(tc.label))
		checkFound(t, "LookupLegacy([]byte)", tc.label, e, ok, tc.legacy)
	}
}

// checkFound reports the result e, ok of call(label) unless it is want,
// found exactly when want is not Unknown.
func checkFound(t *testing.T, call, label string, e Encoding, ok bool, want Encoding) {
	t.Helper()
	if e != want || ok != (want != Unknown) {
		t.Errorf("%s(%q) = %v, %v, want %v, %v", call, label, e, ok, want, want != Unknown)
	}
}

// TestLooseKeys checks that every key of the generated loose table is a
// fixed point of the runtime folding, so generator and runtime agree.
func TestLooseKeys(t *testing.T) {
	for k, want := range looseLabels {
		if got, ok := LookupLegacy(k); !ok || got != want {
			t.Errorf("LookupLegacy(%q) = %v, %v, want %v, true", k, got, ok, want)
		}
	}
}

func TestEncodingMethods(t *testing.T) {
	if Unknown.Valid() || Unknown.Name() != "" || Encoding(200).Valid() || Encoding(200).Name() != "" {
		t.Error("Unknown or out-of-range value reported as valid")
	}
	if got := Encoding(200).String(); got != "Encoding(200)" {
		t.Errorf("Encoding(200).String() = %q", got)
	}
	if got := Unknown.String(); got != "Encoding(0)" {
		t.Errorf("Unknown.String() = %q", got)
	}
	if got := ShiftJIS.String(); got != "Shift_JIS" {
		t.Errorf("ShiftJIS.String() = %q", got)
	}
	if !UTF16BE.IsUTF16() || !UTF16LE.IsUTF16() || UTF8.IsUTF16() {
		t.Error("IsUTF16 wrong")
	}
	for _, e := range All() {
		want := !(e.IsUTF16() || e == ISO2022JP || e == Replacement)
		if got := e.ASCIICompatible(); got != want {
			t.Errorf("%v.ASCIICompatible() = %v, want %v", e, got, want)
		}
	}
}

// TestLowerName checks LowerName over all 40 encodings against the
// standard's name lower-cased, that it is a label of the encoding, and that
// it is "" for values that are not encodings and does not allocate.
func TestLowerName(t *testing.T) {
	for _, e := range All() {
		want := strings.ToLower(e.Name())
		if got := e.LowerName(); got != want {
			t.Errorf("%v.LowerName() = %q, want %q", e, got, want)
		}
		if got, ok := Lookup(e.LowerName()); got != e || !ok {
			t.Errorf("Lookup(%q) = %v, %v, want %v, true", e.LowerName(), got, ok, e)
		}
		if n := testing.AllocsPerRun(10, func() { _ = e.LowerName() }); n != 0 {
			t.Errorf("%v.LowerName(): %v allocs, want 0", e, n)
		}
	}
	for _, e := range []Encoding{Unknown, numEncodings, 255} {
		if got := e.LowerName(); got != "" {
			t.Errorf("Encoding(%d).LowerName() = %q, want \"\"", e, got)
		}
	}
}

// TestLookupAllocs checks that Lookup and LookupLegacy do not allocate, for
// a string, a byte slice and types defined on them.
func TestLookupAllocs(t *testing.T) {
	type label string
	type raw []byte
	for _, l := range []string{"utf-8", " Shift_JIS ", "nonsense", "GB_2312-80", strings.Repeat(" x", 40)} {
		b := []byte(l)
		for _, tc := range []struct {
			desc string
			f    func()
		}{
			{"Lookup(string)", func() { Lookup(l) }},
			{"Lookup([]byte)", func() { Lookup(b) }},
			{"Lookup(label)", func() { Lookup(label(l)) }},
			{"Lookup(raw)", func() { Lookup(raw(b)) }},
			{"LookupLegacy(string)", func() { LookupLegacy(l) }},
			{"LookupLegacy([]byte)", func() { LookupLegacy(b) }},
			{"LookupLegacy(raw)", func() { LookupLegacy(raw(b)) }},
		} {
			if n := testing.AllocsPerRun(100, tc.f); n != 0 {
				t.Errorf("%s of %q: %v allocs, want 0", tc.desc, l, n)
			}
		}
	}
	// Types defined on string and []byte are looked up as their bytes.
	if e, ok := Lookup(raw(" SJIS")); e != ShiftJIS || !ok {
		t.Errorf("Lookup(raw(\" SJIS\")) = %v, %v, want Shift_JIS, true", e, ok)
	}
	if e, ok := LookupLegacy(label("g.b.2312(80)")); e != GBK || !ok {
		t.Errorf("LookupLegacy(label(\"g.b.2312(80)\")) = %v, %v, want GBK, true", e, ok)
	}
}

// TestGenerated reruns the generator and checks tables.go is up to date.
func TestGenerated(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the generator")
	}
	want, err := os.ReadFile("tables.go")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	runGenerator(t, dir)
	got, err := os.ReadFile(dir + "/tables.go")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Error("tables.go is stale: run go generate ./override")
	}
}

func BenchmarkLookup(b *testing.B) {
	for _, l := range []string{"utf-8", "  Windows-1252 ", "cseucpkdfmtjapanese", "not-a-label"} {
		b.Run(strings.TrimSpace(l), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Lookup(l)
			}
		})
	}
}

func runGenerator(t *testing.T, dir string) {
	t.Helper()
	cmd := exec.Command("go", "run", "gen.go", "-o", filepath.Join(dir, "tables.go"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run gen.go: %v\n%s", err, out)
	}
}

// TestLookupNearMisses checks the hashed lookup against a map of the label
// table on strings one edit away from each label (a byte dropped, added or
// changed, among them the bytes around A to Z, NUL, non-ASCII and space),
// which land in other labels' slots or in empty ones.
func TestLookupNearMisses(t *testing.T) {
	table := map[string]Encoding{}
	for _, e := range labelList[1:] {
		table[keyString(e.key)] = e.enc
	}
	check := func(s string) {
		t.Helper()
		folded := strings.Map(func(r rune) rune {
			if 'A' <= r && r <= 'Z' {
				return r + 'a' - 'A'
			}
			return r
		}, strings.Trim(s, "\t\n\f\r "))
		want, wantOK := table[folded]
		if got, ok := Lookup(s); got != want || ok != wantOK {
			t.Fatalf("Lookup(%q) = %v, %v, want %v, %v", s, got, ok, want, wantOK)
		}
		if got, ok := Lookup([]byte(s)); got != want || ok != wantOK {
			t.Fatalf("Lookup([]byte(%q)) = %v, %v, want %v, %v", s, got, ok, want, wantOK)
		}
	}
	check("")
	for l := range table {
		check(l)
		for i := range len(l) + 1 {
			if i < len(l) {
				check(l[:i] + l[i+1:])
			}
			for _, c := range "-_.:0159aeiosxzAEZ@[`{\x00\x7F\u0080\u212A " {
				check(l[:i] + string(c) + l[i:])
				if i < len(l) {
					check(l[:i] + string(c) + l[i+1:])
				}
			}
		}
	}
}

// keyString returns the label of the key k.
func keyString(k labelKey) string {
	var b []byte
	for _, w := range [3]uint64{k.a, k.b, k.c} {
		for ; w != 0; w >>= 8 {
			b = append(b, byte(w))
		}
	}
	return string(b)
}

// BenchmarkLookupBytes is BenchmarkLookup with the labels as byte slices.
func BenchmarkLookupBytes(b *testing.B) {
	for _, l := range []string{"utf-8", "  Windows-1252 ", "cseucpkdfmtjapanese", "not-a-label"} {
		lb := []byte(l)
		b.Run(strings.TrimSpace(l), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Lookup(lb)
			}
		})
	}
}
