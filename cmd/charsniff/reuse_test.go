package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/charsniff/charsniff/internal/testutil"
)

// reuseFiles writes testutil.ReuseDocs into a directory, and returns their
// paths in order.
func reuseFiles(t *testing.T) []string {
	dir := t.TempDir()
	var paths []string
	for _, d := range testutil.ReuseDocs() {
		p := filepath.Join(dir, d.Name)
		if err := os.WriteFile(p, []byte(d.Text), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	sort.Strings(paths)
	return paths
}

// TestBatchIsEachFile: the command on a batch of files, in any order and
// with one worker (which reuses its Reader for every file) or more, gives
// each file the line it gets alone, with and without --decode.
func TestBatchIsEachFile(t *testing.T) {
	paths := reuseFiles(t)
	rng := rand.New(rand.NewPCG(7, 7))
	for _, mode := range [][]string{{"--json"}, {"--json", "--decode"}} {
		alone := make(map[string]string)
		for _, p := range paths {
			out, errOut, _ := runInProcess(append(mode[:len(mode):len(mode)], p))
			if errOut != "" || strings.Count(out, "\n") != 1 {
				t.Fatalf("%q %s: %q, %q", mode, p, out, errOut)
			}
			alone[p] = out
		}
		for trial := range 6 {
			order := append([]string(nil), paths...)
			rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
			procs := 1 + trial%2
			out, errOut := runBatch(append(mode[:len(mode):len(mode)], order...), procs)
			lines := strings.SplitAfter(out, "\n")
			if errOut != "" || len(lines) != len(order)+1 {
				t.Fatalf("%q, %d workers: %d lines, %q", mode, procs, len(lines)-1, errOut)
			}
			for i, p := range order {
				if lines[i] != alone[p] {
					t.Errorf("%q, %d workers, order %d: %s\nbatch: %.300s\nalone: %.300s", mode, procs, trial, filepath.Base(p), lines[i], alone[p])
				}
			}
		}
	}
}

// runBatch runs the command in this process with procs workers.
func runBatch(args []string, procs int) (stdout, stderr string) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
	out, errOut, code := runInProcess(args)
	if code != 0 {
		errOut += fmt.Sprintf("exit %d", code)
	}
	return out, errOut
}
