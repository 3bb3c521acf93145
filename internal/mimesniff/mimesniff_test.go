package mimesniff

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
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/unicode"
)

// encoded returns s encoded by enc.
func encode(t *testing.T, enc interface{ Bytes([]byte) ([]byte, error) }, s string) []byte {
	t.Helper()
	b, err := enc.Bytes([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// img returns a small picture encoded by enc.
func img(t *testing.T, enc func(*bytes.Buffer, image.Image) error) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := enc(&b, image.NewGray(image.Rect(0, 0, 40, 30))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

const page = "<!DOCTYPE html>\n<html><head><title>x</title></head><body><p>Hello, world.</p></body></html>\n"

func TestSniff(t *testing.T) {
	self, err := os.Executable() // an ELF (or Mach-O, PE) binary
	if err != nil {
		t.Fatal(err)
	}
	exe, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	random := make([]byte, 4096)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	var zipped, gzipped bytes.Buffer
	zw := zip.NewWriter(&zipped)
	f, _ := zw.Create("page.html")
	f.Write([]byte(page))
	zw.Close()
	gw := gzip.NewWriter(&gzipped)
	gw.Write([]byte(page))
	gw.Close()
	lateNUL := strings.Repeat("filler line\n", 130) + "\x00" + page
	edge := strings.Repeat("x", HeaderLen-1)
	for _, tc := range []struct {
		name string
		in   []byte
		want string
	}{
		{"page", []byte(page), "text/html"},
		{"page after whitespace, lower case", []byte("\n\t <html lang=en>" + page), "text/html"},
		{"page with an early NUL", []byte("<HTML>\x00" + page), "text/html"},
		{"comment first", []byte("<!-- x -->" + page), "text/html"},
		{"text", []byte("Hello"), "text/plain"},
		{"empty", nil, "text/plain"},
		{"<htmlx is no tag", []byte("<htmlx\x01"), "application/octet-stream"},
		{"NUL after the header", []byte(lateNUL), "text/plain"},
		{"NUL, the header's last byte", []byte(edge + "\x00"), "application/octet-stream"},
		{"NUL, the first byte past the header", []byte(edge + "x\x00"), "text/plain"},
		{"xml", []byte("  <?xml version='1.0'?><html/>"), "text/xml"},
		{"utf-16le with BOM", append([]byte{0xff, 0xfe}, encode(t, unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM).NewEncoder(), page)...), "text/plain"},
		{"utf-16be with BOM", append([]byte{0xfe, 0xff}, encode(t, unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM).NewEncoder(), page)...), "text/plain"},
		{"utf-8 BOM", []byte("\ufeffHello\x01"), "text/plain"},
		{"utf-16le without BOM", encode(t, unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM).NewEncoder(), page), "application/octet-stream"},
		{"iso-2022-jp (ESC is no binary byte)", encode(t, japanese.ISO2022JP.NewEncoder(), "日本語のページ"), "text/plain"},
		{"executable", exe, "application/octet-stream"},
		{"random", random, "application/octet-stream"},
		{"png", img(t, func(b *bytes.Buffer, m image.Image) error { return png.Encode(b, m) }), "image/png"},
		{"gif", img(t, func(b *bytes.Buffer, m image.Image) error { return gif.Encode(b, m, nil) }), "image/gif"},
		{"jpeg", img(t, func(b *bytes.Buffer, m image.Image) error { return jpeg.Encode(b, m, nil) }), "image/jpeg"},
		{"zip", zipped.Bytes(), "application/zip"},
		{"gzip", gzipped.Bytes(), "application/x-gzip"},
		{"pdf", []byte("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n"), "application/pdf"},
		{"postscript", []byte("%!PS-Adobe-3.0\n"), "application/postscript"},
		{"webp", []byte("RIFF\x24\x00\x00\x00WEBPVP8 "), "image/webp"},
		{"wave", []byte("RIFF\x24\x00\x00\x00WAVEfmt "), "audio/wave"},
		{"mp4", []byte("\x00\x00\x00\x18ftypisom\x00\x00\x02\x00isommp41"), "video/mp4"},
		{"not mp4: box past the end", []byte("\x00\x01\x00\x00ftypisom\x00\x00\x02\x00"), "application/octet-stream"},
		{"ogg", []byte("OggS\x00\x02"), "application/ogg"},
		{"rar", []byte("Rar \x1a\x07\x00"), "application/x-rar-compressed"},
		{"ico", []byte("\x00\x00\x01\x00\x01\x00"), "image/x-icon"},
	} {
		if got := Sniff(tc.in); got != tc.want {
			t.Errorf("%s: Sniff(%.40q) = %q, want %q", tc.name, tc.in, got, tc.want)
		}
	}
}

// TestBinaryBytes checks the binary data byte set, byte by byte.
func TestBinaryBytes(t *testing.T) {
	for c := range 256 {
		want := c <= 8 || c == 0x0b || (c >= 0x0e && c <= 0x1a) || (c >= 0x1c && c <= 0x1f)
		got := Sniff([]byte{'a', byte(c)}) == "application/octet-stream"
		if got != want {
			t.Errorf("Sniff(\"a\\x%02x\") binary = %v, want %v", c, got, want)
		}
	}
}

// TestSamples checks that the module's sample pages, in many encodings,
// are text.
func TestSamples(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "..", "samples", "*.*htm*"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no samples: %v", err)
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if typ := Sniff(b); !IsText(typ) {
			t.Errorf("%s: Sniff = %q, want text", p, typ)
		}
	}
}

func TestIsText(t *testing.T) {
	for typ, want := range map[string]bool{
		"text/html": true, "text/xml": true, "text/plain": true,
		"application/pdf": false, "image/png": false, "application/octet-stream": false,
	} {
		if got := IsText(typ); got != want {
			t.Errorf("IsText(%q) = %v, want %v", typ, got, want)
		}
	}
}

// TestHTMLTags checks each HTML row of the table in upper, lower and mixed
// case, after whitespace, with every byte after the tag (only 0x20 and
// 0x3E end it), and that the match is ASCII case-insensitive only.
func TestHTMLTags(t *testing.T) {
	for _, tag := range htmlTags {
		mixed := []byte(strings.ToLower(tag))
		for i := 0; i < len(mixed); i += 2 {
			mixed[i] = tag[i]
		}
		for _, v := range []string{tag, strings.ToLower(tag), string(mixed)} {
			for c := range 256 {
				in := []byte(" \t\n\f\r" + v + string(rune(0)) + "rest")
				in[5+len(v)] = byte(c)
				want := c == ' ' || c == '>'
				if got := html(in); got != want {
					t.Errorf("html(%q) = %v, want %v", in, got, want)
				}
			}
			if html([]byte(v)) {
				t.Errorf("html(%q) = true, want false: nothing ends the tag", v)
			}
		}
	}
	for _, in := range []string{"<\u017fcript>", "<\u017fCRIPT >", "<\u212a>", "\v<html>", "x<html>", "<"} {
		if html([]byte(in)) {
			t.Errorf("html(%q) = true, want false", in)
		}
	}
}
