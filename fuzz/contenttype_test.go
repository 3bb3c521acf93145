package fuzz

import (
	"mime"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/charsniff/charsniff/internal/reference"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/sniff"
)

// A mimeDifference is a class of Content-Type values on which
// sniff.ContentTypeCharset (Fetch's "extract a MIME type") and
// mime.ParseMediaType (RFC 2045 and RFC 2231) both accept the value but may
// read its charset differently, by design. FuzzContentType skips exactly
// the values of these classes when it compares the two; README.md lists
// them too.
type mimeDifference struct {
	name string
	in   func(string) bool
}

var mimeDifferences = []mimeDifference{
	// mime trims Unicode white space (unicode.IsSpace: also \v, \f,
	// U+0085, U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029, U+202F,
	// U+205F, U+3000) around tokens and values; Fetch trims only HTTP
	// white space (tab, LF, CR, space), so for it "gbk\v" is a value with
	// a byte a parameter value may not hold (the parameter is dropped), and
	// "gbk\u00a0" is a value of its own. (\v and \f are also control
	// characters that mime keeps in a quoted value; they are in this class
	// only.)
	{"Unicode white space other than HTTP white space", func(s string) bool {
		for _, r := range s {
			if unicode.IsSpace(r) && !isHTTPWhitespace(r) {
				return true
			}
		}
		return false
	}},
	// mime accepts control characters inside a quoted value (all but CR
	// and LF); Fetch drops a parameter whose value holds anything but tab,
	// 20-7E and 80-FF.
	{"a control character other than white space (00-08, 0E-1F, 7F)", func(s string) bool {
		for i := 0; i < len(s); i++ {
			if c := s[i]; c <= 0x08 || 0x0E <= c && c <= 0x1F || c == 0x7F {
				return true
			}
		}
		return false
	}},
	// mime's quoted strings unescape only RFC 2045 tspecials and keep the
	// backslash before anything else ("gb\k" stays `gb\k`, for MSIE
	// paths); Fetch removes every backslash escape ("gbk").
	{"a backslash that does not escape a tspecial", func(s string) bool {
		for i := 0; i < len(s); i++ {
			if s[i] == '\\' {
				if i+1 == len(s) || !isTSpecial(s[i+1]) {
					return true
				}
				i++
			}
		}
		return false
	}},
	// mime skips white space between a parameter name and = and after =;
	// for Fetch, "charset =gbk" has the name "charset " (not a token: the
	// parameter is dropped) and "charset= gbk" the value " gbk".
	{"white space before or after the = of a charset parameter", func(s string) bool {
		lower := asciiLower(s)
		for i := strings.Index(lower, "charset"); i >= 0; {
			j := i + len("charset")
			rest := s[j:]
			trimmed := strings.TrimLeftFunc(rest, unicode.IsSpace)
			if strings.HasPrefix(trimmed, "=") {
				if len(trimmed) != len(rest) {
					return true
				}
				if r, _ := utf8.DecodeRuneInString(trimmed[1:]); unicode.IsSpace(r) {
					return true
				}
			}
			k := strings.Index(lower[j:], "charset")
			if k < 0 {
				break
			}
			i = j + k
		}
		return false
	}},
	// RFC 2231: mime decodes charset*=utf-8''gbk and charset*0=..., and
	// lets them replace charset; for Fetch they are parameters with other
	// names.
	{"an RFC 2231 charset* parameter", func(s string) bool {
		return strings.Contains(asciiLower(s), "charset*")
	}},
}

// FuzzContentType checks sniff.ContentTypeCharset, the transport layer's
// charset extraction: it never panics; it answers exactly as the literal
// transcription of Fetch (reference.ContentTypeCharset) does; the
// transport step of sniff.Sniff uses the encoding that charset names; it
// does not allocate unless it removes backslash escapes. And where both
// Fetch and mime.ParseMediaType accept the value as a MIME type, they agree
// on the charset parameter (whether there is one and its value), except
// for the deliberate differences in mimeDifferences.
func FuzzContentType(f *testing.F) {
	for _, s := range nastyContentTypes {
		f.Add(s)
	}
	for _, s := range []string{
		"text/html; charset=UTF-8", "application/xhtml+xml;charset=\"iso-8859-2\"", `text/html; foo="a;b"; charset=gbk`,
		`text/html; charset="gb\"k"`, "text/html; charset=gbk; charset=gbk", "text/html; CHARSET=gbk; foo=bar",
		"text/html; charset=gbk;", "text/html; charset=gbk; x*=utf-8''a", "text/html;\tcharset=\"\t gbk \t\"",
		"text/html; charset=\"gbk\" ", "text/html; x={a}; charset=gbk", "te{t/html; charset=gbk",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, ct string) {
		got, ok := sniff.ContentTypeCharset(ct)
		want, wantOK := reference.ContentTypeCharset(ct)
		if got != want || ok != wantOK {
			t.Fatalf("ContentTypeCharset(%q) = %q, %v, reference says %q, %v", ct, got, ok, want, wantOK)
		}

		// The transport step is get an encoding of that charset.
		r := sniff.Sniff(nil, &sniff.Options{ContentType: ct, NoAutodetect: true})
		enc, named := override.Lookup(got)
		named = named && ok
		if named != (r.Source == sniff.SourceTransport) || named && r.Encoding != enc {
			t.Fatalf("Sniff with Content-Type %q = %+v, but its charset %q, %v names %v, %v", ct, r, got, ok, enc, named)
		}

		// No allocation without escapes to remove (a sample: AllocsPerRun
		// stops the world).
		if len(ct)%8 == 5 && !strings.Contains(ct, `\`) {
			if a := allocsPerCall(func() { sniff.ContentTypeCharset(ct) }); a != 0 {
				t.Fatalf("ContentTypeCharset(%q) allocated %v times, want 0", ct, a)
			}
		}

		// mime.ParseMediaType, where both accept the value.
		_, params, err := mime.ParseMediaType(ct)
		if err != nil || reference.ExtractMIMEType(ct) == nil {
			return
		}
		mimeCharset, mimeOK := params["charset"]
		if mimeCharset == got && mimeOK == ok {
			return
		}
		for _, d := range mimeDifferences {
			if d.in(ct) {
				return
			}
		}
		t.Fatalf("ContentTypeCharset(%q) = %q, %v, mime.ParseMediaType says %q, %v", ct, got, ok, mimeCharset, mimeOK)
	})
}

// isHTTPWhitespace reports whether r is tab, LF, CR or space.
func isHTTPWhitespace(r rune) bool { return r == '\t' || r == '\n' || r == '\r' || r == ' ' }

// isTSpecial reports whether c is one of RFC 2045's tspecials.
func isTSpecial(c byte) bool { return strings.IndexByte(`()<>@,;:\"/[]?=`, c) >= 0 }

// asciiLower maps A-Z to a-z, leaving every other byte as it is, so that
// indexes into the result are indexes into s.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// TestMIMEDifferences shows each class of mimeDifferences with a value that
// both parsers accept and read differently, so that none of the skips in
// FuzzContentType is there for nothing.
func TestMIMEDifferences(t *testing.T) {
	tests := []struct {
		class int // index into mimeDifferences
		in    string
	}{
		{0, "text/html; charset=gbk\u00a0"},
		{0, "text/html; charset=gbk\v"},
		{1, "text/html; charset=\"g\x01bk\""},
		{2, `text/html; charset="gb\k"`},
		{3, "text/html; charset = gbk"},
		{3, "text/html; charset= gbk"},
		{4, "text/html; charset*=utf-8''gbk"},
		{4, "text/html; charset=big5; charset*0=gbk"},
	}
	for _, tc := range tests {
		d := mimeDifferences[tc.class]
		t.Run(d.name, func(t *testing.T) {
			got, ok := sniff.ContentTypeCharset(tc.in)
			_, params, err := mime.ParseMediaType(tc.in)
			if err != nil || reference.ExtractMIMEType(tc.in) == nil {
				t.Fatalf("%q: mime.ParseMediaType error %v, Fetch MIME type %v: want both to accept", tc.in, err, reference.ExtractMIMEType(tc.in))
			}
			if cs, has := params["charset"]; cs == got && has == ok {
				t.Errorf("%q: both read charset %q, %v; want a difference", tc.in, got, ok)
			}
			for i, other := range mimeDifferences {
				if in := other.in(tc.in); in != (i == tc.class) {
					t.Errorf("%q: in class %q is %v", tc.in, other.name, in)
				}
			}
		})
	}
}
