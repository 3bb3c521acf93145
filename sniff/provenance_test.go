package sniff_test

import (
	"strings"
	"testing"

	"golang.org/x/text/encoding/japanese"

	"github.com/charsniff/charsniff/detect"
	"github.com/charsniff/charsniff/internal/reference"
	"github.com/charsniff/charsniff/internal/testutil"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/prescan"
	"github.com/charsniff/charsniff/sniff"
)

func TestExplain(t *testing.T) {
	sjis, err := japanese.ShiftJIS.NewEncoder().String(strings.Repeat("東京の天気予報をお知らせします。週末は晴れるでしょう。", 8))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		desc string
		in   string
		opts sniff.Options
		want sniff.Provenance
	}{
		{"a meta under the header", `<meta charset=shift_jis>`, sniff.Options{ContentType: "text/html; charset=utf-8"},
			sniff.Provenance{TransportLabel: "utf-8", Transport: override.UTF8,
				Prescan: prescan.Result{Encoding: override.ShiftJIS, Rule: prescan.Meta, Offset: 24}}},
		{"a BOM against the header", "\xEF\xBB\xBF<p>x", sniff.Options{ContentType: "text/html; charset=windows-1252"},
			sniff.Provenance{BOM: override.UTF8, TransportLabel: "windows-1252", Transport: override.Windows1252,
				Detected: override.UTF8, Strength: detect.Structural}}, // the BOM's bytes are UTF-8
		{"a label of no encoding", `<p>x`, sniff.Options{ContentType: "text/html; charset=bogus"},
			sniff.Provenance{TransportLabel: "bogus"}},
		{"an XML declaration", `<?xml version="1.0" encoding="euc-kr"?><a/>`, sniff.Options{},
			sniff.Provenance{Prescan: prescan.Result{Encoding: override.EUCKR, Rule: prescan.XMLDeclaration, Offset: 39}}},
		{"undeclared Shift_JIS under a meta of another", `<meta charset=iso-8859-2>` + sjis, sniff.Options{AtEOF: true},
			sniff.Provenance{Prescan: prescan.Result{Encoding: override.ISO8859_2, Rule: prescan.Meta, Offset: 25},
				Detected: override.ShiftJIS, Strength: detect.Statistical}},
		{"ASCII", `<p>hello`, sniff.Options{AtEOF: true}, sniff.Provenance{}},
	} {
		if got := sniff.Explain([]byte(tc.in), &tc.opts); got != tc.want {
			t.Errorf("%s: Explain = %+v, want %+v", tc.desc, got, tc.want)
		}
	}
}

// TestExplainAgrees checks that what Explain reports of the step that
// decided is Sniff's answer, over the html5lib cases under several
// transport layers.
func TestExplainAgrees(t *testing.T) {
	for _, c := range reference.Cases(t) {
		for _, ct := range []string{"", "text/html; charset=koi8-r", "text/html; charset=nonsense"} {
			checkExplain(t, c.Input, &sniff.Options{ContentType: ct})
		}
	}
}

// checkExplain fails t if Explain's steps do not give Sniff's answer.
func checkExplain(t *testing.T, in []byte, opts *sniff.Options) {
	t.Helper()
	res, p := sniff.Sniff(in, opts), sniff.Explain(in, opts)
	var want override.Encoding
	switch res.Source {
	case sniff.SourceBOM:
		want = p.BOM
	case sniff.SourceTransport:
		want = p.Transport
	case sniff.SourcePrescan, sniff.SourceXML:
		want = p.Prescan.Encoding
		if p.BOM.Valid() || (p.Transport.Valid()) {
			t.Errorf("%.60q: Sniff decided by the prescan over a BOM or a transport charset (%+v)", in, p)
		}
	case sniff.SourceAutodetect:
		want = p.Detected
	default:
		return
	}
	if res.Encoding != want {
		t.Errorf("%.60q %q: Sniff = %v by %v, Explain %+v", in, opts.ContentType, res.Encoding, res.Source, p)
	}
}

func FuzzExplain(f *testing.F) {
	f.Add([]byte(`<meta charset=shift_jis>`), "text/html; charset=utf-8")
	f.Add([]byte("\xFF\xFE<\x00p\x00"), "")
	f.Add([]byte(`<?xml version="1.0" encoding="euc-kr"?>`+"\xb0\xa1\xb0\xa2"), "text/html")
	f.Fuzz(func(t *testing.T, in []byte, ct string) {
		checkExplain(t, in, &sniff.Options{ContentType: ct, AtEOF: true})
	})
}

func TestExplainAllocs(t *testing.T) {
	if testutil.Race {
		t.Skip("under the race detector sync.Pool drops pooled detectors at random")
	}
	in := []byte(`<meta charset=iso-8859-2><p>Za\xbf\xf3\xb3\xe6 g\xea\xb6l\xb1 ja\xbc\xf1`)
	opts := &sniff.Options{ContentType: "text/html; charset=utf-8", AtEOF: true}
	sniff.Explain(in, opts)
	if n := testing.AllocsPerRun(100, func() { sniff.Explain(in, opts) }); n != 0 {
		t.Errorf("Explain allocates %v times", n)
	}
}
