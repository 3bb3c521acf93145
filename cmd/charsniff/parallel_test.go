package main

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestDecodeWARCParallel checks that --decode on WARC files writes the
// same output whether records are decoded on other cores (held) or in
// place (too large to hold), and on one core: the output is in file order
// and each line whole. The WARC files are the wget one and the damaged
// ones of TestWARCDamage's kind.
func TestDecodeWARCParallel(t *testing.T) {
	dir := t.TempDir()
	wget := filepath.Join(root, testdataWARC)
	damaged := writeDamagedWARC(t, filepath.Join(dir, "damaged.warc"))
	out := filepath.Join(dir, "out.txt")
	for _, args := range [][]string{
		{"--decode", "--json", wget, damaged},
		{"--decode", wget, damaged},
		{"--decode", "--json", "-o", out, wget, damaged},
		{"--decode", "--stats", wget, damaged},
	} {
		want, wantErr, wantCode := runDecodeWith(t, args, 1<<20, 1)
		if wantCode == 0 || wantErr == "" {
			t.Errorf("%q on one core: exit %d, stderr %q, want the cut record reported", args, wantCode, wantErr)
		}
		wantText, _ := os.ReadFile(out)
		for _, max := range []int{1 << 20, -1, 500} {
			got, gotErr, code := runDecodeWith(t, args, max, 2)
			if got != want || gotErr != wantErr || code != wantCode {
				t.Errorf("%q, max %d: exit %d, got\n%s\n%s\nwant exit %d\n%s\n%s", args, max, code, got, gotErr, wantCode, want, wantErr)
			}
			if text, _ := os.ReadFile(out); string(text) != string(wantText) {
				t.Errorf("%q, max %d: -o text differs", args, max)
			}
		}
	}
}

// runDecodeWith runs the command in this process with maxHeld set to max
// and GOMAXPROCS to procs.
func runDecodeWith(t *testing.T, args []string, max, procs int) (stdout, stderr string, code int) {
	t.Helper()
	defer func(m, p int) { maxHeld = m; runtime.GOMAXPROCS(p) }(maxHeld, runtime.GOMAXPROCS(procs))
	maxHeld = max
	return runInProcess(args)
}

// writeDamagedWARC writes the wget WARC file to name twice, the second copy
// cut in the middle (inside a record's gzip member), and returns name.
func writeDamagedWARC(t *testing.T, name string) string {
	t.Helper()
	data := []byte(readRoot(t, testdataWARC))
	if err := os.WriteFile(name, append(append([]byte{}, data...), data[:len(data)/2]...), 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}
