package charsniff_test

import (
	"strings"
	"testing"

	xcharset "golang.org/x/net/html/charset"

	"github.com/charsniff/charsniff"
	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

// TestNameSpellings checks the spellings the package docs promise: Lookup
// and DetermineEncoding give the lower-case WHATWG name, the one x/net's
// charset gives; override.Encoding.Name, sniff.Result.Name and the decode
// Reader's result give the Encoding Standard's own.
func TestNameSpellings(t *testing.T) {
	for _, e := range override.All() {
		std := e.Name()
		lower := strings.ToLower(std)
		if _, name := charsniff.Lookup(std); name != lower {
			t.Errorf("Lookup(%q) name = %q, want %q", std, name, lower)
		}
		if e == override.Replacement {
			continue // no label of it can be declared in a document
		}
		if _, name := xcharset.Lookup(std); name != lower && name != "" {
			t.Errorf("x/net's Lookup(%q) = %q, ours %q", std, name, lower)
		}
		if e.IsUTF16() {
			continue // a charset of UTF-16 in a header means UTF-8 to HTML
		}
		_, name, _ := charsniff.DetermineEncoding([]byte("x"), "text/html; charset="+std)
		if name != lower {
			t.Errorf("DetermineEncoding(charset=%s) name = %q, want %q", std, name, lower)
		}
		res := sniff.Sniff([]byte("x"), &sniff.Options{ContentType: "text/html; charset=" + std})
		if res.Name() != std || res.LowerName() != lower {
			t.Errorf("sniff Result.Name() = %q, LowerName() = %q, want %q, %q", res.Name(), res.LowerName(), std, lower)
		}
		rd, _ := charsniff.NewReader(strings.NewReader("x"), "text/html; charset="+std)
		if r := rd.(*decode.Reader).Result(); r.Name() != std || r.LowerName() != lower {
			t.Errorf("decode Result().Name() = %q, LowerName() = %q, want %q, %q", r.Name(), r.LowerName(), std, lower)
		}
	}
}
