package charsniff_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"

	xcharset "golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"

	"github.com/charsniff/charsniff"
	"github.com/charsniff/charsniff/internal/testutil"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

// readString reads all of r, failing the test on an error.
func readString(t *testing.T, r io.Reader, err error) string {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// readBoth reads in through charsniff.NewReader and x/net's
// charset.NewReader, with the Content-Type contentType.
func readBoth(t *testing.T, in, contentType string) (got, xgot string) {
	t.Helper()
	r, err := charsniff.NewReader(strings.NewReader(in), contentType)
	got = readString(t, r, err)
	xr, err := xcharset.NewReader(strings.NewReader(in), contentType)
	return got, readString(t, xr, err)
}

// TestLookup checks labels and names against x/net's, for every label of
// the Encoding Standard, and the lower-case canonical names.
func TestLookup(t *testing.T) {
	tests := []struct {
		label, want string
	}{
		{"latin1", "windows-1252"},
		{"ascii", "windows-1252"},
		{"sjis", "shift_jis"},
		{"utf-16", "utf-16le"},
		{" UTF-8\t", "utf-8"},
		{"gb2312", "gbk"},
		{"iso-2022-kr", "replacement"},
		{"ISO-8859-8-I", "iso-8859-8-i"},
		{"x-user-defined", "x-user-defined"},
		{"csiso2022jp", "iso-2022-jp"},
		{"bogus", ""},
		{"", ""},
	}
	for _, tc := range tests {
		e, name := charsniff.Lookup(tc.label)
		if name != tc.want || (e == nil) != (tc.want == "") {
			t.Errorf("Lookup(%q) = %v, %q, want %q", tc.label, e, name, tc.want)
		}
		_, xname := xcharset.Lookup(tc.label)
		if xname != name {
			t.Errorf("Lookup(%q) name %q, x/net %q", tc.label, name, xname)
		}
	}
	// Every encoding's canonical name, as a label, gives the same name as
	// x/net's Lookup.
	for _, enc := range override.All() {
		_, name := charsniff.Lookup(enc.Name())
		if _, xname := xcharset.Lookup(enc.Name()); name != xname {
			t.Errorf("Lookup(%q) = %q, x/net %q", enc.Name(), name, xname)
		}
	}
	if a := testing.AllocsPerRun(100, func() { charsniff.Lookup("Shift_JIS") }); a != 0 {
		t.Errorf("Lookup: %v allocations, want 0", a)
	}
}

// roundTripText returns text that enc can represent: the printable ASCII
// and the non-ASCII characters of sample that the encoding has.
func roundTripText(t *testing.T, e encoding.Encoding) string {
	t.Helper()
	const sample = "àéîõüßçñÆØÅ€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ¡¢£¤¥¦§¨©ª«¬®¯°±²³´µ¶·¸¹º»¼½¾¿" +
		"ĄąĆćČčĎďĘęĚěĹĺĽľŁłŃńŇňŐőŔŕŘřŚśŠšŤťŮůŰűŹźŻżŽž" +
		"АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯабвгдеёжзийклмнопрстуфхцчшщъыьэюяЄєІіЇїЎўҐґ" +
		"ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩαβγδεζηθικλμνξοπρστυφχψω" +
		"אבגדהוזחטיכלמנסעפצקרשת" + "ابتثجحخدذرزسشصضطظعغفقكلمنهوي" + "กขฃคฅฆงจฉชซฌญฎฏฐ" +
		"ĞğİıŞş" + "ĀāĒēĢģĪīĶķĻļŅņŌōŖŗŪūŲų" + "ẠạẢảẤấ₫" +
		"日本語のテキストです。漢字とかなカナ。" + "中文文本，简体字和繁體字。" + "한국어 텍스트입니다." +
		"ｱｲｳｴｵ①②③" + "\uF780\uF7A0\uF7E9\uF7FF"
	enc := e.NewEncoder()
	var b strings.Builder
	for c := rune(0x20); c < 0x7F; c++ {
		b.WriteRune(c)
	}
	for _, c := range sample {
		s, err := enc.String(string(c))
		if err != nil || strings.HasPrefix(s, "&#") {
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}

// TestLookupRoundTrip encodes and decodes text through Lookup for every
// label x/net supports: our decoder must undo our encoder and x/net's.
func TestLookupRoundTrip(t *testing.T) {
	for _, enc := range override.All() {
		label := enc.Name()
		xe, _ := xcharset.Lookup(label)
		if xe == nil || enc == override.Replacement {
			continue // the replacement encoding has no encoder
		}
		t.Run(label, func(t *testing.T) {
			e, _ := charsniff.Lookup(label)
			text := roundTripText(t, e)
			if len(text) < 100 {
				t.Fatalf("only %d bytes of text to round-trip", len(text))
			}
			for _, tc := range []struct {
				desc string
				enc  encoding.Encoding
			}{{"ours", e}, {"x/net", xe}} {
				encoded, err := tc.enc.NewEncoder().String(text)
				if err != nil {
					t.Fatalf("%s encoder: %v", tc.desc, err)
				}
				got, err := e.NewDecoder().String(encoded)
				if err != nil || got != text {
					t.Errorf("decode(%s encode(s)):\ngot  %q, %v\nwant %q", tc.desc, got, err, text)
				}
			}
			// Unrepresentable runes become character references, as in x/net.
			if enc != override.UTF8 && !enc.IsUTF16() && enc != override.GB18030 {
				got, _ := e.NewEncoder().String("a\U0001F600b")
				want, _ := xe.NewEncoder().String("a\U0001F600b")
				if got != "a&#128512;b" || got != want {
					t.Errorf("encode(emoji) = %q, x/net %q, want %q", got, want, "a&#128512;b")
				}
			}
		})
	}
}

// TestDetermineEncoding covers the classic cases, on which charsniff and
// x/net agree.
func TestDetermineEncoding(t *testing.T) {
	tests := []struct {
		desc        string
		content     string
		contentType string
		want        string
		certain     bool
	}{
		{"HTTP charset", "<p>x", "text/html; charset=iso-8859-2", "iso-8859-2", true},
		{"HTTP charset, quoted", "<p>x", `text/html; charset="Shift_JIS"`, "shift_jis", true},
		{"BOM beats HTTP", "\xEF\xBB\xBF<p>x", "text/html; charset=gbk", "utf-8", true},
		{"UTF-16LE BOM", "\xFF\xFE<\x00p\x00", "", "utf-16le", true},
		{"UTF-16BE BOM beats HTTP", "\xFE\xFF\x00<\x00p", "text/html; charset=utf-8", "utf-16be", true},
		{"meta charset", "<!doctype html><meta charset=euc-kr><p>x", "", "euc-kr", false},
		{"meta content", `<meta http-equiv="Content-Type" content="text/html; charset=koi8-r">`, "", "koi8-r", false},
		{"meta UTF-16 means UTF-8", "<meta charset=utf-16le>", "", "utf-8", false},
		{"HTTP beats meta", "<meta charset=euc-kr>", "text/html; charset=big5", "big5", true},
		{"unknown HTTP charset", "<meta charset=gbk>", "text/html; charset=bogus", "gbk", false},
		{"no declaration", "<!doctype html><title>x</title><p>hello", "", "windows-1252", false},
		{"no declaration, text/plain", "hello", "text/plain", "windows-1252", false},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			e, name, certain := charsniff.DetermineEncoding([]byte(tc.content), tc.contentType)
			if name != tc.want || certain != tc.certain || e == nil {
				t.Errorf("DetermineEncoding = %v, %q, %v, want %q, %v", e, name, certain, tc.want, tc.certain)
			}
			_, xname, xcertain := xcharset.DetermineEncoding([]byte(tc.content), tc.contentType)
			if xname != name || xcertain != certain {
				t.Errorf("x/net DetermineEncoding = %q, %v; charsniff %q, %v", xname, xcertain, name, certain)
			}
		})
	}
}

// TestNewReader checks the x/net-shaped NewReader on a few pages.
func TestNewReader(t *testing.T) {
	tests := []struct {
		desc, in, contentType, want string
	}{
		{"header", "<p>caf\xE9", "text/html; charset=windows-1252", "<p>caf\u00E9"},
		{"meta", "<meta charset=koi8-r><p>\xF0\xD2\xC9\xD7\xC5\xD4", "", "<meta charset=koi8-r><p>Привет"},
		{"BOM", "\xFF\xFE<\x00p\x00", "text/html; charset=gbk", "<p"},
		{"long", strings.Repeat("<!-- padding -->", 100) + "<p>\x82\xA0", "text/html; charset=shift_jis", strings.Repeat("<!-- padding -->", 100) + "<p>\u3042"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			r, err := charsniff.NewReader(strings.NewReader(tc.in), tc.contentType)
			if got := readString(t, r, err); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestNewReaderLabelCharsetReader uses NewReaderLabel as an xml.Decoder's
// CharsetReader, as x/net users do.
func TestNewReaderLabelCharsetReader(t *testing.T) {
	tests := []struct {
		desc, doc, want string
	}{
		{"windows-1252", `<?xml version="1.0" encoding="windows-1252"?><a>caf` + "\xE9</a>", "caf\u00E9"},
		{"shift_jis", `<?xml version="1.0" encoding="Shift_JIS"?><a>` + "\x93\xFA\x96\x7B</a>", "日本"},
		{"koi8-r", `<?xml version="1.0" encoding="KOI8-R"?><a>` + "\xF0\xD2\xC9\xD7\xC5\xD4</a>", "Привет"},
		{"CR LF kept for xml to normalize", `<?xml version="1.0" encoding="iso-8859-2"?><a>x` + "\r\n\xB1</a>", "x\ną"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			for _, cr := range []struct {
				desc string
				fn   func(string, io.Reader) (io.Reader, error)
			}{{"charsniff", charsniff.NewReaderLabel}, {"x/net", xcharset.NewReaderLabel}} {
				d := xml.NewDecoder(strings.NewReader(tc.doc))
				d.CharsetReader = cr.fn
				var v struct {
					A string `xml:",chardata"`
				}
				if err := d.Decode(&v); err != nil || v.A != tc.want {
					t.Errorf("%s: Decode = %q, %v, want %q", cr.desc, v.A, err, tc.want)
				}
			}
		})
	}
	d := xml.NewDecoder(strings.NewReader(`<?xml version="1.0" encoding="bogus"?><a/>`))
	d.CharsetReader = charsniff.NewReaderLabel
	var v struct{}
	var le *charsniff.LabelError
	if err := d.Decode(&v); !errors.As(err, &le) || le.Label != "bogus" {
		t.Errorf("Decode with an unknown encoding = %v, want a *charsniff.LabelError", err)
	}
}

// TestDifferenceFromXNet_BOMRemoved: a leading byte order mark is not text.
func TestDifferenceFromXNet_BOMRemoved(t *testing.T) {
	for _, in := range []string{"\xEF\xBB\xBFhi", "\xFF\xFEh\x00i\x00", "\xFE\xFF\x00h\x00i"} {
		got, xgot := readBoth(t, in, "")
		if got != "hi" || xgot != "\uFEFFhi" {
			t.Errorf("NewReader(%q) = %q, x/net %q, want %q and %q", in, got, xgot, "hi", "\uFEFFhi")
		}
	}
}

// TestDifferenceFromXNet_NewlinesNormalized: CR LF and CR become LF.
func TestDifferenceFromXNet_NewlinesNormalized(t *testing.T) {
	in := "<p>a\r\nb\rc"
	got, xgot := readBoth(t, in, "text/html; charset=utf-8")
	if got != "<p>a\nb\nc" || xgot != in {
		t.Errorf("got %q, x/net %q", got, xgot)
	}
}

// TestDifferenceFromXNet_NULReplaced: U+0000 becomes U+FFFD.
func TestDifferenceFromXNet_NULReplaced(t *testing.T) {
	in := "<p>a\x00b"
	got, xgot := readBoth(t, in, "text/html; charset=windows-1252")
	if got != "<p>a\uFFFDb" || xgot != in {
		t.Errorf("got %q, x/net %q", got, xgot)
	}
}

// TestDifferenceFromXNet_WHATWGDecoders: the decoders are the Encoding
// Standard's, where x/text's differ.
func TestDifferenceFromXNet_WHATWGDecoders(t *testing.T) {
	tests := []struct {
		label, in, want string
	}{
		{"windows-1252", "\x81\x8D\x8F\x90\x9D", "\u0081\u008D\u008F\u0090\u009D"},
		{"iso-8859-2", "\x80\x9F", "\u0080\u009F"},
		{"gbk", "\x81\x30\x81\x30", "\u0080"},
		{"big5", "\x81\x40", "\uFFFD@"},
		{"shift_jis", "\xF0\x40", "\uE000"},
	}
	for _, tc := range tests {
		e, _ := charsniff.Lookup(tc.label)
		got, _ := e.NewDecoder().String(tc.in)
		xe, _ := xcharset.Lookup(tc.label)
		xgot, _ := xe.NewDecoder().String(tc.in)
		if got != tc.want || xgot == tc.want {
			t.Errorf("%s %x: got %q, x/net %q, want %q (and x/net different)", tc.label, tc.in, got, xgot, tc.want)
		}
	}
}

// TestDifferenceFromXNet_InvalidUTF8Replaced: text sniffed as UTF-8 is
// decoded, so the output is always UTF-8 (x/net passes it through with
// encoding.Nop).
func TestDifferenceFromXNet_InvalidUTF8Replaced(t *testing.T) {
	// Valid UTF-8 in the first 1024 bytes, an ill-formed byte later.
	in := "<p>caf\xC3\xA9, d\xC3\xA9j\xC3\xA0 vu" + strings.Repeat(" ", 1100) + "\xFF"
	got, xgot := readBoth(t, in, "")
	if !utf8.ValidString(got) || xgot != in {
		t.Errorf("got %q (valid UTF-8: %v), x/net %q", got, utf8.ValidString(got), xgot)
	}
	if want := in[:len(in)-1] + "\uFFFD"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	e, name, _ := charsniff.DetermineEncoding([]byte(in), "")
	xe, xname, _ := xcharset.DetermineEncoding([]byte(in), "")
	if e == encoding.Nop || xe != encoding.Nop || name != "utf-8" || xname != "utf-8" {
		t.Errorf("DetermineEncoding = %v %q, x/net %v %q: want a UTF-8 decoder and encoding.Nop", e, name, xe, xname)
	}
}

// TestDifferenceFromXNet_ContentTypeParsing: the header is parsed as Fetch
// says, where mime.ParseMediaType gives up.
func TestDifferenceFromXNet_ContentTypeParsing(t *testing.T) {
	tests := []struct {
		contentType, want string
	}{
		{"text/html; charset=gbk; charset=utf-8", "gbk"},
		{`text/html; charset="gbk`, "gbk"},
		{"text/html;;charset=gbk", "gbk"},
	}
	for _, tc := range tests {
		_, name, certain := charsniff.DetermineEncoding([]byte("<p>x"), tc.contentType)
		_, xname, _ := xcharset.DetermineEncoding([]byte("<p>x"), tc.contentType)
		if name != tc.want || !certain || xname == tc.want {
			t.Errorf("%q: got %q (%v), x/net %q, want %q (and x/net different)", tc.contentType, name, certain, xname, tc.want)
		}
	}
}

// TestDifferenceFromXNet_Prescan: the prescan is the standard's byte-level
// algorithm, not the tokenizer's view.
func TestDifferenceFromXNet_Prescan(t *testing.T) {
	tests := []struct {
		desc, content, want string
	}{
		{"meta in script", "<script>document.write('<meta charset=gbk>')</script>", "gbk"},
		{"meta in title", "<title><meta charset=koi8-r></title>", "koi8-r"},
		{"x-user-defined means windows-1252", "<meta charset=x-user-defined>", "windows-1252"},
	}
	for _, tc := range tests {
		_, name, _ := charsniff.DetermineEncoding([]byte(tc.content), "")
		_, xname, _ := xcharset.DetermineEncoding([]byte(tc.content), "")
		if name != tc.want || xname == tc.want {
			t.Errorf("%s: got %q, x/net %q, want %q (and x/net different)", tc.desc, name, xname, tc.want)
		}
	}
}

// TestDifferenceFromXNet_LabelsASCIIOnly: labels are matched as get an
// encoding says, ASCII only.
func TestDifferenceFromXNet_LabelsASCIIOnly(t *testing.T) {
	for _, label := range []string{"\u212Aoi8-r", "\u00A0utf-8", "utf-8\u0085"} {
		e, name := charsniff.Lookup(label)
		xe, _ := xcharset.Lookup(label)
		if e != nil || name != "" || xe == nil {
			t.Errorf("Lookup(%q) = %v, %q (x/net %v), want nil, \"\"", label, e, name, xe)
		}
	}
}

// TestDifferenceFromXNet_Autodetect: a page with no declaration is guessed
// from its bytes, as browsers do.
func TestDifferenceFromXNet_Autodetect(t *testing.T) {
	text := strings.Repeat("Привет, как дела? Это простой текст на русском языке, без объявления кодировки. ", 8)
	e, _ := charsniff.Lookup("windows-1251")
	encoded, err := e.NewEncoder().String("<p>" + text)
	if err != nil {
		t.Fatal(err)
	}
	_, name, certain := charsniff.DetermineEncoding([]byte(encoded), "")
	_, xname, _ := xcharset.DetermineEncoding([]byte(encoded), "")
	if name != "windows-1251" || certain || xname != "windows-1252" {
		t.Errorf("got %q (certain %v), x/net %q, want windows-1251 (tentative) and windows-1252", name, certain, xname)
	}
}

// TestDifferenceFromXNet_NewReaderNeverFails: empty input and read errors
// in the first 1024 bytes are not NewReader's errors.
func TestDifferenceFromXNet_LookPastWindow(t *testing.T) {
	page := "<!DOCTYPE html><head><script>" + strings.Repeat("var x = 1; // no declaration here\n", 80) +
		"</script><meta charset=utf-8></head><p>caf\xC3\xA9 \xE2\x80\x94 na\xC3\xAFve"
	want := "<p>café — naïve"
	r, err := charsniff.NewReader(strings.NewReader(page), "text/html")
	if got := readString(t, r, err); !strings.HasSuffix(got, want) {
		t.Errorf("NewReader: text ends %q, want %q", got[len(got)-20:], want)
	}
	xr, _ := xcharset.NewReader(strings.NewReader(page), "text/html")
	if got := readString(t, xr, nil); strings.HasSuffix(got, want) {
		t.Errorf("x/net NewReader: text ends %q, want mojibake (it stops at 1024 bytes)", got[len(got)-20:])
	}
	resp := &http.Response{Header: http.Header{"Content-Type": {"text/html"}}, Body: io.NopCloser(strings.NewReader(page))}
	rr, err := charsniff.NewResponseReader(resp)
	if got := readString(t, rr, err); !strings.HasSuffix(got, want) || rr.Result().Source != sniff.SourcePrescan {
		t.Errorf("NewResponseReader: text ends %q, %+v; want %q from a late <meta>", got[len(got)-20:], rr.Result(), want)
	}
	_, name, certain := charsniff.DetermineEncoding([]byte(page), "text/html")
	_, xname, _ := xcharset.DetermineEncoding([]byte(page), "text/html")
	if name != "utf-8" || !certain || xname != "windows-1252" {
		t.Errorf("DetermineEncoding = %q (certain %v), x/net %q; want utf-8 (certain) and windows-1252", name, certain, xname)
	}
}

func TestDifferenceFromXNet_NewReaderNeverFails(t *testing.T) {
	r, err := charsniff.NewReader(strings.NewReader(""), "")
	if got := readString(t, r, err); got != "" {
		t.Errorf("empty input: got %q", got)
	}
	if _, err := xcharset.NewReader(strings.NewReader(""), ""); err != io.EOF {
		t.Errorf("x/net on empty input: err = %v, want EOF", err)
	}

	errBroken := errors.New("broken")
	src := func() io.Reader { return io.MultiReader(strings.NewReader("<p>hello"), iotest.ErrReader(errBroken)) }
	r, err = charsniff.NewReader(src(), "")
	if err != nil {
		t.Fatalf("NewReader: %v", err)
	}
	got, err := io.ReadAll(r)
	if string(got) != "<p>hello" || err != errBroken {
		t.Errorf("ReadAll = %q, %v, want %q, %v", got, err, "<p>hello", errBroken)
	}
	if _, err := xcharset.NewReader(src(), ""); err != errBroken {
		t.Errorf("x/net NewReader: err = %v, want %v", err, errBroken)
	}
}

// TestDifferenceFromXNet_NewReaderLabelBOM: a byte order mark chooses the
// encoding and is removed.
func TestDifferenceFromXNet_NewReaderLabelBOM(t *testing.T) {
	tests := []struct {
		label, in, want, xwant string
	}{
		{"utf-8", "\xEF\xBB\xBFa\r\n", "a\r\n", "\uFEFFa\r\n"},
		{"windows-1252", "\xEF\xBB\xBFa", "a", "\u00EF\u00BB\u00BFa"},
		{"utf-16be", "\xFF\xFEa\x00", "a", "\uFFFE\u6100"},
	}
	for _, tc := range tests {
		r, err := charsniff.NewReaderLabel(tc.label, strings.NewReader(tc.in))
		got := readString(t, r, err)
		xr, err := xcharset.NewReaderLabel(tc.label, strings.NewReader(tc.in))
		xgot := readString(t, xr, err)
		if got != tc.want || xgot != tc.xwant {
			t.Errorf("NewReaderLabel(%q, %q) = %q, x/net %q, want %q and %q", tc.label, tc.in, got, xgot, tc.want, tc.xwant)
		}
	}
}

// TestNewReaderLabelKeepsText checks that NewReaderLabel changes no
// newline or NUL.
func TestNewReaderLabelKeepsText(t *testing.T) {
	r, err := charsniff.NewReaderLabel("iso-8859-5", bytes.NewReader([]byte("\xB0\r\n\x00\r")))
	if got := readString(t, r, err); got != "А\r\n\x00\r" {
		t.Errorf("got %q, want %q", got, "А\r\n\x00\r")
	}
}

// TestSamples reads every page of samples/ through NewReader and compares
// the output with its golden decoding (samples/golden/NAME.utf8).
func TestSamples(t *testing.T) {
	for _, name := range testutil.Samples(t) {
		t.Run(name, func(t *testing.T) {
			want := testutil.Golden(t, name)
			r, err := charsniff.NewReader(iotest.HalfReader(bytes.NewReader(testutil.Sample(t, name))), "")
			if got := readString(t, r, err); got != want {
				t.Errorf("output differs from the golden file:\ngot  %q\nwant %q", got, want)
			}
		})
	}
}
