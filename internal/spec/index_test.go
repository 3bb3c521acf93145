package spec

import (
	"os"
	"path/filepath"
	"testing"
)

// TestReadIndex checks ReadIndex on a vendored index and on malformed ones.
func TestReadIndex(t *testing.T) {
	got, err := ReadIndex("whatwg-encoding", "windows-1252")
	if err != nil || len(got) != 128 || got[0] != (Entry{0, 0x20AC}) || got[127] != (Entry{127, 0xFF}) {
		t.Errorf("windows-1252: %d entries, first %v, %v; want 128 from {0 U+20AC}", len(got), got[:min(1, len(got))], err)
	}
	dir := t.TempDir()
	for _, c := range []struct{ name, text string }{
		{"ok", "# comment\n\n0\t0x20AC\t€ (EURO SIGN)\n5\t0x0041\n"},
		{"notab", "0 0x20AC\n"},
		{"pointer", "x\t0x20AC\n"},
		{"surrogate", "0\t0xD800\n"},
		{"zero", "0\t0x0000\n"},
		{"twice", "0\t0x0041\n0\t0x0042\n"},
		{"empty", "# nothing\n"},
	} {
		if err := os.WriteFile(filepath.Join(dir, "index-"+c.name+".txt"), []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := ReadIndex(dir, c.name)
		if ok := c.name == "ok"; ok != (err == nil) {
			t.Errorf("%s: ReadIndex = %v, %v", c.name, got, err)
		}
		if c.name == "ok" && (len(got) != 2 || got[1] != (Entry{5, 'A'})) {
			t.Errorf("ok: ReadIndex = %v; want [{0 U+20AC} {5 A}]", got)
		}
	}
	if _, err := ReadIndex(dir, "missing"); err == nil {
		t.Error("missing: no error")
	}
}
