package main

import (
	"bytes"
	"flag"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/charsniff/charsniff/internal/testutil"
)

// moduleDir is beam/, where the commands of docs/beam.md run.
const moduleDir = "../.."

// TestDocs runs the commands of docs/beam.md's text blocks (lines
// starting with "$ ") from beam/, with charsniff-beam and charsniff built
// into a directory first on PATH and /tmp/ standing for a temporary
// directory, and compares the output shown ("..." stands for any text).
// A charsniff-beam command for a runner other than Prism is not run: its
// flags must be the program's, with those its runner requires. A docker
// command (a job server) is not run either: its image must carry the Beam
// version of go.mod.
func TestDocs(t *testing.T) {
	bin, tmp := t.TempDir(), t.TempDir()+string(filepath.Separator)
	build(t, bin, "./cmd/charsniff", moduleDir+"/..")
	env := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	cmds := docCommands(t)
	if len(cmds) < 8 {
		t.Fatalf("docs/beam.md: %d commands; want the Prism, Dataflow, Flink and Spark ones", len(cmds))
	}
	runners := map[string]bool{}
	for _, c := range cmds {
		switch {
		case c.text == "cd beam":
		case c.text == "go build ./cmd/charsniff-beam":
			build(t, bin, "./cmd/charsniff-beam", moduleDir)
		case strings.HasPrefix(c.text, "docker "):
			checkImage(t, c)
		case strings.HasPrefix(c.text, "./charsniff-beam ") && !isPrism(c.text):
			runners[checkFlags(t, c)] = true
		default:
			text := strings.ReplaceAll(c.text, "/tmp/", tmp)
			text = strings.ReplaceAll(text, "./charsniff-beam ", filepath.Join(bin, "charsniff-beam")+" ")
			runShown(t, c, text, env)
		}
	}
	for _, r := range []string{"dataflow", "flink", "spark"} {
		if !runners[r] {
			t.Errorf("docs/beam.md shows no command for --runner=%s", r)
		}
	}
}

// A docCommand is a "$ " line of docs/beam.md and the output shown after it.
type docCommand struct {
	line   int
	text   string
	output []string
}

// docCommands returns the commands of docs/beam.md's text blocks.
func docCommands(t *testing.T) []docCommand {
	data, err := os.ReadFile(moduleDir + "/../docs/beam.md")
	if err != nil {
		t.Fatal(err)
	}
	var cmds []docCommand
	inText := false
	for i, l := range strings.Split(string(data), "\n") {
		switch {
		case !inText && l == "```text":
			inText = true
		case inText && l == "```":
			inText = false
		case inText && strings.HasPrefix(l, "$ "):
			cmds = append(cmds, docCommand{line: i + 1, text: strings.TrimPrefix(l, "$ ")})
		case inText && len(cmds) > 0:
			cmds[len(cmds)-1].output = append(cmds[len(cmds)-1].output, l)
		}
	}
	return cmds
}

// build builds the package pkg of the module in dir into bin.
func build(t *testing.T, bin, pkg, dir string) {
	t.Helper()
	cmd := exec.Command("go", "build", "-o", bin+string(filepath.Separator), pkg)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, out)
	}
}

// runShown runs text with sh in beam/ and compares its output with c's.
func runShown(t *testing.T, c docCommand, text string, env []string) {
	t.Helper()
	cmd := exec.Command("sh", "-c", text)
	cmd.Dir, cmd.Env = moduleDir, env
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("docs/beam.md:%d: %s: %v\n%s", c.line, c.text, err, lastLines(stderr.String(), 10))
	}
	got := strings.TrimRight(out.String(), "\n")
	if want := strings.Join(c.output, "\n"); !testutil.MatchOutput(got, want) {
		t.Errorf("docs/beam.md:%d: %s\ngot:\n%s\nwant:\n%s", c.line, c.text, got, want)
	}
}

// lastLines returns the last n lines of s.
func lastLines(s string, n int) string {
	l := strings.Split(s, "\n")
	return strings.Join(l[max(0, len(l)-n):], "\n")
}

// isPrism reports whether a charsniff-beam command runs on Prism.
func isPrism(text string) bool {
	return !strings.Contains(text, "--runner=") || strings.Contains(text, "--runner=prism")
}

// required are the flags each runner needs besides --runner, --input and
// --output.
var required = map[string][]string{
	"dataflow": {"project", "region", "temp_location", "staging_location"},
	"flink":    {"endpoint"},
	"spark":    {"endpoint"},
}

// checkFlags parses the flags of a charsniff-beam command c with the
// program's flag set (the flags of main and of the runners beamx links
// in), checks that its runner's required flags are set, and returns the
// runner.
func checkFlags(t *testing.T, c docCommand) string {
	t.Helper()
	fs := flag.NewFlagSet("charsniff-beam", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	flag.VisitAll(func(f *flag.Flag) { fs.Var(newShadow(f), f.Name, f.Usage) })
	args := strings.Fields(strings.ReplaceAll(strings.TrimPrefix(c.text, "./charsniff-beam "), "'", ""))
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		t.Errorf("docs/beam.md:%d: %s: %v (arguments left: %q)", c.line, c.text, err, fs.Args())
		return ""
	}
	runner := fs.Lookup("runner").Value.String()
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	want, ok := required[runner]
	if !ok {
		t.Errorf("docs/beam.md:%d: runner %q is none of dataflow, flink, spark", c.line, runner)
	}
	for _, name := range append(want, "input", "output") {
		if !set[name] {
			t.Errorf("docs/beam.md:%d: --runner=%s without --%s", c.line, runner, name)
		}
	}
	return runner
}

// checkImage checks that a docker command's Beam image carries the
// version of Beam that go.mod requires.
func checkImage(t *testing.T, c docCommand) {
	t.Helper()
	data, err := os.ReadFile(moduleDir + "/go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*(?:require\s+)?github\.com/apache/beam/sdks/v2 v(\S+)`).FindSubmatch(data)
	if m == nil {
		t.Fatal("go.mod requires no github.com/apache/beam/sdks/v2")
	}
	version := string(m[1])
	image := regexp.MustCompile(`apache/beam_[\w.]+?_job_server:(\S+)`).FindStringSubmatch(c.text)
	if image == nil || image[1] != version {
		t.Errorf("docs/beam.md:%d: %s: want a Beam job server image of version %s", c.line, c.text, version)
	}
}

// A shadow stands for a flag of the program in a flag set of the test:
// it takes the same values (a bool flag needs none) and keeps them to
// itself, so that the program's flags stay as they are.
type shadow struct {
	value  string
	isBool bool
}

func newShadow(f *flag.Flag) *shadow {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return &shadow{value: f.DefValue, isBool: ok && b.IsBoolFlag()}
}

func (s *shadow) String() string { return s.value }

func (s *shadow) Set(v string) error {
	s.value = v
	return nil
}

func (s *shadow) IsBoolFlag() bool { return s.isBool }
