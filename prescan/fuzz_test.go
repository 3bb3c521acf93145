package prescan_test

import (
	"testing"

	"github.com/charsniff/charsniff/internal/reference"
	"github.com/charsniff/charsniff/override"
	"github.com/charsniff/charsniff/prescan"
)

// FuzzPrescan compares the state machine with the literal reference on
// arbitrary bytes and windows, and checks that chunking never changes the
// answer.
func FuzzPrescan(f *testing.F) {
	for i, c := range reference.Cases(f) {
		f.Add(c.Input, 0, i%5 == 0, i)
	}
	for i, c := range prescanCases {
		f.Add([]byte(c.in), c.opts.Window, c.opts.Legacy, i)
	}
	f.Add([]byte(typicalHead), 100, false, 512)
	f.Fuzz(func(t *testing.T, in []byte, window int, legacy bool, split int) {
		// Windows from -1 (no limit) to 2047; 0 is the default.
		window %= 2048
		if window < 0 {
			window = -1
		}
		opts := prescan.Options{Window: window, Legacy: legacy}
		checkReference(t, in, opts)
		got := prescan.Prescan(in, &opts)
		if got.Found() != got.Encoding.Valid() || got.Offset > len(in) {
			t.Fatalf("Prescan(%q) = %+v: inconsistent result", in, got)
		}
		if got.Rule == prescan.Meta && (got.Encoding.IsUTF16() || got.Encoding == override.XUserDefined) {
			t.Fatalf("Prescan(%q) = %+v: meta must not give UTF-16 or x-user-defined", in, got)
		}

		// Two pieces, split anywhere.
		if split < 0 {
			split = -split
		}
		k := 0
		if len(in) > 0 {
			k = split % (len(in) + 1)
		}
		var s prescan.Scanner
		s.Reset(&opts)
		s.Feed(in[:k])
		if r, final := s.Feed(in[k:]); final && r != got {
			t.Fatalf("%q split at %d: final answer %+v before Close, want %+v", in, k, r, got)
		}
		if r := s.Close(); r != got {
			t.Fatalf("%q split at %d: got %+v, want %+v", in, k, r, got)
		}
		// Small pieces.
		size := 1 + split%7
		s.Reset(&opts)
		for i := 0; i < len(in); i += size {
			s.Feed(in[i:min(i+size, len(in))])
		}
		if r := s.Close(); r != got {
			t.Fatalf("%q in %d-byte pieces: got %+v, want %+v", in, size, r, got)
		}
	})
}
