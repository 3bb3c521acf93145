package benchpage

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
)

// TestEncode checks that Encode encodes what the encoding has and leaves
// out, one rune each, what it lacks, also across the encoder's buffer.
func TestEncode(t *testing.T) {
	long := bytes.Repeat([]byte("é≤"), 3<<10)
	for _, c := range []struct {
		name       string
		enc        encoding.Encoding
		text, want []byte
	}{
		{"latin", charmap.Windows1252, []byte("a é"), []byte("a \xe9")},
		{"lacking", charmap.Windows1252, []byte("a≤b−c"), []byte("abc")},
		{"jis", japanese.ShiftJIS, []byte("日本≤語"), []byte("\x93\xfa\x96{\x8c\xea")},
		{"long", charmap.Windows1252, long, bytes.Repeat([]byte{0xe9}, 3<<10)},
		{"empty", charmap.Windows1252, nil, nil},
	} {
		got, err := Encode(c.enc, c.text)
		if err != nil || !bytes.Equal(got, c.want) {
			t.Errorf("%s: Encode = %q, %v; want %q", c.name, got, err, c.want)
		}
	}
}

// TestSample checks the pages cut from the committed samples: 64 KB each
// in a legacy encoding, and the text of its UTF-8 sample.
func TestSample(t *testing.T) {
	dir := filepath.Join("..", "..", "bench", "testdata", "sample") // the package directory is internal/benchpage
	for file, src := range legacy {
		page, err := Sample(dir, file)
		if err != nil || len(page) != SampleSize {
			t.Fatalf("Sample(%s) = %d bytes, %v; want %d", file, len(page), err, SampleSize)
		}
		text, err := os.ReadFile(filepath.Join(dir, src.text))
		if err != nil {
			t.Fatal(err)
		}
		whole, err := Encode(src.enc, text)
		if err != nil || !bytes.HasPrefix(whole, page) {
			t.Errorf("Sample(%s) is not the start of %s encoded (%v)", file, src.text, err)
		}
	}
	page, err := Sample(dir, "utf-8-english.html")
	if err != nil || len(page) == 0 || len(page) > SampleSize {
		t.Errorf("Sample(utf-8-english.html) = %d bytes, %v", len(page), err)
	}
}

// TestSampleShort checks that Sample refuses a legacy page whose text is
// too short for SampleSize bytes, and a missing text.
func TestSampleShort(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "utf-8-french.html"), []byte("<p>é\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if page, err := Sample(dir, "windows-1252.html"); err == nil {
		t.Errorf("Sample of a short text = %q, nil; want an error", page)
	}
	if page, err := Sample(dir, "gbk.html"); err == nil {
		t.Errorf("Sample without its text = %q, nil; want an error", page)
	}
	if got, err := Read(dir, "windows-1252.html"); err != nil || string(got) != "<p>\xe9\n" {
		t.Errorf("Read = %q, %v; want %q", got, err, "<p>\xe9\n")
	}
}
