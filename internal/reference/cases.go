package reference

import (
	"encoding/base64"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/charsniff/charsniff/internal/testutil"
)

// Case is one html5lib encoding test case from testdata/html5lib-encoding/cases.jsonl.
type Case struct {
	ID       string // e.g. "tests1-003"
	Input    []byte
	Label    string // the label the test expects, as html5lib spells it
	Encoding string // the expected encoding's WHATWG name
}

// Cases returns the html5lib cases of the module's
// testdata/html5lib-encoding/cases.jsonl, and fails tb if they cannot be
// read or there are none.
func Cases(tb testing.TB) []Case {
	tb.Helper()
	path := filepath.Join(testutil.Root(tb), "testdata", "html5lib-encoding", "cases.jsonl")
	cases, err := ReadCases(path)
	if err != nil {
		tb.Fatal(err)
	}
	if len(cases) == 0 {
		tb.Fatalf("%s: no cases", path)
	}
	return cases
}

// caseLine is a line of cases.jsonl, as JSON.
type caseLine struct {
	ID       string `json:"id"`
	Bytes    string `json:"bytes_b64"`
	Label    string `json:"expect_label"`
	Encoding string `json:"expect_encoding"`
}

// ReadCases reads the html5lib cases from path (a cases.jsonl file).
func ReadCases(path string) ([]Case, error) {
	var cases []Case
	err := testutil.ReadJSONL(path, func(_ int, line caseLine) error {
		in, err := base64.StdEncoding.DecodeString(line.Bytes)
		if err != nil {
			return fmt.Errorf("%s: %s: %v", path, line.ID, err)
		}
		cases = append(cases, Case{ID: line.ID, Input: in, Label: line.Label, Encoding: line.Encoding})
		return nil
	})
	return cases, err
}
