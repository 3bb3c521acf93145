package prescan_test

import (
	"strings"
	"testing"

	"github.com/charsniff/charsniff/internal/reference"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/prescan"
)

type prescanCase struct {
	desc   string
	in     string
	opts   prescan.Options
	want   override.Encoding // override.Unknown: nothing found
	source prescan.Rule
	offset int // checked when non-zero
}

var (
	pad1024   = strings.Repeat(" ", 1024)
	xmlGBK    = `<?xml version="1.0" encoding="gbk"?>`
	metaGBK   = `<meta charset="gbk">`
	legacyOpt = prescan.Options{Legacy: true}
)

func meta(desc, in string, want override.Encoding) prescanCase {
	c := prescanCase{desc: desc, in: in, want: want}
	if want != override.Unknown {
		c.source = prescan.Meta
	}
	return c
}

var prescanCases = []prescanCase{
	// The charset attribute.
	{desc: "charset quoted", in: `<meta charset="utf-8">`, want: override.UTF8, source: prescan.Meta, offset: 22},
	meta("charset single-quoted", `<meta charset='gbk'>`, override.GBK),
	meta("charset unquoted", `<meta charset=gbk>`, override.GBK),
	meta("upper case", `<META CHARSET=GBK>`, override.GBK),
	meta("slash after meta", `<meta/charset=gbk>`, override.GBK),
	meta("unquoted value takes the slash", `<meta charset=gbk/>`, override.Unknown),
	meta("quoted value then slash", `<meta charset="gbk"/>`, override.GBK),
	meta("white space around the label", `<meta charset="  gbk  ">`, override.GBK),
	meta("white space around =", "<meta charset \t=\n 'gbk'>", override.GBK),
	meta("form feed after meta", "<meta\fcharset=gbk>", override.GBK),
	meta("vertical tab is not white space", "<meta\vcharset=gbk>", override.Unknown),
	meta("empty charset", `<meta charset="">`, override.Unknown),
	meta("charset without value", `<meta charset>`, override.Unknown),
	meta("charset then > as value", `<meta charset=>`, override.Unknown),
	meta("charset then another name", `<meta charset gbk>`, override.Unknown),
	meta("unknown label", `<meta charset="bogus">`, override.Unknown),
	meta("non-ASCII look-alike label", "<meta charset=\"\u212Aoi8-r\">", override.Unknown),
	meta("utf-16 becomes utf-8", `<meta charset="utf-16">`, override.UTF8),
	meta("utf-16be becomes utf-8", `<meta charset="utf-16be">`, override.UTF8),
	meta("utf-16le becomes utf-8", `<meta charset="UTF-16LE">`, override.UTF8),
	meta("unicodefffe becomes utf-8", `<meta charset="unicodefffe">`, override.UTF8),
	meta("x-user-defined becomes windows-1252", `<meta charset="x-user-defined">`, override.Windows1252),
	meta("replacement label", `<meta charset="iso-2022-kr">`, override.Replacement),
	meta("latin1 is windows-1252", `<meta charset="latin1">`, override.Windows1252),
	meta("failed meta, next meta", `<meta charset="bogus"><meta charset="gbk">`, override.GBK),
	meta("first meta wins", `<meta charset="gbk"><meta charset="big5">`, override.GBK),
	meta("repeated charset ignored", `<meta charset="gbk" charset="big5">`, override.GBK),
	meta("repeated charset cannot repair", `<meta charset="bogus" charset="gbk">`, override.Unknown),
	meta("> inside quotes", `<meta a="x>" charset=gbk>`, override.GBK),
	meta("unquoted value ends at >", `<meta a=x>y charset=gbk>`, override.Unknown),
	meta("leading = is part of the name", `<meta =charset=gbk>`, override.Unknown),
	meta("attribute named <meta", `<meta <meta charset=gbk>`, override.GBK),
	meta("quote in a name", `<meta " charset=gbk>`, override.GBK),

	// http-equiv and content.
	meta("pragma", `<meta http-equiv="content-type" content="text/html; charset=gbk">`, override.GBK),
	meta("pragma after content", `<meta content="text/html; charset=gbk" http-equiv="Content-Type">`, override.GBK),
	meta("content without pragma", `<meta content="text/html; charset=gbk">`, override.Unknown),
	meta("other pragma", `<meta http-equiv="refresh" content="text/html; charset=gbk">`, override.Unknown),
	meta("pragma value is not trimmed", `<meta http-equiv=" content-type" content="charset=gbk">`, override.Unknown),
	meta("pragma value longer", `<meta http-equiv="content-type2" content="charset=gbk">`, override.Unknown),
	meta("repeated http-equiv ignored", `<meta http-equiv="content-type" http-equiv="refresh" content="charset=gbk">`, override.GBK),
	meta("repeated http-equiv cannot repair", `<meta http-equiv="refresh" http-equiv="content-type" content="charset=gbk">`, override.Unknown),
	meta("charset replaces content", `<meta content="charset=gbk" charset="big5" http-equiv="content-type">`, override.Big5),
	meta("content after charset ignored", `<meta charset="big5" content="charset=gbk" http-equiv="content-type">`, override.Big5),
	meta("content after failed charset ignored", `<meta charset="bogus" content="charset=gbk" http-equiv="content-type">`, override.Unknown),
	meta("failed content, then charset", `<meta content="charset=bogus" charset="gbk">`, override.GBK),
	meta("repeated content ignored", `<meta content="charset=gbk" content="charset=big5" http-equiv=content-type>`, override.GBK),
	meta("content: unquoted pragma value", `<meta http-equiv=content-type content=charset=gbk>`, override.GBK),
	meta("content: label ends at ;", `<meta http-equiv=content-type content="charset=gbk;x">`, override.GBK),
	meta("content: label ends at space", `<meta http-equiv=content-type content="charset=gbk x">`, override.GBK),
	meta("content: charsetcharset=", `<meta http-equiv=content-type content="charsetcharset=gbk">`, override.GBK),
	meta("content: charset inside a word", `<meta http-equiv=content-type content="xcharset=gbk">`, override.GBK),
	meta("content: charset not followed by =", `<meta http-equiv=content-type content="charset x charset=gbk">`, override.GBK),
	meta("content: quoted label", `<meta http-equiv=content-type content="charset = 'gbk'">`, override.GBK),
	meta("content: quoted label with spaces", `<meta http-equiv=content-type content='charset=" gbk "'>`, override.GBK),
	meta("content: unmatched quote", `<meta http-equiv=content-type content="charset='gbk">`, override.Unknown),
	meta("content: nothing after =", `<meta http-equiv=content-type content="charset=">`, override.Unknown),
	meta("content: ; after =", `<meta http-equiv=content-type content="charset=;gbk">`, override.Unknown),
	meta("content: first charset= wins", `<meta http-equiv=content-type content="charset=bogus; charset=gbk">`, override.Unknown),
	meta("content: upper case", `<meta HTTP-EQUIV=CONTENT-TYPE CONTENT="TEXT/HTML; CHARSET=GBK">`, override.GBK),
	meta("content: c before charset", `<meta http-equiv=content-type content="ccharset=gbk">`, override.GBK),
	meta("content: near misses before charset", `<meta http-equiv=content-type content="chcharscharsecharSet=gbk">`, override.GBK),
	meta("content: charset cut by the end of the value", `<meta http-equiv=content-type content="text/html; charse">`, override.Unknown),
	meta("content: charset not followed by =", `<meta http-equiv=content-type content="charset; charset=gbk">`, override.GBK),
	meta("content: utf-16 becomes utf-8", `<meta http-equiv=content-type content="charset=utf-16">`, override.UTF8),

	// Other markup.
	meta("<meta> is not a meta", `<meta>`, override.Unknown),
	meta("<metacharset", `<metacharset=gbk>`, override.Unknown),
	meta("<meta< is another tag", `<meta<meta charset=gbk>`, override.Unknown),
	meta("< before <meta", `<<meta charset=gbk>`, override.GBK),
	meta("< then digit", `<1<meta charset=gbk>`, override.GBK),
	meta("tag name runs to white space", `<x<meta charset=gbk>`, override.Unknown),
	meta("end tag", `</meta charset=gbk>`, override.Unknown),
	meta("</ then space", `</ charset=gbk><meta charset=big5>`, override.Big5),
	meta("</>", `</><meta charset=gbk>`, override.GBK),
	meta("comment", `<!-- <meta charset=gbk> -->`, override.Unknown),
	meta("after comment", `<!-- x --><meta charset=gbk>`, override.GBK),
	meta("<!-->", `<!--><meta charset=gbk>`, override.GBK),
	meta("<!--->", `<!---><meta charset=gbk>`, override.GBK),
	meta("-- > does not end a comment", `<!-- -- ><meta charset=gbk>`, override.Unknown),
	meta("--!> does not end a comment", `<!-- --!><meta charset=gbk>`, override.Unknown),
	meta("--> later ends it", `<!-- -- ><meta charset=big5>--><meta charset=gbk>`, override.GBK),
	meta("<!-x>", `<!-x><meta charset=gbk>`, override.GBK),
	meta("<!->", `<!-><meta charset=gbk>`, override.GBK),
	meta("<!>", `<!><meta charset=gbk>`, override.GBK),
	meta("<!DOCTYPE>", `<!DOCTYPE html><meta charset=gbk>`, override.GBK),
	meta("<? ends at the first >", `<?php echo '>'; ?><meta charset=gbk>`, override.GBK),
	meta("meta in a quoted attribute", `<p title="<meta charset=gbk>">`, override.Unknown),
	meta("meta in an unquoted attribute", `<p title=<meta charset=gbk>>`, override.Unknown),
	meta("> in a quoted attribute", `<a b='>'><meta charset=gbk>`, override.GBK),
	meta("unterminated quote", `<a b="></a><meta charset=gbk>`, override.Unknown),
	meta("meta in script", `<script>"<meta charset=gbk>"</script>`, override.GBK),
	meta("meta in title", `<title><meta charset=gbk></title>`, override.GBK),
	meta("end tag with attributes", `</p a=">"><meta charset=gbk>`, override.GBK),

	// The abort rule and the window.
	{desc: "> at byte 1023", in: strings.Repeat(" ", 1024-len(metaGBK)) + metaGBK, want: override.GBK, source: prescan.Meta, offset: 1024},
	{desc: "> at byte 1024", in: strings.Repeat(" ", 1025-len(metaGBK)) + metaGBK},
	{desc: "small window", in: metaGBK, opts: prescan.Options{Window: 10}},
	{desc: "window fits", in: metaGBK, opts: prescan.Options{Window: len(metaGBK)}, want: override.GBK, source: prescan.Meta},
	{desc: "no window", in: strings.Repeat("x", 5000) + metaGBK, opts: prescan.Options{Window: -1}, want: override.GBK, source: prescan.Meta, offset: 5000 + len(metaGBK)},
	{desc: "cut off meta", in: `<meta charset="gbk"`},
	{desc: "cut off label", in: `<meta charset=gbk`},
	{desc: "empty", in: ``},

	// Get an XML encoding.
	{desc: "xml", in: xmlGBK, want: override.GBK, source: prescan.XMLDeclaration, offset: len(xmlGBK)},
	{desc: "xml single quotes", in: `<?xml version='1.0' encoding='gbk'?>`, want: override.GBK, source: prescan.XMLDeclaration},
	{desc: "xml spaces", in: "<?xml encoding \t= \n'gbk' ?>", want: override.GBK, source: prescan.XMLDeclaration},
	{desc: "xml control bytes around =", in: "<?xml encoding\x01=\x1f'gbk'>", want: override.GBK, source: prescan.XMLDeclaration},
	{desc: "xml no space before encoding", in: `<?xmlencoding="gbk">`, want: override.GBK, source: prescan.XMLDeclaration},
	{desc: "xml encoding inside a word", in: `<?xml xencoding="gbk">`, want: override.GBK, source: prescan.XMLDeclaration},
	{desc: "xml utf-16 becomes utf-8", in: `<?xml encoding="utf-16"?>`, want: override.UTF8, source: prescan.XMLDeclaration},
	{desc: "xml x-user-defined stays", in: `<?xml encoding="x-user-defined"?>`, want: override.XUserDefined, source: prescan.XMLDeclaration},
	{desc: "meta beats xml", in: xmlGBK + `<meta charset="big5">`, want: override.Big5, source: prescan.Meta},
	{desc: "xml after failed meta", in: xmlGBK + `<meta charset="bogus">`, want: override.GBK, source: prescan.XMLDeclaration},
	{desc: "xml after cut off meta", in: xmlGBK + `<meta charset="big5"`, want: override.GBK, source: prescan.XMLDeclaration},
	{desc: "meta past the window, xml", in: xmlGBK + pad1024 + `<meta charset="big5">`, want: override.GBK, source: prescan.XMLDeclaration, offset: len(xmlGBK)},
	{desc: "xml longer than the window", in: `<?xml` + pad1024 + pad1024 + `encoding="gbk">`, want: override.GBK, source: prescan.XMLDeclaration, offset: 5 + 2048 + 15},
	{desc: "xml > after the window", in: `<?xml encoding="gbk"` + pad1024 + pad1024 + `>`, want: override.GBK, source: prescan.XMLDeclaration, offset: 20 + 2048 + 1},
	{desc: "xml > inside the value", in: `<?xml encoding="gb>k"`},
	{desc: "xml leading space", in: ` <?xml encoding="gbk"?>`},
	{desc: "xml upper case XML", in: `<?XML encoding="gbk"?>`},
	{desc: "xml upper case ENCODING", in: `<?xml ENCODING="gbk"?>`},
	{desc: "xml no >", in: `<?xml encoding="gbk"?`},
	{desc: "xml encoding after >", in: `<?xml>encoding="gbk"?>`},
	{desc: "xml no quotes", in: `<?xml encoding=gbk?>`},
	{desc: "xml unmatched quotes", in: `<?xml encoding="gbk'?>`},
	{desc: "xml no =", in: `<?xml encoding "gbk"?>`},
	{desc: "xml encodingencoding", in: `<?xml encodingencoding="gbk"?>`},
	{desc: "xml first encoding only", in: `<?xml encoding="bogus" encoding="gbk"?>`},
	{desc: "xml space in the value", in: `<?xml encoding="gbk "?>`},
	{desc: "xml empty value", in: `<?xml encoding=""?>`},
	{desc: "xml utf-32", in: `<?xml encoding="utf-32"?>`},
	{desc: "xml comment first", in: `<!-- --><?xml encoding="gbk"?>`},
	{desc: "xml with meta inside", in: `<?xml <meta charset="big5" encoding="gbk">`, want: override.GBK, source: prescan.XMLDeclaration},

	// The UTF-16 XML prefix.
	{desc: "utf-16le prefix", in: "<\x00?\x00x\x00m\x00l\x00", want: override.UTF16LE, source: prescan.UTF16XMLPrefix, offset: 6},
	{desc: "utf-16be prefix", in: "\x00<\x00?\x00x\x00m\x00l", want: override.UTF16BE, source: prescan.UTF16XMLPrefix, offset: 6},
	{desc: "utf-16le prefix, six bytes", in: "<\x00?\x00x\x00", want: override.UTF16LE, source: prescan.UTF16XMLPrefix},
	{desc: "utf-16le prefix, five bytes", in: "<\x00?\x00x"},
	{desc: "utf-16le prefix, upper case X", in: "<\x00?\x00X\x00"},
	{desc: "utf-16le prefix, tiny window", in: "<\x00?\x00x\x00", opts: prescan.Options{Window: 3}, want: override.UTF16LE, source: prescan.UTF16XMLPrefix},
	{desc: "utf-16le prefix after a space", in: " <\x00?\x00x\x00"},

	// Legacy label matching.
	{desc: "windows-932 without legacy", in: `<meta charset="windows-932">`},
	{desc: "windows-932 with legacy", in: `<meta charset="windows-932">`, opts: legacyOpt, want: override.ShiftJIS, source: prescan.Meta},
	{desc: "loose label with legacy", in: `<meta charset="G.B.2312(80)">`, opts: legacyOpt, want: override.GBK, source: prescan.Meta},
	{desc: "loose content label with legacy", in: `<meta http-equiv=content-type content="charset='ISO 8859 2'">`, opts: legacyOpt, want: override.ISO8859_2, source: prescan.Meta},
	{desc: "loose xml label with legacy", in: `<?xml encoding="Windows_1251"?>`, opts: legacyOpt, want: override.Windows1251, source: prescan.XMLDeclaration},
	{desc: "utf-7 with legacy", in: `<meta charset="utf-7">`, opts: legacyOpt},
}

func TestPrescan(t *testing.T) {
	for _, tc := range prescanCases {
		t.Run(tc.desc, func(t *testing.T) {
			got := prescan.Prescan([]byte(tc.in), &tc.opts)
			if got.Encoding != tc.want || got.Rule != tc.source || (tc.offset != 0 && got.Offset != tc.offset) {
				t.Errorf("Prescan(%.60q) = %v %v %d, want %v %v %d", tc.in, got.Encoding, got.Rule, got.Offset, tc.want, tc.source, tc.offset)
			}
			if got.Found() != (tc.want != override.Unknown) {
				t.Errorf("Found() = %v for %v", got.Found(), got)
			}
			checkReference(t, []byte(tc.in), tc.opts)
			checkChunks(t, []byte(tc.in), tc.opts)
		})
	}
}

// TestHTML5lib compares the prescan with the reference on every html5lib
// case, with several windows.
func TestHTML5lib(t *testing.T) {
	cases := reference.Cases(t)
	for _, c := range cases {
		for _, w := range []int{0, 1, 6, 100, 512, 1023, 1024, 1025, 4096, -1} {
			checkReference(t, c.Input, prescan.Options{Window: w})
			checkReference(t, c.Input, prescan.Options{Window: w, Legacy: true})
		}
		checkChunks(t, c.Input, prescan.Options{})
		checkChunks(t, c.Input, prescan.Options{Window: -1})
	}
}

// effectiveWindow is the reference's window for opts.
func effectiveWindow(opts prescan.Options) int {
	if opts.Window == 0 {
		return prescan.DefaultWindow
	}
	return opts.Window
}

func checkReference(t *testing.T, in []byte, opts prescan.Options) {
	t.Helper()
	got := prescan.Prescan(in, &opts)
	want := reference.Prescan(in, effectiveWindow(opts), opts.Legacy)
	gotSource := got.Rule.String()
	if !got.Found() {
		gotSource = ""
	}
	if got.Encoding != want.Encoding || gotSource != want.Source || got.Offset != want.Offset {
		t.Errorf("Prescan(%.80q, %+v) = %v %q %d, reference says %v %q %d",
			in, opts, got.Encoding, gotSource, got.Offset, want.Encoding, want.Source, want.Offset)
	}
}

// checkChunks feeds in to a Scanner in pieces of several sizes and split at
// every position, and compares the answers with Prescan's.
func checkChunks(t *testing.T, in []byte, opts prescan.Options) {
	t.Helper()
	want := prescan.Prescan(in, &opts)
	var s prescan.Scanner
	for _, size := range []int{1, 2, 3, 7, 64} {
		s.Reset(&opts)
		for i := 0; i < len(in); i += size {
			s.Feed(nil) // empty chunks change nothing
			s.Feed(in[i:min(i+size, len(in))])
		}
		if got := s.Close(); got != want {
			t.Errorf("%.60q in %d-byte chunks: got %+v, want %+v", in, size, got, want)
		}
	}
	if len(in) > 2000 {
		return
	}
	for i := 0; i <= len(in); i++ {
		s.Reset(&opts)
		s.Feed(in[:i])
		r1, final := s.Feed(in[i:])
		got := s.Close()
		if got != want {
			t.Errorf("%.60q split at %d: got %+v, want %+v", in, i, got, want)
		}
		if final && r1 != want {
			t.Errorf("%.60q split at %d: final answer %+v before Close, want %+v", in, i, r1, want)
		}
	}
}

func TestScannerFinal(t *testing.T) {
	tests := []struct {
		desc  string
		in    string
		opts  prescan.Options
		final bool
		want  override.Encoding
	}{
		{desc: "meta", in: `<meta charset=gbk>junk`, final: true, want: override.GBK},
		{desc: "open tag", in: `<meta charset=gbk`},
		{desc: "window passed, no xml", in: `<p>` + pad1024, final: true},
		{desc: "window passed, xml", in: xmlGBK + pad1024, final: true, want: override.GBK},
		{desc: "window passed, xml without >", in: `<?xml encoding="gbk"` + pad1024},
		{desc: "utf-16 prefix", in: "<\x00?\x00x\x00", final: true, want: override.UTF16LE},
		{desc: "maybe utf-16 prefix", in: "<\x00?\x00x", opts: prescan.Options{Window: 2}},
		{desc: "no window", in: `<p>` + pad1024 + pad1024, opts: prescan.Options{Window: -1}},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			var s prescan.Scanner
			s.Reset(&tc.opts)
			r, final := s.Feed([]byte(tc.in))
			if final != tc.final || r.Encoding != tc.want {
				t.Errorf("Feed(%.40q) = %v, %v, want %v, %v", tc.in, r.Encoding, final, tc.want, tc.final)
			}
			if r2, final2 := s.Result(); r2 != r || final2 != final {
				t.Errorf("Result() = %v, %v, want %v, %v", r2, final2, r, final)
			}
		})
	}
}

func TestZeroScanner(t *testing.T) {
	var s prescan.Scanner // usable without Reset
	n, err := s.Write([]byte(metaGBK))
	if n != len(metaGBK) || err != nil {
		t.Errorf("Write = %d, %v", n, err)
	}
	if r := s.Close(); r.Encoding != override.GBK {
		t.Errorf("Close = %v, want GBK", r)
	}
	if s.Offset() != len(metaGBK) {
		t.Errorf("Offset() = %d, want %d", s.Offset(), len(metaGBK))
	}
	if r, final := s.Feed([]byte(`<meta charset=big5>`)); !final || r.Encoding != override.GBK {
		t.Errorf("Feed after Close = %v, %v", r, final)
	}
}

func TestRuleString(t *testing.T) {
	for s, want := range map[prescan.Rule]string{
		prescan.NotFound: "none", prescan.Meta: "meta", prescan.XMLDeclaration: "xml",
		prescan.UTF16XMLPrefix: "utf-16 xml", 99: "unknown",
	} {
		if got := s.String(); got != want {
			t.Errorf("Rule(%d).String() = %q, want %q", s, got, want)
		}
	}
}

func TestAllocs(t *testing.T) {
	head := []byte(typicalHead)
	if n := testing.AllocsPerRun(100, func() { prescan.Prescan(head, nil) }); n != 0 {
		t.Errorf("Prescan allocates %v times, want 0", n)
	}
	var s prescan.Scanner
	if n := testing.AllocsPerRun(100, func() {
		s.Reset(nil)
		for i := 0; i < len(head); i += 100 {
			s.Feed(head[i:min(i+100, len(head))])
		}
		s.Close()
	}); n != 0 {
		t.Errorf("Scanner allocates %v times, want 0", n)
	}
	// Legacy lookups of labels up to 32 bytes do not allocate either.
	legacy := []byte(`<meta http-equiv=content-type content="charset=windows-932"><meta charset="windows-932">`)
	if n := testing.AllocsPerRun(100, func() { prescan.Prescan(legacy, &legacyOpt) }); n != 0 {
		t.Errorf("Prescan with Legacy allocates %v times, want 0", n)
	}
	for _, in := range adversarial {
		if n := testing.AllocsPerRun(10, func() { prescan.Prescan(in.b, &prescan.Options{Window: -1}) }); n != 0 {
			t.Errorf("Prescan(%s) allocates %v times, want 0", in.name, n)
		}
	}
}

// TestAttributeCuts puts the end of the chunk and the end of the window at
// every byte of attributes of every form the scan's whole-attribute path
// takes or refuses, and compares with the reference and with Prescan.
func TestAttributeCuts(t *testing.T) {
	tests := []struct {
		desc string
		in   string
		want override.Encoding
	}{
		{"quoted", `<meta charset="gbk">`, override.GBK},
		{"single-quoted", `<meta charset='gbk'>`, override.GBK},
		{"unquoted", `<meta charset=gbk>`, override.GBK},
		{"upper case names", `<META HTTP-EQUIV="Content-Type" CONTENT="text/html; CHARSET=gbk">`, override.GBK},
		{"mixed case names", `<meta Http-Equiv=content-type ConTent="charset=gbk">`, override.GBK},
		{"spaces around =", "<meta charset \t=\n \"gbk\">", override.GBK},
		{"space before =, unquoted", "<meta charset =gbk>", override.GBK},
		{"space after =, quoted", "<meta charset= 'gbk'>", override.GBK},
		{"/ between attributes", `<meta/name="a"/charset="gbk"/>`, override.GBK},
		{"/ and > in quoted values", `<meta name="a/>b" content='x>/"y' charset="gbk">`, override.GBK},
		{"quotes inside other quotes", `<meta a='"' b="'" charset=gbk>`, override.GBK},
		{"> in an unquoted value", `<meta a=b>c charset=gbk>`, override.Unknown},
		{"= after =", `<meta charset==gbk>`, override.Unknown},
		{"name starting with =", `<meta =charset="gbk" charset="big5">`, override.Big5},
		{"name without value then >", `<meta charset>`, override.Unknown},
		{"name without value then /", `<meta async/charset=gbk>`, override.GBK},
		{"name then space then name", `<meta async charset="gbk">`, override.GBK},
		{"= then >", `<meta charset=><meta charset=gbk>`, override.GBK},
		{"empty quoted value", `<meta charset=""><meta charset=gbk>`, override.GBK},
		{"near names", `<meta charse="big5" charsets="big5" content-="x" http-equi=x charset="gbk">`, override.GBK},
		{"charset longer", `<meta charsetx="big5" charset="gbk">`, override.GBK},
		{"repeated names", `<meta charset="gbk" CHARSET="big5">`, override.GBK},
		{"pragma then content", `<meta http-equiv="content-type" content="text/html; charset=gbk">`, override.GBK},
		{"pragma cut short", `<meta http-equiv="content-typ" content="charset=gbk">`, override.Unknown},
		{"attributes of other tags", `<link rel="x" href='/a>b' async data-x=y><meta charset="gbk">`, override.GBK},
		{"meta-like attribute of another tag", `<p charset="big5"><meta charset="gbk">`, override.GBK},
		{"tag names", `<metax charset=big5><Meta/charset=gbk>`, override.GBK},
		{"end tag attributes", `</meta charset="big5"><META	charset=gbk>`, override.GBK},
		{"<meta> and <met", `<meta><met charset=big5><meta charset=gbk>`, override.GBK},
		{"<meta then >", `<meta/><meta>charset=big5><meta charset=gbk>`, override.GBK},
		{"tag name with /", `<m/eta charset=big5><met/a charset=big5><meta charset=gbk>`, override.GBK},
		{"< before tags", `<<1<!--x--><?x><!x><meta charset=gbk>`, override.GBK},
		{"tag name then >", `<p><metaa><meta charset=gbk>`, override.GBK},
		{"content forms", `<meta http-equiv=content-type content="text/html; Charset = 'gbk' ">`, override.GBK},
		{"content unquoted label", `<meta http-equiv=content-type content="charset=gbk;big5">`, override.GBK},
		{"content near misses", `<meta http-equiv=content-type content="cc charse chars charset; charsetcharset =	gbk">`, override.GBK},
		{"content ends after charset", `<meta http-equiv=content-type content="x; charset"><meta charset=gbk>`, override.GBK},
		{"content ends after =", `<meta http-equiv=content-type content="charset= "><meta charset=gbk>`, override.GBK},
		{"content unmatched quote", `<meta http-equiv=content-type content='charset="gbk'><meta charset=big5>`, override.Big5},
		{"content ; after =", `<meta http-equiv=content-type content='charset=;gbk'><meta charset=big5>`, override.Big5},
		{"content empty quoted label", `<meta http-equiv=content-type content="charset=''"><meta charset=big5>`, override.Big5},
		{"content label at the end", `<meta http-equiv=content-type content='charset=gbk'>`, override.GBK},
		{"label with spaces", "<meta charset=' \tgbk \n'>", override.GBK},
		{"label of 64 bytes and spaces", `<meta charset="` + strings.Repeat("x", 64) + `   ">`, override.Unknown},
		{"label of 65 bytes", `<meta charset="  ` + strings.Repeat("x", 65) + `">`, override.Unknown},
		{"long label in content", `<meta http-equiv=content-type content="charset='` + strings.Repeat("-", 63) + `gbk  '">`, override.Unknown},
		{"loose label of 64 bytes", `<meta charset="gbk` + strings.Repeat(".", 61) + `  ">`, override.Unknown},
		{"loose label of 65 bytes", `<meta http-equiv=content-type content='charset=" gbk` + strings.Repeat(".", 62) + `"'>`, override.Unknown},
		{"gbk after 61 spaces", `<meta charset="` + strings.Repeat(" ", 61) + `gbk` + strings.Repeat(" ", 9) + `">`, override.GBK},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			in := []byte(tc.in)
			if got := prescan.Prescan(in, nil); got.Encoding != tc.want {
				t.Errorf("Prescan(%q) = %v, want %v", in, got.Encoding, tc.want)
			}
			for w := 1; w <= len(in)+1; w++ {
				opts := prescan.Options{Window: w, Legacy: w%2 == 0}
				checkReference(t, in, opts)
				// The chunk and the window may end at the same byte.
				var s prescan.Scanner
				s.Reset(&opts)
				s.Feed(in[:min(w, len(in))])
				s.Feed(in[min(w, len(in)):])
				if got, want := s.Close(), prescan.Prescan(in, &opts); got != want {
					t.Errorf("%q split at the window end %d: got %+v, want %+v", in, w, got, want)
				}
			}
			checkChunks(t, in, prescan.Options{})
			checkChunks(t, in, legacyOpt)
		})
	}
}
