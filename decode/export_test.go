package decode

import (
	"golang.org/x/text/transform"

	"github.com/charsniff/charsniff/override"
)

// NewTransformer returns the Reader's decoder for e as a transformer,
// configured by opts (only WithoutPreprocessing counts), so that tests
// can drive the decoder's Transform directly; nil if e is not valid.
func NewTransformer(e override.Encoding, opts ...Option) transform.Transformer {
	if !e.Valid() {
		return nil
	}
	var c config
	for _, o := range opts {
		o(&c)
	}
	d := new(decoder)
	d.configure(&c)
	d.setEncoding(e)
	return d
}

// DefaultLookahead is the lookahead of a Reader without WithLookahead.
const DefaultLookahead = defaultLookahead

// The texts and odd sequences of the tests of the UTF-8 paths
// (utf8_run_test.go), and the helper that puts one into the other, for
// the tests of the Reader.
var (
	UTF8Runs      = utf8Runs
	UTF8Odd       = utf8Odd
	EachInsertion = eachInsertion
)

// Detecting reports whether late autodetection is open: the window's
// guess is provisional, or it gave the detector no evidence.
func (r *Reader) Detecting() bool { return r.late.detecting }
