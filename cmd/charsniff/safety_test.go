package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runTo runs the binary in dir with standard output going to out, and
// returns its standard error and exit status.
func runTo(t *testing.T, dir string, out *os.File, args ...string) (stderr string, code int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Stdout = out
	var e bytes.Buffer
	cmd.Stderr = &e
	code = exitCode(t, cmd.Run(), args)
	return e.String(), code
}

// TestStdoutIsInput checks that an input that is the file standard output
// writes to is refused, as cat refuses it (charsniff --decode page.html >>
// page.html would otherwise grow the file for ever), that its error line,
// JSON included, goes to standard error only, never into the file, and
// that the other inputs are processed.
func TestStdoutIsInput(t *testing.T) {
	page := readRoot(t, samplePath("news-utf8-meta.html"))
	for _, args := range [][]string{
		{"--decode", "page.html", "other.html"},
		{"--json", "page.html", "other.html"},
		{"--decode", "--json", "other.html", "page.html"},
		{"--decode", "--json", "-o", "text.out", "page.html", "other.html"},
		{"--decode", "-o", "text.out", "page.html", "other.html"},
		{"page.html", "other.html"},
		{"."},           // found by walking
		{"--json", "."}, // found by walking
	} {
		dir := t.TempDir()
		for _, name := range []string{"page.html", "other.html"} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(page), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		out, err := os.OpenFile(filepath.Join(dir, "page.html"), os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		stderr, code := runTo(t, dir, out, args...)
		out.Close()
		if code != 1 || !strings.Contains(stderr, "page.html: input file is output file\n") {
			t.Errorf("charsniff %q >> page.html: exit %d, stderr %q; want 1 and the refusal", args, code, stderr)
		}
		got, _ := os.ReadFile(filepath.Join(dir, "page.html"))
		if !strings.HasPrefix(string(got), page) || len(got) == len(page) || len(got) > 2*len(page)+400 {
			t.Errorf("charsniff %q >> page.html: file of %d bytes, want the page and other.html's output", args, len(got))
		}
		if tail := string(got[min(len(page), len(got)):]); strings.Contains(tail, "page.html") || strings.Contains(tail, "input file is output file") {
			t.Errorf("charsniff %q >> page.html: the refusal went into the file:\n%s", args, tail)
		}
	}
}

// TestSymlinkedDirOperand checks that a symbolic link to a directory named
// on the command line is walked (as grep -r does), while one met while
// walking is not followed.
func TestSymlinkedDirOperand(t *testing.T) {
	dir := t.TempDir()
	page := readRoot(t, samplePath("news-utf8-meta.html"))
	if err := os.MkdirAll(filepath.Join(dir, "real", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "real", "a.html"), []byte(page), 0o644)
	os.WriteFile(filepath.Join(dir, "real", "sub", "b.html"), []byte(page), 0o644)
	if err := os.Symlink("real", filepath.Join(dir, "link")); err != nil {
		t.Skip("no symbolic links:", err)
	}
	os.Symlink("..", filepath.Join(dir, "real", "up")) // a cycle, not followed
	out, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	stderr, code := runTo(t, dir, out, "link")
	got, _ := os.ReadFile(out.Name())
	want := "link/a.html: utf-8 (tentative, prescan)\nlink/sub/b.html: utf-8 (tentative, prescan)\n"
	if code != 0 || string(got) != want || stderr != "" {
		t.Errorf("charsniff link: exit %d, stdout\n%s\nstderr %q; want\n%s", code, got, stderr, want)
	}
}

// TestWriteErrors checks that a write error on standard output, for the
// results, the text, --help and --version alike, gives exit 1 and a
// message.
func TestWriteErrors(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full:", err)
	}
	defer full.Close()
	for _, args := range [][]string{
		{"--help"},
		{"--version"},
		{samplePath("news-utf8-meta.html")},
		{"--json", "--stats", "samples"},
		{"--decode", samplePath("news-utf8-meta.html")},
		{"--decode", "--json", samplePath("news-utf8-meta.html")},
	} {
		stderr, code := runTo(t, root, full, args...)
		if code != 1 || !strings.Contains(stderr, "charsniff: writing output: no space left on device\n") {
			t.Errorf("charsniff %q > /dev/full: exit %d, stderr %q; want 1 and the message", args, code, stderr)
		}
	}
}

// TestStdinIsOutput checks that standard input that is the file the run
// writes to (standard output, or -o FILE) is refused as cat refuses it:
// charsniff --decode < page.html >> page.html would grow the file until the
// disk is full, and -o page.html would truncate it before it is read.
func TestStdinIsOutput(t *testing.T) {
	page := readRoot(t, samplePath("news-utf8-meta.html"))
	for _, tc := range []struct {
		args   []string
		toFile bool // standard output appends to the input
		want   string
		code   int
	}{
		{[]string{"--decode"}, true, "charsniff: -: input file is output file\n", 1},
		{[]string{"--json"}, true, "charsniff: -: input file is output file\n", 1},
		{[]string{"--decode", "--json"}, true, "charsniff: -: input file is output file\n", 1},
		{[]string{"--json", "-", "other.html"}, true, "charsniff: -: input file is output file\n", 1},
		{[]string{"--decode", "-", "other.html"}, true, "charsniff: -: input file is output file\n", 1},
		{[]string{"--decode", "-o", "page.html"}, false, "charsniff: -o page.html: is also an input\n", 2},
		{[]string{"--decode", "-o", "page.html", "-"}, false, "charsniff: -o page.html: is also an input\n", 2},
	} {
		dir := t.TempDir()
		for _, name := range []string{"page.html", "other.html"} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(page), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		in, err := os.Open(filepath.Join(dir, "page.html"))
		if err != nil {
			t.Fatal(err)
		}
		out, err := os.OpenFile(filepath.Join(dir, "page.html"), os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		if !tc.toFile {
			out.Close()
			out, _ = os.Create(filepath.Join(t.TempDir(), "stdout"))
		}
		cmd := exec.Command(bin, tc.args...)
		cmd.Dir, cmd.Stdin, cmd.Stdout = dir, in, out
		var e bytes.Buffer
		cmd.Stderr = &e
		code := exitCode(t, cmd.Run(), tc.args)
		in.Close()
		out.Close()
		if code != tc.code || !strings.Contains(e.String(), tc.want) {
			t.Errorf("charsniff %q < page.html: exit %d, stderr %q; want %d and %q", tc.args, code, e.String(), tc.code, tc.want)
		}
		got, _ := os.ReadFile(filepath.Join(dir, "page.html"))
		if !strings.HasPrefix(string(got), page) {
			t.Errorf("charsniff %q < page.html: the input lost its content (%d bytes)", tc.args, len(got))
		} else if tail := string(got[len(page):]); strings.Contains(tail, "input file is output file") || strings.Contains(tail, `"-"`) {
			t.Errorf("charsniff %q < page.html >> page.html: the refusal went into the file:\n%s", tc.args, tail)
		}
	}
}

// TestOutFileFoundByWalking checks that -o FILE met in a directory walk is
// not read: it is the file being written.
func TestOutFileFoundByWalking(t *testing.T) {
	page := readRoot(t, samplePath("news-utf8-meta.html"))
	dir := t.TempDir()
	for _, name := range []string{"a.html", "b.html"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, _ := os.Create(filepath.Join(t.TempDir(), "stdout"))
	defer out.Close()
	stderr, code := runTo(t, dir, out, "--decode", "-o", "b.html", ".")
	if code != 1 || !strings.Contains(stderr, "charsniff: b.html: input file is output file\n") {
		t.Errorf("charsniff --decode -o b.html .: exit %d, stderr %q; want 1 and the refusal", code, stderr)
	}
}
