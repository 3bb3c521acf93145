// Command eval measures the accuracy of package detect on the held-out half
// of the corpus (eval.txt of each language, never read by the generator).
//
// Usage, from the repository root:
//
//	go run ./detect/internal/eval [-corpus /tmp/charsniff-corpus] [-size 4096] [-docs 60] [-hint] [-misses 3] [-all]
//
// Each language's held-out text is cut into documents of about -size bytes;
// each document is encoded in each of the encodings a browser would detect
// for that language. The detector sees the whole document, its first 1024
// bytes and its first 256 bytes. A guess is right if it is the encoding or
// decodes the bytes to the same text (KOI8-R for Russian in KOI8-U, say).
// Prefixes without a non-ASCII byte are not counted: any guess decodes them.
//
// With -sample DIR it also writes a small sample of the held-out text (two
// documents per language) for the tests in detect/testdata.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"
	"unicode"

	"github.com/charsniff/charsniff/detect"
	"github.com/charsniff/charsniff/internal/autodetect"
	"github.com/charsniff/charsniff/internal/corpus"
	"github.com/charsniff/charsniff/override"
)

// sets are the sets measured: corpus.Sets, the wide ones with -all.
var sets []corpus.Set

var prefixes = []struct {
	name string
	n    int
}{{"whole", 1 << 30}, {"1KB", 1024}, {"256B", 256}}

func main() {
	dir := flag.String("corpus", "/tmp/charsniff-corpus", "corpus directory")
	size := flag.Int("size", 4096, "document size in bytes (UTF-8)")
	maxDocs := flag.Int("docs", 60, "documents per language and encoding")
	useHint := flag.Bool("hint", false, "pass the set's TLD as a hint")
	misses := flag.Int("misses", 0, "print up to this many misses per set")
	sample := flag.String("sample", "", "write a held-out sample to this directory")
	speed := flag.Bool("speed", false, "measure CPU time per 1 KB prefix and per byte of whole documents")
	wide := flag.Bool("all", false, "use the wide detector (Detector.All) and add the sets of its encodings")
	pagesDir := flag.String("pages", "detect/testdata/feeds", "also measure the pages in this directory, named <encoding label>-<anything> (\"\": none)")
	evidence := flag.Bool("evidence", false, "measure accuracy against the number of non-ASCII bytes seen (calibrates autodetect.EnoughEvidence)")
	flag.Parse()
	log.SetFlags(0)
	held := &corpus.HeldOut{Dir: *dir, Size: *size, Max: *maxDocs}
	if *evidence {
		sets = corpus.Sets(false)
		measureEvidence(held, *useHint)
		return
	}

	d := &detect.Detector{All: *wide}
	sets = corpus.Sets(*wide)
	byFamily := map[string]*[3]corpus.Tally{}
	var families []string
	var legacy, all [3]corpus.Tally
	wrong := map[string]int{}
	for _, s := range sets {
		docs, err := held.Docs(s.Lang)
		if err != nil {
			log.Fatal(err)
		}
		f := byFamily[s.Family]
		if f == nil {
			f = new([3]corpus.Tally)
			byFamily[s.Family] = f
			families = append(families, s.Family)
		}
		var hint detect.Hint
		if *useHint {
			hint.TLD = s.TLD
		}
		shown := 0
		for _, doc := range docs {
			b, dropped := corpus.Encode(s.Enc, string(doc))
			if dropped*50 > len(doc) {
				continue // the language barely fits this encoding
			}
			for i, p := range prefixes {
				pre := b[:min(len(b), p.n)]
				if corpus.IsASCII(pre) && s.Enc != override.ISO2022JP {
					continue
				}
				d.Reset()
				d.Feed(pre, false)
				got, _ := d.Guess(hint)
				ok := got == s.Enc || sameText(got, s.Enc, pre)
				for _, t := range []*corpus.Tally{&f[i], &all[i]} {
					t.Total++
					if ok {
						t.Right++
					}
				}
				if s.Enc != override.UTF8 {
					legacy[i].Total++
					if ok {
						legacy[i].Right++
					}
				}
				if !ok {
					wrong[fmt.Sprintf("%-5s %-12s %-5s -> %s", s.Lang, s.Enc.Name(), p.name, got.Name())]++
					if shown < *misses {
						shown++
						fmt.Printf("MISS %s %s %s -> %s: %q\n", s.Lang, s.Enc.Name(), p.name, got.Name(), trim(corpus.Decode(s.Enc, pre), 160))
					}
				}
			}
		}
	}
	fmt.Printf("| Family | whole | 1 KB | 256 B |\n|---|---|---|---|\n")
	for _, f := range families {
		t := byFamily[f]
		fmt.Printf("| %s | %v (%d) | %v (%d) | %v (%d) |\n", f, t[0], t[0].Total, t[1], t[1].Total, t[2], t[2].Total)
	}
	fmt.Printf("| **All legacy** | %v (%d) | %v (%d) | %v (%d) |\n", legacy[0], legacy[0].Total, legacy[1], legacy[1].Total, legacy[2], legacy[2].Total)
	fmt.Printf("| All with UTF-8 | %v | %v | %v |\n", all[0], all[1], all[2])
	if *pagesDir != "" {
		pages(*pagesDir, d)
	}
	fmt.Println()
	var keys []string
	for k := range wrong {
		keys = append(keys, k)
	}
	// Most misses first, equal counts by name: the output of two runs can
	// be compared with diff (and the 40 shown do not depend on map order).
	sort.Slice(keys, func(i, j int) bool {
		if wrong[keys[i]] != wrong[keys[j]] {
			return wrong[keys[i]] > wrong[keys[j]]
		}
		return keys[i] < keys[j]
	})
	fmt.Println("Most frequent misses:")
	for i, k := range keys {
		if i == 40 {
			break
		}
		fmt.Printf("  %4d  %s\n", wrong[k], k)
	}
	if *sample != "" {
		writeSample(*sample, held.Read())
	}
	if *speed {
		measure(held.Read())
	}
}

// pages prints a row for the whole pages in dir (testdata/feeds: real
// kinds of undeclared input, not held-out text), each named for its
// encoding's label and a hyphen: how many of them, and of their first
// 1 KB and 256 B, are guessed right (prefixes with no non-ASCII byte are
// not counted). No hint is given, with -hint too: they have no TLD.
func pages(dir string, d *detect.Detector) {
	files, err := filepath.Glob(filepath.Join(dir, "*-*"))
	if err != nil {
		log.Fatal(err)
	}
	var t [3]corpus.Tally
	for _, f := range files {
		enc, ok := override.Lookup(strings.SplitN(filepath.Base(f), "-", 2)[0])
		if !ok {
			continue // README.md
		}
		b, err := os.ReadFile(f)
		if err != nil {
			log.Fatal(err)
		}
		for i, p := range prefixes {
			pre := b[:min(len(b), p.n)]
			if corpus.IsASCII(pre) {
				continue
			}
			d.Reset()
			d.Feed(pre, p.n >= len(b))
			got, _ := d.Guess(detect.Hint{})
			t[i].Total++
			if got == enc || sameText(got, enc, pre) {
				t[i].Right++
			} else {
				fmt.Printf("MISS page %s %s -> %s\n", filepath.Base(f), p.name, got.Name())
			}
		}
	}
	fmt.Printf("| Pages (%s) | %v (%d) | %v (%d) | %v (%d) |\n", dir, t[0], t[0].Total, t[1], t[1].Total, t[2], t[2].Total)
}

// measure reports the process CPU time (not wall time, which other
// processes on a shared machine inflate) of Detect over the 1 KB prefixes
// and the whole documents of every set (Reset, Feed and Guess, without a
// hint).
func measure(docsOf map[string][][]byte) {
	var inputs [][]byte
	for _, s := range sets {
		for _, doc := range docsOf[s.Lang] {
			b, _ := corpus.Encode(s.Enc, string(doc))
			inputs = append(inputs, b)
		}
	}
	d := detect.New()
	for _, limit := range []int{1024, 1 << 30} {
		var total, calls int
		start := cpuTime()
		for rep := 0; rep < 20; rep++ {
			for _, b := range inputs {
				b = b[:min(len(b), limit)]
				d.Reset()
				d.Feed(b, false)
				d.Guess(detect.Hint{})
				total += len(b)
				calls++
			}
		}
		t := cpuTime() - start
		fmt.Printf("speed, prefixes of at most %d bytes: %.1f µs per call, %.1f MB/s (CPU time)\n",
			min(limit, 1<<20), t.Seconds()*1e6/float64(calls), float64(total)/t.Seconds()/1e6)
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// sameText reports whether got decodes b to the same text as want.
func sameText(got, want override.Encoding, b []byte) bool {
	if !got.Valid() {
		return false
	}
	return corpus.Decode(got, b) == corpus.Decode(want, b)
}

func trim(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// writeSample writes, per language, two held-out documents of at most 2 KB
// (taken from a third of the way into the held-out text) that have at
// least 32 non-ASCII letters, as <lang>.txt separated by form feeds.
func writeSample(dir string, docsOf map[string][][]byte) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		log.Fatal(err)
	}
	for lang, docs := range docsOf {
		var out bytes.Buffer
		n := 0
		for i := len(docs) / 3; i < len(docs) && n < 2; i++ {
			doc := docs[i]
			if len(doc) > 2048 {
				cut := bytes.LastIndexByte(doc[:2048], '\n')
				if cut < 1024 {
					continue
				}
				doc = doc[:cut+1]
			}
			if letters(doc) < 32 {
				continue // hardly any text in the language: says little
			}
			out.Write(doc)
			out.WriteString("\n\f\n")
			n++
		}
		if err := os.WriteFile(filepath.Join(dir, lang+".txt"), out.Bytes(), 0o644); err != nil {
			log.Fatal(err)
		}
	}
}

// letters counts the non-ASCII letters of UTF-8 text.
func letters(b []byte) int {
	n := 0
	for _, r := range string(b) {
		if r >= 0x80 && unicode.IsLetter(r) {
			n++
		}
	}
	return n
}

// evidenceSteps are the counts of non-ASCII bytes -evidence measures.
var evidenceSteps = []int{2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 256}

// measureEvidence prints, per family, how often the guess is right on the
// shortest prefix of a document holding k non-ASCII bytes (the whole
// document if it holds fewer), for each k of evidenceSteps, and on the
// whole document: a reader that stops looking once it has seen k
// non-ASCII bytes is as right as the k column. Documents with fewer than
// 2 non-ASCII bytes are left out.
func measureEvidence(held *corpus.HeldOut, useHint bool) {
	d := new(autodetect.Detector) // detect's detector, with Candidate
	type row struct{ by []corpus.Tally }
	n := len(evidenceSteps) + 1
	byFamily := map[string]*row{}
	var families []string
	var all row
	all.by = make([]corpus.Tally, n)
	precision := map[string][]corpus.Tally{} // by guess and step
	for _, s := range sets {
		if s.Enc == override.UTF8 || s.Enc == override.ISO2022JP {
			continue // structure decides these
		}
		docs, err := held.Docs(s.Lang)
		if err != nil {
			log.Fatal(err)
		}
		f := byFamily[s.Family]
		if f == nil {
			f = &row{by: make([]corpus.Tally, n)}
			byFamily[s.Family] = f
			families = append(families, s.Family)
		}
		var hint autodetect.Hint
		if useHint {
			hint.TLD = s.TLD
		}
		for _, doc := range docs {
			b, dropped := corpus.Encode(s.Enc, string(doc))
			if dropped*50 > len(doc) || highCount(b) < 2 {
				continue
			}
			for i := range n {
				pre := b
				if i < len(evidenceSteps) {
					pre = b[:prefixWith(b, evidenceSteps[i])]
				}
				d.Reset()
				d.Feed(pre, false)
				got, _ := d.Guess(hint)
				ok := got == s.Enc || sameText(got, s.Enc, b)
				label := got.Name()
				if r := autodetect.Twin(got); r != override.Unknown && !d.Candidate(r) {
					// autodetect.Autodetector keeps a Greek guess only once
					// its rival is out.
					label += ", " + r.Name() + " out"
				}
				p := precision[label]
				if p == nil {
					p = make([]corpus.Tally, n)
					precision[label] = p
				}
				for _, t := range []*corpus.Tally{&f.by[i], &all.by[i], &p[i]} {
					t.Total++
					if ok {
						t.Right++
					}
				}
			}
		}
	}
	fmt.Printf("Precision of each guess (how often a guess of the encoding is right) by non-ASCII bytes seen:\n\n")
	evidenceHeader("Guess")
	var guessed []string
	for e := range precision {
		guessed = append(guessed, e)
	}
	sort.Strings(guessed)
	for _, e := range guessed {
		fmt.Printf("| %s |", e)
		for _, t := range precision[e] {
			fmt.Printf(" %v (%d) |", t, t.Total)
		}
		fmt.Println()
	}
	fmt.Printf("\nAccuracy by family:\n\n")
	evidenceHeader("Family")
	print := func(name string, r *row) {
		fmt.Printf("| %s |", name)
		for _, t := range r.by {
			fmt.Printf(" %v |", t)
		}
		fmt.Printf(" (%d)\n", r.by[n-1].Total)
	}
	for _, f := range families {
		print(f, byFamily[f])
	}
	print("**All legacy**", &all)
}

// highCount counts the bytes 0x80-0xFF of b.
func highCount(b []byte) int {
	n := 0
	for _, c := range b {
		if c >= 0x80 {
			n++
		}
	}
	return n
}

// prefixWith returns the length of the shortest prefix of b that holds k
// bytes 0x80-0xFF, or len(b) if b holds fewer.
func prefixWith(b []byte, k int) int {
	for i, c := range b {
		if c >= 0x80 {
			if k--; k == 0 {
				return i + 1
			}
		}
	}
	return len(b)
}

// evidenceHeader prints the head of a table of -evidence: first the column
// named first, then one column per step of evidenceSteps and "whole".
func evidenceHeader(first string) {
	fmt.Printf("| %s |", first)
	for _, k := range evidenceSteps {
		fmt.Printf(" %d |", k)
	}
	fmt.Printf(" whole |\n|---|")
	for range len(evidenceSteps) + 1 {
		fmt.Printf("---|")
	}
	fmt.Println()
}
