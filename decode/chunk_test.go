package decode_test

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/internal/testutil"
	"github.com/charsniff/charsniff/override"
)

// streamInput returns a test input for one encoding: all of its vectors'
// inputs, joined with CR LF, lone CR, CR CR LF and NUL bytes between them,
// so that every vector's bytes meet those at every alignment.
func streamInput(vectors []testutil.Vector) []byte {
	seps := []string{"\r\n", "\r", "\x00", "\r\r\n", "\n\r", "x"}
	var b []byte
	for i, v := range vectors {
		b = append(b, v.In...)
		b = append(b, seps[i%len(seps)]...)
	}
	return b
}

// sources are the ways the property tests feed a Reader.
var sources = []struct {
	desc string
	wrap func([]byte) io.Reader
}{
	{"whole", func(b []byte) io.Reader { return bytes.NewReader(b) }},
	{"OneByteReader", func(b []byte) io.Reader { return iotest.OneByteReader(bytes.NewReader(b)) }},
	{"HalfReader", func(b []byte) io.Reader { return iotest.HalfReader(bytes.NewReader(b)) }},
	{"DataErrReader", func(b []byte) io.Reader { return iotest.DataErrReader(bytes.NewReader(b)) }},
	{"TimeoutReader", func(b []byte) io.Reader { return iotest.TimeoutReader(iotest.HalfReader(bytes.NewReader(b))) }},
	{"chunks-1-2-3-0", func(b []byte) io.Reader { return testutil.ChunkReader(b, 1, 2, 3, 0) }},
	{"chunks-7-4095-0-0", func(b []byte) io.Reader { return testutil.ChunkReader(b, 7, 4095, 0, 0) }},
}

// TestChunking reads every encoding's stream input through each kind of
// source, with read buffers of several sizes, with ReadRune and with
// WriteTo: the output must always be the one-shot reference's.
func TestChunking(t *testing.T) {
	vectors, labels := testutil.Vectors(t)
	for _, label := range labels {
		t.Run(label, func(t *testing.T) {
			in := streamInput(vectors[label])
			e, _ := override.Lookup(label)
			for _, p := range []struct {
				desc string
				opt  decode.Option
				ref  prep
			}{
				{"preprocessed", noAutodetect, full},
				{"Raw", decode.WithoutPreprocessing(), none},
			} {
				want := refDecode(t, e, in, false, p.ref, true)
				for _, src := range sources {
					for _, size := range []int{1, 3, 4, 7, 64, 5000} {
						r, err := decode.NewReader(src.wrap(in), withEncoding(label), p.opt)
						if err != nil {
							t.Fatal(err)
						}
						got, err := readAll(t, r, size)
						if err != nil || !bytes.Equal(got, want) {
							t.Errorf("%s, %s, Read(%d):\ngot  %q, %v\nwant %q", p.desc, src.desc, size, got, err, want)
						}
					}
					r, _ := decode.NewReader(src.wrap(in), withEncoding(label), p.opt)
					got, err := runeAll(t, r)
					if err != nil || !bytes.Equal(got, want) {
						t.Errorf("%s, %s, ReadRune:\ngot  %q, %v\nwant %q", p.desc, src.desc, got, err, want)
					}
					if src.desc == "TimeoutReader" {
						continue // WriteTo stops at the first error
					}
					r, _ = decode.NewReader(src.wrap(in), withEncoding(label), p.opt)
					var buf bytes.Buffer
					n, err := r.WriteTo(&buf)
					if err != nil || !bytes.Equal(buf.Bytes(), want) || n != int64(len(want)) {
						t.Errorf("%s, %s, WriteTo = %d, %v:\ngot  %q\nwant %q", p.desc, src.desc, n, err, buf.Bytes(), want)
					}
				}
			}
		})
	}
}

// TestSplitPoints cuts short inputs at every one and every two positions
// (empty pieces included) and checks the output against the reference,
// for every encoding, with sniffing on (so byte order marks split too).
func TestSplitPoints(t *testing.T) {
	inputs := []string{
		"\xEF\xBB\xBFa\r\nb\x00\xE2\x82\xAC\r",
		"\xFE\xFF\x00a\x00\r\x00\n\xD8\x3D\xDE\x00\x00",
		"\xFF\xFEa\x00\r\x00\r\x00\n\x00=\xD8\x00",
		"a\r\r\n\xC3\xA9\xF0\x9F\x98\x80\xE2\x82\r\n",
		"\x1B$B\x30\x21\x1B(J\x5C\x1B(B\r\n\x00",
		"\x81\x30\x81\x30\x88\x62\x88\x64\x82\xA0\x8E\xA1\xA4\xA2\x81\r",
		"\x80\xFF\x0D\x0A\x0D\x00\xC0\xAF\xED\xA0\x80\xF4\x90",
	}
	for _, e := range override.All() {
		t.Run(e.Name(), func(t *testing.T) {
			for _, s := range inputs {
				in := []byte(s)
				want := refDecode(t, e, in, true, full, true)
				check := func(desc string, src io.Reader) {
					t.Helper()
					r, err := decode.NewReader(src, withOverride(e.Name()))
					if err != nil {
						t.Fatal(err)
					}
					got, err := readAll(t, r, 5)
					if err != nil || !bytes.Equal(got, want) {
						t.Errorf("%x cut at %s:\ngot  %q, %v\nwant %q", in, desc, got, err, want)
					}
				}
				for i := 0; i <= len(in); i++ {
					for j := i; j <= len(in); j++ {
						check(string(rune('0'+i))+","+string(rune('0'+j)), testutil.SplitReader(in, i, j))
					}
				}
			}
		})
	}
}

// TestIOTestReader runs iotest.TestReader over a Reader for every encoding.
func TestIOTestReader(t *testing.T) {
	vectors, labels := testutil.Vectors(t)
	for _, label := range labels {
		e, _ := override.Lookup(label)
		in := streamInput(vectors[label])
		r, err := decode.NewReader(bytes.NewReader(in), withEncoding(label))
		if err != nil {
			t.Fatal(err)
		}
		if err := iotest.TestReader(r, refDecode(t, e, in, false, full, true)); err != nil {
			t.Errorf("%s: %v", label, err)
		}
	}
}

// errBroken is a source's error that is not a timeout.
var errBroken = errors.New("broken pipe")

// TestSourceErrors checks that an error from the source is returned after
// every character decoded before it, that a sequence the error cuts off is
// held back (not turned into U+FFFD), and that reading on after the error
// carries on seamlessly.
func TestSourceErrors(t *testing.T) {
	vectors, labels := testutil.Vectors(t)
	for _, label := range labels {
		t.Run(label, func(t *testing.T) {
			e, _ := override.Lookup(label)
			in := streamInput(vectors[label])
			// Every cut point of the first 200 bytes and a few later ones.
			var cuts []int
			for i := 0; i <= min(len(in), 200); i++ {
				cuts = append(cuts, i)
			}
			cuts = append(cuts, len(in)/2, len(in)-1)
			for _, cut := range cuts {
				head, tail := in[:cut], in[cut:]
				src := io.MultiReader(testutil.ErrAfter(head, errBroken), bytes.NewReader(tail))
				r, err := decode.NewReader(src, withEncoding(label))
				if err != nil {
					t.Fatal(err)
				}
				got, err := readAll(t, r, 64)
				wantHead := refDecode(t, e, head, false, full, false)
				if err != errBroken || !bytes.Equal(got, wantHead) {
					t.Fatalf("cut %d: before the error:\ngot  %q, %v\nwant %q, %v", cut, got, err, wantHead, errBroken)
				}
				rest, err := readAll(t, r, 64)
				got = append(got, rest...)
				want := refDecode(t, e, in, false, full, true)
				if err != nil || !bytes.Equal(got, want) {
					t.Fatalf("cut %d: after the error:\ngot  %q, %v\nwant %q", cut, got, err, want)
				}
			}
		})
	}
}

// TestErrorOnlySource checks sources that fail at once or make no progress.
func TestErrorOnlySource(t *testing.T) {
	r, err := decode.NewReader(iotest.ErrReader(errBroken))
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Result().Encoding; got != override.Windows1252 {
		t.Errorf("Result().Encoding = %v, want windows-1252 (the default)", got)
	}
	for i := range 2 {
		if n, err := r.Read(make([]byte, 10)); n != 0 || err != errBroken {
			t.Errorf("Read #%d = %d, %v, want 0, %v", i, n, err, errBroken)
		}
	}

	r, _ = decode.NewReader(emptyReader{})
	if n, err := r.Read(make([]byte, 10)); n != 0 || err != io.ErrNoProgress {
		t.Errorf("Read from a source that returns (0, nil) = %d, %v, want 0, %v", n, err, io.ErrNoProgress)
	}

	r, _ = decode.NewReader(badCount{})
	if n, err := r.Read(make([]byte, 10)); n != 0 || err == nil {
		t.Errorf("Read from a source that returns a bad count = %d, %v, want 0 and an error", n, err)
	}

	r, _ = decode.NewReader(bytes.NewReader(nil))
	for i := range 3 {
		if n, err := r.Read(make([]byte, 10)); n != 0 || err != io.EOF {
			t.Errorf("Read #%d of empty input = %d, %v, want 0, EOF", i, n, err)
		}
	}
}

type emptyReader struct{}

func (emptyReader) Read([]byte) (int, error) { return 0, nil }

type badCount struct{}

func (badCount) Read(p []byte) (int, error) { return len(p) + 1, nil }

// TestEOFWithLastBytes: a source that says io.EOF with its last bytes
// (iotest.DataErrReader) gives what one that says it on the next read
// gives, whatever the window, an input as long as the window included.
func TestEOFWithLastBytes(t *testing.T) {
	for _, in := range []string{
		"\xc7\x90\xc7",        // UTF-8 cut at the end
		"abc\xe3\x81",         // likewise, after ASCII
		"<p>\x82\xa0\x82",     // Shift_JIS cut at the end
		"\xe9t\xe9",           // windows-1252
		"<html>\xa4\xa4\xa4",  // Big5 cut at the end
		"<meta charset=utf-8", // a <meta> cut in the window
	} {
		for w := 1; w <= len(in)+2; w++ {
			want, wantRes := readAllWith(t, bytes.NewReader([]byte(in)), withWindow(w))
			got, gotRes := readAllWith(t, iotest.DataErrReader(bytes.NewReader([]byte(in))), withWindow(w))
			if gotRes != wantRes || got != want {
				t.Errorf("%q, window %d: EOF with the last bytes: %+v %q\nEOF after them:          %+v %q", in, w, gotRes, got, wantRes, want)
			}
		}
	}
}

// readAllWith reads src to the end through a new Reader of opts and
// returns the text and the Result.
func readAllWith(t *testing.T, src io.Reader, opts ...decode.Option) (string, decode.Result) {
	t.Helper()
	r, err := decode.NewReader(src, opts...)
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(out), r.Result()
}
