package warctest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/charsniff/charsniff/internal/testutil"
)

// Testdata returns the file name (slash-separated, such as
// "resiliparse/warcfile.warc.lz4") of the warc package's testdata folder,
// the WARC fixtures that the tests of warc and archive read (each folder
// there has its SOURCE and LICENSE).
func Testdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testdataDir(t), filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestdataGlob returns the files of the warc package's testdata folder whose
// names match pattern (a path.Match pattern, slash-separated), by name. It
// fails the test if none does.
func TestdataGlob(t testing.TB, pattern string) map[string][]byte {
	t.Helper()
	dir := testdataDir(t)
	names, err := filepath.Glob(filepath.Join(dir, filepath.FromSlash(pattern)))
	if err != nil || len(names) == 0 {
		t.Fatalf("warctest: no file of %s matches %s (%v)", dir, pattern, err)
	}
	files := make(map[string][]byte, len(names))
	for _, n := range names {
		rel, _ := filepath.Rel(dir, n)
		files[filepath.ToSlash(rel)] = Testdata(t, filepath.ToSlash(rel))
	}
	return files
}

// testdataDir returns the warc package's testdata folder.
func testdataDir(t testing.TB) string {
	return filepath.Join(testutil.Root(t), "warc", "testdata")
}
