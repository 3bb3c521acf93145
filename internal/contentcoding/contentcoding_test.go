package contentcoding

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"
)

// encode applies coding c to data, as a server would.
func encode(t testing.TB, c string, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	var w io.WriteCloser
	var err error
	switch c {
	case "gzip", "x-gzip":
		w = gzip.NewWriter(&b)
	case "deflate": // zlib, as RFC 9110 says
		w = zlib.NewWriter(&b)
	case "raw-deflate":
		w, err = flate.NewWriter(&b, flate.DefaultCompression)
	case "br":
		w = brotli.NewWriter(&b)
	case "zstd":
		w, err = zstd.NewWriter(&b, zstd.WithEncoderConcurrency(1))
	default:
		t.Fatalf("encode: no coding %q", c)
	}
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

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
		{"deflate", []string{"raw-deflate"}},
		{"br", []string{"br"}},
		{"zstd", []string{"zstd"}},
		{"identity", nil},
		{"", nil},
		{"gzip, br", []string{"gzip", "br"}},
		{"br,identity , zstd", []string{"br", "zstd"}},
		{"deflate, gzip", []string{"raw-deflate", "gzip"}},
	} {
		data := []byte(page)
		for _, c := range tc.steps {
			data = encode(t, c, data)
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
		r, err := NewReader(body(encode(t, c, []byte(page))[:1]), []string{c}, Limits{})
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

func TestCorrupt(t *testing.T) {
	// A bad gzip header fails in NewReader.
	_, err := NewReader(body([]byte("<html>not gzip")), []string{"gzip"}, Limits{})
	if !strings.HasPrefix(fmtVal(err), `content-encoding "gzip": `) {
		t.Errorf("bad header: %v", err)
	}
	// A stream cut short fails in Read, named.
	for _, c := range []string{"gzip", "deflate", "br", "zstd"} {
		data := encode(t, c, bytes.Repeat([]byte(page), 100))
		r, err := NewReader(body(data[:len(data)/2]), []string{c}, Limits{})
		if err != nil {
			t.Errorf("%s: %v", c, err)
			continue
		}
		_, err = io.ReadAll(r)
		if !strings.HasPrefix(fmtVal(err), `content-encoding "`+c+`": `) {
			t.Errorf("%s cut short: error %v, want one naming the coding", c, err)
		}
	}
}

func fmtVal(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
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
	data := encode(t, "gzip", bytes.Repeat([]byte(page), 100))
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
		data := encode(t, c, zeros)
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
	data := encode(t, "gzip", zeros[:5000])
	r, _ := NewReader(body(data), []string{"gzip"}, Limits{MaxSize: 4000, MaxRatio: -1})
	if n, err := io.Copy(io.Discard, r); !errors.Is(err, ErrTooLarge) || n > 4000 {
		t.Errorf("MaxSize 4000: %d bytes, %v", n, err)
	}
	r, _ = NewReader(body(data), []string{"gzip"}, Limits{MaxSize: 5000, MaxRatio: -1})
	if n, err := io.Copy(io.Discard, r); err != nil || n != 5000 {
		t.Errorf("MaxSize 5000: %d bytes, %v", n, err)
	}
	// No limits at all.
	data = encode(t, "zstd", zeros)
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
		{encode(t, "gzip", []byte(page)), "gzip"},
		{encode(t, "zstd", []byte(page)), "zstd"},
		{encode(t, "br", []byte(page)), ""},
		{encode(t, "deflate", []byte(page)), ""},
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
