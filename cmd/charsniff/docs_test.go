package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/charsniff/charsniff/internal/testutil"
)

// A block is one fenced code block of a Markdown file.
type block struct {
	file string // relative to the repository root
	line int    // of the opening fence
	lang string // the fence's info string: "sh", "go", "json", "text", ...
	body []string
}

// fenced returns the fenced code blocks of a Markdown file.
func fenced(t *testing.T, rel string) []block {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	var blocks []block
	var cur *block
	for i, line := range strings.Split(string(data), "\n") {
		switch {
		case cur == nil && strings.HasPrefix(line, "```"):
			cur = &block{file: rel, line: i + 1, lang: strings.TrimSpace(strings.TrimPrefix(line, "```"))}
		case cur != nil && strings.TrimSpace(line) == "```":
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cur.body = append(cur.body, line)
		}
	}
	if cur != nil {
		t.Fatalf("%s:%d: code block not closed", rel, cur.line)
	}
	return blocks
}

// docFiles returns README.md and the Markdown files of docs/.
func docFiles(t *testing.T) []string {
	t.Helper()
	files := []string{"README.md"}
	more, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range more {
		rel, err := filepath.Rel(root, f)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, filepath.ToSlash(rel))
	}
	return files
}

// TestDocsCodeBlocks holds every code block of the README and docs/ to
// account: a shell block is run, a Go block must be the body of a test or
// example in the tree (so that go test compiles and runs it), a JSON block
// must parse; a Python block is the Python package's tests' to run. Blocks
// of other kinds (text, output) are not code.
func TestDocsCodeBlocks(t *testing.T) {
	sources := testSources(t)
	for _, file := range docFiles(t) {
		for _, b := range fenced(t, file) {
			name := strings.ReplaceAll(b.file, "/", "_") + ":" + strconv.Itoa(b.line)
			switch b.lang {
			case "sh", "console", "bash":
				t.Run(name, func(t *testing.T) { runShellBlock(t, b) })
			case "go":
				t.Run(name, func(t *testing.T) { findGoBlock(t, b, sources) })
			case "json":
				t.Run(name, func(t *testing.T) {
					for i, l := range b.body {
						if strings.TrimSpace(l) != "" && !json.Valid([]byte(l)) {
							t.Errorf("%s:%d: not JSON: %s", b.file, b.line+1+i, l)
						}
					}
				})
			case "text", "":
			case "python": // run by python/tests/test_docs.py, with the package built
			default:
				t.Errorf("%s:%d: code block of kind %q: mark it sh, go, json, python or text", b.file, b.line, b.lang)
			}
		}
	}
}

// A command is a shell line of a block and the output shown after it.
type command struct {
	line   int
	text   string
	output []string // nil: no output shown, not checked
}

// commands splits a shell block. Lines starting with "$ " are commands
// followed by their output; in a block without any "$ " every line is a
// command (a # line is a comment).
func commands(b block) []command {
	prompted := false
	for _, l := range b.body {
		if strings.HasPrefix(l, "$ ") {
			prompted = true
		}
	}
	var cmds []command
	for i, l := range b.body {
		switch {
		case strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#"):
		case !prompted:
			cmds = append(cmds, command{line: b.line + 1 + i, text: l})
		case strings.HasPrefix(l, "$ "):
			cmds = append(cmds, command{line: b.line + 1 + i, text: strings.TrimPrefix(l, "$ ")})
		case len(cmds) > 0:
			c := &cmds[len(cmds)-1]
			c.output = append(c.output, l)
		}
	}
	return cmds
}

// inYourModule is the first line of a shell block that a user runs in a
// module of their own: such a block runs in a new module whose main.go
// imports charsniff, with CLONE set to the repository root.
const inYourModule = "# in your module"

// userModule returns a new module directory that imports charsniff, as a
// user's program does before it is pointed at a clone.
func userModule(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/user\n\ngo 1.26\n",
		"main.go": `package main

import (
	"fmt"

	"github.com/charsniff/charsniff"
)

func main() {
	_, name, _ := charsniff.DetermineEncoding([]byte("<meta charset=koi8-r>"), "")
	fmt.Println(name)
}
`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// runShellBlock runs each command of b with sh from the repository root (or
// in a user's module, for a block that starts with inYourModule), with the
// built charsniff first on PATH and GOBIN in a temporary directory, and
// compares the output shown. Every command runs as it is written.
func runShellBlock(t *testing.T, b block) {
	dir, user := root, len(b.body) > 0 && b.body[0] == inYourModule
	if user {
		if testing.Short() {
			t.Skip("a user's module resolves its requirements through the module proxy")
		}
		dir = userModule(t)
	}
	clone, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(),
		"PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"GOBIN="+t.TempDir(),
		"CLONE="+clone)
	for _, c := range commands(b) {
		text := c.text
		if strings.Contains(text, "go build ") && !strings.Contains(text, " -o ") {
			// Build into a temporary directory, not the work tree.
			text = strings.Replace(text, "go build ", "go build -o "+t.TempDir()+string(os.PathSeparator)+" ", 1)
		}
		if text == "go test ./..." {
			continue // the test command itself: this is it running
		}
		if strings.Contains(text, "go test") && strings.Contains(text, "-bench") {
			if testing.Short() {
				continue
			}
			text += " -benchtime=1x"
		}
		cmd := exec.Command("sh", "-c", text)
		cmd.Dir = dir
		cmd.Env = env
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Run(); err != nil {
			t.Errorf("%s:%d: %s: %v\n%s", b.file, c.line, c.text, err, errOut.String())
			continue
		}
		if c.output != nil {
			want := strings.Join(c.output, "\n")
			got := strings.TrimRight(out.String(), "\n")
			if !testutil.MatchOutput(got, want) {
				t.Errorf("%s:%d: %s\ngot:\n%s\nwant:\n%s", b.file, c.line, c.text, got, want)
			}
		}
	}
	if user {
		// The block's commands are done: the user's program builds
		// against the clone and runs.
		cmd := exec.Command("go", "run", ".")
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil || strings.TrimSpace(string(out)) != "koi8-r" {
			t.Errorf("%s:%d: after the block, go run . in the user's module: %v\n%s", b.file, b.line, err, out)
		}
	}
}

// testSources returns the text of every _test.go file of the repository.
func testSources(t *testing.T) map[string]string {
	t.Helper()
	src := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, "_test.go") {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			src[path] = string(data)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// findGoBlock checks that the lines of a Go block stand, in order and
// indented alike, in one test file: the block is then a test's or an
// example's body, compiled and run by go test.
func findGoBlock(t *testing.T, b block, sources map[string]string) {
	var lines []string
	for _, l := range b.body {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, strings.TrimSpace(l))
		}
	}
	for _, src := range sources {
		if inOrder(src, lines) {
			return
		}
	}
	t.Errorf("%s:%d: this Go block is in no test or example of the tree; put it in an Example function", b.file, b.line)
}

// inOrder reports whether the trimmed lines of src contain lines as one
// consecutive run (blank lines aside).
func inOrder(src string, lines []string) bool {
	var srcLines []string
	for _, l := range strings.Split(src, "\n") {
		if s := strings.TrimSpace(l); s != "" {
			srcLines = append(srcLines, s)
		}
	}
	for i := range srcLines {
		if len(srcLines)-i < len(lines) {
			return false
		}
		ok := true
		for j := range lines {
			if srcLines[i+j] != lines[j] {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}
