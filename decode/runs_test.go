package decode_test

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/internal/testutil"
	"github.com/charsniff/charsniff/override"
)

// TestRuns puts runs of NUL bytes, and runs of line ends (empty lines,
// short lines: several LFs to drop in one 32-byte block), of many lengths
// at and around the edges of the Reader's 4 KB buffers and of the reads,
// in text of each path's encodings, and checks Read (buffers of several
// sizes, down to one byte), ReadRune and WriteTo against the reference
// decoder, with the preprocessing on and off, the source whole and cut
// into pieces that end inside the runs.
func TestRuns(t *testing.T) {
	runs := []string{"\x00", "\r\n", "\r", "\r\n\r\n", "\r\r\n", "a\r\n", "\x00\r\n"}
	lengths := []int{1, 2, 8, 9, 33, 1366, 4097}
	starts := []int{0, 31, 4093, 4095}
	if testing.Short() || testutil.Race {
		lengths, starts = []int{1, 9, 33, 1366}, []int{0, 4095}
	}
	for _, label := range []string{"utf-8", "windows-1252", "windows-1251", "shift_jis", "utf-16le"} {
		e, _ := override.Lookup(label)
		text := strings.Repeat("abcdefgh", 1200)
		if label == "utf-16le" {
			// Each byte a character: the runs' bytes as their own.
			text = strings.Repeat("abcd", 600)
		}
		for _, run := range runs {
			for _, n := range lengths {
				for _, at := range starts {
					r := strings.Repeat(run, n)
					if label == "utf-16le" {
						r = toUTF16LE(r)
					}
					in := []byte(text[:min(at, len(text))] + r + text[min(at, len(text)):])
					name := fmt.Sprintf("%s/%q×%d@%d", label, run, n, at)
					checkRuns(t, name, e, in, at, len(r))
				}
			}
		}
	}
}

// toUTF16LE returns the UTF-16LE of s, which is ASCII.
func toUTF16LE(s string) string {
	var b strings.Builder
	for i := range len(s) {
		b.WriteByte(s[i])
		b.WriteByte(0)
	}
	return b.String()
}

// checkRuns decodes in, which has a run of length n at at, every way
// TestRuns says, and fails t where the output is not the reference's.
func checkRuns(t *testing.T, name string, e override.Encoding, in []byte, at, n int) {
	t.Helper()
	for _, p := range []struct {
		desc string
		opts []decode.Option
		ref  prep
	}{
		{"on", []decode.Option{decode.WithEncoding(e)}, full},
		{"raw", []decode.Option{decode.WithEncoding(e), decode.WithoutPreprocessing()}, none},
	} {
		want := refDecode(t, e, in, false, p.ref, true)
		cuts := [][]int{nil, {at + 1, 3, 4096}, {at + n/2, 1}, {at + n - 1, 2, 0}}
		for _, cut := range cuts {
			src := func() *bytes.Reader { return bytes.NewReader(in) }
			for _, size := range []int{-1, 0, 1, 5, 4096, 32 << 10} {
				var got []byte
				var err error
				if cut == nil {
					got, err = decodeAll(t, src(), size, p.opts...)
				} else {
					got, err = decodeAll(t, testutil.ChunkReader(in, cut...), size, p.opts...)
				}
				if err != nil || !bytes.Equal(got, want) {
					t.Fatalf("%s %s, cut %v, buffer %d: %v\ngot  %q\nwant %q", name, p.desc, cut, size, err, clip(got), clip(want))
				}
			}
		}
		r, _ := decode.NewReader(testutil.ChunkReader(in, at+1, 7), p.opts...)
		got, err := runeAll(t, r)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s %s, ReadRune: %v\ngot  %q\nwant %q", name, p.desc, err, clip(got), clip(want))
		}
	}
}

// clip shortens b for a failure message.
func clip(b []byte) []byte {
	if len(b) > 200 {
		return append(b[:200:200], "…"...)
	}
	return b
}

// stutterWriter takes at most 5 bytes a Write, and says so with
// errStutter.
type stutterWriter struct{ bytes.Buffer }

var errStutter = errors.New("stutter")

func (w *stutterWriter) Write(p []byte) (int, error) {
	if len(p) > 5 {
		w.Buffer.Write(p[:5])
		return 5, errStutter
	}
	return w.Buffer.Write(p)
}

// TestWriteToShortRuns calls WriteTo again after each short write, which
// may end inside the U+FFFD of a NUL, until it is done: the text written
// must be the reference's, on the UTF-8 and table paths.
func TestWriteToShortRuns(t *testing.T) {
	in := []byte("ab" + strings.Repeat("\x00", 5000) + "cd\x00\x00")
	for _, label := range []string{"utf-8", "windows-1252"} {
		e, _ := override.Lookup(label)
		want := refDecode(t, e, in, false, full, true)
		r, _ := decode.NewReader(bytes.NewReader(in), decode.WithEncoding(e))
		var w stutterWriter
		var total int64
		for range 10000 {
			n, err := r.WriteTo(&w)
			total += n
			if err == nil {
				break
			}
			if err != errStutter {
				t.Fatalf("%s: WriteTo error %v", label, err)
			}
		}
		if !bytes.Equal(w.Bytes(), want) || total != int64(len(want)) {
			t.Errorf("%s: wrote %d bytes:\ngot  %q\nwant %q", label, total, clip(w.Bytes()), clip(want))
		}
	}
}
