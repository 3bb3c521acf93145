package mimetype

import (
	"testing"

	"github.com/charsniff/charsniff/internal/reference"
)

// TestExtract runs the shared table and checks the literal reference
// agrees with it.
func TestExtract(t *testing.T) {
	for _, tc := range reference.ContentTypeCases {
		t.Run(tc.Desc, func(t *testing.T) {
			m, ok := Extract(tc.In)
			cs, has := m.Charset()
			if ok != (tc.Essence != "") || m.Essence() != tc.Essence || cs != tc.Charset || has != tc.HasCharset {
				t.Errorf("Extract(%q) = essence %q, charset %q, %v, ok %v; want %q, %q, %v", tc.In, m.Essence(), cs, has, ok, tc.Essence, tc.Charset, tc.HasCharset)
			}
			if got, want := m.IsHTML(), tc.Essence == "text/html" || tc.Essence == "application/xhtml+xml"; got != want {
				t.Errorf("Extract(%q).IsHTML() = %v, want %v", tc.In, got, want)
			}
			if tc.Essence != "" && !m.Is(tc.Essence) {
				t.Errorf("Extract(%q).Is(%q) = false", tc.In, tc.Essence)
			}
			ref := reference.ExtractMIMEType(tc.In)
			refEssence, refCS, refHas := "", "", false
			if ref != nil {
				refEssence = ref.Essence()
				refCS, refHas = ref.Parameters["charset"]
			}
			if refEssence != tc.Essence || refCS != tc.Charset || refHas != tc.HasCharset {
				t.Errorf("reference.ExtractMIMEType(%q) = %q, %q, %v; the table says %q, %q, %v", tc.In, refEssence, refCS, refHas, tc.Essence, tc.Charset, tc.HasCharset)
			}
		})
	}
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in, essence string
	}{
		{"application/http; msgtype=response", "application/http"},
		{"Application/HTTP;msgtype=request", "application/http"},
		{" text/html ", "text/html"},
		{"text/html, text/plain", ""}, // one value: "html, text/plain" is no token
		{"text/ html", ""},
		{"", ""},
	} {
		m, ok := Parse(tc.in)
		if m.Essence() != tc.essence || ok != (tc.essence != "") {
			t.Errorf("Parse(%q) = %q, %v, want %q", tc.in, m.Essence(), ok, tc.essence)
		}
	}
}

var sink int

func TestNoAllocs(t *testing.T) {
	for _, in := range []string{"text/html; charset=utf-8", `TEXT/HTML; x="a,b"; charset="gbk"`, "text/plain, */*"} {
		if n := testing.AllocsPerRun(100, func() {
			m, _ := Extract(in)
			cs, _ := m.Charset()
			sink = len(cs)
			if m.IsHTML() {
				sink++
			}
		}); n != 0 {
			t.Errorf("Extract(%q) and its accessors allocate %v times, want 0", in, n)
		}
	}
}

// FuzzExtract checks Extract against the literal reference.
func FuzzExtract(f *testing.F) {
	for _, tc := range reference.ContentTypeCases {
		f.Add(tc.In)
	}
	f.Fuzz(func(t *testing.T, in string) {
		m, ok := Extract(in)
		ref := reference.ExtractMIMEType(in)
		if ok != (ref != nil) {
			t.Fatalf("Extract(%q) ok = %v, reference %v", in, ok, ref)
		}
		if ref == nil {
			return
		}
		cs, has := m.Charset()
		refCS, refHas := ref.Parameters["charset"]
		if m.Essence() != ref.Essence() || cs != refCS || has != refHas {
			t.Fatalf("Extract(%q) = %q, %q, %v; reference %q, %q, %v", in, m.Essence(), cs, has, ref.Essence(), refCS, refHas)
		}
	})
}
