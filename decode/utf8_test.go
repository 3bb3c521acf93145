package decode_test

import (
	"bytes"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/override"
)

// TestUTF8Words puts each sequence that the word-at-a-time UTF-8 paths must
// hand to the careful path (decode.UTF8Odd: E0 and ED leads, valid or not,
// four-byte sequences, bad trail bytes, C0/C1 leads, CR, NUL, cut-off
// sequences) at every position of runs of two- and three-byte characters
// and of ASCII, short (decode.UTF8Runs) and long (for the vector sweep,
// sweep_amd64.s), and checks the output against the reference decoder,
// with the input whole and one byte a Read.
func TestUTF8Words(t *testing.T) {
	// Long enough for the vector sweep to take each odd sequence at
	// every offset of its 32-byte blocks.
	runs := append([]string{
		strings.Repeat("日本語の文字", 9),
		strings.Repeat("русский", 12),
		strings.Repeat("日本 語a\u00e9の\r\n", 9),
		strings.Repeat("<p>ab\r\n", 24),
	}, decode.UTF8Runs...)
	opts := []decode.Option{withEncoding("utf-8"), noAutodetect}
	decode.EachInsertion(runs, decode.UTF8Odd, func(in []byte) {
		want := refDecode(t, override.UTF8, in, false, full, true)
		if got, err := decodeAll(t, bytes.NewReader(in), 0, opts...); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%q: got %q, %v, want %q", in, got, err, want)
		}
		// One byte a Read: sequences, CR LF and runs cut at every place
		// by the end of the input so far.
		if got, err := decodeAll(t, iotest.OneByteReader(bytes.NewReader(in)), -1, opts...); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%q, one byte a Read: got %q, %v, want %q", in, got, err, want)
		}
	})
}

// FuzzUTF8 checks the UTF-8 path against the reference decoder, with the
// input whole and one byte a Read, with and without the preprocessing.
func FuzzUTF8(f *testing.F) {
	f.Add([]byte(strings.Repeat("日本語の文字 text\r\n", 4)), false)
	f.Add([]byte(strings.Repeat("русский\x00текст, ", 5)), true)
	f.Add([]byte("\xED\xA0\x80\xE0\x80\x80\xF0\x9F\x98\x80\xC0\x80 한국어\xE3\x81"), false)
	f.Fuzz(func(t *testing.T, in []byte, raw bool) {
		opts, p := []decode.Option{withEncoding("utf-8"), noAutodetect}, full
		if raw {
			opts, p = append(opts, decode.WithoutPreprocessing()), none
		}
		want := refDecode(t, override.UTF8, in, false, p, true)
		if got, err := decodeAll(t, bytes.NewReader(in), -1, opts...); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("decode(%q): got %q, %v, want %q", in, got, err, want)
		}
		if got, err := decodeAll(t, iotest.OneByteReader(bytes.NewReader(in)), -1, opts...); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("decode(%q), one byte a Read: got %q, %v, want %q", in, got, err, want)
		}
	})
}

// TestUTF8Backoff decodes stretches of text in another encoding (ill-formed
// as UTF-8, where the vector sweep backs off) between long stretches of
// valid UTF-8 with CR LF (where it must take over again), through Reads of
// several sizes, against the reference decoder.
func TestUTF8Backoff(t *testing.T) {
	latin := strings.Repeat("caf\xE9 cr\xE8me br\xFBl\xE9e \r\n", 150)
	valid := strings.Repeat("日本語の文字 and ASCII, ça va\r\n", 200)
	in := []byte(latin + valid + latin[:700] + valid + "\xE3\x81")
	want := refDecode(t, override.UTF8, in, false, full, true)
	for _, size := range []int{100, 4096, 32 << 10} {
		if got, err := decodeAll(t, bytes.NewReader(in), size, withEncoding("utf-8"), noAutodetect); err != nil || !bytes.Equal(got, want) {
			t.Errorf("Read into %d bytes: got %d bytes, %v; want %d bytes", size, len(got), err, len(want))
		}
	}
}
