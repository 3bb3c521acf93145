package archive

import (
	"bytes"
	"io"
	"testing"
)

// TestCoordinates checks that the byte range [Offset, Offset+Length) of
// each result, read alone with Options.Offset, gives that record's result
// again, in every container; and that every good record of a file of one
// member or frame a record has a length.
func TestCoordinates(t *testing.T) {
	for name, data := range testFiles(t) {
		r := NewReader(bytes.NewReader(data), Options{File: "f"})
		n, with := 0, 0
		for rec, err := r.Next(); err != io.EOF; rec, err = r.Next() {
			if err != nil {
				t.Fatal(err)
			}
			res := rec.Finish()
			line := marshal(res)
			if res.Err == nil {
				n++
			}
			if res.Length == 0 {
				continue
			}
			with++
			ar := NewReader(io.NewSectionReader(bytes.NewReader(data), res.Offset, res.Length), Options{File: "f", Offset: res.Offset})
			var got []string
			for rec, err := ar.Next(); err != io.EOF; rec, err = ar.Next() {
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, marshal(rec.Finish()))
			}
			if len(got) != 1 || got[0] != line {
				t.Errorf("%s: range %d:%d gives %q, want %s", name, res.Offset, res.Length, got, line)
			}
		}
		if name != "damaged" && with < n {
			t.Errorf("%s: %d of %d good records with a length", name, with, n)
		}
		t.Logf("%s: %d of %d good records with a length", name, with, n)
	}
}
