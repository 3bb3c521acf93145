package decode_test

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"

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

// TestDenseCRLF decodes long Cyrillic texts whose lines end in CR LF, CR,
// LF or CR CR LF, with here and there a NUL, in windows-1251, KOI8-R and
// ISO-8859-5 (dense text, whose table loop decodes through CRs and
// normalizes after), and checks them against the reference through
// WriteTo, Reads of several sizes, one-byte and half reads of the source,
// and without the preprocessing. The texts span many of the Reader's
// input buffers, so line ends fall at every place of its calls.
func TestDenseCRLF(t *testing.T) {
	// The letters of "привет мир " in windows-1251, KOI8-R and ISO-8859-5.
	words := map[override.Encoding]string{
		override.Windows1251: "\xEF\xF0\xE8\xE2\xE5\xF2 \xEC\xE8\xF0 ",
		override.KOI8R:       "\xD0\xD2\xC9\xD7\xC5\xD4 \xCD\xC9\xD2 ",
		override.ISO8859_5:   "\xDF\xE0\xD8\xD2\xD5\xE2 \xDC\xD8\xE0 ",
	}
	ends := []string{"\r\n", "\r\n", "\r\n", "\r", "\n", "\r\r\n", "\r\n\x00", "\r\x00\n"}
	for e, word := range words {
		for _, long := range []bool{false, true} {
			var b bytes.Buffer
			if long {
				// A first line of 440 bytes.
				b.WriteString(strings.Repeat(word, 40) + "\r\n")
			}
			for i := 0; b.Len() < 70000; i++ {
				// Lines of 1 to 12 words, and now and then an empty one.
				b.WriteString(strings.Repeat(word, i*7%13))
				b.WriteString(ends[i*5%len(ends)])
			}
			in := b.Bytes()
			want := refDecode(t, e, in, false, full, true)
			for _, bufSize := range []int{0, 1, 100, 4096, 32 << 10} {
				got, err := decodeAll(t, bytes.NewReader(in), bufSize, decode.WithEncoding(e))
				if err != nil || !bytes.Equal(got, want) {
					t.Fatalf("%s, long first line %v, buffer %d: %d bytes, %v; want %d bytes (first difference at %d)",
						e, long, bufSize, len(got), err, len(want), firstDiff(got, want))
				}
			}
			for name, src := range map[string]io.Reader{
				"one byte": iotest.OneByteReader(bytes.NewReader(in)),
				"half":     iotest.HalfReader(bytes.NewReader(in)),
			} {
				got, err := decodeAll(t, src, 1000, decode.WithEncoding(e))
				if err != nil || !bytes.Equal(got, want) {
					t.Fatalf("%s, long first line %v, %s reads: %d bytes, %v; want %d bytes (first difference at %d)",
						e, long, name, len(got), err, len(want), firstDiff(got, want))
				}
			}
			raw := refDecode(t, e, in, false, none, true)
			got, err := decodeAll(t, bytes.NewReader(in), 0, decode.WithEncoding(e), decode.WithoutPreprocessing())
			if err != nil || !bytes.Equal(got, raw) {
				t.Fatalf("%s, long first line %v, without preprocessing: %d bytes, %v; want %d bytes (first difference at %d)",
					e, long, len(got), err, len(raw), firstDiff(got, raw))
			}
		}
	}
}

// firstDiff returns the first index at which a and b differ, or the length
// of the shorter if one is a prefix of the other.
func firstDiff(a, b []byte) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}
