package warc

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Thresholds of watchSlow: an execution still running after slowWall, or
// one that took more than slowCPU of CPU time, is slow. They only decide
// what is logged; no test fails on time.
const (
	slowWall = 2 * time.Second
	slowCPU  = 0.5 // seconds
)

// watchSlow names a slow input of a fuzz target, so that a stall of
// go test -fuzz can be traced to it: it returns a function to call when the
// execution is done. An input still running after slowWall is recorded
// then (so that one that never ends is named too), one that took more than
// slowCPU seconds of CPU when it is done: its length and SHA-256 go to
// t.Log and, in a fuzz worker (whose output go test discards) or when
// $CHARSNIFF_FUZZ_SLOW names a directory, to slow.log in that directory
// (default: charsniff-fuzz-slow in the temporary directory), with the
// input as a corpus file named by its hash, to copy into
// testdata/fuzz/<target>/.
func watchSlow(t *testing.T, data []byte) (done func()) {
	sum := sha256.Sum256(data)
	name := fmt.Sprintf("%x", sum[:8])
	cpu0, wall0 := cpuSeconds(), time.Now()
	var once sync.Once
	timer := time.AfterFunc(slowWall, func() {
		once.Do(func() { recordSlow(t.Name(), name, data, fmt.Sprintf("still running after %v", slowWall)) })
	})
	return func() {
		timer.Stop()
		cpu := cpuSeconds() - cpu0
		if cpu <= slowCPU {
			return
		}
		what := fmt.Sprintf("%.2fs of CPU, %v of wall time", cpu, time.Since(wall0).Round(time.Millisecond))
		t.Logf("slow input: %d bytes, sha256 %x: %s", len(data), sum, what)
		once.Do(func() { recordSlow(t.Name(), name, data, what) })
	}
}

// recordSlow writes a slow input and a line about it to slowDir, if the
// run records slow inputs.
func recordSlow(test, name string, data []byte, what string) {
	dir := slowDir()
	if dir == "" || os.MkdirAll(dir, 0o755) != nil {
		return
	}
	file := filepath.Join(dir, name)
	os.WriteFile(file, fmt.Appendf(nil, "go test fuzz v1\n[]byte(%q)\n", data), 0o644)
	f, err := os.OpenFile(filepath.Join(dir, "slow.log"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintf(f, "%s %s: %d bytes, %s; input in %s\n", time.Now().UTC().Format(time.RFC3339), test, len(data), what, file)
}

// slowDir returns where slow inputs are recorded: $CHARSNIFF_FUZZ_SLOW, or
// in a fuzz worker a directory in the temporary directory; "" otherwise.
func slowDir() string {
	if d := os.Getenv("CHARSNIFF_FUZZ_SLOW"); d != "" {
		return d
	}
	if f := flag.Lookup("test.fuzzworker"); f != nil && f.Value.String() == "true" {
		return filepath.Join(os.TempDir(), "charsniff-fuzz-slow")
	}
	return ""
}

// TestRecordSlow records a slow input where $CHARSNIFF_FUZZ_SLOW says: a
// corpus file that go test reads back as the input, and a line naming it.
func TestRecordSlow(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("CHARSNIFF_FUZZ_SLOW", dir)
	data := []byte("WARC/1.0\r\n\x00\xff\"\\`")
	recordSlow("FuzzReader", "0123abcd", data, "still running after 2s")
	b, err := os.ReadFile(filepath.Join(dir, "0123abcd"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	if len(lines) != 3 || lines[0] != "go test fuzz v1" || !strings.HasPrefix(lines[1], "[]byte(") {
		t.Fatalf("corpus file %q", b)
	}
	got, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[1], "[]byte("), ")"))
	if err != nil || got != string(data) {
		t.Errorf("corpus file holds %q (%v), want %q", got, err, data)
	}
	log, _ := os.ReadFile(filepath.Join(dir, "slow.log"))
	if want := fmt.Sprintf(" FuzzReader: %d bytes, still running after 2s; input in %s\n", len(data), filepath.Join(dir, "0123abcd")); !strings.HasSuffix(string(log), want) {
		t.Errorf("slow.log %q, want a line ending %q", log, want)
	}
}
