// Package firsterr remembers the first error of a reader, and counts the
// bytes read through it.
//
// A decode.Reader returns a source error only after the text decoded
// before it, and its look-ahead may meet one while it reads ahead: a
// caller that stops reading once the decision is made (decode.Reader's
// Settle) learns of the error from the Reader it wrapped the source in.
// The count serves callers that report, or bound, how many bytes a source
// gave: the command's "bytes" field, a decompressor's input.
package firsterr

import "io"

// A Reader reads from R, keeps in Err the first error other than io.EOF
// that R returned, and counts in N the bytes R gave.
type Reader struct {
	R   io.Reader
	Err error
	N   int64
}

// Read reads from R, noting its error and counting its bytes.
func (e *Reader) Read(p []byte) (int, error) {
	n, err := e.R.Read(p)
	e.N += int64(n)
	if err != nil && err != io.EOF && e.Err == nil {
		e.Err = err
	}
	return n, err
}
