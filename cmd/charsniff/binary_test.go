package main

import (
	"bytes"
	"compress/gzip"
	"image"
	"image/png"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

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
