package contentcoding

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/klauspost/compress/zstd"

	"github.com/charsniff/charsniff/internal/testutil"
)

// closeCounter is a body that counts its Close calls.
type closeCounter struct {
	io.Reader
	closes int
}

func (c *closeCounter) Close() error { c.closes++; return nil }

func body(b []byte) *closeCounter { return &closeCounter{Reader: bytes.NewReader(b)} }

const page = "<!DOCTYPE html><meta charset=shift_jis><title>\x93\xfa\x96{</title>\r\n"

func TestCodings(t *testing.T) {
	for _, tc := range []struct {
		header string   // Content-Encoding
		steps  []string // encode's codings, in the order applied
	}{
		{"gzip", []string{"gzip"}},
		{"x-gzip", []string{"gzip"}},
		{"GZip", []string{"gzip"}},
		{"deflate", []string{"deflate"}},
		{"deflate", []string{"deflate-raw"}},
		{"br", []string{"br"}},
		{"zstd", []string{"zstd"}},
		{"identity", nil},
		{"", nil},
		{"gzip, br", []string{"gzip", "br"}},
		{"br,identity , zstd", []string{"br", "zstd"}},
		{"deflate, gzip", []string{"deflate-raw", "gzip"}},
	} {
		data := []byte(page)
		for _, c := range tc.steps {
			data = testutil.Encode(t, c, data)
		}
		b := body(data)
		r, err := NewReader(b, Parse([]string{tc.header}), Limits{})
		if err != nil {
			t.Errorf("%q %v: %v", tc.header, tc.steps, err)
			continue
		}
		got, err := io.ReadAll(r)
		if err != nil || string(got) != page {
			t.Errorf("%q %v: got %q, %v, want %q", tc.header, tc.steps, got, err, page)
		}
		r.Close()
		r.Close()
		if b.closes != 1 {
			t.Errorf("%q: body closed %d times, want 1", tc.header, b.closes)
		}
	}
}

// TestEmpty checks that a body of no bytes reads as empty in every coding
// and stack, as net/http and browsers take it, while one cut after its
// first byte is an error.
func TestEmpty(t *testing.T) {
	for _, cs := range [][]string{{"gzip"}, {"deflate"}, {"br"}, {"zstd"}, {"gzip", "br"}} {
		r, err := NewReader(body(nil), cs, Limits{})
		if err != nil {
			t.Errorf("%q: %v", cs, err)
			continue
		}
		if b, err := io.ReadAll(r); len(b) != 0 || err != nil {
			t.Errorf("%q: %q, %v", cs, b, err)
		}
	}
	for _, c := range []string{"gzip", "deflate", "br", "zstd"} {
		r, err := NewReader(body(testutil.Encode(t, c, []byte(page))[:1]), []string{c}, Limits{})
		if err == nil {
			_, err = io.ReadAll(r)
		}
		if err == nil {
			t.Errorf("%s cut after one byte: no error", c)
		}
	}
}

func TestParse(t *testing.T) {
	got := Parse([]string{" gzip ,, Identity", "", "BR"})
	if strings.Join(got, "|") != "gzip|br" {
		t.Errorf("Parse = %q", got)
	}
	if got := Parse(nil); got != nil {
		t.Errorf("Parse(nil) = %q", got)
	}
}

func TestUnsupported(t *testing.T) {
	for _, h := range []string{"foo", "gzip, compress", "x-compress"} {
		b := body([]byte(page))
		r, err := NewReader(b, Parse([]string{h}), Limits{})
		var ce *CodingError
		if r != nil || !errors.Is(err, ErrUnsupported) || !errors.As(err, &ce) {
			t.Errorf("%q: %v, %v; want a CodingError wrapping ErrUnsupported", h, r, err)
			continue
		}
		if want := "content-encoding " + `"` + ce.Coding + `": unsupported`; err.Error() != want {
			t.Errorf("%q: error %q, want %q", h, err, want)
		}
		if b.closes != 0 {
			t.Errorf("%q: body closed", h)
		}
	}
	if _, err := NewReader(body(nil), Parse([]string{"gzip,gzip,gzip,gzip,gzip"}), Limits{}); err == nil {
		t.Error("five codings: no error")
	}
}

// TestCorrupt checks that every coding reports damage the same way: a
// body that fails before its first decompressed byte fails in NewReader,
// one that fails later in Read, after some bytes; both name the coding.
func TestCorrupt(t *testing.T) {
	data := testutil.CodedText(1 << 20) // past a zstd block of 128 KiB
	for _, tc := range []struct {
		header string   // the Content-Encoding
		apply  []string // how the server encodes, in order
		// unchecked: no checksum, so damage in the middle may decode
		// to other bytes without an error (raw deflate).
		unchecked bool
	}{
		{"gzip", []string{"gzip"}, false},
		{"x-gzip", []string{"gzip"}, false},
		{"deflate", []string{"deflate"}, false},
		{"deflate", []string{"deflate-raw"}, true},
		{"br", []string{"br"}, false},
		{"zstd", []string{"zstd"}, false},
		{"gzip, br", []string{"gzip", "br"}, false},
	} {
		enc := data
		for _, c := range tc.apply {
			enc = testutil.Encode(t, c, enc)
		}
		codings := Parse([]string{tc.header})
		outer := codings[len(codings)-1] // the coding undone first
		name := strings.Join(tc.apply, "+")
		for _, kind := range []string{"start", "cut8", "middle", "cut"} {
			r, err := NewReader(body(testutil.Spoil(enc, kind)), codings, Limits{})
			if kind == "start" || kind == "cut8" {
				var ce *CodingError
				if r != nil || !errors.As(err, &ce) || ce.Coding != outer {
					t.Errorf("%s %s: NewReader = %v, %v; want a *CodingError naming %q", name, kind, r, err, outer)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s %s: NewReader: %v", name, kind, err)
				continue
			}
			if kind == "middle" && tc.unchecked {
				continue
			}
			n, err := io.Copy(io.Discard, r)
			var ce *CodingError
			if n == 0 || n >= int64(len(data)) || !errors.As(err, &ce) {
				t.Errorf("%s %s: read %d bytes, error %v; want some bytes, then a *CodingError", name, kind, n, err)
			}
			if _, err2 := r.Read(make([]byte, 1)); err2 == nil || err2 == io.EOF {
				t.Errorf("%s %s: Read after the error: %v, want the error again", name, kind, err2)
			}
		}
		r, err := NewReader(body(enc), codings, Limits{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got, err := io.ReadAll(iotest.OneByteReader(r)); !bytes.Equal(got, data) || err != nil {
			t.Errorf("%s valid: %d bytes, %v; want %d bytes", name, len(got), err, len(data))
		}
	}
}

// failAfter returns its data, then err.
type failAfter struct {
	r   io.Reader
	err error
}

func (f *failAfter) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if err == io.EOF {
		err = f.err
	}
	return n, err
}

func TestBodyErrorPassesThrough(t *testing.T) {
	netErr := errors.New("connection reset")
	data := testutil.Encode(t, "gzip", bytes.Repeat([]byte(page), 100))
	src := &failAfter{bytes.NewReader(data[:len(data)/2]), netErr}
	r, err := NewReader(io.NopCloser(src), []string{"gzip"}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = io.ReadAll(r)
	if !errors.Is(err, netErr) {
		t.Errorf("got %v, want the body's error", err)
	}
	var ce *CodingError
	if errors.As(err, &ce) {
		t.Errorf("the body's error is blamed on the coding: %v", err)
	}
}

func TestBomb(t *testing.T) {
	zeros := make([]byte, 10<<20)
	for _, c := range []string{"gzip", "br", "zstd", "deflate"} {
		data := testutil.Encode(t, c, zeros)
		r, err := NewReader(body(data), []string{c}, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		n, err := io.Copy(io.Discard, r)
		if !errors.Is(err, ErrTooLarge) {
			t.Errorf("%s: %d bytes from %d: err %v, want ErrTooLarge", c, n, len(data), err)
		}
		if n > RatioAllowance+DefaultMaxRatio*int64(len(data))+32<<10 {
			t.Errorf("%s: read %d bytes from %d before the error", c, n, len(data))
		}
		if _, err := r.Read(make([]byte, 10)); !errors.Is(err, ErrTooLarge) {
			t.Errorf("%s: the error does not stick: %v", c, err)
		}
	}
	// Without the ratio bound, the cap applies.
	data := testutil.Encode(t, "gzip", zeros[:5000])
	r, _ := NewReader(body(data), []string{"gzip"}, Limits{MaxSize: 4000, MaxRatio: -1})
	if n, err := io.Copy(io.Discard, r); !errors.Is(err, ErrTooLarge) || n > 4000 {
		t.Errorf("MaxSize 4000: %d bytes, %v", n, err)
	}
	r, _ = NewReader(body(data), []string{"gzip"}, Limits{MaxSize: 5000, MaxRatio: -1})
	if n, err := io.Copy(io.Discard, r); err != nil || n != 5000 {
		t.Errorf("MaxSize 5000: %d bytes, %v", n, err)
	}
	// No limits at all.
	data = testutil.Encode(t, "zstd", zeros)
	r, _ = NewReader(body(data), []string{"zstd"}, Limits{MaxSize: -1, MaxRatio: -1})
	if n, err := io.Copy(io.Discard, r); err != nil || n != int64(len(zeros)) {
		t.Errorf("no limits: %d bytes, %v", n, err)
	}
}

func TestZstdWindow(t *testing.T) {
	var b bytes.Buffer
	w, _ := zstd.NewWriter(&b, zstd.WithWindowSize(64<<20), zstd.WithEncoderConcurrency(1))
	io.Copy(w, io.LimitReader(strings.NewReader(strings.Repeat(page, 1<<17)), 20<<20))
	w.Close()
	r, err := NewReader(body(b.Bytes()), []string{"zstd"}, Limits{MaxSize: -1, MaxRatio: -1})
	if err == nil {
		_, err = io.Copy(io.Discard, r)
	}
	if err == nil || errors.Is(err, ErrTooLarge) {
		t.Errorf("a 64 MiB zstd window: %v, want the decoder's error", err)
	}
}

func TestSniff(t *testing.T) {
	for _, tc := range []struct {
		in   []byte
		want string
	}{
		{testutil.Encode(t, "gzip", []byte(page)), "gzip"},
		{testutil.Encode(t, "zstd", []byte(page)), "zstd"},
		{testutil.Encode(t, "br", []byte(page)), ""},
		{testutil.Encode(t, "deflate", []byte(page)), ""},
		{[]byte(page), ""},
		{[]byte{0x1F}, ""},
		{[]byte{0x28, 0xB5, 0x2F}, ""},
		{nil, ""},
	} {
		if got := Sniff(tc.in); got != tc.want {
			t.Errorf("Sniff(% x) = %q, want %q", tc.in[:min(len(tc.in), 4)], got, tc.want)
		}
	}
}

// stalled is a body whose every read returns nothing and no error.
type stalled struct{}

func (stalled) Read([]byte) (int, error) { return 0, nil }

func (stalled) Close() error { return nil }

// TestNoProgress: decoders that return neither bytes nor an error make
// Read fail with io.ErrNoProgress, for good, rather than loop.
func TestNoProgress(t *testing.T) {
	r, err := NewReader(stalled{}, []string{"br"}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if n, err := r.Read(make([]byte, 10)); n != 0 || err != io.ErrNoProgress {
			t.Errorf("Read = %d, %v, want 0, io.ErrNoProgress", n, err)
		}
	}
}
