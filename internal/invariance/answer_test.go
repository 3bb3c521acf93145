package invariance

import (
	"bytes"
	"crypto/sha256"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/internal/testutil"
	"github.com/charsniff/charsniff/sniff"
)

var (
	update   = flag.Bool("update", false, "rewrite testdata/invariance.golden from the fresh decode.Reader")
	pathSeed = flag.Uint64("seed", Seed, "seed of the random choices of the paths (orders, stop points, chunk sizes); the corpus is always Seed's")
)

// An answer is what every path must agree on for a document.
type answer struct {
	Encoding   string // lower-case name, as the command prints it
	Confidence string
	Source     string
	Text       []byte
}

func answerOf(res decode.Result, text []byte) answer {
	return answer{res.Encoding.LowerName(), res.Confidence.String(), res.Source.String(), text}
}

// diff names the first field in which got differs from want, "" if none.
func diff(got, want answer) string {
	switch {
	case got.Encoding != want.Encoding:
		return fmt.Sprintf("encoding %q, want %q", got.Encoding, want.Encoding)
	case got.Confidence != want.Confidence:
		return fmt.Sprintf("confidence %q, want %q (encoding %s)", got.Confidence, want.Confidence, want.Encoding)
	case got.Source != want.Source:
		return fmt.Sprintf("source %q, want %q (encoding %s)", got.Source, want.Source, want.Encoding)
	case !bytes.Equal(got.Text, want.Text):
		i := 0
		for i < len(got.Text) && i < len(want.Text) && got.Text[i] == want.Text[i] {
			i++
		}
		return fmt.Sprintf("text differs at byte %d of %d (want %d): got %x, want %x",
			i, len(got.Text), len(want.Text), window(got.Text, i), window(want.Text, i))
	}
	return ""
}

// window returns up to 12 bytes of b from i.
func window(b []byte, i int) []byte { return b[min(i, len(b)):min(i+12, len(b))] }

// check reports a document whose answer on path differs from want.
func check(t *testing.T, d *Doc, path string, got, want answer) bool {
	t.Helper()
	if s := diff(got, want); s != "" {
		report(t, path, "%s: %s: %s", d.Name, path, s)
		return false
	}
	return true
}

// maxReports is how many failures of one path are reported in full.
const maxReports = 5

var reports = map[string]int{}

// report reports a failure of path: the first few in full, then only
// that there were more (counted in the last line of the test).
func report(t *testing.T, path, format string, args ...any) {
	t.Helper()
	key := t.Name() + "\x00" + path
	reports[key]++
	switch n := reports[key]; {
	case n <= maxReports:
		t.Errorf(format, args...)
	case n == maxReports+1:
		t.Errorf("%s: more failures of this path are not shown", path)
		t.Cleanup(func() { t.Logf("%s: %d failures in all", path, reports[key]) })
	}
}

// golden is the line of an answer in testdata/invariance.golden.
func (a answer) golden() string {
	return fmt.Sprintf("%s %s %s %x", a.Encoding, a.Confidence, a.Source, sha256.Sum256(a.Text))
}

// reference decodes d with a fresh Reader and the options given.
func reference(d []byte, opts ...decode.Option) answer {
	r, err := decode.NewReader(bytes.NewReader(d), opts...)
	if err != nil {
		panic(err)
	}
	text, err := io.ReadAll(r)
	if err != nil {
		panic(err)
	}
	return answerOf(r.Result(), text)
}

// answers returns the references of docs with opts, and the options
// perDoc gives each (after opts).
func answers(docs []Doc, opts []decode.Option, perDoc ...func(*Doc) decode.Option) []answer {
	out := make([]answer, len(docs))
	for i := range docs {
		o := slices.Clone(opts)
		for _, f := range perDoc {
			o = append(o, f(&docs[i]))
		}
		out[i] = reference(docs[i].Data, o...)
	}
	return out
}

// light reports whether d takes only a few paths of a test: a large
// document under the race detector, which makes it slow; the plain runs
// take it everywhere.
func light(d *Doc) bool { return testutil.Race && len(d.Data) > 64<<10 }

// withCT is the option of a document served with its Content-Type.
func withCT(d *Doc) decode.Option {
	return decode.WithSniff(sniff.Options{ContentType: d.ContentType})
}

// suite is the corpus and its references, built once.
var suite struct {
	once sync.Once
	docs []Doc
	ref  []answer // fresh Reader, default options
	ctr  []answer // fresh Reader, with the document's Content-Type
	err  error
}

func corpus(t testing.TB) ([]Doc, []answer, []answer) {
	t.Helper()
	root := testutil.Root(t)
	suite.once.Do(func() {
		suite.docs, suite.err = Corpus(root)
		for i := range suite.docs {
			d := &suite.docs[i]
			suite.ref = append(suite.ref, reference(d.Data))
			suite.ctr = append(suite.ctr, reference(d.Data, withCT(d)))
		}
	})
	if suite.err != nil {
		t.Fatal(suite.err)
	}
	return suite.docs, suite.ref, suite.ctr
}

const goldenPath = "testdata/invariance.golden"

// TestGolden compares the references with the committed ones: this is how
// builds (-tags purego, GODEBUG=cpu.avx512f=off, another CPU) are compared.
func TestGolden(t *testing.T) {
	docs, ref, ctr := corpus(t)
	var b strings.Builder
	b.WriteString("# invariance: document, then the answer with default options, then with its Content-Type\n")
	b.WriteString("# (encoding confidence source sha256-of-text); go test ./internal/invariance -run TestGolden -update\n")
	for i, d := range docs {
		fmt.Fprintf(&b, "%s\t%s\n\t%s\t%s\n", d.Name, ref[i].golden(), d.ContentType, ctr[i].golden())
	}
	if *update {
		if err := os.WriteFile(goldenPath, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(b.String(), "\n")
	wl := strings.Split(string(want), "\n")
	if len(got) != len(wl) {
		t.Errorf("%d golden lines, want %d (run with -update if the corpus changed on purpose)", len(got), len(wl))
	}
	bad := 0
	for i := range min(len(got), len(wl)) {
		if got[i] != wl[i] {
			bad++
			if bad <= 20 {
				doc := got[i]
				if strings.HasPrefix(doc, "\t") && i > 0 {
					doc = got[i-1] + " / with Content-Type"
				}
				t.Errorf("golden line %d: %s\n got  %q\n want %q", i+1, doc, got[i], wl[i])
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d golden lines differ", bad)
	}
}

// TestCorpus checks that the corpus is the size and variety the suite
// promises, and that generating it twice gives the same bytes.
func TestCorpus(t *testing.T) {
	docs, ref, _ := corpus(t)
	if len(docs) < 200 {
		t.Errorf("%d documents, want at least 200", len(docs))
	}
	names := map[string]bool{}
	srcs := map[string]int{}
	encs := map[string]int{}
	for i, d := range docs {
		if names[d.Name] {
			t.Errorf("two documents named %s", d.Name)
		}
		names[d.Name] = true
		srcs[ref[i].Source]++
		encs[ref[i].Encoding]++
	}
	for _, s := range []string{"bom", "prescan", "xml", "autodetect", "default"} {
		if srcs[s] == 0 {
			t.Errorf("no document decided by %s; sources: %v", s, srcs)
		}
	}
	if len(encs) < 12 {
		t.Errorf("%d encodings in the references, want at least 12: %v", len(encs), encs)
	}
	a, b := Generate(Seed), Generate(Seed)
	for i := range a {
		if a[i].Name != b[i].Name || !bytes.Equal(a[i].Data, b[i].Data) {
			t.Fatalf("Generate differs from itself at %s", a[i].Name)
		}
	}
}
