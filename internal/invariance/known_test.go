package invariance

import (
	"flag"
	"strings"
	"testing"
)

// knownBugs are the paths that find a bug being fixed elsewhere, by test
// name: skipped, with the bug's reproduction, until the fix is merged (then
// the entry goes, and the path guards the fix). The lead removes them.
var knownBugs = map[string]string{}

var runKnown = flag.Bool("knownbugs", false, "run the tests knownBugs skips, to see whether a fix works")

// skipKnown skips the running test if knownBugs names it (unless -knownbugs).
func skipKnown(t *testing.T) {
	t.Helper()
	if why, ok := knownBugs[t.Name()]; ok && !*runKnown {
		t.Skip("known bug: " + why)
	}
}

// knownLines are documents whose line from `charsniff --json --decode`
// (written before the text, settled on at most 1 MiB of it) is known to
// differ from the answer: by document name, the reason. The other paths
// still check them, and so does that path for the text.
var knownLines = map[string]string{}

// knownLine reports whether the line of d on path how is a known
// difference (see knownLines), and logs it; never with -knownbugs.
func knownLine(t *testing.T, d *Doc, how string, got, want answer) bool {
	t.Helper()
	why, ok := knownLines[d.Name]
	if !ok || *runKnown || !strings.Contains(how, "--json") || !strings.Contains(how, "--decode") {
		return false
	}
	if s := diff(answer{want.Encoding, want.Confidence, want.Source, got.Text}, want); s != "" {
		return false // the text differs too: not the known difference
	}
	if diff(got, want) != "" {
		t.Logf("%s: %s: known: %s", d.Name, how, why)
	}
	return true
}
