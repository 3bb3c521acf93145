package codec

import "golang.org/x/text/transform"

// utf16Decoder implements the shared UTF-16 decoder
// (https://encoding.spec.whatwg.org/#shared-utf-16-decoder) for UTF-16BE and
// UTF-16LE. A code unit or surrogate pair cut off by the end of src is left
// there (ErrShortSrc) rather than kept as UTF-16 leading byte and leading
// surrogate.
type utf16Decoder struct {
	transform.NopResetter
	bigEndian bool
}

// Transform implements transform.Transformer.
func (d *utf16Decoder) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	for nSrc < len(src) {
		n, m := d.fast(dst[nDst:], src[nSrc:])
		nDst += n
		nSrc += m
		if nSrc >= len(src) {
			break
		}
		// One step of the standard's decoder for what the fast path left.
		if nSrc+1 >= len(src) {
			// A lone final byte.
			if !atEOF {
				return nDst, nSrc, transform.ErrShortSrc
			}
			if putReplacement(dst[nDst:]) == 0 {
				return nDst, nSrc, transform.ErrShortDst
			}
			return nDst + 3, nSrc + 1, nil
		}
		u := d.unit(src[nSrc:])
		r, size := rune(u), 2
		switch {
		case u < 0xD800 || u > 0xDFFF:
			// Not a surrogate.
		case u >= 0xDC00:
			r = 0xFFFD // A trailing surrogate without a leading one.
		case nSrc+3 >= len(src):
			// A leading surrogate cut off by the end of src, with or
			// without one more byte: one error at end-of-queue.
			if !atEOF {
				return nDst, nSrc, transform.ErrShortSrc
			}
			r, size = 0xFFFD, len(src)-nSrc
		default:
			if u2 := d.unit(src[nSrc+2:]); u2 >= 0xDC00 && u2 <= 0xDFFF {
				r, size = 0x10000+(rune(u)-0xD800)<<10+rune(u2)-0xDC00, 4
			} else {
				// The next code unit is restored and decoded on its own.
				r = 0xFFFD
			}
		}
		n = putRune(dst[nDst:], r)
		if n == 0 {
			return nDst, nSrc, transform.ErrShortDst
		}
		nDst += n
		nSrc += size
	}
	return nDst, nSrc, nil
}

// fast decodes the leading code units of src that are not surrogates, while
// dst has room for three bytes, and returns how much it wrote and read.
func (d *utf16Decoder) fast(dst, src []byte) (nDst, nSrc int) {
	s, w := src, dst
	for len(s) >= 2 && len(w) >= 3 {
		u := uint16(s[1])<<8 | uint16(s[0])
		if d.bigEndian {
			u = uint16(s[0])<<8 | uint16(s[1])
		}
		switch {
		case u < 0x80:
			w[0] = byte(u)
			w = w[1:]
		case u < 0x800:
			w[0] = 0xC0 | byte(u>>6)
			w[1] = 0x80 | byte(u)&0x3F
			w = w[2:]
		case u >= 0xD800 && u <= 0xDFFF:
			return len(dst) - len(w), len(src) - len(s)
		default:
			w[0] = 0xE0 | byte(u>>12)
			w[1] = 0x80 | byte(u>>6)&0x3F
			w[2] = 0x80 | byte(u)&0x3F
			w = w[3:]
		}
		s = s[2:]
	}
	return len(dst) - len(w), len(src) - len(s)
}

// unit returns the code unit in the first two bytes of s.
func (d *utf16Decoder) unit(s []byte) uint16 {
	if d.bigEndian {
		return uint16(s[0])<<8 | uint16(s[1])
	}
	return uint16(s[1])<<8 | uint16(s[0])
}
