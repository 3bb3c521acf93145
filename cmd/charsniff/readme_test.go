package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestREADMECommands checks that the README starts with the two commands it
// promises: one that sniffs and decodes a sample page with this command
// (run here through the built binary, from the repository root) and the
// test command, in its first code block.
func TestREADMECommands(t *testing.T) {
	var cmds []string
	if blocks := fenced(t, "README.md"); len(blocks) > 0 && blocks[0].lang == "sh" {
		for _, c := range commands(blocks[0]) {
			cmds = append(cmds, c.text)
		}
	}
	if len(cmds) != 2 || cmds[1] != "go test ./..." {
		t.Fatalf("README's first commands: got %q, want a charsniff command and go test ./...", cmds)
	}
	const prefix = "go run ./cmd/charsniff "
	if !strings.HasPrefix(cmds[0], prefix) {
		t.Fatalf("README's first command %q does not run ./cmd/charsniff", cmds[0])
	}
	args := strings.Fields(strings.TrimPrefix(cmds[0], prefix))
	stdout, stderr, code := charsniff(t, "", args...)
	if code != 0 {
		t.Fatalf("%s: exit %d, %s", cmds[0], code, stderr)
	}
	var line struct {
		Encoding, Confidence, Source, Text string
	}
	if err := json.Unmarshal([]byte(stdout), &line); err != nil {
		t.Fatalf("%s: %v in %q", cmds[0], err, stdout)
	}
	if line.Encoding != "shift_jis" || line.Confidence != "tentative" || line.Source != "prescan" || !strings.Contains(line.Text, "みなと市ニュース") {
		t.Errorf("%s: got %s (%s, %s) and text %.60q, want shift_jis (tentative, prescan) and the page in UTF-8",
			cmds[0], line.Encoding, line.Confidence, line.Source, line.Text)
	}
}
