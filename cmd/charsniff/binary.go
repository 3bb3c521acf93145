package main

import (
	"fmt"

	"github.com/charsniff/charsniff/internal/mimesniff"
	"github.com/charsniff/charsniff/internal/mimetype"
)

// binaryError is the problem of an input that is binary data, not text:
// an encoding named for it would be a guess about bytes that are no
// characters.
type binaryError struct {
	typ string // the MIME type the rules sniffed
}

func (e *binaryError) Error() string {
	what := e.typ
	if what == "application/octet-stream" {
		what = fmt.Sprintf("control bytes in the first %d bytes", mimesniff.HeaderLen)
	}
	return fmt.Sprintf("binary data (%s), not text; --text reads it as text", what)
}

// checkText returns a *binaryError if head, the first bytes of a plain
// input (decompressed, if it was compressed), is binary data by the MIME
// Sniffing Standard's rules for a resource of unknown type. Nothing is
// checked with --text, nor when --content-type names an HTML type: a
// browser renders whatever is served as text/html.
func (a *app) checkText(head []byte) error {
	if a.cfg.text {
		return nil
	}
	if a.cfg.contentType != "" {
		if t, ok := mimetype.Extract(a.cfg.contentType); ok && t.IsHTML() {
			return nil
		}
	}
	if typ := mimesniff.Sniff(head); !mimesniff.IsText(typ) {
		return &binaryError{typ}
	}
	return nil
}
