package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"os"
	"path/filepath"
	"strings"
)

// An input is one document source: a file named on the command line or found
// in a directory, or standard input. Processing an input yields one or more
// results (one per document it holds; a plain file holds one).
type input struct {
	path  string // as shown in the output: the operand, or the path under it
	stdin bool   // read standard input; path is "-"
	err   error  // set when enumeration failed: the input is reported, not read
	fatal bool   // err is a problem with the --files-from list: exit 1 whatever the flags
}

// Problems reported for an input.
var (
	errIsDir      = errors.New("is a directory (--decode takes files)")
	errStdinTwice = errors.New("standard input named more than once")
)

// htmlExtensions are the file-name endings taken when walking a directory
// without --all.
var htmlExtensions = []string{".html", ".htm", ".xhtml", ".xht", ".shtml"}

// walkable reports whether a file met while walking a directory is taken.
// Files named on the command line are always taken.
func walkable(name string, all bool) bool {
	if all {
		return true
	}
	ext := strings.ToLower(filepath.Ext(name))
	for _, e := range htmlExtensions {
		if ext == e {
			return true
		}
	}
	return false
}

// hidden reports whether a directory entry's name starts with a dot.
func hidden(name string) bool { return len(name) > 1 && name[0] == '.' && name != ".." }

// enumerate calls yield for each input of the run: the operands, then the
// names in the --files-from list. See walk.
func (a *app) enumerate(dirs bool, yield func(input) bool) {
	names := func(yield func(string, error) bool) {
		for _, p := range a.cfg.paths {
			if !yield(p, nil) {
				return
			}
		}
		if a.cfg.filesFrom != "" {
			readList(a.cfg.filesFrom, a.stdin, yield)
		}
	}
	walk(names, a.cfg.filesFrom == "-", dirs, a.cfg.all, yield)
}

// maxListLine bounds a line of a --files-from list.
const maxListLine = 64 << 10

// readList calls yield with each name in the list file name ("-" for
// stdin): one a line, empty lines skipped, a trailing CR removed. A line
// OFFSET<TAB>PATH, where OFFSET is a decimal number, names PATH: Hadoop
// Streaming hands a mapper such lines (the byte offset of the line in its
// input split, a tab, the line). A problem reading the list is yielded as
// ("", err) and ends it.
func readList(name string, stdin io.Reader, yield func(string, error) bool) {
	var r io.Reader = stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			yield("", &listError{name, err})
			return
		}
		defer f.Close()
		r = f
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), maxListLine)
	for sc.Scan() {
		p, ok := listEntry(sc.Text())
		if ok && !yield(p, nil) {
			return
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			err = fmt.Errorf("a line longer than %d bytes", maxListLine)
		}
		yield("", &listError{name, err})
	}
}

// listEntry returns the input a line of a --files-from list names, and
// false for an empty line.
func listEntry(line string) (string, bool) {
	line = strings.TrimSuffix(line, "\r")
	if i := strings.IndexByte(line, '\t'); i > 0 && strings.Trim(line[:i], "0123456789") == "" {
		line = line[i+1:]
	}
	if strings.TrimSpace(line) == "" {
		return "", false
	}
	return line, true
}

// listError is a problem with the --files-from list itself.
type listError struct {
	name string
	err  error
}

func (e *listError) Error() string { return e.err.Error() }
func (e *listError) Unwrap() error { return e.err }

// walk calls yield for each input named by names, in order, walking
// directories recursively in lexical order (filepath.WalkDir). It stops
// early when yield returns false. Directories are inputs with errIsDir when
// dirs is false (--decode). Problems met while walking, and those of the
// list of names, become inputs with err set, in their place in the order.
// stdinSeen says that standard input is taken already (by the list).
func walk(names iter.Seq2[string, error], stdinSeen, dirs, all bool, yield func(input) bool) {
	for p, err := range names {
		if err != nil {
			le, _ := err.(*listError)
			name := p
			if le != nil {
				name = le.name
			}
			if !yield(input{path: name, err: err, fatal: le != nil}) {
				return
			}
			continue
		}
		if p == "-" {
			in := input{path: "-", stdin: true}
			if stdinSeen {
				in.err = errStdinTwice
			}
			stdinSeen = true
			if !yield(in) {
				return
			}
			continue
		}
		fi, err := os.Stat(p)
		if err != nil {
			if !yield(input{path: p, err: err}) {
				return
			}
			continue
		}
		if !fi.IsDir() {
			if !yield(input{path: p}) {
				return
			}
			continue
		}
		if !dirs {
			if !yield(input{path: p, err: errIsDir}) {
				return
			}
			continue
		}
		stop := false
		filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				// The root was stat'ed above, so this is a directory that
				// cannot be read, or an entry that vanished.
				if !yield(input{path: path, err: err}) {
					stop = true
					return filepath.SkipAll
				}
				return nil
			}
			if path != p && hidden(d.Name()) {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if d.IsDir() || !walkable(d.Name(), all) {
				return nil
			}
			if !d.Type().IsRegular() {
				// Follow a symbolic link to a regular file; skip links to
				// directories (no cycles) and devices, pipes and sockets.
				if d.Type()&fs.ModeSymlink == 0 {
					return nil
				}
				if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
					return nil
				}
			}
			if !yield(input{path: path}) {
				stop = true
				return filepath.SkipAll
			}
			return nil
		})
		if stop {
			return
		}
	}
}

// source is an opened input.
type source struct {
	io.Reader
	size   int64 // the size in bytes, or -1 when not known before reading
	closer io.Closer
}

func (s *source) Close() error {
	if s.closer == nil {
		return nil
	}
	return s.closer.Close()
}

// open opens in for reading. A directory is refused (it would only fail at
// the first read).
func open(in input, stdin io.Reader) (*source, error) {
	if in.err != nil {
		return nil, in.err
	}
	if in.stdin {
		return &source{Reader: stdin, size: -1}, nil
	}
	f, err := os.Open(in.path)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	size := int64(-1)
	switch {
	case fi.IsDir():
		f.Close()
		return nil, errIsDir
	case fi.Mode().IsRegular():
		size = fi.Size()
	}
	return &source{Reader: f, size: size, closer: f}, nil
}
