package invariance

import "testing"

// knownBugs are the paths that find a bug being fixed elsewhere, by test
// name: skipped, with the bug's reproduction, until the fix is merged (then
// the entry goes, and the path guards the fix). The lead removes them.
var knownBugs = map[string]string{
	// archive.Split cuts inside the stored gzip members of a .warc.gz
	// held in a record's payload (a stored outer member leaves them as
	// they are), and the command then reports the inner records as the
	// file's own, with a damaged record before them, on 2 cores or more
	// (one core does not split; a pipe does not either). Reproduce:
	// go test ./internal/invariance -run 'TestCLIWARC/stored/file/GOMAXPROCS=2' -v
	// with this entry removed: lines for http://192.0.2.2/inner/... and
	// "corrupt gzip member: unexpected EOF".
	"TestCLIWARC/stored/file/GOMAXPROCS=2": "archive.Split cuts inside a stored .warc.gz",
	"TestCLIWARC/stored/file/GOMAXPROCS=4": "archive.Split cuts inside a stored .warc.gz",
	"TestCLIWARC/mixed/file/GOMAXPROCS=2":  "archive.Split cuts inside a stored .warc.gz",
	"TestCLIWARC/mixed/file/GOMAXPROCS=4":  "archive.Split cuts inside a stored .warc.gz",
}

// skipKnown skips the running test if knownBugs names it.
func skipKnown(t *testing.T) {
	t.Helper()
	if why, ok := knownBugs[t.Name()]; ok {
		t.Skip("known bug: " + why)
	}
}
