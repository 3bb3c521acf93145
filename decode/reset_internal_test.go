package decode

import (
	"strings"
	"testing"
)

// TestResetWithKeptBound checks that ResetWith drops a restart buffer
// grown under earlier options when the new options bound it lower, so that
// its capacity never passes the bound.
func TestResetWithKeptBound(t *testing.T) {
	page := strings.Repeat("<p>filler</p>\n", 2000)
	r, err := NewReader(strings.NewReader(page), WithRestartBuffer(1<<20))
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := r.Read(make([]byte, 4096)); err != nil {
			break
		}
	}
	if cap(r.kept) < 16<<10 {
		t.Fatalf("restart buffer of %d bytes after %d bytes read, want it to hold them", cap(r.kept), len(page))
	}
	for _, tc := range []struct {
		desc  string
		opts  []Option
		bound int
	}{
		{"smaller restart buffer", []Option{WithRestartBuffer(1024)}, 1024},
		{"none", nil, 0},
	} {
		if err := r.ResetWith(strings.NewReader(page), tc.opts...); err != nil {
			t.Fatal(err)
		}
		if c := cap(r.kept); c > tc.bound {
			t.Errorf("%s: restart buffer capacity %d after ResetWith, want at most %d", tc.desc, c, tc.bound)
		}
	}
}
