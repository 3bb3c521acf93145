package fuzz

import (
	"testing"

	"github.com/charsniff/charsniff/internal/reference"
)

// html5libInputs returns the inputs of the html5lib encoding cases.
func html5libInputs(tb testing.TB) [][]byte {
	tb.Helper()
	cases := reference.Cases(tb)
	ins := make([][]byte, len(cases))
	for i, c := range cases {
		ins[i] = c.Input
	}
	return ins
}

// allocsPerCall returns the number of allocations f makes per call,
// rounded down, over 10 calls. testing.AllocsPerRun counts the allocations
// of the whole process, and now and then another goroutine (the runtime,
// the testing package, the fuzzing engine) allocates during the
// measurement; over 10 calls, such a stray allocation rounds down to 0,
// while f allocating on every call still shows.
func allocsPerCall(f func()) float64 { return testing.AllocsPerRun(10, f) }

// nastyInputs are handmade inputs aimed at the edges of the prescan, the
// sniffing steps and the decoders: byte order marks and their prefixes,
// UTF-16 XML prefixes, comments and tags cut off in every way, quotes that
// never close, labels of encodings that do not exist in the standard,
// CR/LF/NUL at chunk-sensitive places and truncated multi-byte sequences.
var nastyInputs = []string{
	"",
	"\xEF", "\xEF\xBB", "\xEF\xBB\xBF", "\xEF\xBB\xBF\xEF\xBB\xBF<p>",
	"\xFE", "\xFE\xFF", "\xFF\xFE", "\xFF\xFE\x00\x00", "\xFE\xFF\x00<\x00?",
	"<\x00?\x00x\x00", "\x00<\x00?\x00x", "<\x00?\x00x", "+/v8-", "\x00\x00\xFE\xFF", "\xDD\x73\x66\x73",
	"<", "<!", "<!-", "<!--", "<!-->", "<!--->", "<!---->", "<!-- --!>", "<!-- <meta charset=gbk> -->",
	"</", "</>", "</a", "<?", "<?>", "<a", "<a>", "<a b", "<a b=", `<a b="`, `<a b='`, "<a b=c", "<a/b/c>",
	"<meta", "<meta ", "<meta>", "<meta/", "<meta/charset=gbk>", "<meta charset", "<meta charset=",
	`<meta charset="`, `<meta charset="gbk`, `<meta charset="gbk"`, `<meta charset="gbk">`, "<meta charset=gbk>",
	"<META CHARSET=GBK>", "<meta\tcharset=\fgbk\r>", "<meta charset=utf-16>", "<meta charset=x-user-defined>",
	"<meta charset=utf-7>", "<meta charset=utf-32>", "<meta charset=ebcdic>", "<meta charset=replacement>",
	"<meta charset=gbk charset=big5>", "<meta charset='gbk' http-equiv=refresh>",
	`<meta http-equiv="content-type" content="text/html; charset=gbk">`,
	`<meta content="charset=gbk" http-equiv="Content-Type">`,
	`<meta http-equiv=content-type content="charset='gbk">`,
	`<meta http-equiv=content-type content='charset="gbk'>`,
	`<meta http-equiv=content-type content="charset charset = big5">`,
	`<meta http-equiv=content-type content="charset=">`,
	`<meta http-equiv=content-type http-equiv=refresh content="charset=gbk">`,
	`<meta content="charset=gbk" content="charset=big5" http-equiv=content-type>`,
	"<metacharset=gbk>", "<meta-charset=gbk>", "<meta\x00charset=gbk>", "<meta charset=\x00gbk>",
	"<script><meta charset=gbk></script>", "<a title='<meta charset=gbk>'><meta charset=big5>",
	`<?xml version="1.0" encoding="iso-8859-2"?>`, `<?xml encoding='gbk'?>`, `<?xml encoding=gbk?>`,
	`<?xml encoding="gbk`, `<?xml ?> encoding="gbk"`, `<?xml encoding = "utf-16"?>`, " <?xml encoding='gbk'?>",
	"<?xmlencoding='gbk'?>", `<?XML encoding="gbk"?>`,
	"\r", "\r\n", "\n\r", "\r\r\n", "a\rb\r\nc\n", "\x00", "\x00\r\x00\n",
	"caf\xC3\xA9", "caf\xC3", "\xC3\xA9\xE2\x82", "\xF0\x9F\x98", "\xF0\x9F\x98\x80", "\xED\xA0\x80", "\xC0\x80", "\xF4\x90\x80\x80",
	"\x81\x30\x81\x30", "\x84\x31\x95\x33", "\x81\x40", "\x82\xA0\r\n", "\x8E\xA1", "\x8F\xA2\xAF",
	"\x1B$B\x30\x21\x1B(B", "\x1B(J\x5C", "\x1B$", "\x1B", "\x1B$B\r\n",
	"\xD8\x00", "\x00\xD8\x00\xDC", "\x3D\xD8\x00\xDE", "\x00\r\x00\n", "\r\x00\n\x00",
	"\x80\x81\x9F\xA0\xFF",
}

// nastyContentTypes are handmade Content-Type header values for the
// transport step and the charset parser.
var nastyContentTypes = []string{
	"", "text/html", "text/html; charset=gbk", "text/html;charset=gbk", "TEXT/HTML; CHARSET=GBK",
	`text/html; charset="gbk"`, `text/html; charset="gb\k"`, `text/html; charset="gbk`, `text/html; charset="gbk"x`,
	"text/html; charset=gbk; charset=big5", "text/html; charset=", "text/html; charset", "text/html;;charset=gbk",
	"text/html; charset = gbk", "text/html; charset= gbk", "text/html; charset=gbk garbage", "text/html; charset=gbk ",
	"text/html; charset*=utf-8''gbk", "text/html; charset*0=gb; charset*1=k", "text; charset=gbk", "*/*; charset=gbk",
	"text/html; charset=gbk, text/plain", "text/html, text/plain; charset=gbk", "text/plain; charset=gbk, text/plain",
	"text/html; charset=gbk, */*", `text/html; x="a,b"; charset=gbk`, "text/html; charset=utf-7", "text/html; charset=utf-32",
	"text/html; charset=\vgbk", "text/html; charset=gbk\u00a0", "text/html; charset=\"g\x01bk\"", "te{xt/html; charset=gbk",
	"text/html; charset='gbk'", "text/html; charset=\"\"", "text/html; charset=\"\\\"\"", "text/html\t;\tcharset=gbk\t",
}
