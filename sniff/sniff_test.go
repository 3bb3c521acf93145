package sniff_test

import (
	"strings"
	"testing"

	"github.com/charsniff/charsniff/detect"
	"github.com/charsniff/charsniff/internal/reference"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

// skipHTML5lib lists the html5lib cases Sniff does not pass, and why.
var skipHTML5lib = map[string]string{
	// The only <meta> lies past byte 1024: the parser finds it while parsing
	// and changes the encoding. That belongs to changing the encoding while
	// parsing (issue #7), not to the prescan of the first 1024 bytes.
	"tests1-048": "declaration past byte 1024: changing the encoding while parsing, see decode.TestLateMetaHTML5lib",
	"tests1-049": "declaration past byte 1024: changing the encoding while parsing, see decode.TestLateMetaHTML5lib",
	"tests1-050": "declaration past byte 1024: changing the encoding while parsing, see decode.TestLateMetaHTML5lib",
	"tests1-051": "declaration past byte 1024: changing the encoding while parsing, see decode.TestLateMetaHTML5lib",
	"tests1-052": "declaration past byte 1024: changing the encoding while parsing, see decode.TestLateMetaHTML5lib",
	"tests1-053": "declaration past byte 1024: changing the encoding while parsing, see decode.TestLateMetaHTML5lib",
	"tests1-054": "declaration past byte 1024: changing the encoding while parsing, see decode.TestLateMetaHTML5lib",
}

func TestHTML5lib(t *testing.T) {
	cases := reference.Cases(t)
	if len(cases) != 82 {
		t.Errorf("read %d cases, want 82", len(cases))
	}
	passed := 0
	for _, c := range cases {
		t.Run(c.ID, func(t *testing.T) {
			if why, ok := skipHTML5lib[c.ID]; ok {
				t.Skip(why)
			}
			got := sniff.Sniff(c.Input, nil) // default options
			if !strings.EqualFold(got.Name(), c.Encoding) {
				t.Errorf("Sniff(%.60q) = %s (%v), want %s", c.Input, got.Name(), got.Source, c.Encoding)
			} else {
				passed++
			}
		})
	}
	if want := len(cases) - len(skipHTML5lib); passed != want {
		t.Errorf("passed %d of %d cases", passed, want)
	}
}

func TestSniff(t *testing.T) {
	const meta = `<meta charset="gbk">`
	tests := []struct {
		desc string
		in   string
		opts *sniff.Options
		want sniff.Result
	}{
		// 1. Byte order marks, and inputs shorter than one.
		{"utf-8 bom", "\xEF\xBB\xBFabc", nil, sniff.Result{override.UTF8, sniff.Certain, sniff.SourceBOM, 3, 0}},
		{"utf-8 bom alone", "\xEF\xBB\xBF", nil, sniff.Result{override.UTF8, sniff.Certain, sniff.SourceBOM, 3, 0}},
		{"utf-16be bom", "\xFE\xFF\x00<", nil, sniff.Result{override.UTF16BE, sniff.Certain, sniff.SourceBOM, 2, 0}},
		{"utf-16be bom alone", "\xFE\xFF", nil, sniff.Result{override.UTF16BE, sniff.Certain, sniff.SourceBOM, 2, 0}},
		{"utf-16le bom", "\xFF\xFE<\x00", nil, sniff.Result{override.UTF16LE, sniff.Certain, sniff.SourceBOM, 2, 0}},
		{"utf-16le bom alone", "\xFF\xFE", nil, sniff.Result{override.UTF16LE, sniff.Certain, sniff.SourceBOM, 2, 0}},
		{"utf-32le bom is utf-16le", "\xFF\xFE\x00\x00", nil, sniff.Result{override.UTF16LE, sniff.Certain, sniff.SourceBOM, 2, 0}},
		{"utf-32be bom is no bom", "\x00\x00\xFE\xFF", &sniff.Options{NoAutodetect: true}, sniff.Result{override.Windows1252, sniff.Tentative, sniff.SourceDefault, 0, 0}},
		{"utf-7 signature is no bom", "+/v8-", nil, sniff.Result{override.Windows1252, sniff.Tentative, sniff.SourceDefault, 0, 0}},
		{"half a utf-8 bom", "\xEF\xBB", &sniff.Options{AtEOF: true}, sniff.Result{override.Windows1252, sniff.Tentative, sniff.SourceDefault, 0, 0}},
		{"a third of a utf-8 bom", "\xEF", &sniff.Options{AtEOF: true}, sniff.Result{override.Windows1252, sniff.Tentative, sniff.SourceDefault, 0, 0}},
		{"half a utf-16 bom", "\xFE", &sniff.Options{AtEOF: true}, sniff.Result{override.Windows1252, sniff.Tentative, sniff.SourceDefault, 0, 0}},
		{"empty", "", nil, sniff.Result{override.Windows1252, sniff.Tentative, sniff.SourceDefault, 0, 0}},
		{"bom beats everything", "\xEF\xBB\xBF" + meta, &sniff.Options{Override: override.Big5, ContentType: "text/html; charset=koi8-r"}, sniff.Result{override.UTF8, sniff.Certain, sniff.SourceBOM, 3, 0}},

		// 2. The user override.
		{"override", meta, &sniff.Options{Override: override.Big5, ContentType: "text/html;charset=koi8-r"}, sniff.Result{override.Big5, sniff.Certain, sniff.SourceOverride, 0, 0}},
		{"override utf-16", meta, &sniff.Options{Override: override.UTF16LE}, sniff.Result{override.UTF16LE, sniff.Certain, sniff.SourceOverride, 0, 0}},
		{"invalid override", meta, &sniff.Options{Override: 200}, sniff.Result{override.GBK, sniff.Tentative, sniff.SourcePrescan, 0, 0}},

		// 4. The transport layer.
		{"transport", meta, &sniff.Options{ContentType: "text/html; charset=koi8-r"}, sniff.Result{override.KOI8R, sniff.Certain, sniff.SourceTransport, 0, 0}},
		{"transport utf-16 stays utf-16", meta, &sniff.Options{ContentType: "text/html; charset=utf-16"}, sniff.Result{override.UTF16LE, sniff.Certain, sniff.SourceTransport, 0, 0}},
		{"transport x-user-defined stays", meta, &sniff.Options{ContentType: "text/html; charset=x-user-defined"}, sniff.Result{override.XUserDefined, sniff.Certain, sniff.SourceTransport, 0, 0}},
		{"transport replacement", meta, &sniff.Options{ContentType: "text/html; charset=iso-2022-kr"}, sniff.Result{override.Replacement, sniff.Certain, sniff.SourceTransport, 0, 0}},
		{"transport unknown label", meta, &sniff.Options{ContentType: "text/html; charset=bogus"}, sniff.Result{override.GBK, sniff.Tentative, sniff.SourcePrescan, 0, 0}},
		{"transport without charset", meta, &sniff.Options{ContentType: "text/html"}, sniff.Result{override.GBK, sniff.Tentative, sniff.SourcePrescan, 0, 0}},
		{"transport not a MIME type", meta, &sniff.Options{ContentType: "charset=koi8-r"}, sniff.Result{override.GBK, sniff.Tentative, sniff.SourcePrescan, 0, 0}},
		{"transport with garbage", meta, &sniff.Options{ContentType: "text/html; charset=Shift_JIS garbage"}, sniff.Result{override.GBK, sniff.Tentative, sniff.SourcePrescan, 0, 0}},
		{"transport escaped label", meta, &sniff.Options{ContentType: `text/html; charset="\k\o\i\8-r"`}, sniff.Result{override.KOI8R, sniff.Certain, sniff.SourceTransport, 0, 0}},
		{"transport quoted label with spaces", meta, &sniff.Options{ContentType: `text/html; charset=" koi8-r "`}, sniff.Result{override.KOI8R, sniff.Certain, sniff.SourceTransport, 0, 0}},
		{"transport escaped long label", meta, &sniff.Options{ContentType: `text/html; charset="\k` + strings.Repeat("x", 100) + `"`}, sniff.Result{override.GBK, sniff.Tentative, sniff.SourcePrescan, 0, 0}},
		{"transport escaped label, long white space", meta, &sniff.Options{ContentType: `text/html; charset="\koi8-r` + strings.Repeat(" ", 100) + `"`}, sniff.Result{override.KOI8R, sniff.Certain, sniff.SourceTransport, 0, 0}},
		{"transport legacy", meta, &sniff.Options{ContentType: "text/html; charset=windows-932", Legacy: true}, sniff.Result{override.ShiftJIS, sniff.Certain, sniff.SourceTransport, 0, 0}},
		{"transport escaped legacy", meta, &sniff.Options{ContentType: `text/html; charset="windows\-932"`, Legacy: true}, sniff.Result{override.ShiftJIS, sniff.Certain, sniff.SourceTransport, 0, 0}},
		{"transport legacy off", meta, &sniff.Options{ContentType: "text/html; charset=windows-932"}, sniff.Result{override.GBK, sniff.Tentative, sniff.SourcePrescan, 0, 0}},

		// 5. The prescan and the XML declaration.
		{"prescan", meta, nil, sniff.Result{override.GBK, sniff.Tentative, sniff.SourcePrescan, 0, 0}},
		{"prescan utf-16 becomes utf-8", `<meta charset="utf-16le">`, nil, sniff.Result{override.UTF8, sniff.Tentative, sniff.SourcePrescan, 0, 0}},
		{"prescan legacy", `<meta charset="windows-932">`, &sniff.Options{Legacy: true}, sniff.Result{override.ShiftJIS, sniff.Tentative, sniff.SourcePrescan, 0, 0}},
		{"prescan window", strings.Repeat(" ", 100) + meta, &sniff.Options{Window: 100}, sniff.Result{override.Windows1252, sniff.Tentative, sniff.SourceDefault, 0, 0}},
		{"prescan no window", strings.Repeat(" ", 2000) + meta, &sniff.Options{Window: -1}, sniff.Result{override.GBK, sniff.Tentative, sniff.SourcePrescan, 0, 0}},
		{"meta past 1024", strings.Repeat(" ", 1024) + meta, nil, sniff.Result{override.Windows1252, sniff.Tentative, sniff.SourceDefault, 0, 0}},
		{"xml", `<?xml version="1.0" encoding="windows-1251"?><html>`, nil, sniff.Result{override.Windows1251, sniff.Tentative, sniff.SourceXML, 0, 0}},
		{"xml utf-16 becomes utf-8", `<?xml version="1.0" encoding="utf-16"?><html>`, nil, sniff.Result{override.UTF8, sniff.Tentative, sniff.SourceXML, 0, 0}},
		{"xml x-user-defined stays", `<?xml version="1.0" encoding="x-user-defined"?>`, nil, sniff.Result{override.XUserDefined, sniff.Tentative, sniff.SourceXML, 0, 0}},
		{"meta beats xml", `<?xml version="1.0" encoding="windows-1251"?>` + meta, nil, sniff.Result{override.GBK, sniff.Tentative, sniff.SourcePrescan, 0, 0}},
		{"xml, then meta past the window", `<?xml encoding="windows-1251"?>` + strings.Repeat(" ", 1024) + meta, nil, sniff.Result{override.Windows1251, sniff.Tentative, sniff.SourceXML, 0, 0}},
		{"transport beats xml", `<?xml version="1.0" encoding="windows-1251"?>`, &sniff.Options{ContentType: "text/html;charset=gbk"}, sniff.Result{override.GBK, sniff.Certain, sniff.SourceTransport, 0, 0}},
		{"utf-16le xml prefix", "<\x00?\x00x\x00m\x00l\x00", nil, sniff.Result{override.UTF16LE, sniff.Tentative, sniff.SourceXML, 0, 0}},
		{"utf-16be xml prefix", "\x00<\x00?\x00x\x00m\x00l", nil, sniff.Result{override.UTF16BE, sniff.Tentative, sniff.SourceXML, 0, 0}},

		// 6-7. The likely or parent encoding.
		{"likely", "<p>hello", &sniff.Options{Likely: override.EUCJP}, sniff.Result{override.EUCJP, sniff.Tentative, sniff.SourceLikely, 0, 0}},
		{"likely utf-16 ignored", "<p>hello", &sniff.Options{Likely: override.UTF16BE}, sniff.Result{override.Windows1252, sniff.Tentative, sniff.SourceDefault, 0, 0}},
		{"prescan beats likely", meta, &sniff.Options{Likely: override.EUCJP}, sniff.Result{override.GBK, sniff.Tentative, sniff.SourcePrescan, 0, 0}},
		{"likely beats autodetect", "<p>caf\xC3\xA9", &sniff.Options{Likely: override.EUCJP}, sniff.Result{override.EUCJP, sniff.Tentative, sniff.SourceLikely, 0, 0}},

		// 8. Autodetection.
		{"autodetect utf-8", "<p>caf\xC3\xA9", nil, sniff.Result{override.UTF8, sniff.Tentative, sniff.SourceAutodetect, 0, 0}},
		{"autodetect off", "<p>caf\xC3\xA9", &sniff.Options{NoAutodetect: true}, sniff.Result{override.Windows1252, sniff.Tentative, sniff.SourceDefault, 0, 0}},
		{"autodetect: ascii is no evidence", "<p>cafe", nil, sniff.Result{override.Windows1252, sniff.Tentative, sniff.SourceDefault, 0, 0}},
		// A byte that may start a UTF-8 character, ending a prefix: a
		// guess of UTF-8, as chardetng's (a Reader reads on: the guess is
		// provisional); ending the input, no evidence.
		{"autodetect: latin-1 ending a prefix", "<p>caf\xE9", nil, sniff.Result{override.UTF8, sniff.Tentative, sniff.SourceAutodetect, 0, 0}},
		{"autodetect: latin-1 is not utf-8", "<p>caf\xE9", &sniff.Options{AtEOF: true}, sniff.Result{override.Windows1252, sniff.Tentative, sniff.SourceDefault, 0, 0}},
		{"autodetect: cut character", "<p>caf\xC3\xA9 \xE6\x97", nil, sniff.Result{override.UTF8, sniff.Tentative, sniff.SourceAutodetect, 0, 0}},
		// At EOF a cut character rules UTF-8 out; the detector's statistics then pick windows-1252.
		{"autodetect: cut character at EOF", "<p>caf\xC3\xA9 \xE6\x97", &sniff.Options{AtEOF: true}, sniff.Result{override.Windows1252, sniff.Tentative, sniff.SourceAutodetect, 0, 0}},
		{"autodetect: cut character before more input", "<p>caf\xC3\xA9 \xE6\x97", nil, sniff.Result{override.UTF8, sniff.Tentative, sniff.SourceAutodetect, 0, 0}},
		{"autodetect: windows-1251 text", "<p>\xcf\xf0\xe8\xe2\xe5\xf2, \xec\xe8\xf0! \xdd\xf2\xee \xf2\xe5\xf1\xf2.", nil, sniff.Result{override.Windows1251, sniff.Tentative, sniff.SourceAutodetect, 0, 0}},
		{"autodetect: shift_jis text", "<p>\x93\xfa\x96\x7b\x8c\xea\x82\xcc\x83\x65\x83\x4c\x83\x58\x83\x67\x82\xc5\x82\xb7\x81\x42", nil, sniff.Result{override.ShiftJIS, sniff.Tentative, sniff.SourceAutodetect, 0, 0}},
		{"default: TLD hint", "<p>hello", &sniff.Options{TLD: "jp"}, sniff.Result{override.ShiftJIS, sniff.Tentative, sniff.SourceDefault, 0, 0}},
		{"default: host name hint", "<p>hello", &sniff.Options{TLD: "www.example.ru"}, sniff.Result{override.Windows1251, sniff.Tentative, sniff.SourceDefault, 0, 0}},
		{"default: unknown TLD", "<p>hello", &sniff.Options{TLD: "example"}, sniff.Result{override.Windows1252, sniff.Tentative, sniff.SourceDefault, 0, 0}},
		{"default: locale beats TLD", "<p>hello", &sniff.Options{TLD: "jp", Locale: "ko"}, sniff.Result{override.EUCKR, sniff.Tentative, sniff.SourceDefault, 0, 0}},
		{"autodetect: TLD settles a short guess", "<p>\xe8\xe4\xe5", &sniff.Options{TLD: "gr"}, sniff.Result{override.Windows1253, sniff.Tentative, sniff.SourceAutodetect, 0, 0}},
		{"autodetect: lone trailing byte is no evidence", "<p>caf\xE9", &sniff.Options{AtEOF: true, Locale: "ru"}, sniff.Result{override.Windows1251, sniff.Tentative, sniff.SourceDefault, 0, 0}},
		{"autodetect custom", "<p>hello", &sniff.Options{Detector: fixed{override.KOI8U, true}}, sniff.Result{override.KOI8U, sniff.Tentative, sniff.SourceAutodetect, 0, 0}},
		{"autodetect custom declines", "<p>caf\xC3\xA9", &sniff.Options{Detector: fixed{override.KOI8U, false}}, sniff.Result{override.Windows1252, sniff.Tentative, sniff.SourceDefault, 0, 0}},
		{"autodetect custom invalid", "<p>hello", &sniff.Options{Detector: fixed{200, true}}, sniff.Result{override.Windows1252, sniff.Tentative, sniff.SourceDefault, 0, 0}},
		{"prescan beats autodetect", "caf\xC3\xA9" + meta, nil, sniff.Result{override.GBK, sniff.Tentative, sniff.SourcePrescan, 0, 0}},

		// 9. The default.
		{"default option", "<p>hello", &sniff.Options{Default: override.UTF8, Locale: "ja"}, sniff.Result{override.UTF8, sniff.Tentative, sniff.SourceDefault, 0, 0}},
		{"locale ja", "<p>hello", &sniff.Options{Locale: "ja"}, sniff.Result{override.ShiftJIS, sniff.Tentative, sniff.SourceDefault, 0, 0}},
		{"locale tld", "<p>hello", &sniff.Options{Locale: ".ru"}, sniff.Result{override.Windows1251, sniff.Tentative, sniff.SourceDefault, 0, 0}},
		{"locale en", "<p>hello", &sniff.Options{Locale: "en-US"}, sniff.Result{override.Windows1252, sniff.Tentative, sniff.SourceDefault, 0, 0}},
		{"autodetect beats default", "<p>caf\xC3\xA9", &sniff.Options{Locale: "ja"}, sniff.Result{override.UTF8, sniff.Tentative, sniff.SourceAutodetect, 0, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			got := sniff.Sniff([]byte(tc.in), tc.opts)
			checkEnd(t, tc.in, got)
			got.End = 0 // checked by checkEnd
			if got != tc.want {
				t.Errorf("Sniff(%.40q) = %+v, want %+v", tc.in, got, tc.want)
			}
		})
	}
}

type fixed struct {
	enc override.Encoding
	ok  bool
}

func (f fixed) Detect([]byte) (override.Encoding, bool) { return f.enc, f.ok }

func TestDefaultEncoding(t *testing.T) {
	tests := []struct {
		in   string
		want override.Encoding
	}{
		{"", override.Windows1252},
		{"en", override.Windows1252},
		{"en-US", override.Windows1252},
		{"de_DE.UTF-8", override.Windows1252},
		{"ja", override.ShiftJIS},
		{"ja-JP", override.ShiftJIS},
		{"JA_jp.eucJP", override.ShiftJIS},
		{"ru", override.Windows1251},
		{"uk", override.Windows1251},
		{"sah", override.Windows1251},
		{"ko-KR", override.EUCKR},
		{"zh", override.GBK},
		{"zh-CN", override.GBK},
		{"zh-Hans", override.GBK},
		{"zh-SG", override.GBK},
		{"zh-TW", override.Big5},
		{"zh_HK", override.Big5},
		{"zh-MO", override.Big5},
		{"zh-Hant", override.Big5},
		{"zh-Hant-CN", override.Big5},
		{"pl", override.ISO8859_2},
		{"hu", override.ISO8859_2},
		{"sl", override.ISO8859_2},
		{"cs", override.Windows1250},
		{"sk", override.Windows1250},
		{"hr", override.Windows1250},
		{"el-GR", override.ISO8859_7},
		{"th", override.Windows874},
		{"tr", override.Windows1254},
		{"ku", override.Windows1254},
		{"vi", override.Windows1258},
		{"he", override.Windows1255},
		{"ar-EG", override.Windows1256},
		{"fa", override.Windows1256},
		{"et", override.Windows1257},
		{"lt", override.Windows1257},
		{"lv", override.Windows1257},
		{" ja ", override.ShiftJIS},
		{".jp", override.ShiftJIS},
		{".co.jp", override.ShiftJIS},
		{"jp", override.ShiftJIS},
		{"JP", override.ShiftJIS},
		{".cn", override.GBK},
		{"cn", override.GBK},
		{".tw", override.Big5},
		{".hk", override.Big5},
		{".kr", override.EUCKR},
		{".ru", override.Windows1251},
		{".ua", override.Windows1251},
		{".uk", override.Windows1252},
		{".be", override.Windows1252},
		{"be", override.Windows1251},
		{".cz", override.Windows1250},
		{"cz", override.Windows1250},
		{".gr", override.ISO8859_7},
		{".il", override.Windows1255},
		{".com", override.Windows1252},
		{"jp-JP", override.Windows1252},
		{"\u212Aa", override.Windows1252},

		// One locale and one top-level domain for every region of the
		// shared table (internal/region), and the rows where sniff's
		// and detect's old tables disagreed.
		{"fr", override.Windows1252}, {".fr", override.Windows1252}, // Western
		{".com", override.Windows1252}, {".example", override.Windows1252}, // Generic
		{".sk", override.Windows1250}, {".hr", override.Windows1250}, // CentralWindows
		{".pl", override.ISO8859_2}, {".hu", override.ISO8859_2}, {".si", override.ISO8859_2}, // CentralISO
		{"be-BY", override.Windows1251}, {".by", override.Windows1251}, {".xn--p1ai", override.Windows1251}, // Cyrillic
		{".mn", override.Windows1251}, {"mn", override.Windows1252}, // Mongolian: not in the standard's table
		{".cy", override.ISO8859_7}, {"cy", override.Windows1252}, // Cyprus; Welsh
		{".tr", override.Windows1254}, {".az", override.Windows1254}, {"az", override.Windows1252}, // Turkish
		{"he-IL", override.Windows1255}, {"iw", override.Windows1252}, // Hebrew
		{".sa", override.Windows1256}, {".ir", override.Windows1256}, {".tn", override.Windows1256}, {"tn", override.Windows1252}, // Arabic; Tswana
		{".lt", override.Windows1257}, {".lv", override.Windows1257}, {".ee", override.Windows1257}, {"ee", override.Windows1257}, // Baltic
		{".vn", override.Windows1258},                      // Vietnamese
		{".th", override.Windows874},                       // Thai
		{".mo", override.Big5}, {"zh-Hant", override.Big5}, // Traditional
		{".sg", override.GBK}, {"sg", override.Windows1252}, // Simplified; Sango
		{".kp", override.EUCKR},                                                                      // Korean
		{".ro", override.Windows1250}, {"ro", override.Windows1252}, {"ro-RO", override.Windows1252}, // Romania (chardetng); Romanian (the standard)
		{".ba", override.Windows1250}, {"bs", override.Windows1252}, // Bosnia
		{".af", override.Windows1256}, {"af", override.Windows1252}, // Afghanistan; Afrikaans
		{"..jp.", override.ShiftJIS}, {". jp", override.ShiftJIS},
	}
	for _, tc := range tests {
		if got := sniff.DefaultEncoding(tc.in); got != tc.want {
			t.Errorf("DefaultEncoding(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestStrings(t *testing.T) {
	if got := sniff.Certain.String(); got != "certain" {
		t.Errorf("Certain.String() = %q", got)
	}
	if got := sniff.Tentative.String(); got != "tentative" {
		t.Errorf("Tentative.String() = %q", got)
	}
	for s, want := range map[sniff.Source]string{
		sniff.SourceDefault: "default", sniff.SourceBOM: "bom", sniff.SourceOverride: "override",
		sniff.SourceTransport: "transport", sniff.SourcePrescan: "prescan", sniff.SourceXML: "xml",
		sniff.SourceLikely: "likely", sniff.SourceAutodetect: "autodetect", 99: "unknown",
	} {
		if got := s.String(); got != want {
			t.Errorf("Source(%d).String() = %q, want %q", s, got, want)
		}
	}
	if got := (sniff.Result{Encoding: override.ShiftJIS}).Name(); got != "Shift_JIS" {
		t.Errorf("Name() = %q, want Shift_JIS", got)
	}
}

func TestAllocs(t *testing.T) {
	head := []byte(typicalHead)
	for _, opts := range []*sniff.Options{
		nil,
		{ContentType: "text/html"},
		{ContentType: "text/html; charset=utf-8"},
		{ContentType: `text/html; charset="\u\t\f-8"`},
		{Locale: "zh-Hant-TW", NoAutodetect: true},
	} {
		if n := testing.AllocsPerRun(100, func() { sniff.Sniff(head, opts) }); n != 0 {
			t.Errorf("Sniff(head, %+v) allocates %v times, want 0", opts, n)
		}
	}
	plain := []byte(strings.Repeat("caf\xC3\xA9 ", 200))
	if n := testing.AllocsPerRun(100, func() { sniff.Sniff(plain, nil) }); n != 0 {
		t.Errorf("Sniff with autodetection allocates %v times, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { sniff.ContentTypeCharset("text/html; charset=utf-8") }); n != 0 {
		t.Errorf("ContentTypeCharset allocates %v times, want 0", n)
	}
}

// TestDefaultsAgree ties the detector's answer without evidence to the
// default step: both read one table (internal/region), so for ASCII input
// the detector's guess for a hint is what Sniff's default gives.
func TestDefaultsAgree(t *testing.T) {
	hints := []string{"", "jp", "cn", "tw", "hk", "kr", "ru", "ua", "pl", "cz", "hu", "si", "ro", "ee", "lt",
		"gr", "cy", "tr", "il", "sa", "ir", "vn", "th", "de", "uk", "com", "xn--p1ai", "www.example.co.jp"}
	locales := []string{"ja", "zh-TW", "zh", "ko", "ru", "uk", "pl", "cs", "et", "el", "tr", "he", "ar", "vi", "th",
		"en", "fr", "ro", "mn", "az", "pt_BR.UTF-8"}
	d := detect.New()
	d.Feed([]byte("<p>hello</p>"), true)
	for _, tld := range hints {
		want := sniff.Sniff([]byte("<p>hello</p>"), &sniff.Options{TLD: tld, AtEOF: true})
		got, s := d.Guess(detect.Hint{TLD: tld})
		if want.Source != sniff.SourceDefault || got != want.Encoding || s != detect.NoEvidence {
			t.Errorf("TLD %q: detect guesses %v (%v), sniff's default is %v (%v)", tld, got, s, want.Encoding, want.Source)
		}
	}
	for _, locale := range locales {
		want := sniff.DefaultEncoding(locale)
		if got, _ := d.Guess(detect.Hint{Language: locale}); got != want {
			t.Errorf("locale %q: detect guesses %v, DefaultEncoding gives %v", locale, got, want)
		}
	}
}

// checkEnd checks Result.End: just past the > of the declaration that
// decided for SourcePrescan and SourceXML, 0 otherwise.
func checkEnd(t *testing.T, in string, got sniff.Result) {
	t.Helper()
	switch got.Source {
	case sniff.SourcePrescan, sniff.SourceXML:
		end := got.End
		if end <= 0 || end > len(in) || in[end-1] != '>' && !(got.Source == sniff.SourceXML && end == 6) {
			t.Errorf("Sniff(%.40q): End %d is not just past a declaration's >", in, end)
			return
		}
		start := strings.LastIndexByte(in[:end-1], '<')
		tag := strings.ToLower(in[max(start, 0):end])
		if got.Source == sniff.SourcePrescan && !strings.HasPrefix(tag, "<meta") {
			t.Errorf("Sniff(%.40q): End %d ends %q, not a <meta>", in, end, tag)
		}
	default:
		if got.End != 0 {
			t.Errorf("Sniff(%.40q): End %d from %v, want 0", in, got.End, got.Source)
		}
	}
}
