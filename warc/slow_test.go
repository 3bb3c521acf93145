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
// one that took more than slowCPU seconds of CPU time
// ($CHARSNIFF_FUZZ_SLOW_CPU, a duration, sets it), is slow. They only
// decide what is logged; no test fails on time.
const slowWall = 2 * time.Second

var slowCPU = func() float64 {
	if d, err := time.ParseDuration(os.Getenv("CHARSNIFF_FUZZ_SLOW_CPU")); err == nil {
		return d.Seconds()
	}
	return 0.5
}()

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
		busy.add(t.Name(), name, len(data), time.Since(wall0))
		if cpu <= slowCPU {
			return
		}
		what := fmt.Sprintf("%.2fs of CPU, %v of wall time", cpu, time.Since(wall0).Round(time.Millisecond))
		t.Logf("slow input: %d bytes, sha256 %x: %s", len(data), sum, what)
		once.Do(func() { recordSlow(t.Name(), name, data, what) })
	}
}

// busy sums up the executions of each second in slow.log, where slow
// inputs are recorded: how many ran, their lengths and the slowest one.
// During a stall of go test -fuzz (which counts no execution while it
// minimizes a new input), it shows what the worker runs meanwhile.
var busy busyLog

type busyLog struct {
	mu        sync.Mutex
	start     time.Time // of the second being summed up; zero before the first
	n         int
	minLen    int
	maxLen    int
	slowest   time.Duration
	slowName  string
	slowLen   int
	dir       string // slowDir, looked up once
	dirLooked bool
}

// add counts an execution of test on an input of n bytes named name that
// took d, and writes the line of the past second if it is over.
func (b *busyLog) add(test, name string, n int, d time.Duration) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.dirLooked {
		b.dir, b.dirLooked = slowDir(), true
	}
	if b.dir == "" {
		return
	}
	now := time.Now()
	if b.n == 0 {
		b.start, b.minLen, b.maxLen, b.slowest = now, n, n, 0
	}
	b.n++
	b.minLen, b.maxLen = min(b.minLen, n), max(b.maxLen, n)
	if d >= b.slowest {
		b.slowest, b.slowName, b.slowLen = d, name, n
	}
	if now.Sub(b.start) < time.Second {
		return
	}
	appendLog(b.dir, fmt.Sprintf("%s busy: %d executions in %v, inputs of %d to %d bytes, the slowest %v (%d bytes, sha256 %s…)",
		test, b.n, now.Sub(b.start).Round(time.Millisecond), b.minLen, b.maxLen, b.slowest.Round(time.Microsecond), b.slowLen, b.slowName))
	b.n = 0
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
	appendLog(dir, fmt.Sprintf("%s: %d bytes, %s; input in %s", test, len(data), what, file))
}

// appendLog appends a line, after the time, to slow.log in dir.
func appendLog(dir, line string) {
	if os.MkdirAll(dir, 0o755) != nil {
		return
	}
	f, err := os.OpenFile(filepath.Join(dir, "slow.log"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintf(f, "%s %s\n", time.Now().UTC().Format(time.RFC3339), line)
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
