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
	rng   *span  // read only this byte range of the file, as a WARC file
	err   error  // set when enumeration failed: the input is reported, not read
	fatal bool   // err is a problem with the --files-from list: exit 1 whatever the flags
	// onlyArchive says that the input was met walking a directory under
	// a name that is neither an HTML document's nor an archive's: it is
	// taken only if its content is a web archive (warc.IsWARC).
	onlyArchive bool
}

// Problems reported for an input.
var (
	errIsDir      = errors.New("is a directory")
	errStdinTwice = errors.New("standard input named more than once")
	errIsOutput   = errors.New("input file is output file")
	// errIsStdout is errIsOutput for the file standard output writes
	// to: the input's own line, an error line, must not go into it
	// either (see result.intoInput).
	errIsStdout = fmt.Errorf("%w", errIsOutput)
	// errNotArchive skips an onlyArchive input that is no web archive.
	errNotArchive = errors.New("not a web archive")
)

// htmlExtensions are the file-name endings of HTML documents taken when
// walking a directory without --all.
var htmlExtensions = []string{".html", ".htm", ".xhtml", ".xht", ".shtml"}

// archiveSuffixes are the file-name endings of web archives taken when
// walking a directory without --all. What a file holds is told by its
// content (openInput), whatever its name.
var archiveSuffixes = []string{".warc", ".warc.gz", ".warc.zst", ".warc.lz4", ".arc", ".arc.gz"}

// walkable reports whether a file met while walking a directory is taken:
// with --all, every file; otherwise HTML documents and web archives by
// their names. Files named on the command line are always taken.
func walkable(name string, all bool) bool {
	if all {
		return true
	}
	lower := strings.ToLower(name)
	ext := filepath.Ext(lower)
	for _, e := range htmlExtensions {
		if ext == e {
			return true
		}
	}
	for _, e := range archiveSuffixes {
		if strings.HasSuffix(lower, e) && len(lower) > len(e) {
			return true
		}
	}
	return false
}

// hidden reports whether a directory entry's name starts with a dot.
func hidden(name string) bool { return len(name) > 1 && name[0] == '.' && name != ".." }

// enumerate calls yield for each input of the run: the operands, then the
// names in the --files-from list. See walk.
func (a *app) enumerate(yield func(input) bool) {
	names := func(yield func(entry, error) bool) {
		for _, p := range a.cfg.paths {
			if !yield(entry{path: p, rng: a.cfg.rng}, nil) {
				return
			}
		}
		if a.cfg.filesFrom != "" {
			readList(a.cfg.filesFrom, a.stdin, yield)
		}
	}
	walk(names, a.cfg.filesFrom == "-", a.cfg.all, yield)
}

// maxListLine bounds a line of a --files-from list.
const maxListLine = 64 << 10

// readList calls yield with each entry in the list file name ("-" for
// stdin): one a line (see listEntry), empty lines skipped, a trailing CR
// removed. A line with a malformed range is yielded with its error
// (*rangeError). A problem reading the list is yielded as a *listError
// and ends it.
func readList(name string, stdin io.Reader, yield func(entry, error) bool) {
	r := stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			yield(entry{}, &listError{name, err})
			return
		}
		defer f.Close()
		r = f
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), maxListLine)
	n := 0
	for sc.Scan() {
		n++
		e, err, ok := listEntry(sc.Text())
		if err != nil {
			err = &lineError{name, n, err}
		}
		if ok && !yield(e, err) {
			return
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			err = fmt.Errorf("%s:%d: a line longer than %d bytes", name, n+1, maxListLine)
		}
		yield(entry{}, &listError{name, err})
	}
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
// early when yield returns false. Problems met while walking, and those of the
// list of names, become inputs with err set, in their place in the order.
// stdinSeen says that standard input is taken already (by the list).
func walk(names iter.Seq2[entry, error], stdinSeen, all bool, yield func(input) bool) {
	for e, err := range names {
		p := e.path
		var in input
		switch {
		case err != nil:
			in = listProblem(p, err)
		case p == "-" && e.rng != nil:
			in = input{path: p, err: errRangeStdin}
		case p == "-":
			in = input{path: "-", stdin: true}
			if stdinSeen {
				in.err = errStdinTwice
			}
			stdinSeen = true
		case e.rng != nil:
			in = input{path: p, rng: e.rng} // open refuses a directory
		default:
			fi, err := os.Stat(p)
			switch {
			case err != nil:
				in = input{path: p, err: err}
			case !fi.IsDir():
				in = input{path: p}
			default:
				if !walkDir(p, all, yield) {
					return
				}
				continue
			}
		}
		if !yield(in) {
			return
		}
	}
}

// listProblem is the input that reports err, a problem of the list of
// names at p: one of a line is reported as LIST:LINE's.
func listProblem(p string, err error) input {
	if lerr, ok := err.(*lineError); ok {
		p = lerr.where()
	}
	le, _ := err.(*listError)
	if le != nil {
		p = le.name
	}
	return input{path: p, err: err, fatal: le != nil}
}

// walkDir calls yield for each file to take under the directory root, and
// returns false if yield did. A symbolic link to a directory is followed
// when it is root itself, named on the command line (as grep -r does), and
// not when met while walking (no cycles).
func walkDir(root string, all bool, yield func(input) bool) bool {
	start := root
	if fi, err := os.Lstat(root); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		// A trailing separator makes WalkDir's Lstat follow the link;
		// the paths under it are joined (cleaned) as usual.
		start = root + string(filepath.Separator)
	}
	stop := false
	filepath.WalkDir(start, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			// The root was stat'ed, so this is a directory that cannot
			// be read, or an entry that vanished.
			if !yield(input{path: path, err: err}) {
				stop = true
				return filepath.SkipAll
			}
			return nil
		}
		if path == start || !take(path, d) {
			if path != start && d.IsDir() && hidden(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !yield(input{path: path, onlyArchive: !walkable(d.Name(), all)}) {
			stop = true
			return filepath.SkipAll
		}
		return nil
	})
	return !stop
}

// take reports whether the entry d at path, met while walking, may be an
// input: a regular file (or a symbolic link to one), not hidden (walkable
// tells whether its name decides). Devices, pipes and sockets are
// skipped.
func take(path string, d fs.DirEntry) bool {
	if d.IsDir() || hidden(d.Name()) {
		return false
	}
	if d.Type().IsRegular() {
		return true
	}
	if d.Type()&fs.ModeSymlink == 0 {
		return false
	}
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
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
// the first read), and so is a file the run writes to (outs: standard
// output when it is a regular file, the -o FILE), be it named or standard
// input: reading what it writes could go on for ever, as cat knows.
func open(in input, stdin io.Reader, outs []os.FileInfo) (*source, error) {
	if in.err != nil {
		return nil, in.err
	}
	if in.stdin {
		if fi := regularFile(stdin); fi != nil && isOutput(fi, outs) {
			return nil, outputError(fi, outs)
		}
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
	case fi.IsDir() && in.rng != nil:
		f.Close()
		return nil, errors.New("is a directory")
	case fi.IsDir():
		f.Close()
		return nil, errIsDir
	case isOutput(fi, outs):
		f.Close()
		return nil, outputError(fi, outs)
	case in.rng != nil:
		r, err := section(f, fi, in.rng)
		if err != nil {
			f.Close()
			return nil, err
		}
		return &source{Reader: r, size: in.rng.n, closer: f}, nil
	case fi.Mode().IsRegular():
		size = fi.Size()
	}
	return &source{Reader: f, size: size, closer: f}, nil
}

// isOutput reports whether the file fi is one of outs.
func isOutput(fi os.FileInfo, outs []os.FileInfo) bool {
	for _, o := range outs {
		if os.SameFile(fi, o) {
			return true
		}
	}
	return false
}

// outputError is the problem of an input that is the file fi, one of
// outs: errIsStdout if it is standard output's (outs[0]), errIsOutput
// otherwise.
func outputError(fi os.FileInfo, outs []os.FileInfo) error {
	if len(outs) > 0 && os.SameFile(fi, outs[0]) {
		return errIsStdout
	}
	return errIsOutput
}

// regularFile returns the FileInfo of f if it is an *os.File open on a
// regular file (standard input or output), and nil otherwise.
func regularFile(v any) os.FileInfo {
	f, ok := v.(*os.File)
	if !ok {
		return nil
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	return fi
}
