// Package spec reads the WHATWG Encoding Standard's index files vendored in
// internal/spec/whatwg-encoding (see its SOURCE.md), for the generators of
// decode/codec (gen.go) and detect (internal/gen).
package spec

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// An Entry is one line of an index: a pointer and its code point.
type Entry struct {
	Pointer   int
	CodePoint rune // 1 to U+10FFFF, not a surrogate
}

// ReadIndex parses dir/index-name.txt as the standard's "Indexes" section
// says: split on LF, drop empty lines and lines starting with "#", split on
// TAB; the pointer is decimal, the code point hexadecimal. A malformed
// line, a code point out of range or a pointer given twice is an error, as
// is an index with no entries.
func ReadIndex(dir, name string) ([]Entry, error) {
	f, err := os.Open(filepath.Join(dir, "index-"+name+".txt"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var entries []Entry
	seen := map[int]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		fields := strings.Split(line, "\t")
		if len(fields) < 2 {
			return nil, fmt.Errorf("spec: index-%s.txt: bad line %q", name, line)
		}
		p, err := strconv.Atoi(strings.TrimSpace(fields[0]))
		if err != nil {
			return nil, fmt.Errorf("spec: index-%s.txt: bad pointer in %q", name, line)
		}
		cp, err := strconv.ParseInt(strings.TrimPrefix(strings.TrimSpace(fields[1]), "0x"), 16, 32)
		if err != nil || cp <= 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp < 0xE000) {
			return nil, fmt.Errorf("spec: index-%s.txt: bad code point in %q", name, line)
		}
		if seen[p] {
			return nil, fmt.Errorf("spec: index-%s.txt: pointer %d twice", name, p)
		}
		seen[p] = true
		entries = append(entries, Entry{p, rune(cp)})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(entries) == 0 {
		return nil, fmt.Errorf("spec: index-%s.txt: no entries", name)
	}
	return entries, nil
}
