package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/charsniff/charsniff/internal/warctest"
)

// TestGzipFile checks that a gzip-compressed page (page.html.gz, or on
// standard input) is decompressed before sniffing and decoding, as gzip
// WARC files are, and that a corrupt one is an error for that input.
func TestGzipFile(t *testing.T) {
	page := readRoot(t, samplePath("news-shiftjis-meta.html"))
	golden := readRoot(t, "samples/golden/news-shiftjis-meta.utf8")
	dir := t.TempDir()
	gz := filepath.Join(dir, "page.html.gz")
	if err := os.WriteFile(gz, warctest.Gzip([]byte(page)), 0o644); err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut.html.gz")
	whole := warctest.Gzip([]byte(page))
	if err := os.WriteFile(cut, whole[:len(whole)/2], 0o644); err != nil {
		t.Fatal(err)
	}

	stdout, stderr, code := charsniff(t, "", "--json", gz)
	want := `{"file":"` + gz + `","encoding":"shift_jis","confidence":"tentative","source":"prescan","provenance":{"prescan":"shift_jis","prescan_rule":"meta","prescan_offset":66,"detected":"shift_jis","strength":"statistical"}}` + "\n"
	if stdout != want || code != 0 {
		t.Errorf("--json: exit %d, got %q, want %q (stderr %q)", code, stdout, want, stderr)
	}
	stdout, _, code = charsniff(t, "", "--decode", gz)
	if stdout != golden || code != 0 {
		t.Errorf("--decode: exit %d, text differs from the golden file", code)
	}
	stdout, _, code = charsniff(t, string(whole), "--decode", "-")
	if stdout != golden || code != 0 {
		t.Errorf("--decode -: exit %d, text differs from the golden file", code)
	}
	stdout, stderr, code = charsniff(t, "", "--decode", "--json", cut, gz)
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if code != 1 || len(lines) != 2 || !strings.HasSuffix(lines[0], `"error":"gzip: unexpected EOF"}`) ||
		!strings.Contains(stderr, "cut.html.gz: gzip: unexpected EOF") {
		t.Errorf("cut: exit %d, stdout\n%s\nstderr %q", code, stdout, stderr)
	}
}

// TestZstdFile checks that a zstd-compressed page is told by its magic
// number and decompressed, on a file and on standard input.
func TestZstdFile(t *testing.T) {
	page := readRoot(t, samplePath("news-shiftjis-meta.html"))
	golden := readRoot(t, "samples/golden/news-shiftjis-meta.utf8")
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	zst := enc.EncodeAll([]byte(page), nil)
	path := filepath.Join(t.TempDir(), "page.html.zst")
	if err := os.WriteFile(path, zst, 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := charsniff(t, "", "--json", path)
	want := `{"file":"` + path + `","encoding":"shift_jis","confidence":"tentative","source":"prescan","provenance":{"prescan":"shift_jis","prescan_rule":"meta","prescan_offset":66,"detected":"shift_jis","strength":"statistical"}}` + "\n"
	if stdout != want || code != 0 {
		t.Errorf("--json: exit %d, got %q, want %q (stderr %q)", code, stdout, want, stderr)
	}
	stdout, _, code = charsniff(t, string(zst), "--decode", "-")
	if stdout != golden || code != 0 {
		t.Errorf("--decode -: exit %d, text differs from the golden file", code)
	}
}
