package testutil

import (
	"path/filepath"
	"testing"

	"github.com/charsniff/charsniff/internal/benchpage"
)

// BenchSample returns the page file of bench/testdata/sample (real text:
// the HTML drafts and translated man pages, see its SOURCE.md), those in
// legacy encodings encoded from the UTF-8 texts (benchpage.Sample), or
// skips tb if the samples are not there (they live outside the module's
// packages).
func BenchSample(tb testing.TB, file string) []byte {
	tb.Helper()
	data, err := benchpage.Sample(filepath.Join(Root(tb), "bench", "testdata", "sample"), file)
	if err != nil {
		tb.Skipf("no sample: %v", err)
	}
	return data
}

// SamplePages returns the pages of samples/ (not their sources or golden
// outputs), in name order, and fails tb if there are none.
func SamplePages(tb testing.TB) [][]byte {
	tb.Helper()
	var pages [][]byte
	for _, name := range Samples(tb) {
		pages = append(pages, Sample(tb, name))
	}
	return pages
}
