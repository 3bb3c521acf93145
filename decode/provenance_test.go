package decode_test

import (
	"io"
	"strings"
	"testing"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/internal/testutil"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/prescan"
	"github.com/charsniff/charsniff/sniff"
)

// TestWithProvenance checks that a Reader records what sniff.Explain finds
// in its window, fresh and reused, and nothing when it does not sniff.
func TestWithProvenance(t *testing.T) {
	page := `<meta charset=shift_jis><p>` + strings.Repeat("x", 2000)
	var p sniff.Provenance
	r, err := decode.NewReader(strings.NewReader(page),
		decode.WithSniff(sniff.Options{ContentType: "text/html; charset=utf-8"}), decode.WithProvenance(&p))
	if err != nil {
		t.Fatal(err)
	}
	want := sniff.Explain([]byte(page[:sniff.DefaultWindow]), &sniff.Options{ContentType: "text/html; charset=utf-8"})
	if p != want || p.Transport != override.UTF8 || p.Prescan.Rule != prescan.Meta || p.Prescan.Encoding != override.ShiftJIS {
		t.Errorf("after NewReader: %+v, want %+v", p, want)
	}
	if res := r.Result(); res.Encoding != override.UTF8 || res.Source != sniff.SourceTransport {
		t.Errorf("Result = %v", res)
	}
	io.Copy(io.Discard, r)

	// Reused for a page whose BOM wins over the header.
	if err := r.Reset(strings.NewReader("\xEF\xBB\xBF<p>x"), decode.WithSniff(sniff.Options{ContentType: "text/html; charset=koi8-r"}), decode.WithProvenance(&p)); err != nil {
		t.Fatal(err)
	}
	if p.BOM != override.UTF8 || p.Transport != override.KOI8R || p.Prescan.Rule != prescan.NotFound {
		t.Errorf("after Reset: %+v", p)
	}

	// No sniffing: nothing found.
	p.Detected = override.Big5
	if err := r.Reset(strings.NewReader(page), decode.WithEncoding(override.Windows1252), decode.WithProvenance(&p)); err != nil {
		t.Fatal(err)
	}
	if p != (sniff.Provenance{}) {
		t.Errorf("WithEncoding: %+v, want the zero Provenance", p)
	}
}

func TestWithProvenanceAllocs(t *testing.T) {
	if testutil.Race {
		t.Skip("under the race detector sync.Pool drops pooled state at random")
	}
	page := `<meta charset=iso-8859-2><p>Za\xbf\xf3\xb3\xe6 g\xea\xb6l\xb1 ja\xbc\xf1`
	var p sniff.Provenance
	src := strings.NewReader(page)
	r, _ := decode.NewReader(src, decode.WithProvenance(&p))
	buf := make([]byte, 4096)
	n := testing.AllocsPerRun(50, func() {
		src.Reset(page)
		r.Reset(src, decode.WithProvenance(&p))
		for {
			if _, err := r.Read(buf); err != nil {
				break
			}
		}
	})
	if n != 0 {
		t.Errorf("a reused Reader with WithProvenance allocates %v times a page", n)
	}
}
