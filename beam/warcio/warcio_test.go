package warcio

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/sdf"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/memfs"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/rtrackers/offsetrange"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/charsniff/charsniff/internal/warctest"
)

// TestMain runs the pipelines of the tests on the Prism runner, in this
// process, unless --runner says otherwise.
func TestMain(m *testing.M) {
	code := ptest.MainRetWithDefault(m, "prism")
	if testdir != "" {
		os.RemoveAll(testdir)
	}
	os.Exit(code)
}

// testdir holds the test's WARC files and the charsniff command, made once.
var (
	testdir   string
	setupOnce sync.Once
	setupErr  error
)

// testFiles are the WARC files the tests read: one written by GNU Wget
// (records in six encodings, gzip and chunked deliveries), a generated
// crawl of 1 MiB in gzip members, one of 256 KiB without compression, the
// first with two members damaged, and warc's damaged files.
var testFiles = []string{"wget.warc.gz", "gen.warc.gz", "gen.warc", "bad.warc.gz",
	"length-long.warc.gz", "length-long.warc", "length-short.warc", "length-past-eof.warc", "http-bad-chunk.warc"}

// damage are the bytes of gen.warc.gz that bad.warc.gz has flipped: in
// the compressed data of two members.
var damage = []int{100000, 200000, 200001, 200002}

// setup makes testdir: the test files and the command built from ../..
func setup(t *testing.T) string {
	t.Helper()
	setupOnce.Do(func() { setupErr = makeTestdir() })
	if setupErr != nil {
		t.Fatal(setupErr)
	}
	return testdir
}

func makeTestdir() error {
	dir, err := os.MkdirTemp("", "warcio-test")
	if err != nil {
		return err
	}
	testdir = dir
	for _, name := range testFiles {
		b, err := os.ReadFile(filepath.Join("../../warc/testdata", name))
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, name), b, 0o644)
		}
		if err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	for _, g := range []struct {
		name     string
		size     int64
		compress bool
		damage   []int
	}{{"gen.warc.gz", 1 << 20, true, nil}, {"gen.warc", 256 << 10, false, nil}, {"bad.warc.gz", 1 << 20, true, damage}} {
		var b bytes.Buffer
		if _, err := warctest.Generate(&b, g.size, g.compress, 26); err != nil {
			return err
		}
		for _, at := range g.damage {
			b.Bytes()[at] ^= 0x55
		}
		if err := os.WriteFile(filepath.Join(dir, g.name), b.Bytes(), 0o644); err != nil {
			return err
		}
	}
	cmd := exec.Command("go", "build", "-o", filepath.Join(dir, "charsniff"), "./cmd/charsniff")
	cmd.Dir = "../.."
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build ./cmd/charsniff: %v\n%s", err, out)
	}
	return nil
}

// command returns the lines the charsniff command prints with args (and
// --json), in its order: the reference.
func command(t *testing.T, stdin string, args ...string) []string {
	t.Helper()
	dir := setup(t)
	cmd := exec.Command(filepath.Join(dir, "charsniff"), append([]string{"--json"}, args...)...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
		err = nil // some documents failed: their lines say so
	}
	if err != nil {
		t.Fatalf("charsniff %v: %v\n%s", args, err, stderr.Bytes())
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) == 0 || lines[0] == "" {
		t.Fatalf("charsniff %v printed nothing", args)
	}
	return lines
}

// run processes rest of s with fn as a runner would, on one tracker, and
// returns the output lines (by JSON) in order. split, if not nil, is
// called with the tracker after each record, and may split it; run then
// processes the residuals the same way, in order.
func run(t *testing.T, fn *readFn, s Span, rest offsetrange.Restriction, split func(rt *sdf.LockRTracker, n int) any) []string {
	t.Helper()
	rt := fn.CreateTracker(rest)
	var lines []string
	var residuals []offsetrange.Restriction
	emit := func(d Record) {
		lines = append(lines, JSON(d))
		if split != nil {
			if r := split(rt, len(lines)); r != nil {
				residuals = append(residuals, r.(offsetrange.Restriction))
			}
		}
	}
	if err := fn.ProcessElement(context.Background(), rt, s, emit); err != nil {
		t.Fatalf("ProcessElement(%v, %v): %v", s, rest, err)
	}
	if !rt.IsDone() {
		t.Fatalf("ProcessElement(%v, %v) left the tracker not done: %v", s, rest, rt.GetError())
	}
	for _, r := range residuals {
		lines = append(lines, run(t, fn, s, r, split)...)
	}
	return lines
}

// pieces returns the initial restriction of s split as a runner does
// before the run.
func initial(t *testing.T, fn *readFn, s Span) []offsetrange.Restriction {
	t.Helper()
	ctx := context.Background()
	r, err := fn.CreateInitialRestriction(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := fn.SplitRestriction(ctx, s, r)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// TestPieces reads each file piece by piece, as cut before the run, and
// checks the lines against the command's.
func TestPieces(t *testing.T) {
	dir := setup(t)
	for _, name := range testFiles {
		want := command(t, "", name)
		for _, partSize := range []int64{0, 2 << 10, 16 << 10, 64 << 10} {
			fn := &readFn{Opts: Options{PartSize: partSize}}
			s := Span{Path: filepath.Join(dir, name)}
			ps := initial(t, fn, s)
			fi, err := os.Stat(s.Path)
			if err != nil {
				t.Fatal(err)
			}
			if partSize != 0 && strings.HasSuffix(name, ".gz") && fi.Size() >= 4*partSize && len(ps) < 3 {
				t.Errorf("%s, part size %d: %d pieces; want several", name, partSize, len(ps))
			}
			var got []string
			for _, p := range ps {
				got = append(got, run(t, fn, s, p, nil)...)
			}
			diff(t, fmt.Sprintf("%s, part size %d (%d pieces)", name, partSize, len(ps)), relative(got, dir), want)
		}
	}
}

// TestDynamicSplits splits the restrictions while they are read, at
// bytes that are no record's start, as a runner does with a busy worker:
// after the k-th record of each restriction, at a fraction of the rest.
func TestDynamicSplits(t *testing.T) {
	dir := setup(t)
	for _, name := range testFiles {
		want := command(t, "", name)
		for _, k := range []int{1, 2, 5} {
			for _, frac := range []float64{0, 0.01, 0.3, 0.5, 0.9} {
				fn := &readFn{Opts: Options{PartSize: 32 << 10}}
				s := Span{Path: filepath.Join(dir, name)}
				splits := 0
				split := func(rt *sdf.LockRTracker, n int) any {
					if n%k != 0 {
						return nil
					}
					_, res, err := rt.TrySplit(frac)
					if err != nil {
						t.Fatal(err)
					}
					if res != nil {
						splits++
					}
					return res
				}
				var got []string
				for _, p := range initial(t, fn, s) {
					got = append(got, run(t, fn, s, p, split)...)
				}
				if splits == 0 && len(want) > k {
					t.Errorf("%s, k %d, fraction %v: no split was made", name, k, frac)
				}
				// The residuals of one restriction come in decreasing order.
				slices.SortStableFunc(got, func(a, b string) int { return cmp.Compare(offsetOf(t, a), offsetOf(t, b)) })
				diff(t, fmt.Sprintf("%s, split after every %d records at %v", name, k, frac), relative(got, dir), want)
			}
		}
	}
}

// TestEveryCut splits the whole file of wget.warc.gz in two at every byte
// around each record's start.
func TestEveryCut(t *testing.T) {
	dir := setup(t)
	want := command(t, "", "wget.warc.gz")
	s := Span{Path: filepath.Join(dir, "wget.warc.gz")}
	fn := &readFn{Opts: Options{PartSize: 1 << 10}}
	whole := initial(t, &readFn{}, s)[0]
	for _, line := range want {
		off := offsetOf(t, line)
		for _, at := range []int64{off - 1, off, off + 1} {
			if at <= whole.Start || at >= whole.End {
				continue
			}
			got := run(t, fn, s, offsetrange.Restriction{Start: whole.Start, End: at}, nil)
			got = append(got, run(t, fn, s, offsetrange.Restriction{Start: at, End: whole.End}, nil)...)
			diff(t, fmt.Sprintf("cut at %d", at), relative(got, dir), want)
		}
	}
}

// offsetOf returns the offset of a JSON line.
func offsetOf(t *testing.T, line string) int64 {
	t.Helper()
	var r struct{ Offset *int64 }
	if err := json.Unmarshal([]byte(line), &r); err != nil || r.Offset == nil {
		t.Fatalf("no offset in %s (%v)", line, err)
	}
	return *r.Offset
}

// relative makes the file names of lines relative to dir, as the command
// run in dir prints them.
func relative(lines []string, dir string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.Replace(l, `"file":"`+dir+string(filepath.Separator), `"file":"`, 1)
	}
	return out
}

// diff reports the first difference of got and want.
func diff(t *testing.T, what string, got, want []string) {
	t.Helper()
	if slices.Equal(got, want) {
		return
	}
	for i := range max(len(got), len(want)) {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			t.Errorf("%s: %d lines, want %d; line %d:\n got %s\nwant %s", what, len(got), len(want), i, g, w)
			return
		}
	}
}

// TestPrism runs Read on the Prism runner over the test files, cut into
// pieces of 8 KiB, and checks that its lines are the command's: each
// once, whatever the order.
func TestPrism(t *testing.T) {
	dir := setup(t)
	var want []any
	var paths []any
	for _, name := range testFiles {
		for _, l := range command(t, "", name) {
			want = append(want, l)
		}
		paths = append(paths, name)
	}
	chdir(t, dir)
	p, s := beam.NewPipelineWithRoot()
	docs := Read(s, Paths(s, beam.Create(s, paths...)), Options{PartSize: 8 << 10})
	passert.Equals(s, beam.ParDo(s, JSON, docs), want...)
	ptest.RunAndValidate(t, p)
}

// TestPrismText runs Read with Options.Text on Prism: its lines are those
// of `charsniff --decode --json`.
func TestPrismText(t *testing.T) {
	dir := setup(t)
	var want []any
	for _, l := range command(t, "", "--decode", "wget.warc.gz", "gen.warc.gz") {
		want = append(want, l)
	}
	chdir(t, dir)
	p, s := beam.NewPipelineWithRoot()
	docs := Read(s, Paths(s, beam.Create(s, "wget.warc.gz", "gen.warc.gz")), Options{PartSize: 16 << 10, Text: true})
	passert.Equals(s, beam.ParDo(s, JSON, docs), want...)
	ptest.RunAndValidate(t, p)
}

// TestPrismIndexRows reads index rows (path, offset, length of one record
// each, and one of a run of records) on Prism: the lines are those of
// `charsniff --files-from` with the same rows.
func TestPrismIndexRows(t *testing.T) {
	dir := setup(t)
	lines := command(t, "", "wget.warc.gz")
	var rows strings.Builder
	var spans []any
	offs := []int64{}
	for _, l := range lines {
		offs = append(offs, offsetOf(t, l))
	}
	bad := []Span{{"wget.warc.gz", 99999, 10}, {"wget.warc.gz", 11000, 5000}, {"wget.warc.gz", -1, 10}, {"wget.warc.gz", 0, -3}}
	for _, sp := range bad {
		spans = append(spans, sp)
		fmt.Fprintf(&rows, "%s\t%d\t%d\n", sp.Path, sp.Offset, sp.Length)
	}
	fi, err := os.Stat(filepath.Join(dir, "wget.warc.gz"))
	if err != nil {
		t.Fatal(err)
	}
	offs = append(offs, fi.Size())
	for i := 0; i+1 < len(offs); i++ {
		sp := Span{Path: "wget.warc.gz", Offset: offs[i], Length: offs[i+1] - offs[i]}
		if i == 2 {
			sp.Length = offs[len(offs)-2] - offs[i] // a run of records
		}
		spans = append(spans, sp)
		fmt.Fprintf(&rows, "%s\t%d\t%d\n", sp.Path, sp.Offset, sp.Length)
	}
	// The command names a malformed list line by the list and its line
	// ("-:3"); index rows in Beam have no line numbers, and a bad span's
	// line names its file instead (docs/beam.md).
	listLine := regexp.MustCompile(`"file":"-:[0-9]+"`)
	var want []any
	for _, l := range command(t, rows.String(), "--files-from", "-") {
		want = append(want, listLine.ReplaceAllString(l, `"file":"wget.warc.gz"`))
	}
	chdir(t, dir)
	p, s := beam.NewPipelineWithRoot()
	docs := Read(s, beam.Create(s, spans...), Options{PartSize: 1 << 10})
	passert.Equals(s, beam.ParDo(s, JSON, docs), want...)
	ptest.RunAndValidate(t, p)
}

// TestFilesystem reads files through Beam's filesystem registry (memfs,
// whose files cannot be read at offsets: one piece each, read in order,
// and from the start again for a runner's split).
func TestFilesystem(t *testing.T) {
	dir := setup(t)
	for _, name := range []string{"wget.warc.gz", "gen.warc.gz", "bad.warc.gz"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		path := "memfs://" + name
		memfs.Write(path, b)
		want := command(t, "", name)
		for i := range want {
			want[i] = strings.Replace(want[i], `"file":"`, `"file":"memfs://`, 1)
		}
		fn := &readFn{Opts: Options{PartSize: 2 << 10}}
		s := Span{Path: path}
		ps := initial(t, fn, s)
		if len(ps) != 1 {
			t.Errorf("%s: %d pieces; want 1", path, len(ps))
		}
		diff(t, path, run(t, fn, s, ps[0], nil), want)
		split := func(rt *sdf.LockRTracker, n int) any {
			_, res, err := rt.TrySplit(0.5)
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		got := run(t, fn, s, ps[0], split)
		slices.SortStableFunc(got, func(a, b string) int { return cmp.Compare(offsetOf(t, a), offsetOf(t, b)) })
		diff(t, path+", split", got, want)
	}
	// Index rows, whose bytes are read in order from the file's start.
	fi, err := os.Stat(filepath.Join(dir, "wget.warc.gz"))
	if err != nil {
		t.Fatal(err)
	}
	size := fi.Size()
	for _, l := range command(t, "", "wget.warc.gz")[1:4] {
		off := offsetOf(t, l)
		want := command(t, fmt.Sprintf("wget.warc.gz\t%d\t%d\n", off, size-off), "--files-from", "-")
		for i := range want {
			want[i] = strings.Replace(want[i], `"file":"`, `"file":"memfs://`, 1)
		}
		fn := &readFn{}
		s := Span{Path: "memfs://wget.warc.gz", Offset: off, Length: size - off}
		diff(t, fmt.Sprintf("memfs row %d", off), run(t, fn, s, initial(t, fn, s)[0], nil), want)
	}
}

// TestMissingFile checks that a file that cannot be read is an error of
// the transform, not a line or a panic.
func TestMissingFile(t *testing.T) {
	ctx := context.Background()
	fn := &readFn{}
	for _, path := range []string{filepath.Join(t.TempDir(), "none.warc.gz"), "memfs://none.warc.gz", "nofs://x.warc.gz"} {
		s := Span{Path: path}
		if r, err := fn.CreateInitialRestriction(ctx, s); err == nil {
			t.Errorf("CreateInitialRestriction(%s) = %v, nil; want an error", path, r)
		}
		rt := fn.CreateTracker(offsetrange.Restriction{Start: 0, End: 100})
		if err := fn.ProcessElement(ctx, rt, s, func(d Record) { t.Errorf("%s: emitted %v", path, d) }); err == nil {
			t.Errorf("ProcessElement(%s) = nil; want an error", path)
		}
	}
}

// chdir changes the working directory to dir for the test, so that the
// paths of the pipeline's elements are those the command got.
func chdir(t *testing.T, dir string) {
	t.Helper()
	t.Chdir(dir)
}
