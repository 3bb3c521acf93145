// Package firsterr remembers the first error of a reader.
//
// A decode.Reader returns a source error only after the text decoded
// before it, and its look-ahead may meet one while it reads ahead: a
// caller that stops reading once the decision is made (decode.Reader's
// Settle) learns of the error from the Reader it wrapped the source in.
package firsterr

import "io"

// A Reader reads from R and keeps in Err the first error other than
// io.EOF that R returned.
type Reader struct {
	R   io.Reader
	Err error
}

// Read reads from R, noting its error.
func (e *Reader) Read(p []byte) (int, error) {
	n, err := e.R.Read(p)
	if err != nil && err != io.EOF && e.Err == nil {
		e.Err = err
	}
	return n, err
}
