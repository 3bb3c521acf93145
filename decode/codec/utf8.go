package codec

import (
	"encoding/binary"

	"golang.org/x/text/transform"

	"github.com/charsniff/charsniff/internal/utf8seq"
)

// utf8Decoder implements the UTF-8 decoder
// (https://encoding.spec.whatwg.org/#utf-8-decoder): valid input is copied
// unchanged, and each maximal subpart of an ill-formed sequence becomes one
// U+FFFD, as Unicode's "Best Practices for Using U+FFFD" say.
type utf8Decoder struct{ transform.NopResetter }

// Transform implements transform.Transformer.
func (utf8Decoder) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	for nSrc < len(src) {
		// Valid UTF-8 is its own decoding: copy the longest valid run
		// that fits in dst at once.
		s := src[nSrc:]
		if room := len(dst) - nDst; len(s) > room {
			s = s[:room]
		}
		n := validUTF8Prefix(s)
		copy(dst[nDst:], s[:n])
		nDst += n
		nSrc += n
		if nSrc == len(src) {
			break
		}
		// src[nSrc] starts a sequence that is valid but does not fit in dst,
		// one cut off by the end of src, or an ill-formed one.
		size, st := utf8seq.Sequence(src[nSrc:])
		switch {
		case st == utf8seq.Valid:
			return nDst, nSrc, transform.ErrShortDst
		case st == utf8seq.Incomplete && !atEOF:
			return nDst, nSrc, transform.ErrShortSrc
		}
		// "If byte is end-of-queue and UTF-8 bytes needed is not 0, ...
		// return error", and an ill-formed sequence is an error too.
		if putReplacement(dst[nDst:]) == 0 {
			return nDst, nSrc, transform.ErrShortDst
		}
		nDst += 3
		nSrc += size
	}
	return nDst, nSrc, nil
}

// validUTF8Prefix returns the length of the longest prefix of s that is
// well-formed UTF-8 made of complete sequences.
func validUTF8Prefix(s []byte) int {
	i := 0
	for i < len(s) {
		c := s[i]
		if c < 0x80 {
			if i+16 <= len(s) {
				a := binary.LittleEndian.Uint64(s[i:])
				b := binary.LittleEndian.Uint64(s[i+8:])
				if (a|b)&asciiMask == 0 {
					i += 16
					continue
				}
			}
			i++
			continue
		}
		// Two- and three-byte sequences inline; the rest through
		// utf8Sequence.
		if c >= 0xC2 && c <= 0xDF && i+1 < len(s) && s[i+1]&0xC0 == 0x80 {
			i += 2
			continue
		}
		if c >= 0xE1 && c <= 0xEF && c != 0xED && i+2 < len(s) && s[i+1]&0xC0 == 0x80 && s[i+2]&0xC0 == 0x80 {
			i += 3
			continue
		}
		n, st := utf8seq.Sequence(s[i:])
		if st != utf8seq.Valid {
			return i
		}
		i += n
	}
	return i
}
