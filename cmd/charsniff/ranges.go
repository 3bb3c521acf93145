package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// A span is a byte range of a file: a WARC record's coordinates in a
// Common Crawl index (warc_record_offset, warc_record_length) or --range.
type span struct{ off, n int64 }

// entry is one name of the operands or the --files-from list, with its
// byte range if it has one.
type entry struct {
	path string
	rng  *span
}

// parseSpan parses OFFSET and LENGTH, decimal numbers, the length not 0.
func parseSpan(off, n string) (*span, error) {
	o, err1 := strconv.ParseInt(off, 10, 64)
	l, err2 := strconv.ParseInt(n, 10, 64)
	switch {
	case err1 != nil || o < 0:
		return nil, fmt.Errorf("bad range %s:%s: the offset is not a number of bytes", off, n)
	case err2 != nil || l <= 0:
		return nil, fmt.Errorf("bad range %s:%s: the length is not a positive number of bytes", off, n)
	case o > (1<<63-1)-l:
		return nil, fmt.Errorf("bad range %s:%s: too large", off, n)
	}
	return &span{o, l}, nil
}

// isNumber reports whether s is a decimal number.
func isNumber(s string) bool { return s != "" && strings.Trim(s, "0123456789") == "" }

// listEntry returns the input a line of a --files-from list names, and
// false for an empty line. A line is a path, or PATH<TAB>OFFSET<TAB>LENGTH
// (a record's coordinates in a Common Crawl columnar index:
// warc_filename, warc_record_offset, warc_record_length), either of them
// after NUMBER<TAB>, the line's offset that Hadoop Streaming puts first.
// A line with another number of tab-separated fields, or with three whose
// range is malformed, is returned with an error.
func listEntry(line string) (entry, error, bool) {
	line = strings.TrimSuffix(line, "\r")
	f := strings.Split(line, "\t")
	if (len(f) == 2 || len(f) == 4) && isNumber(f[0]) {
		f = f[1:]
	}
	switch {
	case len(f) == 1 && strings.TrimSpace(f[0]) == "":
		return entry{}, nil, false
	case len(f) == 1:
		return entry{path: f[0]}, nil, true
	case len(f) != 3:
		n := strings.Count(line, "\t") + 1
		return entry{path: line}, fmt.Errorf("%d tab-separated fields: want PATH or PATH<TAB>OFFSET<TAB>LENGTH, either after NUMBER<TAB>", n), true
	}
	rng, err := parseSpan(f[1], f[2])
	return entry{path: f[0], rng: rng}, err, true
}

// A lineError is the problem of one line of a --files-from list.
type lineError struct {
	list string // the list's name ("-": standard input)
	line int    // from 1
	err  error
}

func (e *lineError) Error() string { return e.err.Error() }
func (e *lineError) Unwrap() error { return e.err }

// where names the line as compilers do: LIST:LINE.
func (e *lineError) where() string { return e.list + ":" + strconv.Itoa(e.line) }

// errRangeStdin is the problem of a byte range of standard input.
var errRangeStdin = errors.New("a byte range needs a file, not standard input")

// section returns the byte range rng of the file f, whose FileInfo is fi,
// checking that the file holds it.
func section(f *os.File, fi os.FileInfo, rng *span) (io.Reader, error) {
	if fi.Mode().IsRegular() && rng.off+rng.n > fi.Size() {
		return nil, fmt.Errorf("range %d:%d: past the end of the file (%d bytes)", rng.off, rng.n, fi.Size())
	}
	return io.NewSectionReader(f, rng.off, rng.n), nil
}
