package warctest

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
)

var (
	benchSize = flag.Int64("warcbench.size", 200<<20, "uncompressed size of the WARC file the WARC benchmarks generate")
	benchDir  = flag.String("warcbench.dir", "", "directory to keep the WARC benchmarks' generated files in, for reuse (default: a temporary one)")
)

// BenchCrawl returns the crawl file the WARC benchmarks read (warc's
// BenchmarkReader, the command's BenchmarkWARC): BenchFile's, of
// -warcbench.size bytes, gzip-compressed a member a record if compress is
// set, written to -warcbench.dir and kept there for the next run (kept
// reports it), or else to a temporary directory of tb.
func BenchCrawl(tb testing.TB, compress bool) (path string, st Stats, kept bool) {
	tb.Helper()
	dir, kept := *benchDir, *benchDir != ""
	if !kept {
		dir = tb.TempDir()
	}
	path, st, err := BenchFile(dir, *benchSize, compress, kept)
	if err != nil {
		tb.Fatal(err)
	}
	return path, st, kept
}

// BenchFile writes the crawl Generate makes (seed 1) of size bytes to a
// file in dir, gzip-compressed if compress is set, and returns its path and
// the crawl's counts. With keep set it reuses a file of that name already
// in dir, so that benchmarks run again skip the writing.
func BenchFile(dir string, size int64, compress, keep bool) (string, Stats, error) {
	path := filepath.Join(dir, fmt.Sprintf("bench-%d.warc", size))
	if compress {
		path += ".gz"
	}
	st, err := Generate(io.Discard, size, false, 1) // the counts only
	if err != nil {
		return "", st, err
	}
	if _, err := os.Stat(path); err == nil && keep {
		return path, st, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return "", st, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	if _, err = Generate(w, size, compress, 1); err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return path, st, err
}

// Collect calls next, a reader's Next, until it returns io.EOF, and
// returns f of each record; another error fails tb.
func Collect[R, T any](tb testing.TB, next func() (R, error), f func(R) T) []T {
	tb.Helper()
	var out []T
	for {
		rec, err := next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, f(rec))
	}
}
