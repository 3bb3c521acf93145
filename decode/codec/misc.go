package codec

import "golang.org/x/text/transform"

// replacementDecoder implements the replacement decoder
// (https://encoding.spec.whatwg.org/#replacement-decoder): non-empty input
// decodes to a single U+FFFD, empty input to nothing.
type replacementDecoder struct {
	// errorReturned is the standard's "replacement error returned".
	errorReturned bool
}

// Reset implements transform.Transformer.
func (d *replacementDecoder) Reset() { d.errorReturned = false }

// Transform implements transform.Transformer.
func (d *replacementDecoder) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	if len(src) == 0 || d.errorReturned {
		return 0, len(src), nil
	}
	if putReplacement(dst) == 0 {
		return 0, 0, transform.ErrShortDst
	}
	d.errorReturned = true
	return 3, len(src), nil
}

// errNoEncoder is returned by the replacement encoding's encoder for every
// rune: the standard gives the replacement encoding no encoder.
var errNoEncoder error = noEncoderError{}

// noEncoderError reports that an encoding has no encoder. It has the
// Replacement method of x/text's repertoire errors, so that
// encoding.ReplaceUnsupported and encoding.HTMLEscapeUnsupported can handle
// it.
type noEncoderError struct{}

func (noEncoderError) Error() string { return "codec: the replacement encoding has no encoder" }

// Replacement returns the byte that encoding.ReplaceUnsupported writes for
// an unsupported rune: '?'.
func (noEncoderError) Replacement() byte { return '?' }

// replacementEncoder is the encoder of the replacement encoding: no rune can
// be encoded. Empty input encodes to nothing; anything else fails at its
// first rune.
type replacementEncoder struct{ transform.NopResetter }

func newReplacementEncoder() transform.Transformer { return replacementEncoder{} }

// Transform implements transform.Transformer.
func (replacementEncoder) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	if len(src) == 0 {
		return 0, 0, nil
	}
	return 0, 0, errNoEncoder
}
