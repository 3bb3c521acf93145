package main

import (
	"io"
	"strings"
	"testing"
)

// TestMeteredReadSeeker checks that a metered WARC source counts every
// byte read, also after a Seek, and seeks its own reader.
func TestMeteredReadSeeker(t *testing.T) {
	p := &progress{closed: true} // counts, draws nothing
	m := &meter{p: p}
	src := strings.NewReader("0123456789")
	var r io.ReadSeeker = meteredReadSeeker{meteredReader{src, m}, src}
	head := make([]byte, 4)
	if n, err := io.ReadFull(r, head); n != 4 || err != nil {
		t.Fatalf("ReadFull = %d, %v, want 4, nil", n, err)
	}
	if at, err := r.Seek(2, io.SeekStart); at != 2 || err != nil {
		t.Fatalf("Seek(2) = %d, %v, want 2, nil", at, err)
	}
	rest, err := io.ReadAll(r)
	if string(rest) != "23456789" || err != nil {
		t.Errorf("after Seek(2): read %q, %v, want %q", rest, err, "23456789")
	}
	if m.n != 12 || p.done != 12 {
		t.Errorf("counted %d bytes (progress %d), want 12: 4, then 8 after the Seek", m.n, p.done)
	}
}
