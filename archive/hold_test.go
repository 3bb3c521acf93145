package archive

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/charsniff/charsniff/internal/warctest"
)

// allHeld reads every record of src through Hold, opening the held ones
// on a recordWorker, and returns the final results with their text, as all
// returns them.
func allHeld(t *testing.T, src io.Reader, max int) ([]string, *Counts, error) {
	t.Helper()
	rd := NewReader(src, Options{File: "f"})
	var w recordWorker
	var lines []string
	for {
		rec, h, err := rd.holdNext(max)
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return lines, rd.Counts(), err
		}
		if h != nil {
			if h.Size() > max {
				t.Errorf("held %d bytes, max %d", h.Size(), max)
			}
			rec = w.Open(h)
		}
		var text strings.Builder
		rec.WriteText(&text)
		lines = append(lines, marshal(rec.Finish())+" "+text.String())
		if h != nil {
			h.Release()
		}
	}
}

// TestHold checks that Hold and recordWorker.Open give the results and texts
// Next gives, for records held whole and records too large to hold,
// intact or damaged.
func TestHold(t *testing.T) {
	files := map[string][]byte{"wget": warctest.Testdata(t, "wget.warc.gz"), "damaged": damagedFile(t)}
	for name, data := range files {
		rd := NewReader(bytes.NewReader(data), Options{File: "f"})
		var want []string
		for {
			rec, err := rd.Next()
			if err != nil {
				break
			}
			var text strings.Builder
			rec.WriteText(&text)
			want = append(want, marshal(rec.Finish())+" "+text.String())
		}
		wantC := *rd.Counts()
		for _, max := range []int{0, 300, 1 << 20} {
			got, c, err := allHeld(t, bytes.NewReader(data), max)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("%s, max %d: got\n%s\nwant\n%s", name, max, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			if c.Records != wantC.Records || c.Sniffed != wantC.Sniffed || c.Failed != wantC.Failed || c.NotHTML != wantC.NotHTML {
				t.Errorf("%s, max %d: counts %+v, want %+v", name, max, *c, wantC)
			}
		}
	}
}
