package firsterr

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// TestReader: Err is the first error other than io.EOF, and the reads
// pass through unchanged.
func TestReader(t *testing.T) {
	first, second := errors.New("first"), errors.New("second")
	r := &Reader{R: io.MultiReader(strings.NewReader("ab"), iotest.ErrReader(first))}
	b, err := io.ReadAll(r)
	if string(b) != "ab" || err != first || r.Err != first {
		t.Fatalf("ReadAll = %q, %v; Err %v", b, err, r.Err)
	}
	r.R = iotest.ErrReader(second)
	if _, err := r.Read(make([]byte, 1)); err != second || r.Err != first {
		t.Errorf("second error: Read %v, Err %v, want %v, %v", err, r.Err, second, first)
	}
	r = &Reader{R: strings.NewReader("")}
	if _, err := r.Read(make([]byte, 1)); err != io.EOF || r.Err != nil {
		t.Errorf("EOF: Read %v, Err %v", err, r.Err)
	}
}
