package archive

import (
	"bytes"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/charsniff/charsniff/internal/testutil"
	"github.com/charsniff/charsniff/internal/warctest"
)

// reuseRecords returns testutil.ReuseDocs as HTTP responses, every third
// with a charset in its Content-Type.
func reuseRecords() []warctest.Record {
	var recs []warctest.Record
	for i, d := range testutil.ReuseDocs() {
		ct := "Content-Type: text/html"
		if i%3 == 2 {
			ct = "Content-Type: text/html; charset=windows-1251"
		}
		recs = append(recs, warctest.Response("http://example.com/"+d.Name, warctest.HTTPResponse(200, []string{ct}, []byte(d.Text))))
	}
	return recs
}

// alone returns the result line (without its place in the file) and the
// text of rec read from a file of its own by a fresh Reader.
func alone(t *testing.T, rec warctest.Record) (string, string) {
	f, _ := file(t, rec)
	r := NewReader(bytes.NewReader(f), Options{File: "f"})
	got, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	got.WriteText(&text)
	res := *got.Finish()
	res.Where = nil
	return marshal(&res), text.String()
}

// TestRecordsAfterPartialRead: records that follow one left partly read
// (some of its Text, Settle with a small bound, nothing at all) get the
// result and text a fresh Reader gives them, and so does a Reader Reset
// in the middle of a file.
func TestRecordsAfterPartialRead(t *testing.T) {
	recs := reuseRecords()
	rng := rand.New(rand.NewPCG(3, 3))
	type want struct{ line, text string }
	wants := make([]want, len(recs))
	for i, rec := range recs {
		wants[i].line, wants[i].text = alone(t, rec)
	}
	var r *Reader
	for trial := range 20 {
		order := rng.Perm(len(recs))
		var shuffled []warctest.Record
		for _, i := range order {
			shuffled = append(shuffled, recs[i])
		}
		f, _ := file(t, shuffled...)
		if r == nil {
			r = NewReader(bytes.NewReader(f), Options{File: "f"})
		} else {
			// Reset after the last trial stopped in its file's middle.
			r.Reset(bytes.NewReader(f), Options{File: "f"})
		}
		stopAt := rng.IntN(len(recs) + 1)
		for k, i := range order {
			if k == stopAt {
				break // the next trial Resets r here
			}
			rec, err := r.Next()
			if err != nil {
				t.Fatalf("trial %d, record %d: %v", trial, k, err)
			}
			var text bytes.Buffer
			if k%2 == 0 {
				rec.WriteText(&text)
				res := *rec.Finish()
				res.Where = nil
				if line := marshal(&res); line != wants[i].line || text.String() != wants[i].text {
					t.Errorf("trial %d, record %d (body %d):\ngot  %s, %d bytes of text\nwant %s, %d bytes", trial, k, i, line, text.Len(), wants[i].line, len(wants[i].text))
				}
				continue
			}
			// Leave this one partly read.
			switch rng.IntN(3) {
			case 0:
				io.CopyN(io.Discard, rec.Text, int64(rng.IntN(3000)))
			case 1:
				rec.Settle(nil, rng.IntN(2000))
			}
			if rng.IntN(2) == 0 {
				// Finish reads on to the decision: the same as alone.
				res := *rec.Finish()
				res.Where = nil
				if line := marshal(&res); line != wants[i].line {
					t.Errorf("trial %d, record %d (body %d) partly read:\ngot  %s\nwant %s", trial, k, i, line, wants[i].line)
				}
			}
		}
	}
}
