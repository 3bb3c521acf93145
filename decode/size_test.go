package decode

import (
	"testing"
	"unsafe"
)

// TestReaderSize keeps the Reader, which a crawler allocates for every
// response, within 512 bytes: the largest objects that Go allocates without
// a malloc header (the span holds their pointer bits), which also makes the
// allocation smaller and the garbage collector's work less. Fields of a
// byte or a bool go together, so that they share one word's padding.
func TestReaderSize(t *testing.T) {
	if n := unsafe.Sizeof(Reader{}); n > 512 {
		t.Errorf("Reader is %d bytes, want at most 512", n)
	}
}
