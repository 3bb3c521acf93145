package decode_test

import (
	"strings"
	"testing"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/override"
)

// TestSniffKnowsEOF checks that the reader tells sniffing when the window
// is the whole input: a UTF-8 character cut off by the end of the input is
// then evidence against UTF-8, while one cut off by the end of the window
// is not.
func TestSniffKnowsEOF(t *testing.T) {
	short := "<p>caf\xC3\xA9 \xE6\x97" // ends inside a character
	r, err := decode.NewReader(strings.NewReader(short))
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Result().Encoding; got == override.UTF8 {
		t.Errorf("whole input %q: encoding %v, want not UTF-8", short, got)
	}

	long := strings.Repeat("x", 1024-len(short)) + short + "\xA5 more text"
	r, err = decode.NewReader(strings.NewReader(long))
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Result().Encoding; got != override.UTF8 {
		t.Errorf("window cut inside a character: encoding %v, want UTF-8", got)
	}
}
