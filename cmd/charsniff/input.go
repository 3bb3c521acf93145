package main

import (
	"errors"
	"io"
	"io/fs"
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

// enumerate calls yield for each input named by paths, in order, walking
// directories recursively in lexical order (filepath.WalkDir). It stops
// early when yield returns false. Directories are inputs with errIsDir when
// dirs is false (--decode). Problems met while walking become inputs with err
// set, in their place in the order.
func enumerate(paths []string, dirs, all bool, yield func(input) bool) {
	stdinSeen := false
	for _, p := range paths {
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

// describe turns err into the problem text of an error line. The path is
// already part of the line, so a *fs.PathError contributes only its cause.
func describe(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
