package invariance

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/charsniff/charsniff/archive"
	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/internal/testutil"
	"github.com/charsniff/charsniff/internal/warctest"
	"github.com/charsniff/charsniff/sniff"
)

// The command, built once for the package's tests.
var cli struct {
	once sync.Once
	dir  string
	path string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if cli.dir != "" {
		os.RemoveAll(cli.dir)
	}
	os.Exit(code)
}

// command returns the path of the charsniff command built from this tree
// (with the build tags of the test, so that -tags purego covers it too).
func command(t *testing.T) string {
	t.Helper()
	if testing.Short() || testutil.Race {
		t.Skip("builds and runs the command (not under -short or -race: .ci/run runs these in its invariance step)")
	}
	root := testutil.Root(t)
	cli.once.Do(func() {
		cli.dir, cli.err = os.MkdirTemp("", "invariance")
		if cli.err != nil {
			return
		}
		cli.path = filepath.Join(cli.dir, "charsniff")
		args := []string{"build", "-o", cli.path}
		if tags := buildTags(); tags != "" {
			args = append(args, "-tags", tags)
		}
		cmd := exec.Command("go", append(args, "./cmd/charsniff")...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			cli.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if cli.err != nil {
		t.Fatal(cli.err)
	}
	return cli.path
}

// A line is one JSON line of the command: archive.Result's schema, and
// with --decode the text.
type line struct {
	File       string `json:"file"`
	Encoding   string `json:"encoding"`
	Confidence string `json:"confidence"`
	Source     string `json:"source"`
	*Where
	Error string  `json:"error"`
	Text  *string `json:"text"`
}

// Where is a line's place in a WARC file.
type Where struct {
	RecordID string `json:"record_id"`
	URI      string `json:"uri"`
	Offset   int64  `json:"offset"`
	Length   int64  `json:"length"`
}

// resultLine returns the line of res, through its JSON.
func resultLine(t *testing.T, res *archive.Result) line {
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var l line
	if err := json.Unmarshal(b, &l); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return l
}

// answer is the line's answer; a line without text takes want's.
func (l *line) answer(want answer) answer {
	a := answer{l.Encoding, l.Confidence, l.Source, want.Text}
	if l.Text != nil {
		a.Text = []byte(*l.Text)
	}
	return a
}

// run runs the command with args, the environment variables env added, and
// stdin (nil: none), and returns its JSON lines.
func run(t *testing.T, env []string, stdin io.Reader, args ...string) []line {
	t.Helper()
	// --text: the corpus holds documents that are binary data to the
	// command (random bytes, UTF-16 without a BOM); the suite compares
	// the library's answers for them too.
	cmd := exec.Command(command(t), append([]string{"--text"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = stdin
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("charsniff %s: %v\n%s", shortArgs(args), err, stderr.Bytes())
	}
	var lines []line
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var l line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("charsniff %s: %v in %.200q", shortArgs(args), err, sc.Bytes())
		}
		lines = append(lines, l)
	}
	return lines
}

func shortArgs(args []string) string {
	if len(args) > 6 {
		return strings.Join(args[:6], " ") + fmt.Sprintf(" ... (%d more)", len(args)-6)
	}
	return strings.Join(args, " ")
}

// writeDocs writes the documents to files d000.html... in dir and returns
// their paths.
func writeDocs(t *testing.T, dir string, docs []Doc) []string {
	t.Helper()
	paths := make([]string, len(docs))
	for i, d := range docs {
		paths[i] = filepath.Join(dir, fmt.Sprintf("d%03d.html", i))
		if err := os.WriteFile(paths[i], d.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return paths
}

// compareFiles checks the lines of a run over files against the answers,
// by file name.
func compareFiles(t *testing.T, docs []Doc, paths []string, want []answer, lines []line, how string, which []int) {
	t.Helper()
	index := map[string]int{}
	for i, p := range paths {
		index[p] = i
	}
	seen := map[int]bool{}
	for _, l := range lines {
		i, ok := index[l.File]
		if !ok {
			t.Errorf("%s: a line for %q, not one of the inputs", how, l.File)
			continue
		}
		seen[i] = true
		if l.Error != "" {
			report(t, how, "%s: %s: error %s", docs[i].Name, how, l.Error)
			continue
		}
		if got := l.answer(want[i]); !knownLine(t, &docs[i], how, got, want[i]) {
			check(t, &docs[i], how, got, want[i])
		}
	}
	for _, i := range which {
		if !seen[i] {
			report(t, how, "%s: %s: no line", docs[i].Name, how)
		}
	}
}

// TestCLIFiles: the command on each file alone, on all of them in one batch
// in several orders (with gzip-compressed copies of some and a WARC file of
// all of them among them), on their directory, with one core and with four,
// with and without --decode, gives the fresh reader's answers.
func TestCLIFiles(t *testing.T) {
	command(t)
	docs, ref, ctr := corpus(t)
	dir := t.TempDir()
	paths := writeDocs(t, dir, docs)
	all := seq(len(docs))
	t.Run("alone", func(t *testing.T) {
		skipKnown(t)
		for i := range docs {
			lines := run(t, nil, nil, "--json", "--decode", paths[i])
			compareFiles(t, docs, paths, ref, lines, "alone: charsniff --json --decode", []int{i})
		}
	})
	// Compressed copies of every fifth document, and a WARC file.
	var gzPaths []string
	var gzIndex []int
	for i := 0; i < len(docs); i += 5 {
		p := paths[i] + ".gz"
		if err := os.WriteFile(p, warctest.Gzip(docs[i].Data), 0o644); err != nil {
			t.Fatal(err)
		}
		gzPaths, gzIndex = append(gzPaths, p), append(gzIndex, i)
	}
	// Two WARC files (gzip and plain), so that a worker's archive reader
	// is reused from one to the other.
	warcs := buildWARCs(docs)
	warcPaths := []string{filepath.Join(dir, "all.warc.gz"), filepath.Join(dir, "all.warc")}
	for j, p := range warcPaths {
		if err := os.WriteFile(p, warcs[1-j].data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Inputs that fail: one missing, one a gzip stream cut in the middle
	// (a read error after some text). They must change nothing else.
	broken := []string{filepath.Join(dir, "missing.html"), filepath.Join(dir, "cut.html.gz")}
	big := warctest.Gzip(docs[len(docs)-1].Data)
	if err := os.WriteFile(broken[1], big[:len(big)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	inputs := append(append(append(slices.Clone(paths), gzPaths...), warcPaths...), broken...)
	// The options of each batch, and the answers they must give.
	lookahead := []decode.Option{decode.WithLookahead(100), decode.WithSniff(sniff.Options{Window: 4096})}
	batches := []struct {
		flags    []string
		ref, ctr []answer
	}{
		{[]string{"--json", "--exit-zero"}, ref, ctr},
		{[]string{"--json", "--exit-zero", "--decode"}, ref, ctr},
		{[]string{"--json", "--exit-zero", "--decode"}, ref, ctr},
		{[]string{"--json", "--exit-zero", "--decode", "--lookahead", "100", "--window", "4096"}, answers(docs, lookahead), answers(docs, lookahead, withCT)},
	}
	rng := rand.New(rand.NewPCG(*pathSeed, 4))
	for k, b := range batches {
		order := rng.Perm(len(inputs))
		for _, procs := range []string{"1", "4"} {
			t.Run(fmt.Sprintf("batch%d/GOMAXPROCS=%s", k, procs), func(t *testing.T) {
				skipKnown(t)
				args := slices.Clone(b.flags)
				how := fmt.Sprintf("batch %d of %d inputs in random order, GOMAXPROCS=%s charsniff %s", k, len(inputs), procs, strings.Join(args, " "))
				for _, i := range order {
					args = append(args, inputs[i])
				}
				lines := run(t, []string{"GOMAXPROCS=" + procs}, nil, args...)
				var files, gz []line
				records := make([][]line, len(warcPaths))
				gzAt := map[string]bool{}
				for _, p := range gzPaths {
					gzAt[p] = true
				}
				failed := map[string]bool{}
				var got []string
				for _, l := range lines {
					switch {
					case slices.Contains(warcPaths, l.File):
						j := slices.Index(warcPaths, l.File)
						records[j] = append(records[j], l)
					case gzAt[l.File]:
						gz = append(gz, l)
					case slices.Contains(broken, l.File):
						failed[l.File] = failed[l.File] || l.Error != ""
					default:
						files = append(files, l)
					}
					if len(got) == 0 || got[len(got)-1] != l.File {
						got = append(got, l.File)
					}
				}
				for _, p := range broken {
					if !failed[p] {
						t.Errorf("%s: no error line for %s", how, p)
					}
				}
				compareFiles(t, docs, paths, b.ref, files, how, all)
				gzDocs, gzRef := make([]Doc, len(gzIndex)), make([]answer, len(gzIndex))
				for j, i := range gzIndex {
					gzDocs[j], gzRef[j] = docs[i], b.ref[i]
				}
				compareFiles(t, gzDocs, gzPaths, gzRef, gz, how+", a .gz copy", seq(len(gzIndex)))
				for j, p := range warcPaths {
					compareRecords(t, docs, b.ctr, records[j], how+", the records of "+filepath.Base(p), all)
				}
				want := make([]string, len(order))
				for j, i := range order {
					want[j] = inputs[i]
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s: the lines are not in the order of the inputs", how)
				}
			})
		}
	}
	for _, procs := range []string{"1", "4"} {
		t.Run("directory/GOMAXPROCS="+procs, func(t *testing.T) {
			skipKnown(t)
			// The walk takes the WARC files too (their records are
			// compared above): the pages' lines are compared here.
			var lines []line
			for _, l := range run(t, []string{"GOMAXPROCS=" + procs}, nil, "--json", dir) {
				if !slices.Contains(warcPaths, l.File) {
					lines = append(lines, l)
				}
			}
			compareFiles(t, docs, paths, ref, lines, "directory, GOMAXPROCS="+procs, all)
		})
	}
}

// TestCLIStdin: the command on standard input, a pipe or a file, and with
// --content-type, gives the answers of the library.
func TestCLIStdin(t *testing.T) {
	command(t)
	docs, ref, ctr := corpus(t)
	dir := t.TempDir()
	paths := writeDocs(t, dir, docs)
	for i, d := range docs {
		lines := run(t, nil, bytes.NewReader(d.Data), "--json", "--decode", "-")
		if len(lines) != 1 {
			t.Errorf("%s: standard input (a pipe): %d lines", d.Name, len(lines))
			continue
		}
		if got, how := lines[0].answer(ref[i]), "standard input (a pipe): charsniff --json --decode -"; !knownLine(t, &docs[i], how, got, ref[i]) {
			check(t, &docs[i], how, got, ref[i])
		}
		if i%4 != 0 {
			continue
		}
		f, err := os.Open(paths[i])
		if err != nil {
			t.Fatal(err)
		}
		lines = run(t, nil, f, "--json", "--decode")
		f.Close()
		if len(lines) != 1 {
			t.Errorf("%s: standard input (a file): %d lines", d.Name, len(lines))
			continue
		}
		if got, how := lines[0].answer(ref[i]), "standard input (a file): charsniff --json --decode"; !knownLine(t, &docs[i], how, got, ref[i]) {
			check(t, &docs[i], how, got, ref[i])
		}
	}
	// Batches by Content-Type.
	byCT := map[string][]int{}
	for i, d := range docs {
		byCT[d.ContentType] = append(byCT[d.ContentType], i)
	}
	for ct, which := range byCT {
		args := []string{"--json", "--decode", "--content-type", ct}
		for _, i := range which {
			args = append(args, paths[i])
		}
		lines := run(t, nil, nil, args...)
		compareFiles(t, docs, paths, ctr, lines, "charsniff --json --decode --content-type "+ct, which)
	}
}
