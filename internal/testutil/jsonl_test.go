package testutil

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadJSONL checks that ReadJSONL hands each line over decoded with
// its number, and stops at bad JSON (naming the line) and at f's error.
func TestReadJSONL(t *testing.T) {
	type row struct {
		N int `json:"n"`
	}
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	var got []int
	err := ReadJSONL(write("good.jsonl", "{\"n\":7}\n{\"n\":8}\n"), func(line int, v row) error {
		got = append(got, line, v.N)
		return nil
	})
	if err != nil || len(got) != 4 || got[0] != 1 || got[1] != 7 || got[2] != 2 || got[3] != 8 {
		t.Errorf("good file: got %v, %v, want [1 7 2 8], nil", got, err)
	}
	bad := write("bad.jsonl", "{\"n\":1}\n{\"n\":\n")
	if err := ReadJSONL(bad, func(int, row) error { return nil }); err == nil || !strings.Contains(err.Error(), "bad.jsonl:2:") {
		t.Errorf("bad JSON on line 2: err = %v, want one naming bad.jsonl:2", err)
	}
	stop := errors.New("stop")
	if err := ReadJSONL(bad, func(int, row) error { return stop }); err != stop {
		t.Errorf("f's error: err = %v, want %v", err, stop)
	}
	if err := ReadJSONL(filepath.Join(dir, "none.jsonl"), func(int, row) error { return nil }); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("no file: err = %v, want os.ErrNotExist", err)
	}
}
