package main

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/charsniff/charsniff/internal/warctest"
	"golang.org/x/text/encoding/unicode"
)

// TestBinaryRefused checks that an input that is binary data by the MIME
// Sniffing Standard's rules (an executable, random bytes, a picture, each
// also gzip-compressed) gets an error line and exit 1, sniffing and
// decoding, named or on standard input, and that --text or an HTML
// --content-type reads it anyway.
func TestBinaryRefused(t *testing.T) {
	random := make([]byte, 8192)
	rng := rand.New(rand.NewPCG(26, 2))
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	var pic bytes.Buffer
	if err := png.Encode(&pic, image.NewGray(image.Rect(0, 0, 20, 20))); err != nil {
		t.Fatal(err)
	}
	exe, err := os.ReadFile(bin) // the command itself: an executable
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files := map[string][]byte{"exe": exe[:64<<10], "random.bin": random, "pic.png": pic.Bytes()}
	for name, b := range files {
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		zw.Write(b)
		zw.Close()
		files[name+".gz"] = z.Bytes()
	}
	for name, b := range files {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, mode := range [][]string{nil, {"--decode"}, {"--json"}, {"--decode", "--json"}} {
			args := append(append([]string(nil), mode...), path)
			stdout, stderr, code := charsniff(t, "", args...)
			want := "charsniff: " + path + ": binary data ("
			if code != 1 || !strings.HasPrefix(stderr, want) || strings.Contains(stdout, `"encoding"`) || (stdout != "" && !strings.Contains(stdout, `"error":"binary data`)) {
				t.Errorf("charsniff %q: exit %d, stdout %.100q, stderr %q; want 1, no encoding, %q...", args, code, stdout, stderr, want)
			}
			_, stderr, code = charsniff(t, string(b), mode...)
			if code != 1 || !strings.HasPrefix(stderr, "charsniff: -: binary data (") {
				t.Errorf("charsniff %q < %s: exit %d, stderr %q; want 1 and the refusal", mode, name, code, stderr)
			}
		}
		for _, more := range [][]string{{"--text"}, {"--content-type", "text/html; charset=utf-8"}} {
			args := append(more, path)
			if stdout, stderr, code := charsniff(t, "", args...); code != 0 || !strings.HasPrefix(stdout, path+": ") {
				t.Errorf("charsniff %q: exit %d, stdout %q, stderr %q; want 0 and an encoding", args, code, stdout, stderr)
			}
		}
	}
	if _, stderr, _ := charsniff(t, "", filepath.Join(dir, "pic.png")); !strings.Contains(stderr, "binary data (image/png)") {
		t.Errorf("charsniff pic.png: stderr %q, want it to name image/png", stderr)
	}
}

// TestTextNotRefused checks that text with NUL bytes where the standard
// allows them, or in encodings whose bytes look unusual, is sniffed: the
// samples, UTF-16 with a byte order mark, a page with a NUL past its first
// 1445 bytes, a page whose HTML signature comes before a NUL.
func TestTextNotRefused(t *testing.T) {
	page := readRoot(t, samplePath("news-utf8-meta.html"))
	utf16, err := unicode.UTF16(unicode.BigEndian, unicode.UseBOM).NewEncoder().Bytes([]byte(page))
	if err != nil {
		t.Fatal(err)
	}
	for name, in := range map[string]string{
		"utf-16be with BOM": string(utf16),
		"a late NUL":        page + strings.Repeat("<p>more</p>\n", 150) + "\x00<p>after</p>",
		"a NUL after <html": "<html>\x00" + page,
	} {
		if stdout, stderr, code := charsniff(t, in, "--no-autodetect"); code != 0 || !strings.HasPrefix(stdout, "-: ") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want 0 and an encoding", name, code, stdout, stderr)
		}
	}
	cmd := exec.Command(bin, "samples")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil || bytes.Count(out, []byte("\n")) != len(samples) {
		t.Errorf("charsniff samples: %v\n%s", err, out)
	}
}

// binaries returns files that are binary by signature: the test binary
// (ELF on Linux), PNG, GIF, JPEG, zip and PDF, each with the MIME type
// the refusal names.
func binaries(t *testing.T) []struct {
	name, typ string
	data      []byte
} {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	exe, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	m := image.NewGray(image.Rect(0, 0, 20, 20))
	var p, g, j, z bytes.Buffer
	if png.Encode(&p, m) != nil || gif.Encode(&g, m, nil) != nil || jpeg.Encode(&j, m, nil) != nil {
		t.Fatal("encoding the pictures failed")
	}
	zw := zip.NewWriter(&z)
	f, _ := zw.Create("page.html")
	f.Write([]byte("<html><meta charset=koi8-r>"))
	zw.Close()
	return []struct {
		name, typ string
		data      []byte
	}{
		{"executable", "control bytes", exe[:64<<10]},
		{"png", "image/png", p.Bytes()},
		{"gif", "image/gif", g.Bytes()},
		{"jpeg", "image/jpeg", j.Bytes()},
		{"zip", "application/zip", z.Bytes()},
		{"pdf", "application/pdf", []byte("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\n\x00\x01")},
	}
}

// TestTextOrder checks the text-or-binary check in a browser's order,
// with the cases issue 31 reported: the caller's flags, the file's name,
// then the bytes (the MIME Sniffing rules for an unknown type, and the
// encoding sniffing algorithm's own answers), in process.
func TestTextOrder(t *testing.T) {
	utf16le, err := unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM).NewEncoder().Bytes([]byte("<!DOCTYPE html><html><head><title>x</title></head><body>caf\u00e9</body></html>"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	gz := func(b []byte) []byte {
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		zw.Write(b)
		zw.Close()
		return z.Bytes()
	}
	bins := binaries(t)
	pngData := bins[1].data
	const answered = ""
	for _, tc := range []struct {
		desc  string
		flags []string
		name  string // "" for standard input
		in    []byte
		want  string // answered, or what the refusal names
	}{
		// The pages, which browsers render.
		{"a .html file with 0x1A after <center>", nil, "dos.html", []byte("<html><body><center>Hello</center>\x1a"), answered},
		{"a NUL after <meta charset=koi8-r>, named", nil, "nul.html", []byte("<meta charset=koi8-r>\x00<p>\xf0\xd2\xc9\xd7\xc5\xd4"), answered},
		{"a NUL after <meta charset=koi8-r>, standard input", nil, "", []byte("<meta charset=koi8-r>\x00<p>\xf0\xd2\xc9\xd7\xc5\xd4"), answered},
		{"<meta\\x0bcharset=...>, named", nil, "vt.htm", []byte("<meta\x0bcharset=koi8-r><p>hi"), answered},
		{"<meta\\x0bcharset=...>, standard input", nil, "", []byte("<meta\x0bcharset=koi8-r><p>hi"), "control bytes"},
		{"BOM-less UTF-16LE HTML, named", nil, "utf16.html", utf16le, answered},
		{"BOM-less UTF-16LE HTML, standard input", nil, "", utf16le, "control bytes"},
		{"BOM-less UTF-16LE HTML, --content-type text/html", []string{"--content-type", "text/html"}, "", utf16le, answered},
		{"control bytes, --override windows-1252", []string{"--override", "windows-1252"}, "ctl.bin", []byte("\x01\x02\x03abc\x7f\x00"), answered},
		{"control bytes, --decode --raw --override", []string{"--decode", "--raw", "--override", "windows-1252"}, "", []byte("\x01\x02\x03abc\x7f\x00"), answered},
		// The encoding sniffing algorithm's answers, from standard input.
		{"the UTF-16LE XML prefix", nil, "", []byte("<\x00?\x00x\x00m\x00l\x00 \x00"), answered},
		{"the UTF-16BE XML prefix", nil, "", []byte("\x00<\x00?\x00x\x00m\x00l\x00 "), answered},
		{"a UTF-32BE BOM", nil, "", []byte("\x00\x00\xfe\xff\x00\x00\x00<"), answered},
		{"a UTF-32LE BOM (the UTF-16LE one)", nil, "", []byte("\xff\xfe\x00\x00<\x00\x00\x00"), answered},
		{"a UTF-16BE BOM, three bytes", nil, "", []byte("\xfe\xff\x00"), answered},
		{"an XML declaration before control bytes", nil, "", []byte("<?xml version='1.0' encoding='koi8-r'?>\x01"), answered},
		{"a NUL before the <meta>", nil, "", []byte("<x>\x00<meta charset=koi8-r>"), answered},
		{"control bytes, no declaration", nil, "", []byte("<x>\x00<p>hi"), "control bytes"},
		// Names.
		{"a PNG named .html: the name decides", nil, "pic.html", pngData, answered},
		{"a PNG named .HTML", nil, "pic.HTML", pngData, answered},
		{"a PNG named .svg", nil, "pic.svg", pngData, answered},
		{"a PNG named .html.gz", nil, "pic.html.gz", gz(pngData), answered},
		{"a PNG named .bin.gz", nil, "pic.bin.gz", gz(pngData), "image/png"},
		{"a PNG named .gz", nil, "pic.gz", gz(pngData), "image/png"},
		{"control bytes named .txt", nil, "ctl.txt", []byte("\x01\x02"), answered},
		{"control bytes named .json", nil, "ctl.json", []byte("\x01\x02"), answered},
		{"control bytes named .html.bak", nil, "ctl.html.bak", []byte("\x01\x02"), "control bytes"},
		// The caller's type.
		{"--content-type image/png on a page", []string{"--content-type", "image/png"}, "page.html", []byte("<p>hi"), "image/png, by --content-type"},
		{"--content-type application/octet-stream", []string{"--content-type", "application/octet-stream"}, "", []byte("<p>hi"), "application/octet-stream, by --content-type"},
		{"--content-type TEXT/PLAIN on a PNG", []string{"--content-type", "TEXT/PLAIN"}, "", pngData, answered},
		{"--content-type application/json on a PNG", []string{"--content-type", "application/json"}, "", pngData, answered},
		{"--content-type image/svg+xml on a PNG", []string{"--content-type", "image/svg+xml"}, "", pngData, answered},
		{"--content-type unknown/unknown sniffs", []string{"--content-type", "unknown/unknown"}, "", pngData, "image/png)"},
		{"--content-type */* sniffs", []string{"--content-type", "*/*"}, "pic.html", pngData, answered},
		{"--content-type with no type sniffs", []string{"--content-type", "charset=utf-8"}, "", pngData, "image/png)"},
		{"--override beats --content-type", []string{"--override", "utf-8", "--content-type", "image/png"}, "", pngData, answered},
		{"--text beats --content-type", []string{"--text", "--content-type", "image/png"}, "", pngData, answered},
	} {
		args := append([]string{"--json"}, tc.flags...)
		if tc.name != "" {
			args = append(args, write(tc.name, tc.in))
		}
		var o, e bytes.Buffer
		code := run(args, bytes.NewReader(tc.in), &o, &e)
		if tc.want == answered {
			if code != 0 || e.Len() != 0 || (!slices.Contains(tc.flags, "--decode") && !strings.Contains(o.String(), `"encoding":`)) {
				t.Errorf("%s: charsniff %q: exit %d, stdout %.200q, stderr %q; want an answer", tc.desc, args, code, o.String(), e.String())
			}
			continue
		}
		if want := "binary data (" + tc.want; code != 1 || !strings.Contains(e.String(), want) || strings.Contains(o.String(), `"encoding":`) {
			t.Errorf("%s: charsniff %q: exit %d, stdout %.200q, stderr %q; want the refusal, %q", tc.desc, args, code, o.String(), e.String(), want)
		}
	}
}

// TestBinariesRefused checks that files binary by signature, that
// nothing calls text, are refused by name (.bin, no ending), from
// standard input, sniffing and decoding, and that a .html name or --text
// reads them.
func TestBinariesRefused(t *testing.T) {
	dir := t.TempDir()
	for _, b := range binaries(t) {
		for _, name := range []string{"", b.name, b.name + ".bin", b.name + ".html"} {
			var path string
			if name != "" {
				path = filepath.Join(dir, name)
				if err := os.WriteFile(path, b.data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for _, mode := range [][]string{{"--json"}, {"--decode"}, {"--text"}} {
				args := append([]string(nil), mode...)
				if path != "" {
					args = append(args, path)
				}
				var o, e bytes.Buffer
				code := run(args, bytes.NewReader(b.data), &o, &e)
				read := mode[0] == "--text" || strings.HasSuffix(name, ".html")
				switch {
				case read && (code != 0 || e.Len() != 0):
					t.Errorf("charsniff %q < %s: exit %d, stderr %q; want it read", args, b.name, code, e.String())
				case !read && (code != 1 || !strings.Contains(e.String(), "binary data ("+b.typ) || strings.Count(e.String(), "\n") != 1):
					t.Errorf("charsniff %q < %s: exit %d, stderr %q; want one refusal naming %s", args, b.name, code, e.String(), b.typ)
				case !read && mode[0] == "--decode" && o.Len() != 0:
					t.Errorf("charsniff %q < %s: %d bytes of text, want none", args, b.name, o.Len())
				}
			}
		}
	}
}

// TestTextNames checks the table of text file names.
func TestTextNames(t *testing.T) {
	for _, tc := range []struct {
		name     string
		unpacked bool
		want     bool
	}{
		{"a.html", false, true}, {"a.HTM", false, true}, {"dir.x/a.xhtml", false, true}, {"a.xht", false, true},
		{"a.shtml", false, true}, {"a.xml", false, true}, {"a.txt", false, true}, {"a.text", false, true},
		{"a.css", false, true}, {"a.js", false, true}, {"a.csv", false, true}, {"a.json", false, true},
		{"a.md", false, true}, {"a.svg", false, true}, {"a.mjs", false, true},
		{"a.html.gz", true, true}, {"a.html.zst", true, true}, {"a.html.gz", false, false},
		{"a.gz", true, false}, {"a.bin", false, false}, {"html", false, false}, {".html", false, true},
		{"a.html.bak", false, false}, {"a", false, false}, {"", false, false}, {"a.png", false, false},
	} {
		if got := hasTextName(tc.name, tc.unpacked); got != tc.want {
			t.Errorf("hasTextName(%q, %v) = %v, want %v", tc.name, tc.unpacked, got, tc.want)
		}
	}
}

// TestGivenType checks what the flags say of the inputs' type.
func TestGivenType(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		want    typeVerdict
		essence string
	}{
		{nil, typeUnknown, ""},
		{[]string{"--text"}, typeText, ""},
		{[]string{"--override", "koi8-r"}, typeText, ""},
		{[]string{"--content-type", "text/html; charset=gbk"}, typeText, ""},
		{[]string{"--content-type", "Text/CSV"}, typeText, ""},
		{[]string{"--content-type", "application/xhtml+xml"}, typeText, ""},
		{[]string{"--content-type", "application/rss+xml"}, typeText, ""},
		{[]string{"--content-type", "application/ld+json"}, typeText, ""},
		{[]string{"--content-type", "application/xml"}, typeText, ""},
		{[]string{"--content-type", "application/javascript"}, typeText, ""},
		{[]string{"--content-type", "application/pdf"}, typeBinary, "application/pdf"},
		{[]string{"--content-type", "IMAGE/PNG"}, typeBinary, "image/png"},
		{[]string{"--content-type", "application/unknown"}, typeUnknown, ""},
		{[]string{"--content-type", "unknown/unknown"}, typeUnknown, ""},
		{[]string{"--content-type", "*/*"}, typeUnknown, ""},
		{[]string{"--content-type", "garbage"}, typeUnknown, ""},
		{[]string{"--default", "koi8-r", "--likely", "gbk"}, typeUnknown, ""},
	} {
		c, err := parseArgs(tc.args)
		if err != nil {
			t.Fatal(err)
		}
		if got, essence := c.givenType(); got != tc.want || essence != tc.essence {
			t.Errorf("%q: givenType() = %d, %q; want %d, %q", tc.args, got, essence, tc.want, tc.essence)
		}
	}
}

// TestWARCRecordsNotRefused checks that a WARC record whose stored
// Content-Type says HTML is answered whatever its bytes (the archive
// reader takes records by their type; the command's check is for plain
// inputs), sniffing and decoding, and that the WARC file itself, a .bin
// file full of NULs, is no refusal.
func TestWARCRecordsNotRefused(t *testing.T) {
	var w bytes.Buffer
	ww := warctest.NewWriter(&w, true)
	for _, body := range []string{
		"<html><center>Hello</center>\x1a",
		"<meta charset=koi8-r>\x00<p>\xf0\xd2\xc9\xd7\xc5\xd4",
		"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
	} {
		block := warctest.HTTPResponse(200, []string{"Content-Type: text/html"}, []byte(body))
		if _, err := ww.Write(warctest.Response("http://example.com/", block)); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "crawl.bin")
	if err := os.WriteFile(path, w.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, mode := range [][]string{{"--json"}, {"--json", "--decode"}} {
		var o, e bytes.Buffer
		args := append(mode, path)
		if code := run(args, nil, &o, &e); code != 0 || e.Len() != 0 || strings.Count(o.String(), `"encoding":`) != 3 {
			t.Errorf("charsniff %q: exit %d, stdout %q, stderr %q; want 3 records answered", args, code, o.String(), e.String())
		}
	}
}

// TestTextNamesDocumented checks that docs/cli.md's table of treatments
// lists the text file names the command has, no more and no fewer.
func TestTextNamesDocumented(t *testing.T) {
	doc := readRoot(t, "docs/cli.md")
	i := strings.Index(doc, "\n| a file name ending in ")
	if i < 0 {
		t.Fatal("docs/cli.md: no row for text file names")
	}
	row := doc[i+1:]
	row = row[:strings.IndexByte(row, '\n')]
	var documented []string
	for _, f := range strings.Split(row, "`")[1:] {
		if len(f) > 1 && f[0] == '.' && !strings.ContainsAny(f, " /") {
			documented = append(documented, f)
		}
	}
	var have []string
	for _, e := range textExtensions {
		have = append(have, e.ext)
	}
	slices.Sort(documented)
	slices.Sort(have)
	if !slices.Equal(documented, have) {
		t.Errorf("docs/cli.md lists %q, the command has %q", documented, have)
	}
}
