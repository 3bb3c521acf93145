package archive

import (
	"regexp"
	"slices"
	"testing"

	"github.com/charsniff/charsniff/internal/warctest"
)

// TestContainersAlike reads FastWARC's test file in every container the
// warc package reads: the results and texts are the same, record for
// record, but for the offsets and lengths (of the gzip member, or zstd or LZ4 frame,
// each record starts in).
func TestContainersAlike(t *testing.T) {
	read := func(name string) []byte { return warctest.Testdata(t, "resiliparse/"+name) }
	plain := warctest.Gunzip(t, read("warcfile.warc.gz"))
	offset := regexp.MustCompile(`,"(offset|length)":\d+`)
	lines := func(data []byte) []string {
		var out []string
		for _, l := range nextLines(t, data) {
			out = append(out, offset.ReplaceAllString(l, ""))
		}
		return out
	}
	want := lines(plain)
	if len(want) != 16 {
		t.Fatalf("plain: %d HTML records, want 16", len(want))
	}
	for _, name := range []string{"warcfile.warc.gz", "warcfile.warc.lz4", "warcfile.dict.warc.zst", "warcfile.frames.warc.zst", "warcfile.whole.warc.zst"} {
		if got := lines(read(name)); !slices.Equal(got, want) {
			t.Errorf("%s:\n%s", name, firstDiff(got, want))
		}
	}
}
