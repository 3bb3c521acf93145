package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestRangeFromJSON feeds every (offset, length) the JSON lines give back
// to --range and to --files-from, and gets each record's line again, for
// WARC files in every container.
func TestRangeFromJSON(t *testing.T) {
	for _, name := range []string{testdataWARC, "warc/testdata/resiliparse/warcfile.warc.lz4",
		"warc/testdata/resiliparse/warcfile.frames.warc.zst", "warc/testdata/resiliparse/warcfile.dict.warc.zst",
		"warc/testdata/resiliparse/clueweb-quirk.warc.gz", "warc/testdata/length-short.warc"} {
		path := filepath.Join(root, name)
		out, _, _ := runInProcess([]string{"--json", "--exit-zero", path})
		var list strings.Builder
		var want []string
		n := 0
		for line := range strings.Lines(out) {
			l := parseLines(t, line)[0]
			if l.Length == 0 {
				continue
			}
			n++
			got, _, _ := runInProcess([]string{"--json", "--exit-zero", "--range", fmt.Sprintf("%d:%d", *l.Offset, l.Length), path})
			if got != line {
				t.Errorf("%s: --range %d:%d gives\n%s\nwant\n%s", name, *l.Offset, l.Length, got, line)
			}
			fmt.Fprintf(&list, "%s\t%d\t%d\n", path, *l.Offset, l.Length)
			want = append(want, line)
		}
		if n == 0 {
			t.Errorf("%s: no line with a length", name)
		}
		got, _, _ := runStdin(nil, list.String(), "--exit-zero", "--files-from", "-")
		if got != strings.Join(want, "") {
			t.Errorf("%s: --files-from gives\n%s\nwant\n%s", name, got, strings.Join(want, ""))
		}
	}
}
