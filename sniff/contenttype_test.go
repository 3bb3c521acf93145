package sniff_test

import (
	"mime"
	"strings"
	"testing"

	"github.com/charsniff/charsniff/internal/reference"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

var contentTypeCases = []struct {
	desc string
	in   string
	want string
	ok   bool
}{
	{"plain", "text/html; charset=utf-8", "utf-8", true},
	{"no space", "text/html;charset=utf-8", "utf-8", true},
	{"case", "TEXT/HTML; CHARSET=UTF-8", "UTF-8", true},
	{"no charset", "text/html", "", false},
	{"empty", "", "", false},
	{"no subtype", "text; charset=utf-8", "", false},
	{"empty subtype", "text/; charset=utf-8", "", false},
	{"not a token type", "te xt/html; charset=utf-8", "", false},
	{"not a token subtype", "text/ht(ml; charset=utf-8", "", false},
	{"white space around", " \t text/html ; charset=utf-8 \r\n", "utf-8", true},
	{"white space before =", "text/html; charset =utf-8", "", false},
	{"white space after =", "text/html; charset= utf-8", " utf-8", true},
	{"repeated: first wins", "text/html; charset=utf-8; charset=latin1", "utf-8", true},
	{"invalid first, valid second", "text/html; charset=\x01; charset=gbk", "gbk", true},
	{"empty value skipped", "text/html; charset=; charset=gbk", "gbk", true},
	{"empty parameter", "text/html;;charset=gbk", "gbk", true},
	{"name without value", "text/html; charset; charset=gbk", "gbk", true},
	{"trailing garbage", "text/html; charset=Shift_JIS garbage", "Shift_JIS garbage", true},
	{"quoted", `text/html; charset="utf-8"`, "utf-8", true},
	{"unterminated quote", `text/html;charset="utf-8`, "utf-8", true},
	{"bytes after the quote", `text/html; charset="utf-8"x; a=b`, "utf-8", true},
	{"quoted ;", `text/html; charset="utf;8"`, "utf;8", true},
	{"escapes", `text/html; charset="\u\t\f\-\8"`, "utf-8", true},
	{"escaped quote", `text/html; charset="a\"b"`, `a"b`, true},
	{"backslash at the end", `text/html; charset="utf-8\`, `utf-8\`, true},
	{"empty quoted", `text/html; charset=""`, "", true},
	{"single quotes do not quote", `text/html; charset='utf-8'`, "'utf-8'", true},
	{"single quotes and ;", `text/html; charset='a;b'`, "'a", true},
	{"control byte", "text/html; charset=utf\x00-8", "", false},
	{"DEL", "text/html; charset=utf\x7F-8", "", false},
	{"latin-1 byte", "text/html; charset=utf\xE9-8", "utf\xE9-8", true},
	{"tab inside", "text/html; charset=utf\t8", "utf\t8", true},
	{"parameter name not a token", "text/html; char(set=utf-8; charset=gbk", "gbk", true},
	{"other parameters first", "text/html; q=1; format=flowed; charset=gbk", "gbk", true},
	{"charset* is another name", "text/html; charset*=utf-8''gbk", "", false},
	{"comma: last type wins", "text/html; charset=gbk, text/plain", "", false},
	{"comma: same essence carries the charset", "text/html; charset=gbk, text/html", "gbk", true},
	{"comma: same essence, case", "text/html; charset=gbk, TEXT/HTML", "gbk", true},
	{"comma: later charset", "text/html; charset=gbk, text/html; charset=big5", "big5", true},
	{"comma: carried charset is the first", "text/html; charset=a, text/html; charset=b, text/html", "a", true},
	{"comma: invalid later type ignored", "text/html; charset=gbk, nonsense", "gbk", true},
	{"comma: */* ignored", "text/html; charset=gbk, */*", "gbk", true},
	{"comma: */*; charset ignored", "*/*; charset=gbk", "", false},
	{"comma inside quotes", `text/html; charset="a,b"`, "a,b", true},
	{"comma inside quotes then type", `text/plain; x="a,b", text/html; charset=gbk`, "gbk", true},
	{"escaped quote inside quotes", `text/html; x="a\",b", text/plain`, "", false},
}

func TestContentTypeCharset(t *testing.T) {
	for _, tc := range contentTypeCases {
		t.Run(tc.desc, func(t *testing.T) {
			got, ok := sniff.ContentTypeCharset(tc.in)
			if got != tc.want || ok != tc.ok {
				t.Errorf("ContentTypeCharset(%q) = %q, %v, want %q, %v", tc.in, got, ok, tc.want, tc.ok)
			}
			want, wantOK := reference.ContentTypeCharset(tc.in)
			if got != want || ok != wantOK {
				t.Errorf("ContentTypeCharset(%q) = %q, %v, reference says %q, %v", tc.in, got, ok, want, wantOK)
			}
		})
	}
}

// FuzzContentTypeCharset compares ContentTypeCharset with the literal
// reference (exactly) and with mime.ParseMediaType (where the two parsers
// agree by design).
func FuzzContentTypeCharset(f *testing.F) {
	for _, tc := range contentTypeCases {
		f.Add(tc.in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, ok := sniff.ContentTypeCharset(in)
		want, wantOK := reference.ContentTypeCharset(in)
		if got != want || ok != wantOK {
			t.Fatalf("ContentTypeCharset(%q) = %q, %v, reference says %q, %v", in, got, ok, want, wantOK)
		}
		// The transport step must agree with looking the charset up.
		r := sniff.Sniff(nil, &sniff.Options{ContentType: in})
		enc, found := override.Lookup(got)
		found = found && ok
		if found != (r.Source == sniff.SourceTransport) || (found && enc != r.Encoding) {
			t.Fatalf("Sniff with Content-Type %q = %+v, but the charset %q, %v names %v, %v", in, r, got, ok, enc, found)
		}

		// mime.ParseMediaType follows RFC 2045/2231 and rejects or reads
		// differently much of what Fetch accepts (see ContentTypeCharset).
		// Compare where both read the same grammar: one MIME type, no
		// quotes, escapes, commas, stars or repeated parameters.
		if strings.ContainsAny(in, "\",*\\\x00") || !ok {
			return
		}
		_, params, err := mime.ParseMediaType(in)
		if err != nil {
			return
		}
		// White space after = is part of a Fetch value; get an encoding
		// removes it.
		if cs, has := params["charset"]; has && cs != strings.Trim(got, " \t") {
			t.Fatalf("ContentTypeCharset(%q) = %q, mime.ParseMediaType says %q", in, got, cs)
		}
	})
}
