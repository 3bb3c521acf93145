package testutil

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

// ReadJSONL calls f with each line of the JSON Lines file at path, decoded
// into a T, and its line number (from 1). It returns the first error: the
// file's, a line's JSON (with path and line number) or f's.
func ReadJSONL[T any](path string, f func(line int, v T) error) error {
	file, err := os.Open(path)
	if err != nil {
		return err
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	sc.Buffer(nil, 1<<24)
	for line := 1; sc.Scan(); line++ {
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			return fmt.Errorf("%s:%d: %v", path, line, err)
		}
		if err := f(line, v); err != nil {
			return err
		}
	}
	return sc.Err()
}
