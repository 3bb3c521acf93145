package warc

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"testing/iotest"
)

// FuzzReader reads any bytes as a WARC file. It must not panic, must end,
// must report only *RecordError values and io.EOF (the input is a
// bytes.Reader, which does not fail), must keep its buffers bounded, and
// must see the same records and errors however the input is chunked.
func FuzzReader(f *testing.F) {
	if b, err := os.ReadFile("testdata/wget.warc.gz"); err == nil {
		f.Add(b)
	}
	for _, set := range [][]corruptCase{plainCases(), gzipCases()} {
		for _, tc := range set {
			if len(tc.in) < 64<<10 {
				f.Add(tc.in)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		limit := 64*len(data) + 64 // gzip expands at most about 1032 times
		r := NewReader(bytes.NewReader(data))
		var events []string
		for i := 0; ; i++ {
			if i > limit {
				t.Fatalf("Next returned %d times for %d bytes of input", i, len(data))
			}
			rec, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				var re *RecordError
				if !errors.As(err, &re) {
					t.Fatalf("Next: %v is not a *RecordError", err)
				}
				events = append(events, err.Error())
				continue
			}
			events = append(events, rec.RecordID+" "+rec.Type)
			if i%2 == 0 {
				continue // leave the block to Next
			}
			if p, err := rec.Payload(); err == nil {
				p.IsHTML()
				if _, err := io.Copy(io.Discard, io.LimitReader(p.Body, 16<<20)); err != nil {
					var re *RecordError
					if errors.As(err, &re) {
						events = append(events, err.Error())
					}
				}
			} else if _, err := io.Copy(io.Discard, rec.Body); err != nil {
				events = append(events, err.Error())
			}
		}
		if n := len(r.in.buf) + len(r.s.buf); n > 3*(maxHold+minBuffer) {
			t.Errorf("buffers grew to %d bytes", n)
		}

		// The same reads through a reader that returns half of what is
		// asked give the same events.
		var events2 []string
		r = NewReader(iotest.HalfReader(bytes.NewReader(data)))
		for i := 0; ; i++ {
			rec, err := r.Next()
			if err == io.EOF || i > limit {
				break
			}
			if err != nil {
				events2 = append(events2, err.Error())
				continue
			}
			events2 = append(events2, rec.RecordID+" "+rec.Type)
			if i%2 == 0 {
				continue
			}
			if p, err := rec.Payload(); err == nil {
				p.IsHTML()
				if _, err := io.Copy(io.Discard, io.LimitReader(p.Body, 16<<20)); err != nil {
					var re *RecordError
					if errors.As(err, &re) {
						events2 = append(events2, err.Error())
					}
				}
			} else if _, err := io.Copy(io.Discard, rec.Body); err != nil {
				events2 = append(events2, err.Error())
			}
		}
		if !equal(events, events2) {
			t.Errorf("chunking changed the records:\nwhole: %s\nhalf:  %s", strings.Join(events, "\n       "), strings.Join(events2, "\n       "))
		}
	})
}
