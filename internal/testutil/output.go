package testutil

import (
	"regexp"
	"strings"
)

// MatchOutput reports whether a command's output, got, is what a document
// shows, want: line for line, where "..." in a shown line stands for any
// text and spaces at the end of an output line do not count. The doc
// tests of the command and of the beam module compare with it.
func MatchOutput(got, want string) bool {
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	if len(gl) != len(wl) {
		return false
	}
	for i := range wl {
		parts := strings.Split(wl[i], "...")
		for j := range parts {
			parts[j] = regexp.QuoteMeta(parts[j])
		}
		if !regexp.MustCompile("^" + strings.Join(parts, ".*") + "$").MatchString(strings.TrimRight(gl[i], " ")) {
			return false
		}
	}
	return true
}
