package warc

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestFieldParser feeds the same lines to the strict parser of a record
// header and the lenient one of a stored HTTP header: the fields they
// keep, and where the strict one stops.
func TestFieldParser(t *testing.T) {
	for _, tc := range []struct {
		desc   string
		lines  []string
		strict string // the fields, or the error, of a record header
		http   string // of a stored HTTP header
	}{
		{"fields", []string{"WARC-Type: response\r\n", "Content-Length:  12 \r\n", "\r\n"},
			"Content-Length=[12] Warc-Type=[response] end", "Content-Length=[12] Warc-Type=[response] end"},
		{"LF and no line ending", []string{"A: 1\n", "b: 2", "\n"}, "A=[1] B=[2] end", "A=[1] B=[2] end"},
		{"empty line ends", []string{"A: 1", ""}, "A=[1] end", "A=[1] end"},
		{"folded", []string{"A: 1\r\n", " two\r\n", "\tthree \r\n", "A: 4\r\n"},
			"A=[1 two three 4]", "A=[1 two three 4]"},
		{"fold first", []string{" x\r\n", "A: 1\r\n"},
			`error malformed record header: continuation line " x\r\n" without a field`, "A=[1]"},
		{"no colon", []string{"A: 1\r\n", "junk\r\n", " more\r\n", "B: 2\r\n"},
			`error malformed record header: bad field line "junk\r\n"`, "A=[1] B=[2]"},
		{"space before colon", []string{"A : 1\r\n"},
			`error malformed record header: bad field line "A : 1\r\n"`, "A=[1]"},
		{"empty name", []string{": 1\r\n", "B: 2\r\n"},
			`error malformed record header: bad field line ": 1\r\n"`, "B=[2]"},
		{"version line", []string{"A: 1\r\n", "B: cut WARC/1.0\r\n"},
			"error version line in a record header", "A=[1] B=[cut WARC/1.0]"},
		{"too long", []string{"A: " + strings.Repeat("x", maxHeader) + "\r\n"},
			"error malformed record header: header longer than 262144 bytes", "error header longer than 262144 bytes"},
	} {
		for _, strict := range []bool{true, false} {
			kind, want := ErrHTTP, tc.http
			if strict {
				kind, want = ErrBadHeader, tc.strict
			}
			p := fieldParser{h: map[string][]string{}, strict: strict, kind: kind}
			var got []string
			for _, line := range tc.lines {
				end, err := p.add([]byte(line))
				if err != nil {
					if err != errNextRecord && !errors.Is(err, kind) {
						t.Errorf("%s: error %v does not wrap %v", tc.desc, err, kind)
					}
					got = []string{"error " + strings.TrimPrefix(strings.TrimPrefix(err.Error(), "warc: "), "malformed HTTP response: ")}
					break
				}
				if end {
					got = append(fieldList(p.h), "end")
					break
				}
			}
			if got == nil {
				got = fieldList(p.h)
			}
			if s := strings.Join(got, " "); s != want {
				t.Errorf("%s (strict %v):\ngot  %s\nwant %s", tc.desc, strict, s, want)
			}
		}
	}
}

// fieldList lists h's fields in key order as "Key=[values]".
func fieldList(h map[string][]string) []string {
	var out []string
	for k, v := range h {
		out = append(out, fmt.Sprintf("%s=%v", k, v))
	}
	slices.Sort(out)
	return out
}

// TestTchar checks the token table against RFC 9110's tchar, byte by byte.
func TestTchar(t *testing.T) {
	for c := range 256 {
		want := c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' ||
			strings.IndexByte("!#$%&'*+-.^_`|~", byte(c)) >= 0
		if tchar[c] != want {
			t.Errorf("tchar[%#x] = %v, want %v", c, tchar[c], want)
		}
	}
}
