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

// TestUTF8Words puts each sequence that the word-at-a-time UTF-8 paths must
// hand to the careful path (E0 and ED leads, valid or not, four-byte
// sequences, bad trail bytes, C0/C1 leads, CR, NUL, a cut-off sequence) at
// every position of runs of two- and three-byte characters and of ASCII,
// short and long (for the vector sweep, sweep_amd64.s), and checks the
// output against the reference decoder, with the input whole and one byte
// a Read.
func TestUTF8Words(t *testing.T) {
	runs := []struct {
		desc, text string
	}{
		{"three-byte", strings.Repeat("日本語の文字", 4)},
		{"two-byte", strings.Repeat("русский", 4)},
		{"mixed", strings.Repeat("日本 語a\u00e9の", 4)},
		{"ASCII", strings.Repeat("abcdefgh", 5)},
		// Long enough for the vector sweep to take each odd sequence
		// at every offset of its 32-byte blocks.
		{"three-byte, long", strings.Repeat("日本語の文字", 9)},
		{"two-byte, long", strings.Repeat("русский", 12)},
		{"mixed lines, long", strings.Repeat("日本 語a\u00e9の\r\n", 9)},
		{"short lines, long", strings.Repeat("<p>ab\r\n", 24)},
	}
	odd := []string{
		"\xE0\xA0\x80", "\xE0\x9F\xBF", "\xED\x9F\xBF", "\xED\xA0\x80", "\xEC\xBF\xBF", "\xEE\x80\x80",
		"\xE1\x80", "\xE1\x41\x80", "\xE1\x80\x41", "\xE1\xC0\x80", "\xEF\xBF",
		"\xC0\x80", "\xC1\xBF", "\xC2\x80", "\xDF\xBF", "\xC2\x41", "\xC2",
		"\xF0\x9F\x98\x80", "\xF4\x90\x80\x80", "\x80", "\xFF",
		"\r", "\r\n", "\x00", "\n", "a",
		// Runs of ill-formed bytes (text in another encoding), CR and NUL
		// among non-ASCII bytes.
		"\xC0\xC1\xFF\x80\xE3", "\xE3\x81\xE3\x81\x82\xCF", "\xE3\r\x81\x82", "\xE3\x81\x00\x82", "\r\x00\r",
	}
	for _, run := range runs {
		for _, o := range odd {
			for p := 0; p <= len(run.text); p++ {
				in := []byte(run.text[:p] + o + run.text[p:])
				want := refDecode(t, override.UTF8, in, false, full, true)
				r, err := decode.NewReader(bytes.NewReader(in), withEncoding("utf-8"), noAutodetect)
				if err != nil {
					t.Fatal(err)
				}
				var got bytes.Buffer
				if _, err := r.WriteTo(&got); err != nil || !bytes.Equal(got.Bytes(), want) {
					t.Errorf("%s, %q at %d: got %q, %v, want %q", run.desc, o, p, got.Bytes(), err, want)
				}
				// One byte a Read: sequences, CR LF and runs cut at every
				// place by the end of the input so far.
				r, err = decode.NewReader(iotest.OneByteReader(bytes.NewReader(in)), withEncoding("utf-8"), noAutodetect)
				if err != nil {
					t.Fatal(err)
				}
				if got, err := io.ReadAll(r); err != nil || !bytes.Equal(got, want) {
					t.Errorf("%s, %q at %d, one byte a Read: got %q, %v, want %q", run.desc, o, p, got, err, want)
				}
			}
		}
	}
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
		for _, src := range []io.Reader{bytes.NewReader(in), iotest.OneByteReader(bytes.NewReader(in))} {
			r, err := decode.NewReader(src, opts...)
			if err != nil {
				t.Fatal(err)
			}
			if got, err := io.ReadAll(r); err != nil || !bytes.Equal(got, want) {
				t.Fatalf("decode(%q): got %q, %v, want %q", in, got, err, want)
			}
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
		r, err := decode.NewReader(bytes.NewReader(in), withEncoding("utf-8"), noAutodetect)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := readAll(t, r, size); err != nil || !bytes.Equal(got, want) {
			t.Errorf("Read into %d bytes: got %d bytes, %v; want %d bytes", size, len(got), err, len(want))
		}
	}
}
