package decode

import "golang.org/x/text/transform"

// utf8 is Transform on pathUTF8: the Encoding Standard's UTF-8 decoder
// (https://encoding.spec.whatwg.org/#utf-8-decoder). Valid input is copied
// as it is; each maximal subpart of an ill-formed sequence becomes one
// U+FFFD. A sequence cut off by the end of src waits for more input, or
// becomes one U+FFFD at EOF.
func (d *decoder) utf8(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	for nSrc < len(src) {
		c := src[nSrc]
		if d.cr {
			d.cr = false
			if c == '\n' {
				nSrc++
				continue
			}
		}
		if c < 0x80 {
			k := d.pat.copyASCII(dst[nDst:], src[nSrc:])
			nDst += k
			nSrc += k
			if k > 0 {
				continue
			}
			// CR or NUL, or dst is full.
			w := d.special(dst[nDst:], c)
			if w < 0 {
				return nDst, nSrc, transform.ErrShortDst
			}
			nDst += w
			nSrc++
			continue
		}

		// Two- and three-byte sequences whose trail bytes need no range
		// check beyond 80-BF, the common case, first.
		n, ok := 0, false
		switch {
		case c >= 0xC2 && c <= 0xDF:
			if nSrc+1 < len(src) && src[nSrc+1]&0xC0 == 0x80 {
				n, ok = 2, true
			}
		case c >= 0xE1 && c <= 0xEF && c != 0xED:
			if nSrc+2 < len(src) && src[nSrc+1]&0xC0 == 0x80 && src[nSrc+2]&0xC0 == 0x80 {
				n, ok = 3, true
			}
		}
		if n == 0 {
			n, ok = utf8Sequence(src[nSrc:])
			if n == 0 {
				if !atEOF {
					return nDst, nSrc, transform.ErrShortSrc
				}
				// The end of the input inside a sequence: one U+FFFD.
				n = len(src) - nSrc
			}
		}
		if ok {
			if len(dst)-nDst < n {
				return nDst, nSrc, transform.ErrShortDst
			}
			copy(dst[nDst:], src[nSrc:nSrc+n])
			nDst += n
		} else {
			if len(dst)-nDst < len(fffd) {
				return nDst, nSrc, transform.ErrShortDst
			}
			nDst += copy(dst[nDst:], fffd)
		}
		nSrc += n
	}
	return nDst, nSrc, nil
}

// utf8Sequence examines the sequence that starts with the non-ASCII byte
// s[0], following the UTF-8 decoder's steps. It returns the length of a
// valid sequence and true; or the length of a maximal subpart of an
// ill-formed sequence (the bytes that one U+FFFD replaces; the byte after it
// is decoded afresh) and false; or 0 if s ends before the sequence can be
// judged.
func utf8Sequence(s []byte) (int, bool) {
	c := s[0]
	// need is the number of trail bytes; lo and hi bound the first one.
	need, lo, hi := 0, byte(0x80), byte(0xBF)
	switch {
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c == 0xE0:
		need, lo = 2, 0xA0
	case c == 0xED:
		need, hi = 2, 0x9F
	case c >= 0xE1 && c <= 0xEF:
		need = 2
	case c == 0xF0:
		need, lo = 3, 0x90
	case c == 0xF4:
		need, hi = 3, 0x8F
	case c >= 0xF1 && c <= 0xF3:
		need = 3
	default:
		// 80-C1 and F5-FF never start a sequence.
		return 1, false
	}
	for i := 1; i <= need; i++ {
		if i >= len(s) {
			return 0, false
		}
		if b := s[i]; b < lo || b > hi {
			return i, false
		}
		lo, hi = 0x80, 0xBF
	}
	return need + 1, true
}
