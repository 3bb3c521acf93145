package reference

// A ContentTypeCase is a Content-Type header value and what Fetch's
// "extract a MIME type" makes of it.
type ContentTypeCase struct {
	Desc string
	In   string
	// Essence is the MIME type's essence, in lower case; "" on failure.
	Essence string
	// Charset is its charset parameter, quotes and escapes removed, and
	// HasCharset whether it has one.
	Charset    string
	HasCharset bool
}

// ContentTypeCases is the one table of Content-Type values that the shared
// extractor (internal/mimetype) and its users (sniff.ContentTypeCharset and
// the Payload of package warc) are tested on, each against its own API, and
// that ExtractMIMEType agrees with. The "drift" row is the value on which
// warc and sniff once disagreed.
var ContentTypeCases = []ContentTypeCase{
	{"plain", "text/html; charset=utf-8", "text/html", "utf-8", true},
	{"no space", "text/html;charset=utf-8", "text/html", "utf-8", true},
	{"case", "TEXT/HTML; CHARSET=UTF-8", "text/html", "UTF-8", true},
	{"no charset", "text/html", "text/html", "", false},
	{"empty", "", "", "", false},
	{"no subtype", "text; charset=utf-8", "", "", false},
	{"empty subtype", "text/; charset=utf-8", "", "", false},
	{"not a token type", "te xt/html; charset=utf-8", "", "", false},
	{"not a token subtype", "text/ht(ml; charset=utf-8", "", "", false},
	{"white space around", " \t text/html ; charset=utf-8 \r\n", "text/html", "utf-8", true},
	{"white space before =", "text/html; charset =utf-8", "text/html", "", false},
	{"white space after =", "text/html; charset= utf-8", "text/html", " utf-8", true},
	{"repeated: first wins", "text/html; charset=utf-8; charset=latin1", "text/html", "utf-8", true},
	{"invalid first, valid second", "text/html; charset=\x01; charset=gbk", "text/html", "gbk", true},
	{"empty value skipped", "text/html; charset=; charset=gbk", "text/html", "gbk", true},
	{"empty parameter", "text/html;;charset=gbk", "text/html", "gbk", true},
	{"name without value", "text/html; charset; charset=gbk", "text/html", "gbk", true},
	{"trailing garbage", "text/html; charset=Shift_JIS garbage", "text/html", "Shift_JIS garbage", true},
	{"quoted", "text/html; charset=\"utf-8\"", "text/html", "utf-8", true},
	{"unterminated quote", "text/html;charset=\"utf-8", "text/html", "utf-8", true},
	{"bytes after the quote", "text/html; charset=\"utf-8\"x; a=b", "text/html", "utf-8", true},
	{"quoted ;", "text/html; charset=\"utf;8\"", "text/html", "utf;8", true},
	{"escapes", "text/html; charset=\"\\u\\t\\f\\-\\8\"", "text/html", "utf-8", true},
	{"escaped quote", "text/html; charset=\"a\\\"b\"", "text/html", "a\"b", true},
	{"backslash at the end", "text/html; charset=\"utf-8\\", "text/html", "utf-8\\", true},
	{"empty quoted", "text/html; charset=\"\"", "text/html", "", true},
	{"single quotes do not quote", "text/html; charset='utf-8'", "text/html", "'utf-8'", true},
	{"single quotes and ;", "text/html; charset='a;b'", "text/html", "'a", true},
	{"control byte", "text/html; charset=utf\x00-8", "text/html", "", false},
	{"DEL", "text/html; charset=utf\x7f-8", "text/html", "", false},
	{"latin-1 byte", "text/html; charset=utf\xe9-8", "text/html", "utf\xe9-8", true},
	{"tab inside", "text/html; charset=utf\t8", "text/html", "utf\t8", true},
	{"parameter name not a token", "text/html; char(set=utf-8; charset=gbk", "text/html", "gbk", true},
	{"other parameters first", "text/html; q=1; format=flowed; charset=gbk", "text/html", "gbk", true},
	{"charset* is another name", "text/html; charset*=utf-8''gbk", "text/html", "", false},
	{"comma: last type wins", "text/html; charset=gbk, text/plain", "text/plain", "", false},
	{"comma: same essence carries the charset", "text/html; charset=gbk, text/html", "text/html", "gbk", true},
	{"comma: same essence, case", "text/html; charset=gbk, TEXT/HTML", "text/html", "gbk", true},
	{"comma: later charset", "text/html; charset=gbk, text/html; charset=big5", "text/html", "big5", true},
	{"comma: carried charset is the first", "text/html; charset=a, text/html; charset=b, text/html", "text/html", "a", true},
	{"comma: invalid later type ignored", "text/html; charset=gbk, nonsense", "text/html", "gbk", true},
	{"comma: */* ignored", "text/html; charset=gbk, */*", "text/html", "gbk", true},
	{"comma: */*; charset ignored", "*/*; charset=gbk", "", "", false},
	{"comma inside quotes", "text/html; charset=\"a,b\"", "text/html", "a,b", true},
	{"comma inside quotes then type", "text/plain; x=\"a,b\", text/html; charset=gbk", "text/html", "gbk", true},
	{"escaped quote inside quotes", "text/html; x=\"a\\\",b\", text/plain", "text/plain", "", false},
	{"drift: white space before the subtype", "text/ html; charset=koi8-r", "", "", false},
	{"white space after the subtype", "text/html ; charset=koi8-r", "text/html", "koi8-r", true},
	{"essence in upper case", "Text/HTML;Charset=\"Shift_JIS\"", "text/html", "Shift_JIS", true},
	{"xhtml", "application/xhtml+xml; charset=windows-1252", "application/xhtml+xml", "windows-1252", true},
	{"not HTML", "text/plain; charset=us-ascii", "text/plain", "us-ascii", true},
	{"two slashes", "text/html/junk; charset=gbk", "", "", false},
	{"no slash", "texthtml", "", "", false},
	{"empty type", "/html", "", "", false},
	{"only */*", "*/*", "", "", false},
	{"white space around an unquoted value", "text/html; charset= gbk ", "text/html", " gbk", true},
	{"comma: other type after quoted comma", "text/html; x=\"a,b\", text/plain", "text/plain", "", false},
}
