package main

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"
)

// wantJSONString is the contents of the JSON string encoding/json writes
// for s, without the quotes.
func wantJSONString(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	return out[1 : len(out)-2] // the quotes and the newline
}

// jsonTextOf writes the pieces through a jsonText.
func jsonTextOf(t *testing.T, pieces ...string) string {
	t.Helper()
	var b bytes.Buffer
	var j jsonText
	j.reset(&b)
	for _, p := range pieces {
		if n, err := j.Write([]byte(p)); n != len(p) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", p, n, err)
		}
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestJSONText(t *testing.T) {
	tests := []string{
		"",
		"plain ASCII",
		`quotes " and \ backslash`,
		"\x00\x01\b\f\n\r\t\x1f\x7f",
		"<tag> & ampersand",
		"é ü 日本語 😀",
		"\u2028 line and \u2029 paragraph separators",
		"\uFFFD replacement character",
		"invalid \xff\xfe bytes",
		"cut \xe6\x97",     // a three-byte character cut at the end
		"cut \xf0\x9f\x98", // a four-byte one
		"\xf0\x9f\x98a",    // cut, then ASCII
		"\xe2\x80",         // a cut U+2028
		"\xc3",
		"\x80\x80 stray continuation bytes",
		"\xed\xa0\x80 surrogate",
		"\xf4\x90\x80\x80 above U+10FFFF",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "\"", "\\", "\n", "\x00", "é", "日", "😀", "\u2028", "\xff", "\xe6", "\x97", "\xf0", "\x80", "<"}
	for range 200 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		tests = append(tests, b.String())
	}
	// Longer ones, with runs of clean ASCII of every length around a word,
	// for the eight-bytes-at-a-time scan.
	for range 100 {
		var b strings.Builder
		for range rng.IntN(8) {
			b.WriteString("abcdefghijklmnopq"[:rng.IntN(18)])
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		tests = append(tests, b.String())
	}
	for _, s := range tests {
		want := wantJSONString(t, s)
		if got := jsonTextOf(t, s); got != want {
			t.Errorf("jsonText(%q):\ngot  %s\nwant %s", s, got, want)
			continue
		}
		// Split anywhere, and a byte at a time.
		for i := 0; i <= len(s); i++ {
			if got := jsonTextOf(t, s[:i], s[i:]); got != want {
				t.Errorf("jsonText(%q split at %d):\ngot  %s\nwant %s", s, i, got, want)
			}
		}
		var bytesOf []string
		for i := range len(s) {
			bytesOf = append(bytesOf, s[i:i+1])
		}
		if got := jsonTextOf(t, bytesOf...); got != want {
			t.Errorf("jsonText(%q a byte at a time):\ngot  %s\nwant %s", s, got, want)
		}
	}
}

func TestJSONTextWriteError(t *testing.T) {
	var j jsonText
	j.reset(errWriter{})
	if _, err := j.Write([]byte("abc")); err == nil {
		t.Errorf("Write to a failing writer: no error")
	}
	if err := j.Close(); err == nil {
		t.Errorf("Close after a failed Write: no error")
	}
}

type errWriter struct{}

func (errWriter) Write([]byte) (int, error) { return 0, iotest.ErrTimeout }
