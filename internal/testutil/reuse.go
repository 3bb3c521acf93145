package testutil

import "strings"

// A ReuseDoc is one of ReuseDocs: a file name for it, and its bytes.
type ReuseDoc struct {
	Name, Text string
}

// ReuseDocs returns documents whose decisions depend on state a decoder
// reused from the document before could carry over: bytes held to decide
// late (non-ASCII after more than 1 KB of ASCII), a pending CR, the
// look-ahead's late <meta> scan, XML declarations of double-byte
// encodings, a byte order mark, nothing at all. The first two are the
// bug report's pair: a reader that stopped in a.xml while holding
// read-ahead decoded b.xml wrong.
func ReuseDocs() []ReuseDoc {
	ascii := strings.Repeat("<p>plain ASCII text, line after line.</p>\r\n", 40)
	tail := strings.Repeat("<p>more ASCII after the first non-ASCII byte</p>\n", 200)
	return []ReuseDoc{
		{"a.xml", "<html>" + ascii + "caf\xe9 na\xefve r\xe9sum\xe9" + tail},
		{"b.xml", "<?xml version=\"1.0\" encoding=\"Shift_JIS\"?>\n<rss>" + ascii + "\x82\xa0\x82\xa2</rss>"},
		{"big5.xml", "<?xml version=\"1.0\" encoding=\"Big5\"?>\n<rss>" + ascii + "\xa4\xa4\xa4\xe5</rss>"},
		{"euckr.xml", "<?xml version=\"1.0\" encoding=\"EUC-KR\"?>\n<rss>\xc7\xd1\xb1\xb9</rss>"},
		{"latemeta.html", "<html>" + ascii + `<meta charset="koi8-r">` + "\xf0\xd2\xc9\xd7" + tail},
		{"sjis.html", "<html>" + ascii + strings.Repeat("\x82\xa0\x82\xa2\x82\xa4 ", 60) + tail},
		{"utf8.html", "<html>" + ascii + strings.Repeat("caf\xc3\xa9 ", 60) + tail},
		{"ascii.html", ascii},
		{"cr.html", "a\r\nb\r"},
		{"lf.html", "\nstarts with LF"},
		{"utf16.html", "\xff\xfe<\x00p\x00>\x00\xe9\x00"},
		{"empty.html", ""},
	}
}
