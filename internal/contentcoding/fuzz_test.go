package contentcoding

import (
	"errors"
	"io"
	"testing"

	"github.com/charsniff/charsniff/internal/testutil"
)

// FuzzReader feeds arbitrary bytes to every decoder: no panic, no hang,
// and never more output than the limits allow.
func FuzzReader(f *testing.F) {
	for _, c := range []string{"gzip", "deflate", "deflate-raw", "br", "zstd"} {
		f.Add(c, testutil.Encode(f, c, []byte(page)))
	}
	f.Add("gzip", []byte("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"))
	f.Add("zstd", []byte("\x28\xb5\x2f\xfd\x00\x58\x00\x00"))
	f.Fuzz(func(t *testing.T, c string, data []byte) {
		if c == "deflate-raw" {
			c = "deflate"
		}
		limits := Limits{MaxSize: 1 << 20, MaxRatio: 50}
		r, err := NewReader(io.NopCloser(&byteReader{data}), []string{c}, limits)
		if err != nil {
			if !known(c) && !errors.Is(err, ErrUnsupported) {
				t.Fatalf("%q: %v", c, err)
			}
			return
		}
		defer r.Close()
		n, _ := io.Copy(io.Discard, r)
		if n > limits.MaxSize || n > RatioAllowance+limits.MaxRatio*int64(len(data)) {
			t.Fatalf("%q: %d bytes out of %d", c, n, len(data))
		}
	})
}

// byteReader reads data a few bytes at a time, as a network might.
type byteReader struct{ data []byte }

func (b *byteReader) Read(p []byte) (int, error) {
	if len(b.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), 7)], b.data)
	b.data = b.data[n:]
	return n, nil
}
