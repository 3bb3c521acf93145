package decode_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/override"
)

// TestTableWords puts each byte that the single-byte fast paths must treat
// with care (non-ASCII bytes making two or three bytes of UTF-8, one or two
// in a word, CR, CR LF, NUL, LF, TAB) at every position of runs of ASCII,
// of Cyrillic and of accented Latin text, after a first line that sets the
// table path's mode (ASCII, Latin or dense), and checks the output,
// through WriteTo and through small Reads, against the reference decoder.
func TestTableWords(t *testing.T) {
	encs := []override.Encoding{override.Windows1251, override.Windows1252, override.XUserDefined}
	// In windows-1251, 0xC0-0xFF are Cyrillic letters; in windows-1252
	// they are accented Latin letters.
	firsts := []struct {
		desc, text string
	}{
		{"after ASCII", strings.Repeat("plain ascii text ", 20) + "\r\n"},
		{"after Latin", strings.Repeat("le caf\xE9 est tr\xE8s bon, ", 14) + "\r\n"},
		{"after dense", strings.Repeat("\xEF\xF0\xE8\xE2\xE5\xF2 \xEC\xE8\xF0 ", 30) + "\r\n"},
	}
	runs := []string{
		strings.Repeat("abcdefgh", 9),
		strings.Repeat("\xEF\xF0\xE8\xE2\xE5\xF2 ", 10), // dense
		strings.Repeat("caf\xE9 na\xEFve ", 6),          // sparse
	}
	odd := []string{
		"\x80", "\x88", "\x98", "\xA0", "\xE9", "\xFF", "\xC0\xFF", "\xE9a\xE9",
		"\r", "\r\n", "\n\r", "\x00", "\n", "\t",
	}
	for _, e := range encs {
		for _, first := range firsts {
			decode.EachInsertion(runs, odd, func(s []byte) {
				in := []byte(first.text + string(s) + first.text)
				want := refDecode(t, e, in, false, full, true)
				for _, bufSize := range []int{0, 100} {
					got, err := decodeAll(t, bytes.NewReader(in), bufSize, decode.WithEncoding(e))
					if err != nil || !bytes.Equal(got, want) {
						t.Fatalf("%s, %s, %q, buffer %d: got %q, %v, want %q",
							e, first.desc, s, bufSize, got, err, want)
					}
				}
			})
		}
	}
}
