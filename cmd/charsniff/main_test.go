package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/charsniff/charsniff/internal/testutil"
)

// bin is the charsniff binary built once by TestMain; the tests run it as a
// user would.
var bin string

// root is the repository root: the binary runs there so that paths print as
// samples/NAME.
var root = filepath.Join("..", "..")

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "charsniff-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bin = filepath.Join(dir, "charsniff")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	build := exec.Command(goTool(), "build", "-o", bin, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building charsniff:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// goTool returns the go command that runs the tests.
func goTool() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return "go" // not on PATH: let exec say so
}

// charsniff runs the binary in the repository root with stdin as standard
// input and returns its standard output, standard error and exit status.
func charsniff(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = root
	cmd.Stdin = strings.NewReader(stdin)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	code = exitCode(t, cmd.Run(), args)
	if strings.Contains(e.String(), "goroutine ") || strings.Contains(e.String(), "panic:") {
		t.Errorf("charsniff %q: stack trace on standard error:\n%s", args, e.String())
	}
	return o.String(), e.String(), code
}

// exitCode returns the exit status of the binary run with args, given the
// error of its Run or Wait; another error fails t.
func exitCode(t *testing.T, err error, args []string) int {
	t.Helper()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return ee.ExitCode()
	case err != nil:
		t.Fatalf("running charsniff %q: %v", args, err)
	}
	return 0
}

// sample describes one page of samples/ and what the sniffing algorithm says
// of it with autodetection off (the spec-literal browser with no transport
// layer).
type sample struct {
	name       string
	encoding   string
	confidence string
	source     string
	bom        int
}

var samples = []sample{ // in the lexical order of a directory walk
	{"blog-euckr-meta.html", "euc-kr", "tentative", "prescan", 0},
	{"blog-windows1252-nodecl.html", "windows-1252", "tentative", "default", 0},
	{"letter-utf16le-bom.html", "utf-16le", "certain", "bom", 2},
	{"news-shiftjis-meta.html", "shift_jis", "tentative", "prescan", 0},
	{"news-utf8-meta.html", "utf-8", "tentative", "prescan", 0},
	{"news-windows1251-httpequiv.html", "windows-1251", "tentative", "prescan", 0},
	{"notes-utf8-nodecl.html", "windows-1252", "tentative", "default", 0},
	{"poem-iso88592-xmldecl.xhtml", "iso-8859-2", "tentative", "xml", 0},
	{"shop-gbk-httpequiv.html", "gbk", "tentative", "prescan", 0},
	{"shop-windows1252-httpequiv.html", "windows-1252", "tentative", "prescan", 0},
}

// samplePath is the path of a sample relative to the repository root.
func samplePath(name string) string { return "samples/" + name }

// readRoot reads a file by its path relative to the repository root.
func readRoot(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// sampleProvenance is the provenance key of each sample's JSON line: what
// each step of sniffing saw in it.
var sampleProvenance = map[string]string{
	"blog-euckr-meta.html":            `{"prescan":"euc-kr","prescan_rule":"meta","prescan_offset":63,"detected":"euc-kr","strength":"statistical"}`,
	"blog-windows1252-nodecl.html":    `{"detected":"windows-1252","strength":"statistical"}`,
	"letter-utf16le-bom.html":         `{"bom":"utf-16le","detected":"windows-1252","strength":"statistical"}`,
	"news-shiftjis-meta.html":         `{"prescan":"shift_jis","prescan_rule":"meta","prescan_offset":66,"detected":"shift_jis","strength":"statistical"}`,
	"news-utf8-meta.html":             `{"prescan":"utf-8","prescan_rule":"meta","prescan_offset":62,"detected":"utf-8","strength":"structural"}`,
	"news-windows1251-httpequiv.html": `{"prescan":"windows-1251","prescan_rule":"meta","prescan_offset":117,"detected":"windows-1251","strength":"statistical"}`,
	"notes-utf8-nodecl.html":          `{"detected":"utf-8","strength":"structural"}`,
	"poem-iso88592-xmldecl.xhtml":     `{"prescan":"iso-8859-2","prescan_rule":"xml","prescan_offset":43,"detected":"iso-8859-2","strength":"statistical"}`,
	"shop-gbk-httpequiv.html":         `{"prescan":"gbk","prescan_rule":"meta","prescan_offset":82,"detected":"gbk","strength":"statistical"}`,
	"shop-windows1252-httpequiv.html": `{"prescan":"windows-1252","prescan_rule":"meta","prescan_offset":150,"detected":"windows-1252","strength":"statistical"}`,
}

// wantJSON is the exact JSON line for a sample.
func wantJSON(t *testing.T, s sample) string {
	t.Helper()
	fi, err := os.Stat(filepath.Join(root, samplePath(s.name)))
	if err != nil {
		t.Fatal(err)
	}
	bom := ""
	if s.bom != 0 {
		bom = fmt.Sprintf(`,"bom":%d`, s.bom)
	}
	return fmt.Sprintf(`{"file":%q,"encoding":%q,"confidence":%q,"source":%q%s,"bytes":%d,"provenance":%s}`,
		samplePath(s.name), s.encoding, s.confidence, s.source, bom, fi.Size(), sampleProvenance[s.name])
}

func TestJSONSamples(t *testing.T) {
	var want strings.Builder
	for _, s := range samples {
		want.WriteString(wantJSON(t, s) + "\n")
	}
	for _, dir := range []string{"samples", "./samples", "samples/"} {
		stdout, stderr, code := charsniff(t, "", "--json", "--no-autodetect", dir)
		if dir == "samples" {
			// The walk takes the pages and skips README.md, make.sh,
			// src/*.utf8 and golden/*.utf8.
			if got := want.String(); stdout != got {
				t.Errorf("charsniff --json --no-autodetect %s:\ngot\n%s\nwant\n%s", dir, stdout, got)
			}
		} else if n := strings.Count(stdout, "\n"); n != len(samples) {
			t.Errorf("charsniff --json %s: got %d lines, want %d:\n%s", dir, n, len(samples), stdout)
		}
		if code != 0 || stderr != "" {
			t.Errorf("charsniff --json %s: exit %d, stderr %q; want 0, \"\"", dir, code, stderr)
		}
	}
}

func TestDefaultFormat(t *testing.T) {
	var args []string
	var want strings.Builder
	for _, s := range samples {
		args = append(args, samplePath(s.name))
		fmt.Fprintf(&want, "%s: %s (%s, %s)\n", samplePath(s.name), s.encoding, s.confidence, s.source)
	}
	stdout, stderr, code := charsniff(t, "", append([]string{"--no-autodetect"}, args...)...)
	if stdout != want.String() || stderr != "" || code != 0 {
		t.Errorf("charsniff FILES:\ngot  %q, stderr %q, exit %d\nwant %q, stderr \"\", exit 0", stdout, stderr, code, want.String())
	}
}

func TestFlags(t *testing.T) {
	ascii := "<!doctype html><title>plain</title><p>nothing but ASCII here"
	meta := `<meta charset="koi8-r"><p>hello`
	tests := []struct {
		desc  string
		stdin string
		args  []string
		want  string // standard output
	}{
		{"content-type", ascii, []string{"--content-type", "text/html; charset=ISO-8859-5"}, "-: iso-8859-5 (certain, transport)\n"},
		{"content-type beats meta", meta, []string{"--content-type", "text/html;charset=gbk"}, "-: gbk (certain, transport)\n"},
		{"content-type without charset", meta, []string{"--content-type", "text/html"}, "-: koi8-r (tentative, prescan)\n"},
		{"override", meta, []string{"--override", "ibm866"}, "-: ibm866 (certain, override)\n"},
		{"override loses to bom", "\xEF\xBB\xBF" + meta, []string{"--override", "ibm866"}, "-: utf-8 (certain, bom)\n"},
		{"default", ascii, []string{"--no-autodetect", "--default", "latin2"}, "-: iso-8859-2 (tentative, default)\n"},
		{"locale ja", ascii, []string{"--no-autodetect", "--locale", "ja"}, "-: shift_jis (tentative, default)\n"},
		{"locale ru", ascii, []string{"--no-autodetect", "--locale", "ru"}, "-: windows-1251 (tentative, default)\n"},
		{"hint-lang", ascii, []string{"--hint-lang", "ja"}, "-: shift_jis (tentative, default)\n"},
		{"hint-tld default", ascii, []string{"--hint-tld", "www.example.ru"}, "-: windows-1251 (tentative, default)\n"},
		{"hint-tld biases detection", "<p>\xe8\xe4\xe5", []string{"--hint-tld", ".gr"}, "-: windows-1253 (tentative, autodetect)\n"},
		{"no hint detection", "<p>\xe8\xe4\xe5 \xf0\xf3\xf1\xf1\xea\xe8\xe9 \xf2\xe5\xea\xf1\xf2", nil, "-: windows-1251 (tentative, autodetect)\n"},
		{"window too small for meta", strings.Repeat(" ", 40) + meta, []string{"--no-autodetect", "--window", "32", "--lookahead", "0"}, "-: windows-1252 (tentative, default)\n"},
		{"window too small, meta late", strings.Repeat(" ", 40) + meta, []string{"--no-autodetect", "--window", "32"}, "-: koi8-r (certain, prescan, late at byte 63)\n"},
		{"window large enough", strings.Repeat(" ", 40) + meta, []string{"--window", "100"}, "-: koi8-r (tentative, prescan)\n"},
		{"legacy label", ascii, []string{"--legacy-labels", "--override", "SHIFTJIS"}, "-: shift_jis (certain, override)\n"},
		{"dash is stdin", meta, []string{"-"}, "-: koi8-r (tentative, prescan)\n"},
		{"flags after operands", meta, []string{"-", "--json"}, `{"file":"-","encoding":"koi8-r","confidence":"tentative","source":"prescan","provenance":{"prescan":"koi8-r","prescan_rule":"meta","prescan_offset":23}}` + "\n"},
		{"empty input", "", []string{"--no-autodetect"}, "-: windows-1252 (tentative, default)\n"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(tc.args, strings.NewReader(tc.stdin), &stdout, &stderr)
			if got := stdout.String(); got != tc.want || code != 0 || stderr.Len() != 0 {
				t.Errorf("run(%q):\ngot  %q, exit %d, stderr %q\nwant %q, exit 0", tc.args, got, code, stderr.String(), tc.want)
			}
		})
	}
}

func TestExitStatus(t *testing.T) {
	ok := samplePath("news-shiftjis-meta.html")
	okLine := ok + ": shift_jis (tentative, prescan)\n"
	tests := []struct {
		desc       string
		args       []string
		code       int
		stdout     string   // exact, unless "*"
		stderrHas  []string // each must appear
		stderrNone bool     // standard error must be empty
	}{
		{"ok", []string{ok}, 0, okLine, nil, true},
		{"missing file", []string{"no-such.html"}, 1, "",
			[]string{"charsniff: no-such.html: no such file or directory\n"}, false},
		{"missing file, others still processed", []string{"no-such.html", ok}, 1, okLine,
			[]string{"charsniff: no-such.html: no such file or directory\n"}, false},
		// Label and locale flags are checked before any input is read:
		// one usage error, nothing on standard output.
		{"bad override label", []string{"--override", "no-such-label", ok, "samples/news-utf8-meta.html"}, 2, "",
			[]string{"charsniff: --override \"no-such-label\": unknown encoding label\n", "--help"}, false},
		{"bad default label", []string{"--default", "utf-7", ok}, 2, "",
			[]string{`charsniff: --default "utf-7": unknown encoding label`}, false},
		{"bad likely label", []string{"--likely", "ebcdic", ok}, 2, "",
			[]string{`charsniff: --likely "ebcdic": unknown encoding label`}, false},
		{"bad label, input unreadable", []string{"--override", "nosuch", "no-such.html"}, 2, "",
			[]string{`--override "nosuch"`}, false},
		{"label known only to legacy matching", []string{"--override", "SHIFTJIS", ok}, 2, "",
			[]string{`unknown encoding label`}, false},
		{"legacy label with --legacy-labels", []string{"--legacy-labels", "--override", "SHIFTJIS", ok}, 0,
			ok + ": shift_jis (certain, override)\n", nil, true},
		{"good likely label", []string{"--no-autodetect", "--likely", "koi8-r", "samples/notes-utf8-nodecl.html"}, 0,
			"samples/notes-utf8-nodecl.html: koi8-r (tentative, likely)\n", nil, true},
		{"unknown locale", []string{"--locale", "xx", ok}, 2, "",
			[]string{`charsniff: --locale "xx": not a language tag`}, false},
		{"unknown locale word", []string{"--hint-lang", "Japanese", ok}, 2, "", []string{`--locale "Japanese"`}, false},
		{"known locales", []string{"--locale", "pt_BR.UTF-8", ok}, 0, okLine, nil, true},
		{"locale as a domain", []string{"--locale", ".co.jp", ok}, 0, okLine, nil, true},
		{"locale as a country code", []string{"--locale", "jp", ok}, 0, okLine, nil, true},
		{"unknown flag", []string{"--frobnicate", ok}, 2, "",
			[]string{"charsniff: flag provided but not defined: --frobnicate\n", "--help"}, false},
		{"window not a number", []string{"--window", "lots", ok}, 2, "", []string{"--window", "--help"}, false},
		{"window zero", []string{"--window", "0", ok}, 2, "", []string{"charsniff: --window 0: must be between 1 and"}, false},
		{"window too large", []string{"--window", "1000000000", ok}, 2, "", []string{"--window 1000000000"}, false},
		{"raw without decode", []string{"--raw", ok}, 2, "", []string{"--raw needs --decode"}, false},
		{"-o without decode", []string{"-o", "x.txt", ok}, 2, "", []string{"-o needs --decode"}, false},
		{"files-from - and -", []string{"--files-from", "-", "-"}, 2, "", []string{"both read standard input"}, false},
		{"missing files-from list", []string{"--files-from", "no-such-list.txt", ok}, 1, okLine,
			[]string{"charsniff: no-such-list.txt: no such file or directory\n"}, false},
		{"missing files-from list, --exit-zero", []string{"--exit-zero", "--files-from", "no-such-list.txt", ok}, 1, okLine,
			[]string{"charsniff: no-such-list.txt: no such file or directory\n"}, false},
		{"missing file, --exit-zero", []string{"--exit-zero", "no-such.html", ok}, 0, okLine,
			[]string{"charsniff: no-such.html: no such file or directory\n"}, false},
		{"stdin twice", []string{"-", "-"}, 1, "*", []string{"charsniff: -: standard input named more than once\n"}, false},
		{"dash dash ends flags", []string{"--", "--json"}, 1, "", []string{"charsniff: --json: no such file or directory\n"}, false},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			stdout, stderr, code := charsniff(t, "", tc.args...)
			if code != tc.code {
				t.Errorf("charsniff %q: exit %d, want %d (stderr %q)", tc.args, code, tc.code, stderr)
			}
			if tc.stdout != "*" && stdout != tc.stdout {
				t.Errorf("charsniff %q: stdout\ngot  %q\nwant %q", tc.args, stdout, tc.stdout)
			}
			for _, s := range tc.stderrHas {
				if !strings.Contains(stderr, s) {
					t.Errorf("charsniff %q: stderr %q, want it to contain %q", tc.args, stderr, s)
				}
			}
			if tc.stderrNone && stderr != "" {
				t.Errorf("charsniff %q: stderr %q, want none", tc.args, stderr)
			}
			if strings.Count(stderr, "\n") > 4 {
				t.Errorf("charsniff %q: stderr has %d lines, want one per problem:\n%s", tc.args, strings.Count(stderr, "\n"), stderr)
			}
		})
	}
}

func TestErrorJSON(t *testing.T) {
	ok := samplePath("news-shiftjis-meta.html")
	stdout, stderr, code := charsniff(t, "", "--json", "--no-autodetect", "no-such.html", ok)
	want := `{"file":"no-such.html","error":"no such file or directory"}` + "\n" +
		wantJSON(t, sample{"news-shiftjis-meta.html", "shift_jis", "tentative", "prescan", 0}) + "\n"
	if stdout != want || code != 1 {
		t.Errorf("charsniff --json with a missing file:\ngot  %q, exit %d\nwant %q, exit 1", stdout, code, want)
	}
	if wantErr := "charsniff: no-such.html: no such file or directory\n"; stderr != wantErr {
		t.Errorf("stderr %q, want %q", stderr, wantErr)
	}
}

func TestUnreadableFile(t *testing.T) {
	dir := t.TempDir()
	ok := filepath.Join(dir, "ok.html")
	if err := os.WriteFile(ok, []byte(`<meta charset="euc-jp">`), 0o644); err != nil {
		t.Fatal(err)
	}
	var bad []string
	if runtime.GOOS == "linux" {
		// Opening works; reading offset 0 of a process's memory fails
		// with EIO, whoever runs the test.
		bad = append(bad, "/proc/self/mem")
	}
	if os.Geteuid() != 0 && runtime.GOOS != "windows" {
		p := filepath.Join(dir, "locked.html")
		if err := os.WriteFile(p, []byte("x"), 0o000); err != nil {
			t.Fatal(err)
		}
		bad = append(bad, p)
	}
	if len(bad) == 0 {
		t.Skip("no way to make an unreadable file here")
	}
	for _, p := range bad {
		for _, mode := range [][]string{nil, {"--decode"}} {
			args := append(slices.Clone(mode), p, ok)
			stdout, stderr, code := charsniff(t, "", args...)
			if code != 1 || !strings.HasPrefix(stderr, "charsniff: "+p+": ") || strings.Count(stderr, "\n") != 1 {
				t.Errorf("charsniff %q: exit %d, stderr %q; want 1 and one line about %s", args, code, stderr, p)
			}
			want := ok + ": euc-jp (tentative, prescan)\n"
			if mode != nil {
				want = `<meta charset="euc-jp">`
			}
			if !strings.HasSuffix(stdout, want) {
				t.Errorf("charsniff %q: stdout %q, want it to end with %q", args, stdout, want)
			}
		}
	}
}

// makeTree creates files under dir (paths with slashes) with the given
// contents and returns dir.
func makeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestWalkOrder(t *testing.T) {
	files := map[string]string{
		"b.html":              `<meta charset="gbk">`,
		"a/z.htm":             `<meta charset="big5">`,
		"a/b/c.xhtml":         `<?xml version="1.0" encoding="koi8-u"?><p/>`,
		"A.HTML":              `<meta charset="euc-kr">`,
		"notes.txt":           `<meta charset="utf-8">`,
		".hidden/x.html":      `<meta charset="utf-8">`,
		".dot.html":           `<meta charset="utf-8">`,
		"many/README":         "no extension",
		"c.shtml":             "\xFF\xFEh\x00",
		"deep/er/still.xht":   `<meta charset=iso-8859-7>`,
		"deep/er/still2.html": `<meta charset=iso-8859-8>`,
	}
	// Many files, so that the workers finish out of order.
	for i := range 300 {
		files[fmt.Sprintf("many/%03d.html", 299-i)] = fmt.Sprintf(`<meta charset="%s">`, []string{"utf-8", "windows-1251", "shift_jis"}[i%3])
	}
	dir := makeTree(t, files)
	var paths []string
	for name := range files {
		base := filepath.Base(name)
		if strings.HasPrefix(name, ".") || !walkable(base, false) {
			continue
		}
		paths = append(paths, filepath.Join(dir, filepath.FromSlash(name)))
	}
	slices.Sort(paths)
	// filepath.WalkDir order is lexical per directory; with these names
	// that is the sorted order of the full paths.
	var got1 string
	for _, procs := range []string{"1", "4", "16"} {
		cmd := exec.Command(bin, dir)
		cmd.Env = append(os.Environ(), "GOMAXPROCS="+procs)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("GOMAXPROCS=%s charsniff DIR: %v", procs, err)
		}
		var gotPaths []string
		for line := range strings.Lines(string(out)) {
			p, _, _ := strings.Cut(line, ": ")
			gotPaths = append(gotPaths, p)
		}
		if !slices.Equal(gotPaths, paths) {
			t.Errorf("GOMAXPROCS=%s charsniff DIR: got paths\n%q\nwant\n%q", procs, gotPaths, paths)
		}
		if got1 == "" {
			got1 = string(out)
		} else if string(out) != got1 {
			t.Errorf("GOMAXPROCS=%s: output differs from GOMAXPROCS=1", procs)
		}
		if !strings.Contains(string(out), filepath.Join(dir, "many", "000.html")+": shift_jis (tentative, prescan)\n") {
			t.Errorf("GOMAXPROCS=%s: many/000.html not reported as shift_jis:\n%s", procs, out)
		}
	}

	// --all takes every file but still skips hidden ones.
	stdout, _, code := charsniff(t, "", "--all", dir)
	for _, name := range []string{"notes.txt", "many/README"} {
		if !strings.Contains(stdout, filepath.Join(dir, filepath.FromSlash(name))+": ") {
			t.Errorf("charsniff --all DIR: %s missing", name)
		}
	}
	if strings.Contains(stdout, ".hidden") || strings.Contains(stdout, ".dot.html") || code != 0 {
		t.Errorf("charsniff --all DIR: hidden files reported or exit %d:\n%s", code, stdout)
	}

	// A hidden or non-HTML file named on the command line is taken.
	hiddenFile := filepath.Join(dir, ".dot.html")
	txt := filepath.Join(dir, "notes.txt")
	stdout, _, _ = charsniff(t, "", hiddenFile, txt)
	if want := hiddenFile + ": utf-8 (tentative, prescan)\n" + txt + ": utf-8 (tentative, prescan)\n"; stdout != want {
		t.Errorf("charsniff HIDDEN TXT: got %q, want %q", stdout, want)
	}
}

func TestStdin(t *testing.T) {
	page := readRoot(t, "samples/news-shiftjis-meta.html")
	for _, args := range [][]string{nil, {"-"}, {"--json"}} {
		stdout, stderr, code := charsniff(t, page, args...)
		want := "-: shift_jis (tentative, prescan)\n"
		if len(args) == 1 && args[0] == "--json" {
			want = `{"file":"-","encoding":"shift_jis","confidence":"tentative","source":"prescan","provenance":{"prescan":"shift_jis","prescan_rule":"meta","prescan_offset":66,"detected":"shift_jis","strength":"statistical"}}` + "\n"
		}
		if stdout != want || stderr != "" || code != 0 {
			t.Errorf("charsniff %q < page: got %q, stderr %q, exit %d; want %q", args, stdout, stderr, code, want)
		}
	}
	stdout, _, code := charsniff(t, page, "--decode")
	if want := readRoot(t, "samples/golden/news-shiftjis-meta.utf8"); stdout != want || code != 0 {
		t.Errorf("charsniff --decode < page: got %q, exit %d, want %q", stdout, code, want)
	}
}

func TestDecodeGolden(t *testing.T) {
	for _, s := range samples {
		t.Run(s.name, func(t *testing.T) {
			args := []string{"--decode", "--no-autodetect", samplePath(s.name)}
			if s.name == "notes-utf8-nodecl.html" {
				// Nothing in the page says UTF-8; the user does.
				args = append(args, "--default", "utf-8")
			}
			stdout, stderr, code := charsniff(t, "", args...)
			if want := testutil.Golden(t, s.name); stdout != want || stderr != "" || code != 0 {
				t.Errorf("charsniff %q: exit %d, stderr %q, output differs from the golden file:\ngot  %q\nwant %q", args, code, stderr, stdout, want)
			}
		})
	}
}

func TestDecodeOutFile(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out.txt")
	a, b := samplePath("blog-euckr-meta.html"), samplePath("poem-iso88592-xmldecl.xhtml")
	stdout, stderr, code := charsniff(t, "", "--decode", "-o", out, "--json", a, b)
	if code != 0 || stderr != "" {
		t.Fatalf("charsniff --decode -o: exit %d, stderr %q", code, stderr)
	}
	// The lines of --decode carry no provenance.
	wantLines := fmt.Sprintf(`{"file":%q,"encoding":"euc-kr","confidence":"tentative","source":"prescan","bytes":%d}`+"\n"+
		`{"file":%q,"encoding":"iso-8859-2","confidence":"tentative","source":"xml","bytes":%d}`+"\n",
		a, len(readRoot(t, a)), b, len(readRoot(t, b)))
	if stdout != wantLines {
		t.Errorf("charsniff --decode -o --json: stdout\ngot  %q\nwant %q", stdout, wantLines)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want := "==> " + a + " <==\n" + readRoot(t, "samples/golden/blog-euckr-meta.utf8") +
		"\n==> " + b + " <==\n" + readRoot(t, "samples/golden/poem-iso88592-xmldecl.utf8")
	if string(got) != want {
		t.Errorf("-o FILE holds\n%q\nwant\n%q", got, want)
	}

	// -o naming an input is refused before anything is truncated.
	in := filepath.Join(t.TempDir(), "in.html")
	if err := os.WriteFile(in, []byte("<p>keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = charsniff(t, "", "--decode", "-o", in, in)
	if content, _ := os.ReadFile(in); code != 2 || string(content) != "<p>keep me" {
		t.Errorf("charsniff --decode -o IN IN: exit %d, stderr %q, input now %q; want 2 and the input kept", code, stderr, content)
	}
}

func TestRaw(t *testing.T) {
	name := samplePath("news-windows1251-httpequiv.html")
	stdout, _, code := charsniff(t, "", "--decode", "--raw", name)
	if want := readRoot(t, "samples/src/news-windows1251-httpequiv.utf8"); stdout != want || code != 0 {
		t.Errorf("charsniff --decode --raw: exit %d, got %q, want the CRLF source %q", code, stdout, want)
	}
	if !strings.Contains(stdout, "\r\n") {
		t.Errorf("charsniff --decode --raw: CRLF lost")
	}
	stdout, _, _ = charsniff(t, "", "--decode", name)
	if strings.Contains(stdout, "\r") {
		t.Errorf("charsniff --decode: CR kept without --raw")
	}
	// Raw removes the byte order mark (as the Encoding Standard's decode
	// does) and keeps NUL as U+0000.
	stdout, _, _ = charsniff(t, "\xEF\xBB\xBFa\x00b\r\n", "--decode", "--raw")
	if want := "a\x00b\r\n"; stdout != want {
		t.Errorf("charsniff --decode --raw: got %q, want %q", stdout, want)
	}
	stdout, _, _ = charsniff(t, "\xEF\xBB\xBFa\x00b\r\n", "--decode")
	if want := "a\uFFFDb\n"; stdout != want {
		t.Errorf("charsniff --decode: got %q, want %q", stdout, want)
	}
}

func TestStats(t *testing.T) {
	stdout, stderr, code := charsniff(t, "", "--stats", "--no-autodetect", "samples", "no-such.html")
	if code != 1 || !strings.Contains(stderr, "no-such.html") {
		t.Errorf("charsniff --stats with a missing file: exit %d, stderr %q", code, stderr)
	}
	lines := strings.Split(stdout, "\n")
	if len(lines) < len(samples) {
		t.Fatalf("charsniff --stats: too short:\n%s", stdout)
	}
	summary := strings.Join(lines[len(samples):], "\n")
	for _, want := range []string{
		"encoding     documents   share\n",
		"windows-1252         3   30.0% " + strings.Repeat("█", 30) + "\n",
		"shift_jis            1   10.0% " + strings.Repeat("█", 10) + "\n",
		"source       documents   share\n",
		"prescan              6   60.0% " + strings.Repeat("█", 30) + "\n",
		"xml                  1   10.0% █████\n",
		"10 documents, 1 failed\n",
	} {
		if !strings.Contains(summary, want) {
			t.Errorf("charsniff --stats: summary lacks %q:\n%s", want, summary)
		}
	}
	// With --json the summary goes to standard error, so standard output
	// stays JSON Lines.
	stdout, stderr, _ = charsniff(t, "", "--stats", "--json", "samples")
	if strings.Count(stdout, "\n") != len(samples) || !strings.Contains(stderr, "10 documents, 0 failed") {
		t.Errorf("charsniff --stats --json: stdout\n%s\nstderr\n%s", stdout, stderr)
	}
}

func TestBar(t *testing.T) {
	tests := []struct {
		n, top int
		want   string
	}{
		{0, 10, ""},
		{10, 10, strings.Repeat("█", 30)},
		{1, 3, strings.Repeat("█", 10)},
		{1, 1000, "▏"}, // never invisible
		{1, 16, "█▉"},  // 15/8 cells
		{5, 0, ""},
	}
	for _, tc := range tests {
		if got := bar(tc.n, tc.top); got != tc.want {
			t.Errorf("bar(%d, %d) = %q, want %q", tc.n, tc.top, got, tc.want)
		}
	}
}

func TestHelpVersion(t *testing.T) {
	for _, arg := range []string{"--help", "-h", "-help"} {
		stdout, stderr, code := charsniff(t, "", arg)
		for _, want := range []string{"Usage: charsniff [flags] [FILE or DIR ...]", "--content-type VALUE", "--override LABEL",
			"--window BYTES", "--decode", "-o FILE", "--raw", "--stats", "--json", "Examples:", "charsniff --stats ./samples", "Exit status"} {
			if !strings.Contains(stdout, want) {
				t.Errorf("charsniff %s: usage lacks %q", arg, want)
			}
		}
		if code != 0 || stderr != "" {
			t.Errorf("charsniff %s: exit %d, stderr %q", arg, code, stderr)
		}
	}
	stdout, _, code := charsniff(t, "", "--version")
	if !strings.HasPrefix(stdout, "charsniff ") || !strings.Contains(stdout, runtime.Version()) || code != 0 {
		t.Errorf("charsniff --version: got %q, exit %d", stdout, code)
	}
}

// panicReader panics when read.
type panicReader struct{}

func (panicReader) Read([]byte) (int, error) { panic("reader exploded") }

func TestNoPanic(t *testing.T) {
	for _, mode := range [][]string{nil, {"--decode"}} {
		var stdout, stderr bytes.Buffer
		code := run(mode, panicReader{}, &stdout, &stderr)
		if want := "charsniff: -: internal error: reader exploded\n"; code != 1 || stderr.String() != want {
			t.Errorf("run(%q) over a panicking reader: exit %d, stderr %q; want 1, %q", mode, code, stderr.String(), want)
		}
	}
}

func TestReadError(t *testing.T) {
	// A read error inside the window is reported; bytes before it do not
	// make a result.
	for _, mode := range [][]string{nil, {"--decode"}} {
		var stdout, stderr bytes.Buffer
		in := iotest.DataErrReader(iotest.TimeoutReader(strings.NewReader(`<meta charset="gbk">`)))
		code := run(mode, in, &stdout, &stderr)
		if want := "charsniff: -: timeout\n"; code != 1 || stderr.String() != want {
			t.Errorf("run(%q) with a read error: exit %d, stderr %q; want 1, %q", mode, code, stderr.String(), want)
		}
	}
}

func TestProgress(t *testing.T) {
	saveTerm, saveDelay := isTerminal, progressDelay
	defer func() { isTerminal, progressDelay = saveTerm, saveDelay }()

	args := []string{"--no-autodetect", filepath.Join(root, "samples")}
	var quiet, quietErr bytes.Buffer
	if code := run(args, nil, &quiet, &quietErr); code != 0 || quietErr.Len() != 0 {
		t.Fatalf("run without a terminal: exit %d, stderr %q; want 0 and nothing", code, quietErr.String())
	}

	var stdout, stderr bytes.Buffer
	isTerminal = func(w io.Writer) bool { return w == &stderr }
	progressDelay = 0
	if code := run(args, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("run on a terminal: exit %d", code)
	}
	if stderr.Len() == 0 {
		t.Errorf("run on a terminal: no progress bar on standard error")
	}
	if stdout.String() != quiet.String() {
		t.Errorf("run on a terminal: output changed:\n%s\nwant\n%s", stdout.String(), quiet.String())
	}

	// Standard output on the terminal too: no bar.
	stdout.Reset()
	stderr.Reset()
	isTerminal = func(io.Writer) bool { return true }
	if code := run(args, nil, &stdout, &stderr); code != 0 || stderr.Len() != 0 {
		t.Errorf("run with both on a terminal: exit %d, stderr %q; want 0 and no bar", code, stderr.String())
	}
}

func TestAutodetect(t *testing.T) {
	// With autodetection on (the default), the pages that declare nothing
	// are guessed from their bytes. The German windows-1252 page may also be
	// left to the default (windows-1252 too) if the detector's statistics
	// change: the encoding is what matters.
	for _, tc := range []struct {
		name string
		want []string // any of these
	}{
		{"notes-utf8-nodecl.html", []string{"utf-8 (tentative, autodetect)"}},
		{"blog-windows1252-nodecl.html", []string{"windows-1252 (tentative, autodetect)", "windows-1252 (tentative, default)"}},
	} {
		p := samplePath(tc.name)
		stdout, _, code := charsniff(t, "", p)
		got, _ := strings.CutPrefix(strings.TrimSuffix(stdout, "\n"), p+": ")
		if !slices.Contains(tc.want, got) || code != 0 {
			t.Errorf("charsniff %s: got %q, exit %d; want one of %q", p, stdout, code, tc.want)
		}
		stdout, _, _ = charsniff(t, "", "--decode", p)
		golden := "samples/golden/" + strings.TrimSuffix(tc.name, ".html") + ".utf8"
		if want := readRoot(t, golden); stdout != want {
			t.Errorf("charsniff --decode %s: output differs from %s", p, golden)
		}
	}
	// Pure ASCII holds no evidence: the default decides.
	stdout, _, _ := charsniff(t, "<!doctype html><p>plain ASCII text only.")
	if want := "-: windows-1252 (tentative, default)\n"; stdout != want {
		t.Errorf("charsniff < ASCII: got %q, want %q", stdout, want)
	}
}

// BenchmarkSniffDir runs the command over a directory of 1000 small pages:
// the walk, the workers, the ordering and the output, per file.
func BenchmarkSniffDir(b *testing.B) {
	dir := b.TempDir()
	for i := range 1000 {
		page := fmt.Sprintf(`<!doctype html><meta charset="shift_jis"><title>%d</title>`, i) + strings.Repeat("<p>text</p>\n", 200)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%04d.html", i)), []byte(page), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	args := []string{"--json", dir}
	b.ReportAllocs()
	for b.Loop() {
		if code := run(args, nil, io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1000, "ns/file")
}

// TestProgressBytes checks the progress bar's count: bytes of input
// against the sum of the inputs' sizes, with the files done, sniffing and
// decoding (to -o FILE, standard output not a terminal); and that nothing
// is drawn before progressDelay.
func TestProgressBytes(t *testing.T) {
	saveTerm, saveDelay, saveThrottle := isTerminal, progressDelay, progressThrottle
	defer func() { isTerminal, progressDelay, progressThrottle = saveTerm, saveDelay, saveThrottle }()
	progressThrottle = 0
	dir := t.TempDir() // the samples alone: a walk of samples/ opens its other files too
	for _, s := range samples {
		if err := os.WriteFile(filepath.Join(dir, s.name), []byte(readRoot(t, samplePath(s.name))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), "out.txt")
	for _, args := range [][]string{{dir}, {"--decode", "-o", out, dir}} {
		var stdout, stderr bytes.Buffer
		isTerminal = func(w io.Writer) bool { return w == &stderr }
		progressDelay = time.Hour
		if code := run(args, nil, &stdout, &stderr); code != 0 || stderr.Len() != 0 {
			t.Errorf("run(%q), an hour's delay: exit %d, stderr %q; want 0 and nothing", args, code, stderr.String())
		}
		progressDelay = 0
		stderr.Reset()
		if code := run(args, nil, &stdout, &stderr); code != 0 {
			t.Fatalf("run(%q): exit %d", args, code)
		}
		verb := "sniffing"
		if args[0] == "--decode" {
			verb = "decoding"
		}
		// The sizes' sum is the bar's maximum once known (at the end, at
		// the latest).
		for _, want := range []string{verb + ", ", "/10 files done", "/7.0 kB, ", "B/s)"} {
			if !strings.Contains(stderr.String(), want) {
				t.Errorf("run(%q): the bar lacks %q:\n%q", args, want, stderr.String())
			}
		}
	}
}

// TestMeter checks that an input counts its whole size once done,
// whatever was read of it (sniffing reads the start; a WARC file's
// start is read twice), and what was read when its size is not known.
func TestMeter(t *testing.T) {
	p := newProgressAt(io.Discard, "sniffing", time.Now)
	for _, tc := range []struct {
		read []int
		size int64
		want int64
	}{
		{[]int{1024}, 5000, 5000},
		{[]int{4096, 4096, 3000}, 10000, 15000},
		{[]int{700, 300}, -1, 16000},
	} {
		m := &meter{p: p}
		for _, n := range tc.read {
			m.count(n)
		}
		m.done(tc.size)
		if p.done != tc.want {
			t.Errorf("after reads %v of %d bytes: %d bytes done, want %d", tc.read, tc.size, p.done, tc.want)
		}
	}
	if p.inputs != 3 {
		t.Errorf("%d inputs done, want 3", p.inputs)
	}
	// A WARC file's first bytes, read to recognize it, are read again:
	// they count once.
	m := &meter{p: p}
	m.count(4096)
	m.rewind()
	m.count(3000)
	if p.done != 16000+4096 {
		t.Errorf("after a rewind and 3000 bytes: %d bytes done, want %d", p.done, 16000+4096)
	}
	m.count(2000)
	if p.done != 16000+5000 {
		t.Errorf("2000 bytes more: %d bytes done, want %d", p.done, 16000+5000)
	}
}
