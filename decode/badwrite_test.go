package decode

import (
	"errors"
	"strings"
	"testing"

	"github.com/charsniff/charsniff/override"
)

// liar is a Writer whose Write, after its first call, claims one byte
// more than it was given.
type liar struct{ calls int }

func (l *liar) Write(p []byte) (int, error) {
	l.calls++
	if l.calls == 1 {
		return len(p), nil
	}
	return len(p) + 1, nil
}

// TestWriteToBadCount checks that WriteTo fails with errBadWrite for a
// Writer's impossible count, on the path that copies clean UTF-8 from the
// input (after a first Write of decoded text) and on the one that writes
// decoded text.
func TestWriteToBadCount(t *testing.T) {
	for _, tc := range []struct {
		desc string
		in   string
		enc  override.Encoding
	}{
		{"clean UTF-8", strings.Repeat("<p>text\n", 8000), override.UTF8}, // several input buffers
		{"decoded", strings.Repeat("<p>caf\xe9\r\n", 5000), override.Windows1252},
		{"NUL as UTF-8", "a" + strings.Repeat("\x00", 20000), override.UTF8},
		{"NUL as windows-1252", "a" + strings.Repeat("\x00", 20000), override.Windows1252},
	} {
		r, err := NewReader(strings.NewReader(tc.in), WithEncoding(tc.enc))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.WriteTo(&liar{}); !errors.Is(err, errBadWrite) {
			t.Errorf("%s: WriteTo error %v, want %v", tc.desc, err, errBadWrite)
		}
	}
}
