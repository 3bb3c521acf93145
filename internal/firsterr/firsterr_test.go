package firsterr

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// TestReader: Err is the first error other than io.EOF, N counts the
// bytes, and the reads pass through unchanged.
func TestReader(t *testing.T) {
	first, second := errors.New("first"), errors.New("second")
	r := &Reader{R: io.MultiReader(strings.NewReader("ab"), iotest.ErrReader(first))}
	b, err := io.ReadAll(r)
	if string(b) != "ab" || err != first || r.Err != first || r.N != 2 {
		t.Fatalf("ReadAll = %q, %v; Err %v, N %d", b, err, r.Err, r.N)
	}
	r.R = iotest.ErrReader(second)
	if _, err := r.Read(make([]byte, 1)); err != second || r.Err != first {
		t.Errorf("second error: Read %v, Err %v, want %v, %v", err, r.Err, second, first)
	}
	r.R = iotest.OneByteReader(strings.NewReader("cde"))
	if b, _ := io.ReadAll(r); string(b) != "cde" || r.N != 5 {
		t.Errorf("after the errors: read %q, N %d, want \"cde\", 5", b, r.N)
	}
	r = &Reader{R: strings.NewReader("")}
	if _, err := r.Read(make([]byte, 1)); err != io.EOF || r.Err != nil {
		t.Errorf("EOF: Read %v, Err %v", err, r.Err)
	}
}
