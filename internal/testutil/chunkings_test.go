package testutil

import (
	"bytes"
	"io"
	"testing"
)

// TestChunkings checks that every chunking hands out the source's bytes
// unchanged and that RandomReader's Reads stay within
// their bound and vary.
func TestChunkings(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789abcdef"), 4096)
	for _, ch := range Chunkings(300) {
		got, err := io.ReadAll(ch.Wrap(bytes.NewReader(data)))
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("%s: read %d bytes, %v, want the %d of the source", ch.Name, len(got), err, len(data))
		}
	}
	r := RandomReader(bytes.NewReader(data), 300)
	sizes := map[int]bool{}
	buf := make([]byte, 1000)
	for {
		n, err := r.Read(buf)
		if n < 1 && err == nil || n > 300 {
			t.Fatalf("RandomReader(300).Read = %d, %v, want 1 to 300 bytes", n, err)
		}
		sizes[n] = true
		if err == io.EOF {
			break
		}
	}
	if len(sizes) < 20 {
		t.Errorf("RandomReader(300) read %d different sizes, want many", len(sizes))
	}
}
