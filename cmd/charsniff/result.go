package main

import (
	"errors"
	"io/fs"
	"strconv"

	"github.com/charsniff/charsniff/archive"
)

// result is the outcome for one document: one output line, in the schema
// of archive.Result (the command's JSON contract).
type result struct {
	archive.Result
	fatal bool // Error is a problem with the --files-from list: exit 1 whatever the flags
	// textFirst says that the document's decision was not settled on the
	// text that may be held (maxSettle): its JSON line with text (--decode
	// --json) starts with the text, and its fields, final, come after it.
	textFirst bool
	// intoInput says that the input is the file standard output writes
	// to: its line, an error line, goes to standard error only, as cat's
	// does, never into that file (the lines of the other inputs do).
	intoInput bool
}

// errorResult is the result of an input that failed.
func errorResult(path string, err error) result {
	return result{Result: archive.Result{File: path, Error: describe(err)}, intoInput: err == errIsStdout}
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

// where names a result's document in text lines: its path, and for a WARC
// record "PATH#OFFSET URI".
func (r *result) where() string {
	if r.Where == nil {
		return r.File
	}
	s := r.File + "#" + strconv.FormatInt(r.Offset, 10)
	if r.URI != "" {
		s += " " + r.URI
	}
	return s
}
