package corpus

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charsniff/charsniff/override"
)

// TestSets checks that the wide sets come only with wide, after the
// browser's, and that every set names a language and an encoding.
func TestSets(t *testing.T) {
	browser, wide := Sets(false), Sets(true)
	if got, want := browser[0], (Set{"Western", "de", override.Windows1252, "de"}); got != want {
		t.Errorf("Sets(false)[0] = %v, want %v", got, want)
	}
	if len(wide) <= len(browser) {
		t.Fatalf("Sets(true) has %d sets, Sets(false) %d", len(wide), len(browser))
	}
	for i, s := range wide {
		if isWide := strings.HasPrefix(s.Family, "Wide "); isWide != (i >= len(browser)) {
			t.Errorf("set %d %v: wide %v", i, s, isWide)
		}
		if i < len(browser) && browser[i] != s {
			t.Errorf("set %d: Sets(true) %v, Sets(false) %v", i, s, browser[i])
		}
		if s.Lang == "" || !s.Enc.Valid() {
			t.Errorf("set %d %v: no language or encoding", i, s)
		}
	}
}

// TestHeldOut checks that Docs cuts a language's eval.txt into documents,
// reads it once, and fails for a language without one.
func TestHeldOut(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "xx"), 0o755); err != nil {
		t.Fatal(err)
	}
	text := strings.Repeat("a line of text\n", 40)
	path := filepath.Join(dir, "xx", "eval.txt")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	h := &HeldOut{Dir: dir, Size: 150, Max: 3}
	docs, err := h.Docs("xx")
	if err != nil || len(docs) != 3 || len(docs[0]) != 150 {
		t.Fatalf("Docs = %d documents (first %d bytes), %v; want 3 of 150", len(docs), len(docs[0]), err)
	}
	os.Remove(path)
	if again, err := h.Docs("xx"); err != nil || len(again) != 3 {
		t.Errorf("second Docs = %d, %v; want the 3 read before", len(again), err)
	}
	if _, err := h.Docs("yy"); err == nil {
		t.Error("Docs of a language without eval.txt: no error")
	}
	if got := h.Read(); len(got) != 1 || len(got["xx"]) != 3 {
		t.Errorf("Read = %d languages, want xx alone", len(got))
	}
}
