package testutil

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Samples returns the names of the pages of samples/ (such as
// "news-shiftjis-meta.html"), sorted; it fails t if there are none.
func Samples(t testing.TB) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(Root(t), "samples", "*.*html"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("testutil: no sample pages (%v)", err)
	}
	names := make([]string, len(paths))
	for i, p := range paths {
		names[i] = filepath.Base(p)
	}
	return names
}

// Sample returns the page samples/name.
func Sample(t testing.TB, name string) []byte {
	t.Helper()
	return readRoot(t, "samples", name)
}

// Golden returns the golden decoding of the page samples/name, what a
// browser's decoder makes of it: samples/golden/NAME.utf8, NAME without
// the page's extension.
func Golden(t testing.TB, name string) string {
	t.Helper()
	return string(readRoot(t, "samples", "golden", strings.TrimSuffix(name, filepath.Ext(name))+".utf8"))
}

// readRoot reads the file of the module at the path elems.
func readRoot(t testing.TB, elems ...string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(append([]string{Root(t)}, elems...)...))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
