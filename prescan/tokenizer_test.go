package prescan_test

import (
	"bytes"
	"io"
	"math/rand/v2"
	"testing"
	"testing/iotest"

	"github.com/charsniff/charsniff/internal/reference"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/prescan"
)

var tokOpts = prescan.Options{Window: -1, Tokenizer: true}

// lateScan feeds the chunks to a Scanner in tokenizer mode and returns the
// <meta> it found.
func lateScan(s *prescan.Scanner, chunks ...[]byte) (override.Encoding, int) {
	return lateScanX(s, false, chunks...)
}

// lateScanX is lateScan, with x/net's script data escaped less-than sign
// if xnet.
func lateScanX(s *prescan.Scanner, xnet bool, chunks ...[]byte) (override.Encoding, int) {
	s.Reset(&tokOpts)
	if xnet {
		prescan.XNetEscapes(true)
		defer prescan.XNetEscapes(false)
	}
	for _, c := range chunks {
		s.Feed(c)
	}
	if r := s.Close(); r.Rule == prescan.Meta {
		return r.Encoding, r.Offset
	}
	return override.Unknown, 0
}

// tokPieces are the parts of the generated pages.
var tokPieces = []string{
	// Text and tags.
	"x", " ", "\n", "\r", "<", "< meta charset=big5>", "<3", "<div>", "<a href=x>", "<p/>", "<b ", "</b>",
	"<br/>", "<a/b='<meta charset=gbk>'>", `<a title="<meta charset=iso-8859-5>">`, `<a title='x>'>`,
	`<a x=">" `, `<img alt=<meta charset=koi8-r>>`, `"`, `'`, "=", "/", ">",
	// Raw text and RCDATA elements, with case variations.
	"<script>", "<SCRIPT type=text/javascript>", "<script/>", "<Script\t>", "<style>", "<STYLE media=x>",
	"<textarea>", "<title>", "<TITLE>", "<xmp>", "<iframe>", "<noembed>", "<noframes>", "<noscript>",
	"<plaintext>", "<scripts>", "<titles>", "<svg>", "<math>",
	// Foreign content and frameset.
	"<svg/>", "<SVG>", "</svg>", "</math>", "<foreignObject>", "</foreignobject>", "<desc>", "</desc>", "<svg><title>",
	"<mi>", "</mi>", "<mtext/>", "<mglyph>", "<annotation-xml>", "</annotation-xml>", "<g>", "</g>", "<g/>", "<path d=x/>",
	"<div>", "</div>", "<span>", "</span>", "</p>", "</br>", "<b>", "<frameset>", "</frameset>", "<frame>", "<body>",
	"<![CDATA[x]]>", "]]", "]", "<input>", "<li>", "<table>", "<td>", "<select>", "<button>",
	"<font color=red>", "<font>", "<FONT Size=2 x>", "<font face", "<font colour=x>", "</font>",
	// End tags.
	"</script>", "</SCRIPT >", `</script foo=">">`, "</script/>", "</scripts>", "</script", "</scrip>",
	"</script\t", "</script\n", "</script\f", "</script\r", "</script x", "</script-", "</script<",
	"</style>", "</STYLE\t>", "</textarea >", "</title>", "</xmp>", "</iframe>", "</noembed>",
	"</noframes>", "</noscript>", "</plaintext>", "</>", "</ x>", "</1>", "</",
	// Script data escapes and comments.
	"<!--", "-->", "--!>", "<!-->", "<!--->", "<!---->", "<!--!>", "--", "-", "!", "<!", "<!-", "--!",
	"<script >", "<script>x", "<!--<script>", "</script >-->",
	// Other markup.
	"<![CDATA[", "]]>", "<!DOCTYPE html>", `<!DOCTYPE html PUBLIC "a>b">`, "<?xml ?>", "<!x>", "<!>", "<?",
	// Metas.
	"<meta charset=iso-8859-2>", `<META CHARSET="koi8-r">`, "<meta charset=windows-1251/>",
	`<meta http-equiv=content-type content="text/html; charset=shift_jis">`,
	`<meta content='text/html;charset=euc-kr' http-equiv="Content-Type">`,
	`<meta content="charset=gb18030">`, "<meta/charset=utf-16>", "<meta charset=x-user-defined/>",
	"<meta charset=bogus>", "<meta name=x>", "<metax charset=gbk>", "</meta charset=big5>",
	"<meta charset=iso-8859-3 charset=iso-8859-4>", "<meta charset='iso-8859-6'", "<meta ",
	"<meta charset=", "<meta\tcharset=euc-jp\n>", "<mEtA cHaRsEt=iso-8859-7>",
	"<meta charset=&#105;so-8859-2>", "<meta charset=\"big5&amp;\">", "&lt;meta charset=gbk>", "&",
}

// tokPage returns a page of n random pieces.
func tokPage(rng *rand.Rand, n int) []byte {
	var b []byte
	for range n {
		b = append(b, tokPieces[rng.IntN(len(tokPieces))]...)
	}
	return b
}

// TestTokenizerDifferential checks the scan in tokenizer mode against
// golang.org/x/net/html's tokenizer on generated pages: the first <meta>
// start tag it emits that names an encoding is the one the scan finds
// (with x/net's script data escaped less-than sign, the one state where
// x/net leaves the standard; the scan without it differs from x/net only
// where that state matters); and the scan finds the same for the page in
// one piece, cut in two at every byte, and read through testing/iotest's
// readers.
func TestTokenizerDifferential(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 1))
	var s prescan.Scanner
	n := 20000
	if testing.Short() {
		n = 2000
	}
	found, diverged := 0, 0
	for k := range n {
		page := tokPage(rng, 1+rng.IntN(24))
		xEnc, xOff := reference.TokenizerMeta(page)
		if xOff != 0 {
			found++
		}
		enc, off := lateScanX(&s, true, page)
		if tEnc, ok := reference.TreeOracle(page, false); ok && enc != tEnc {
			t.Fatalf("page %q: scan (x/net's escapes) finds %v ending at %d, x/net's tree builder %v", page, enc, off, tEnc)
		}
		if reference.TokenizerSuffices(page) && (enc != xEnc || off != xOff) {
			t.Fatalf("page %q: scan (x/net's escapes) finds %v ending at %d, tokenizer %v ending at %d", page, enc, off, xEnc, xOff)
		}
		wantEnc, wantOff := lateScan(&s, page)
		if wantEnc != enc || wantOff != off {
			diverged++
		}
		if k%10 != 0 {
			continue
		}
		for i := 0; i <= len(page); i++ {
			if enc, off := lateScan(&s, page[:i], page[i:]); enc != wantEnc || off != wantOff {
				t.Fatalf("page %q cut at %d: scan finds %v ending at %d, want %v ending at %d", page, i, enc, off, wantEnc, wantOff)
			}
		}
		for _, r := range []func(io.Reader) io.Reader{iotest.OneByteReader, iotest.HalfReader, iotest.DataErrReader} {
			if enc, off := readScan(&s, r(bytes.NewReader(page))); enc != wantEnc || off != wantOff {
				t.Fatalf("page %q read by %T: scan finds %v ending at %d, want %v ending at %d", page, r, enc, off, wantEnc, wantOff)
			}
		}
	}
	// The generator must give both answers often, and x/net's escape
	// rarely matters.
	if found < n/10 || found > n*9/10 {
		t.Errorf("%d of %d pages have a <meta> the tokenizer emits; want between 10%% and 90%%", found, n)
	}
	if diverged > n/20 {
		t.Errorf("%d of %d pages differ from x/net by its escape rule; want at most 5%%", diverged, n)
	}
	t.Logf("%d of %d pages with a <meta> the tokenizer emits; %d differ by x/net's escape rule", found, n, diverged)
}

// readScan feeds what r reads to a Scanner in tokenizer mode.
func readScan(s *prescan.Scanner, r io.Reader) (override.Encoding, int) {
	s.Reset(&tokOpts)
	buf := make([]byte, 64)
	for {
		n, err := r.Read(buf)
		s.Feed(buf[:n])
		if err != nil {
			break
		}
	}
	if r := s.Close(); r.Rule == prescan.Meta {
		return r.Encoding, r.Offset
	}
	return override.Unknown, 0
}

// TestTokenizerCases names the cases issue 24 reported and the corners of
// the tokenizer's states: where the prescan finds a <meta> the tokenizer
// mode does not (or another one), and the other way round.
func TestTokenizerCases(t *testing.T) {
	const m2 = "<meta charset=iso-8859-2>"
	for _, c := range []struct {
		in   string
		want override.Encoding // what the tokenizer mode finds (Unknown: none)
		pre  override.Encoding // what the standard's prescan finds
		xnet bool              // x/net's tokenizer differs (its script data escaped less-than sign)
	}{
		{in: "<script>var s = '" + m2 + "';</script>", want: override.Unknown, pre: override.ISO8859_2},
		{in: "<script>'" + m2 + "'</script>" + "<meta charset=koi8-r>", want: override.KOI8R, pre: override.ISO8859_2},
		{in: "<style>" + m2 + "</style>", want: override.Unknown, pre: override.ISO8859_2},
		{in: "<textarea>" + m2 + "</textarea>", want: override.Unknown, pre: override.ISO8859_2},
		{in: "<title>" + m2 + "</title>", want: override.Unknown, pre: override.ISO8859_2},
		{in: "<xmp>" + m2, want: override.Unknown, pre: override.ISO8859_2},
		{in: "<iframe>" + m2, want: override.Unknown, pre: override.ISO8859_2},
		{in: "<noembed>" + m2, want: override.Unknown, pre: override.ISO8859_2},
		{in: "<noframes>" + m2, want: override.Unknown, pre: override.ISO8859_2},
		{in: "<noscript>" + m2, want: override.Unknown, pre: override.ISO8859_2},
		{in: "<plaintext></plaintext>" + m2, want: override.Unknown, pre: override.ISO8859_2},
		{in: "<script/>" + m2, want: override.Unknown, pre: override.ISO8859_2},
		// The end tags.
		{in: "<title></TITLE\n>" + m2, want: override.ISO8859_2, pre: override.ISO8859_2},
		{in: "<style><</style>" + m2, want: override.ISO8859_2, pre: override.ISO8859_2},
		{in: "<script><!--<script><</script>--></script>" + m2, want: override.ISO8859_2, pre: override.ISO8859_2},
		{in: "<title></titles>" + m2, want: override.Unknown, pre: override.ISO8859_2},
		{in: `<style></style a=">` + m2 + `">`, want: override.Unknown, pre: override.Unknown},
		{in: "<script></script/>" + m2, want: override.ISO8859_2, pre: override.ISO8859_2},
		{in: "<script></scrip>" + m2, want: override.Unknown, pre: override.ISO8859_2},
		// Script data escapes.
		{in: "<script><!--</script>" + m2, want: override.ISO8859_2, pre: override.Unknown},
		{in: "<script><!--<script></script>" + m2, want: override.Unknown, pre: override.Unknown},
		{in: "<script><!--<script></script></script>" + m2, want: override.ISO8859_2, pre: override.Unknown},
		{in: "<script><!--<script>--></script>" + m2, want: override.ISO8859_2, pre: override.ISO8859_2},
		{in: "<script><!--<script>-></script>" + m2, want: override.Unknown, pre: override.Unknown},
		{in: "<script><!--<scripts></script>" + m2, want: override.ISO8859_2, pre: override.Unknown},
		{in: "<script><!-->x<script></script>" + m2, want: override.ISO8859_2, pre: override.ISO8859_2},
		// x/net's tokenizer leaves the escape at <! here; the standard
		// (and a browser) does not, and meets <script> double escaped.
		{in: "<script><!--<!--<script></script>" + m2, want: override.Unknown, pre: override.Unknown, xnet: true},
		{in: "<script><!--<?--<script></script>" + m2, want: override.Unknown, pre: override.Unknown, xnet: true},
		// Comments: --!> ends one, <!--!> does not.
		{in: "<!-- --!>" + m2 + "-->", want: override.ISO8859_2, pre: override.Unknown},
		{in: "<!--!>" + m2 + "-->", want: override.Unknown, pre: override.Unknown},
		{in: "<!--->" + m2, want: override.ISO8859_2, pre: override.ISO8859_2},
		// A tag name ends at /.
		{in: `<a/x="y>` + m2 + `">`, want: override.Unknown, pre: override.ISO8859_2},
	} {
		var s prescan.Scanner
		in := []byte(c.in)
		enc, off := lateScan(&s, in)
		if enc != c.want {
			t.Errorf("tokenizer scan of %q finds %v, want %v", c.in, enc, c.want)
		}
		for i := range len(in) + 1 {
			if e, o := lateScan(&s, in[:i], in[i:]); e != enc || o != off {
				t.Errorf("%q cut at %d: %v ending at %d, in one piece %v ending at %d", in, i, e, o, enc, off)
			}
		}
		if want, _ := reference.TokenizerMeta([]byte(c.in)); (want != c.want) != c.xnet {
			t.Errorf("x/net's tokenizer on %q finds %v; the scan %v (x/net differs: %v)", c.in, want, c.want, c.xnet)
		}
		if got := prescan.Prescan([]byte(c.in), &prescan.Options{Window: -1}); got.Encoding != c.pre {
			t.Errorf("prescan of %q finds %v, want %v", c.in, got.Encoding, c.pre)
		}
	}
}

// TestTokenizerAllocs checks that the tokenizer mode allocates nothing.
func TestTokenizerAllocs(t *testing.T) {
	page := []byte("<title>x</title><script><!--<script>--></script></script><style></style a='>'>" +
		"<!-- --!><textarea></textarea><meta charset=koi8-r>")
	var s prescan.Scanner
	if n := testing.AllocsPerRun(100, func() {
		s.Reset(&tokOpts)
		for i := 0; i < len(page); i += 7 {
			s.Feed(page[i:min(i+7, len(page))])
		}
		s.Close()
	}); n != 0 {
		t.Errorf("Scanner in tokenizer mode allocates %v times, want 0", n)
	}
	if enc, _ := lateScan(&s, page); enc != override.KOI8R {
		t.Errorf("scan of %q finds %v, want KOI8-R", page, enc)
	}
}

// FuzzTokenizer compares the scan in tokenizer mode with x/net's
// escapes against x/net's tokenizer (tokenizerMeta) on any input, and
// checks that a cut anywhere changes nothing.
func FuzzTokenizer(f *testing.F) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 50 {
		f.Add(tokPage(rng, 1+rng.IntN(12)), uint16(rng.IntN(100)))
	}
	f.Fuzz(func(t *testing.T, in []byte, cut uint16) {
		var s prescan.Scanner
		xEnc, xOff := reference.TokenizerMeta(in)
		enc, off := lateScanX(&s, true, in)
		if tEnc, ok := reference.TreeOracle(in, false); ok && enc != tEnc {
			t.Fatalf("%q: scan (x/net's escapes) finds %v ending at %d, x/net's tree builder %v", in, enc, off, tEnc)
		}
		if reference.TokenizerSuffices(in) && (enc != xEnc || off != xOff) {
			t.Fatalf("%q: scan (x/net's escapes) finds %v ending at %d, tokenizer %v ending at %d", in, enc, off, xEnc, xOff)
		}
		enc, off = lateScan(&s, in)
		i := int(cut) % (len(in) + 1)
		if e, o := lateScan(&s, in[:i], in[i:]); e != enc || o != off {
			t.Fatalf("%q cut at %d: %v ending at %d, in one piece %v ending at %d", in, i, e, o, enc, off)
		}
	})
}
