package archive

import (
	"bytes"
	"context"
	"runtime"
	"slices"
	"testing"
)

// TestIterators checks that Records, Parallel and ParallelStream hand out
// the records Next does, add the Reader's counts to Options.Counts, and
// stop when the loop body breaks.
func TestIterators(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	for name, data := range testFiles(t) {
		want := nextLines(t, data)
		r := NewReader(bytes.NewReader(data), Options{})
		for _, err := r.Next(); err == nil; _, err = r.Next() {
		}
		wantCounts := *r.Counts()
		src := func() *bytes.Reader { return bytes.NewReader(data) }
		for _, it := range []struct {
			name string
			seq  func(Options) func(func(*Record, error) bool)
		}{
			{"Records", func(o Options) func(func(*Record, error) bool) { return Records(src(), o) }},
			{"Parallel", func(o Options) func(func(*Record, error) bool) {
				return Parallel(context.Background(), src(), int64(len(data)), o)
			}},
			{"ParallelStream", func(o Options) func(func(*Record, error) bool) {
				return ParallelStream(context.Background(), src(), o)
			}},
		} {
			c := Counts{Skipped: map[string]int{}}
			var got []string
			for rec, err := range it.seq(Options{File: "f", PartSize: 4096, Counts: &c}) {
				if err != nil {
					t.Fatalf("%s %s: %v", name, it.name, err)
				}
				got = append(got, recordLine(t, rec))
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s %s: %d records differ from Next's %d", name, it.name, len(got), len(want))
			}
			if c.Records != wantCounts.Records || c.Sniffed != wantCounts.Sniffed || c.Failed != wantCounts.Failed || c.NotHTML != wantCounts.NotHTML {
				t.Errorf("%s %s: counts %+v, want %+v", name, it.name, c, wantCounts)
			}
			if len(want) < 2 {
				continue
			}
			n := 0
			for range it.seq(Options{File: "f", PartSize: 4096}) {
				if n++; n == 2 {
					break
				}
			}
			if n != 2 {
				t.Errorf("%s %s: %d records after a break at 2", name, it.name, n)
			}
		}
	}
}
