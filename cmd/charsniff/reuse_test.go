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
)

// reuseFiles writes documents whose decisions depend on state a reused
// Reader could carry over (bytes held to decide late, a pending CR, the
// look-ahead's <meta> scan) into a directory, and returns their paths.
func reuseFiles(t *testing.T) []string {
	dir := t.TempDir()
	ascii := strings.Repeat("<p>plain ASCII text, line after line.</p>\r\n", 40)
	tail := strings.Repeat("<p>more ASCII after the first non-ASCII byte</p>\n", 200)
	docs := map[string]string{
		// The bug report's pair: a.xml stops while holding read-ahead.
		"a.xml":         "<html>" + ascii + "caf\xe9 na\xefve r\xe9sum\xe9" + tail,
		"b.xml":         "<?xml version=\"1.0\" encoding=\"Shift_JIS\"?>\n<rss>" + ascii + "\x82\xa0\x82\xa2</rss>",
		"big5.xml":      "<?xml version=\"1.0\" encoding=\"Big5\"?>\n<rss>" + ascii + "\xa4\xa4\xa4\xe5</rss>",
		"euckr.xml":     "<?xml version=\"1.0\" encoding=\"EUC-KR\"?>\n<rss>\xc7\xd1\xb1\xb9</rss>",
		"latemeta.html": "<html>" + ascii + `<meta charset="koi8-r">` + "\xf0\xd2\xc9\xd7" + tail,
		"sjis.html":     "<html>" + ascii + strings.Repeat("\x82\xa0\x82\xa2\x82\xa4 ", 60) + tail,
		"utf8.html":     "<html>" + ascii + strings.Repeat("caf\xc3\xa9 ", 60) + tail,
		"ascii.html":    ascii,
		"cr.html":       "a\r\nb\r",
		"lf.html":       "\nstarts with LF",
		"utf16.html":    "\xff\xfe<\x00p\x00>\x00\xe9\x00",
		"empty.html":    "",
	}
	var paths []string
	for name, doc := range docs {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
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
