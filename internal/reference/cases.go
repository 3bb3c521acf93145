package reference

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
)

// Case is one html5lib encoding test case from testdata/html5lib-encoding/cases.jsonl.
type Case struct {
	ID       string // e.g. "tests1-003"
	Input    []byte
	Label    string // the label the test expects, as html5lib spells it
	Encoding string // the expected encoding's WHATWG name
}

// ReadCases reads the html5lib cases from path (a cases.jsonl file).
func ReadCases(path string) ([]Case, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var cases []Case
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var line struct {
			ID       string `json:"id"`
			Bytes    string `json:"bytes_b64"`
			Label    string `json:"expect_label"`
			Encoding string `json:"expect_encoding"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		in, err := base64.StdEncoding.DecodeString(line.Bytes)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %v", path, line.ID, err)
		}
		cases = append(cases, Case{ID: line.ID, Input: in, Label: line.Label, Encoding: line.Encoding})
	}
	return cases, sc.Err()
}
