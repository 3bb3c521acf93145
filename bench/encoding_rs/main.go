// Command encoding_rs compares charsniff's decoder with encoding_rs
// (Firefox's, built with SIMD by build.sh) on the same work: each bench
// corpus decoded to UTF-8 without the HTML preprocessing
// (decode.WithoutPreprocessing, decode.WithEncoding), into a 32 KB buffer,
// as encoding_rs's decode_to_utf8 does. It writes the corpora to a
// temporary directory, then runs both sides round by round (charsniff in
// this process, then the Rust binary, then the other way round), and
// prints a Markdown table of the median MB/s over CPU time and their ratio.
// run.sh builds both and runs it.
//
// Usage: go run ./encoding_rs -rust PATH [-rounds 5] [-time 0.3]
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/internal/benchpage"
	"github.com/charsniff/charsniff/internal/testutil"
	"github.com/charsniff/charsniff/override"
)

// A corpus is one input: the page file of benchpage (a UTF-8 text, or one
// of its legacy pages) or a UTF-8 text encoded here in enc.
type corpus struct {
	name, label, file string
	enc               encoding.Encoding // nil: benchpage's page file
	crlf              bool
}

// corpora are bench's BenchmarkDecode corpora, LF and CR LF, and the
// Russian text in the other Cyrillic single-byte encodings.
func corpora() []corpus {
	base := []corpus{
		{name: "utf-8-english", label: "utf-8", file: "utf-8-english.html"},
		{name: "utf-8-japanese", label: "utf-8", file: "utf-8-japanese.html"},
		{name: "utf-8-russian", label: "utf-8", file: "utf-8-russian.html"},
		{name: "windows-1252", label: "windows-1252", file: "windows-1252.html"},
		{name: "windows-1251", label: "windows-1251", file: "windows-1251.html"},
		{name: "shift_jis", label: "shift_jis", file: "shift_jis.html"},
		{name: "euc-jp", label: "euc-jp", file: "euc-jp.html"},
		{name: "gbk", label: "gbk", file: "gbk.html"},
	}
	var out []corpus
	for _, c := range base {
		crlf := c
		crlf.name += "-crlf"
		crlf.crlf = true
		out = append(out, c, crlf)
	}
	for _, c := range []corpus{
		{name: "koi8-r", label: "koi8-r", enc: charmap.KOI8R},
		{name: "iso-8859-5", label: "iso-8859-5", enc: charmap.ISO8859_5},
		{name: "ibm866", label: "ibm866", enc: charmap.CodePage866},
		{name: "x-mac-cyrillic", label: "x-mac-cyrillic", enc: charmap.MacintoshCyrillic},
	} {
		c.file = "utf-8-russian.html"
		out = append(out, c)
	}
	return out
}

// load returns the bytes of c, from bench's 4 MB corpora when make.sh made
// them, else from its 64 KB samples.
func load(bench string, c corpus) ([]byte, error) {
	read := func(dir, file string) ([]byte, error) { return benchpage.Read(dir, file) }
	dir := filepath.Join(bench, "corpus", "large")
	if _, err := os.Stat(filepath.Join(dir, "utf-8-english.html")); err != nil {
		dir = filepath.Join(bench, "testdata", "sample")
		read = benchpage.Sample
	}
	var data []byte
	var err error
	if c.enc == nil {
		data, err = read(dir, c.file)
	} else {
		var text []byte
		if text, err = os.ReadFile(filepath.Join(dir, c.file)); err == nil {
			data, err = benchpage.Encode(c.enc, text)
		}
		if err == nil && dir != filepath.Join(bench, "corpus", "large") {
			data = data[:min(len(data), benchpage.SampleSize)]
		}
	}
	if err != nil {
		return nil, err
	}
	if c.crlf {
		data = bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n"))
	}
	return data, nil
}

// measure decodes data as label with charsniff, without the
// preprocessing, for about secs, and returns MB/s of input over wall-clock
// and thread CPU time, and the length of the output. read: Read into a 32 KB buffer, else WriteTo.
func measure(label string, data []byte, secs float64, read bool) (wall, cpu float64, size int64) {
	e, ok := override.Lookup(label)
	if !ok {
		log.Fatalf("unknown label %q", label)
	}
	opts := []decode.Option{decode.WithEncoding(e), decode.WithoutPreprocessing()}
	src := bytes.NewReader(data)
	r, err := decode.NewReader(src, opts...)
	if err != nil {
		log.Fatal(err)
	}
	buf := make([]byte, 32<<10)
	once := func() int64 {
		src.Reset(data)
		r.Reset(src, opts...)
		if !read {
			n, _ := r.WriteTo(io.Discard)
			return n
		}
		var size int64
		for {
			n, err := r.Read(buf)
			size += int64(n)
			if err != nil {
				return size
			}
		}
	}
	size = once()
	t0, c0 := time.Now(), testutil.ThreadCPU()
	n := 0
	for n == 0 || time.Since(t0).Seconds() < secs {
		once()
		n++
	}
	mb := float64(n) * float64(len(data)) / 1e6
	return mb / time.Since(t0).Seconds(), mb / (float64(testutil.ThreadCPU()-c0) / 1e9), size
}

func main() {
	log.SetFlags(0)
	rust := flag.String("rust", "", "the encoding_rs-bench binary (build.sh)")
	rounds := flag.Int("rounds", 5, "rounds of both sides, alternating which goes first")
	secs := flag.Float64("time", 0.3, "seconds for each corpus and side in a round")
	bench := flag.String("bench", ".", "the bench directory")
	only := flag.String("only", "", "only the corpora whose names contain this")
	keep := flag.String("dir", "", "write the corpora to this directory and keep them (default: a temporary one)")
	flag.Parse()
	if *rust == "" {
		log.Fatal("-rust: the path of encoding_rs-bench")
	}
	runtime.LockOSThread() // ThreadCPU is this thread's
	dir := *keep
	if dir == "" {
		d, err := os.MkdirTemp("", "encoding_rs-bench")
		if err != nil {
			log.Fatal(err)
		}
		defer os.RemoveAll(d)
		dir = d
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		log.Fatal(err)
	}
	var cs []corpus
	data := map[string][]byte{}
	args := []string{strconv.FormatFloat(*secs, 'f', -1, 64)}
	for _, c := range corpora() {
		if !strings.Contains(c.name, *only) {
			continue
		}
		b, err := load(*bench, c)
		if err != nil {
			log.Fatal(err)
		}
		path := filepath.Join(dir, c.name)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			log.Fatal(err)
		}
		cs = append(cs, c)
		data[c.name] = b
		args = append(args, c.name, c.label, path)
	}
	type samples struct {
		read, writeTo, rs []float64
		size              int64 // of charsniff's output
	}
	got := map[string]*samples{}
	for _, c := range cs {
		got[c.name] = new(samples)
	}
	runGo := func() {
		for _, c := range cs {
			s := got[c.name]
			_, cpu, n := measure(c.label, data[c.name], *secs, true)
			s.read = append(s.read, cpu)
			_, cpu, m := measure(c.label, data[c.name], *secs, false)
			s.writeTo = append(s.writeTo, cpu)
			if n != m {
				log.Fatalf("%s: Read wrote %d bytes, WriteTo %d", c.name, n, m)
			}
			s.size = n
		}
	}
	runRust := func() {
		out, err := exec.Command(*rust, args...).Output()
		if err != nil {
			log.Fatalf("%s: %v", *rust, err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			f := strings.Fields(line)
			if len(f) != 4 || got[f[0]] == nil {
				log.Fatalf("%s: bad line %q", *rust, line)
			}
			cpu, err1 := strconv.ParseFloat(f[2], 64)
			size, err2 := strconv.ParseInt(f[3], 10, 64)
			if err1 != nil || err2 != nil {
				log.Fatalf("%s: bad line %q", *rust, line)
			}
			if s := got[f[0]]; s.size != 0 && s.size != size {
				log.Fatalf("%s: encoding_rs wrote %d bytes of UTF-8, charsniff %d", f[0], size, s.size)
			}
			got[f[0]].rs = append(got[f[0]].rs, cpu)
		}
	}
	for k := range *rounds {
		if k%2 == 0 {
			runGo()
			runRust()
		} else {
			runRust()
			runGo()
		}
		fmt.Fprintf(os.Stderr, "round %d of %d\n", k+1, *rounds)
	}
	fmt.Printf("| corpus | bytes | charsniff Read 32 KB | charsniff WriteTo | encoding_rs | Read ÷ encoding_rs | WriteTo ÷ encoding_rs |\n")
	fmt.Printf("|---|--:|--:|--:|--:|--:|--:|\n")
	for _, c := range cs {
		s := got[c.name]
		r, w, x := median(s.read), median(s.writeTo), median(s.rs)
		fmt.Printf("| %s | %d | %.0f | %.0f | %.0f | %.2f× | %.2f× |\n", c.name, len(data[c.name]), r, w, x, r/x, w/x)
	}
}

// median returns the median of xs, which it sorts.
func median(xs []float64) float64 {
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}
