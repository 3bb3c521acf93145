package main

import (
	"errors"
	"io/fs"
	"strconv"

	"github.com/charsniff/charsniff/archive"
	"github.com/charsniff/charsniff/decode"
	"github.com/charsniff/charsniff/sniff"
)

// result is the outcome for one document: one output line, in the schema
// of archive.Result (the command's JSON contract), with "bytes" for a
// plain file.
type result struct {
	archive.Result
	bytes *int64 // the size of a plain file, when known
	fatal bool   // Err is a problem with the --files-from list: exit 1 whatever the flags
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
	return result{Result: archive.Result{File: path, Err: described{err}}, intoInput: err == errIsStdout}
}

// fileResult is the result of a plain file (not an archive) that w's
// reader rd reads: rd's decision so far, with the change of encoding
// after the window, and with provenance what the steps saw (its
// Mismatch is finishCount's).
func (w *worker) fileResult(path string, rd *decode.Reader) archive.Result {
	res := rd.Result()
	r := archive.Result{File: path, Encoding: res.Encoding, Confidence: res.Confidence,
		Source: res.Source, BOM: res.BOMLength, Late: res.Late}
	if w.a.provenance {
		r.Provenance = w.prov
	}
	return r
}

// MarshalJSON writes r's line: archive.Result's, with a plain file's
// "bytes" before its provenance and error.
func (r *result) MarshalJSON() ([]byte, error) {
	if r.bytes == nil {
		return r.Result.MarshalJSON()
	}
	res := r.Result
	res.Provenance, res.Mismatch, res.Err = sniff.Provenance{}, archive.Mismatch{}, nil
	b, err := res.MarshalJSON()
	if err != nil {
		return nil, err
	}
	b = append(b[:len(b)-1], `,"bytes":`...)
	b = strconv.AppendInt(b, *r.bytes, 10)
	return r.appendTail(b)
}

// appendTail appends r's provenance and error keys and the closing brace
// to b, as archive.Result writes them.
func (r *result) appendTail(b []byte) ([]byte, error) {
	tail, err := (&archive.Result{Provenance: r.Provenance, Mismatch: r.Mismatch, Err: r.Err}).MarshalJSON()
	if err != nil {
		return nil, err
	}
	return append(b, tail[len(`{"file":""`):]...), nil
}

// described is an input's error as its line says it (see describe).
type described struct{ err error }

func (d described) Error() string { return describe(d.err) }
func (d described) Unwrap() error { return d.err }

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
