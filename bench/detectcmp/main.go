// Command detectcmp compares package detect with Firefox's chardetng and
// with uchardet on undeclared documents the developers build: the
// held-out half of the corpus (internal/corpus/fetch.sh), cut into
// documents of about -size bytes and encoded in each encoding a browser
// would detect for the language, as detect/internal/eval does. Each
// detector sees the whole document, its first 1 KB and its first 256
// bytes, with no hint; prefixes without a non-ASCII byte are left out. A
// guess is right if it is the encoding or decodes the bytes to the same
// text; an answer outside the WHATWG Encoding Standard (uchardet's
// MAC-CYRILLIC, say) is wrong, since a browser cannot use it.
//
// Usage, from bench/ (see results/2026-11-26-detector.md):
//
//	CHARDETNG_SRC=... chardetng/build.sh    # prints the chardetng-guess path
//	go run ./detectcmp -chardetng chardetng/target/release/chardetng-guess [-uchardet uchardet]
//
// Both peers run as commands over files in a temporary directory, many
// files per process; chardetng is fed the whole document as the whole
// input and a prefix as a prefix (last = false), with UTF-8 allowed.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/detect"
	"github.com/charsniff/charsniff/internal/corpus"
	"github.com/charsniff/charsniff/override"
)

// sets are corpus.Sets, the sets of detect/internal/eval, but for two: not
// ISO-2022-JP, since x/text's encoder, which internal/corpus uses, writes
// back-to-back escape sequences (ESC ( B ESC $ B), an error in the Encoding
// Standard's decoder, which chardetng rightly takes as not ISO-2022-JP;
// and not ISO-8859-4, which eval measures since after the comparison of
// results/2026-11-26-detector.md, so that this tool still gives its rows.
var sets = func() []corpus.Set {
	var out []corpus.Set
	for _, s := range corpus.Sets(false) {
		if s.Enc != override.ISO2022JP && s.Enc != override.ISO8859_4 {
			out = append(out, s)
		}
	}
	return out
}()

// prefixes are the views of each document.
var prefixes = []struct {
	name string
	n    int
}{{"whole", 1 << 30}, {"1 KB", 1024}, {"256 B", 256}}

// detectors are the columns, in order; with -pages a fourth is the
// Reader with the window alone.
var detectors = []string{"charsniff", "chardetng", "uchardet"}

// input is one prefix of one document, written to a file for the peers.
type input struct {
	set   corpus.Set
	view  int // index in prefixes
	data  []byte
	path  string
	guess [4]string // by detector
}

func main() {
	dir := flag.String("corpus", "/tmp/charsniff-corpus", "corpus directory (internal/corpus/fetch.sh)")
	size := flag.Int("size", 4096, "document size in bytes (UTF-8)")
	maxDocs := flag.Int("docs", 60, "documents per language and encoding")
	chardetng := flag.String("chardetng", "chardetng/target/release/chardetng-guess", "chardetng-guess command (chardetng/build.sh)")
	uchardet := flag.String("uchardet", "uchardet", "uchardet command (Debian package uchardet)")
	misses := flag.Bool("misses", false, "print the most frequent misses of each detector")
	pages := flag.Bool("pages", false, "wrap each document in an HTML page (an ASCII head, markup between the lines) and ask decode.Reader")
	flag.Parse()
	log.SetFlags(0)

	tmp, err := os.MkdirTemp("", "detectcmp")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	inputs := build(*dir, *size, *maxDocs, tmp, *pages)
	var d detect.Detector
	for _, in := range inputs {
		if *pages {
			in.guess[0] = readerGuess(in.data)
			in.guess[3] = readerGuess(in.data, decode.WithLookahead(0))
			continue
		}
		d.Reset()
		d.Feed(in.data, in.view == 0)
		e, _ := d.Guess(detect.Hint{})
		in.guess[0] = e.Name()
	}
	if *pages {
		prefixes = prefixes[:1]
		detectors = append(detectors, "charsniff, window alone")
	}
	for _, last := range []bool{true, false} {
		var batch []*input
		for _, in := range inputs {
			if (in.view == 0) == last {
				batch = append(batch, in)
			}
		}
		args := []string{}
		if !last {
			args = append(args, "-prefix")
		}
		run(*chardetng, args, batch, "\t", 1)
		run(*uchardet, nil, batch, ": ", 2)
	}
	report(inputs, *misses)
}

// build writes every counted prefix of every document to dir and returns
// them.
func build(dir string, size, maxDocs int, tmp string, pages bool) []*input {
	held := &corpus.HeldOut{Dir: dir, Size: size, Max: maxDocs}
	var inputs []*input
	for _, s := range sets {
		docs, err := held.Docs(s.Lang)
		if err != nil {
			log.Fatal(err)
		}
		for _, doc := range docs {
			b, dropped := corpus.Encode(s.Enc, string(doc))
			if dropped*50 > len(doc) {
				continue // the language barely fits this encoding
			}
			views := prefixes
			if pages {
				b, views = page(b, len(inputs)), prefixes[:1]
			}
			for i, p := range views {
				pre := b[:min(len(b), p.n)]
				if corpus.IsASCII(pre) {
					continue
				}
				in := &input{set: s, view: i, data: pre, path: filepath.Join(tmp, fmt.Sprintf("%06d", len(inputs)))}
				if err := os.WriteFile(in.path, pre, 0o644); err != nil {
					log.Fatal(err)
				}
				inputs = append(inputs, in)
			}
		}
	}
	return inputs
}

// readerGuess returns the encoding a decode.Reader with opts decodes
// page in.
func readerGuess(page []byte, opts ...decode.Option) string {
	r, err := decode.NewReader(bytes.NewReader(page), opts...)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := io.Copy(io.Discard, r); err != nil {
		log.Fatal(err)
	}
	return r.Result().Encoding.Name()
}

// pageHeads are the lengths of the ASCII heads of -pages, taken in turn:
// text inside the first kilobyte, at its end, and after it.
var pageHeads = []int{200, 900, 2000, 6000}

// page wraps text, a document's bytes, in an undeclared HTML page: an
// ASCII head of one of pageHeads bytes (by i), then each line in a <p>
// followed by a line of navigation markup, so that the non-ASCII bytes
// are sparse, as on a real page.
func page(text []byte, i int) []byte {
	var b bytes.Buffer
	b.WriteString("<!DOCTYPE html>\n<html><head><title>Page</title>\n")
	for b.Len() < pageHeads[i%len(pageHeads)] {
		b.WriteString("<link rel=stylesheet href=\"/static/site.css\"><script src=/static/app.js></script>\n")
	}
	b.WriteString("</head><body>\n")
	for _, line := range bytes.Split(text, []byte("\n")) {
		b.WriteString("<p>")
		b.Write(line)
		b.WriteString("</p>\n<div class=nav><a href=\"/home\">Home</a> | <a href=\"/about\">About</a></div>\n")
	}
	b.WriteString("</body></html>\n")
	return b.Bytes()
}

// run runs command over the inputs' files, 500 a process, and records its
// answer for each ("path<sep>name" lines) as detector k's guess.
func run(command string, args []string, inputs []*input, sep string, k int) {
	byPath := map[string]*input{}
	for i := 0; i < len(inputs); i += 500 {
		part := inputs[i:min(len(inputs), i+500)]
		a := append([]string(nil), args...)
		for _, in := range part {
			a = append(a, in.path)
			byPath[in.path] = in
		}
		out, err := exec.Command(command, a...).Output()
		if err != nil {
			log.Fatalf("%s: %v", command, err)
		}
		sc := bufio.NewScanner(bytes.NewReader(out))
		for sc.Scan() {
			path, name, ok := strings.Cut(sc.Text(), sep)
			if in := byPath[path]; ok && in != nil {
				in.guess[k] = strings.TrimSpace(name)
			}
		}
	}
	for _, in := range inputs {
		if in.guess[k] == "" {
			log.Fatalf("%s gave no answer for %s", command, in.path)
		}
	}
}

// right reports whether name, a detector's answer, decodes in as its
// encoding does.
func right(name string, in *input) bool {
	if strings.EqualFold(name, "UHC") {
		// uchardet's name for windows-949, which the Encoding
		// Standard's EUC-KR is.
		name = "euc-kr"
	}
	e, ok := override.Lookup(name)
	if !ok {
		return false
	}
	return e == in.set.Enc || corpus.Decode(e, in.data) == corpus.Decode(in.set.Enc, in.data)
}

// report prints the table: per family and view, each detector's share of
// right answers.
func report(inputs []*input, misses bool) {
	type cell [4]corpus.Tally
	var families []string
	byFamily := map[string]*[3]cell{}
	var legacy, all [3]cell
	wrong := [4]map[string]int{{}, {}, {}, {}}
	for _, in := range inputs {
		f := byFamily[in.set.Family]
		if f == nil {
			f = new([3]cell)
			byFamily[in.set.Family] = f
			families = append(families, in.set.Family)
		}
		for k := range detectors {
			ok := right(in.guess[k], in)
			cs := []*corpus.Tally{&f[in.view][k], &all[in.view][k]}
			if in.set.Enc != override.UTF8 {
				cs = append(cs, &legacy[in.view][k])
			}
			for _, t := range cs {
				t.Total++
				if ok {
					t.Right++
				}
			}
			if !ok {
				wrong[k][fmt.Sprintf("%-5s %-12s %-5s -> %s", in.set.Lang, in.set.Enc.Name(), prefixes[in.view].name, in.guess[k])]++
			}
		}
	}
	fmt.Printf("| Family | docs |")
	for _, p := range prefixes {
		for _, d := range detectors {
			fmt.Printf(" %s %s |", p.name, d)
		}
	}
	fmt.Printf("\n|---|---|%s\n", strings.Repeat("---|", len(prefixes)*len(detectors)))
	line := func(name string, c *[3]cell) {
		fmt.Printf("| %s | %d |", name, c[0][0].Total)
		for v := range prefixes {
			for k := range detectors {
				fmt.Printf(" %v |", c[v][k])
			}
		}
		fmt.Println()
	}
	for _, f := range families {
		line(f, byFamily[f])
	}
	line("**All legacy**", &legacy)
	line("All with UTF-8", &all)
	if misses {
		for k, d := range detectors {
			fmt.Printf("\nMost frequent misses of %s:\n", d)
			for _, m := range top(wrong[k], 25) {
				fmt.Printf("  %4d  %s\n", wrong[k][m], m)
			}
		}
	}
}

// top returns the n keys of m with the largest counts.
func top(m map[string]int, n int) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	for i := range keys {
		for j := i + 1; j < len(keys); j++ {
			if m[keys[j]] > m[keys[i]] || m[keys[j]] == m[keys[i]] && keys[j] < keys[i] {
				keys[i], keys[j] = keys[j], keys[i]
			}
		}
	}
	return keys[:min(n, len(keys))]
}
