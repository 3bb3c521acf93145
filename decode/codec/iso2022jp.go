package codec

import (
	"encoding/binary"

	"golang.org/x/text/transform"
)

// iso2022JPState is the ISO-2022-JP decoder state between sequences: the
// character set that escape sequences select. The standard's transient
// states (escape start, escape, trailing byte) are lookahead here: a
// sequence cut off by the end of src is left there (ErrShortSrc). Outside
// them the standard's decoder state and decoder output state are equal.
type iso2022JPState uint8

const (
	iso2022JPASCII    iso2022JPState = iota // ESC ( B
	iso2022JPRoman                          // ESC ( J: JIS X 0201 Roman
	iso2022JPKatakana                       // ESC ( I: JIS X 0201 katakana
	iso2022JPLead                           // ESC $ @ or ESC $ B: JIS X 0208, "leading byte"
)

// iso2022JPDecoder implements the ISO-2022-JP decoder
// (https://encoding.spec.whatwg.org/#iso-2022-jp-decoder).
type iso2022JPDecoder struct {
	state iso2022JPState
	// output is the standard's ISO-2022-JP output flag: true right after an
	// escape sequence, so that two escape sequences in a row are an error.
	output bool
	// fast is eucJPTables(): its jis0208 pointers are those of ISO-2022-JP
	// with the high bit of both bytes set.
	fast *dbcsTables
}

// fastJIS0208 decodes the leading pairs of src that are JIS X 0208
// characters in the index, while dst has room, and returns how much it wrote
// and read.
func (d *iso2022JPDecoder) fastJIS0208(dst, src []byte) (nDst, nSrc int) {
	t := d.fast
	s, w := src, dst
	for len(s) >= 2 && len(w) >= 4 {
		c, c1 := s[0], s[1]
		if c-0x21 > 0x7E-0x21 || c1-0x21 > 0x7E-0x21 {
			break
		}
		e := t.utf8[uint(t.lead[c|0x80])+uint(t.trail[c1|0x80])]
		if e == 0 {
			break
		}
		binary.LittleEndian.PutUint32(w, e)
		s, w = s[2:], w[e>>24:]
	}
	return len(dst) - len(w), len(src) - len(s)
}

// Reset implements transform.Transformer: it returns the decoder to its
// initial state, ASCII.
func (d *iso2022JPDecoder) Reset() { d.state, d.output = iso2022JPASCII, false }

// Transform implements transform.Transformer.
func (d *iso2022JPDecoder) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	for nSrc < len(src) {
		c := src[nSrc]
		if c == 0x1B {
			// Escape start.
			if !atEOF {
				if nSrc+1 >= len(src) {
					return nDst, nSrc, transform.ErrShortSrc
				}
				if c1 := src[nSrc+1]; (c1 == 0x24 || c1 == 0x28) && nSrc+2 >= len(src) {
					return nDst, nSrc, transform.ErrShortSrc
				}
			}
			var next iso2022JPState
			valid := false
			if nSrc+2 < len(src) {
				switch c1, c2 := src[nSrc+1], src[nSrc+2]; {
				case c1 == 0x28 && c2 == 0x42:
					next, valid = iso2022JPASCII, true
				case c1 == 0x28 && c2 == 0x4A:
					next, valid = iso2022JPRoman, true
				case c1 == 0x28 && c2 == 0x49:
					next, valid = iso2022JPKatakana, true
				case c1 == 0x24 && (c2 == 0x40 || c2 == 0x42):
					next, valid = iso2022JPLead, true
				}
			}
			if valid {
				// "Return continue, if output is false, and error otherwise."
				if d.output {
					if putReplacement(dst[nDst:]) == 0 {
						return nDst, nSrc, transform.ErrShortDst
					}
					nDst += 3
				}
				d.state, d.output = next, true
				nSrc += 3
				continue
			}
			// Not an escape sequence: the ESC is an error and the bytes
			// after it are restored, in the unchanged state.
			if putReplacement(dst[nDst:]) == 0 {
				return nDst, nSrc, transform.ErrShortDst
			}
			nDst += 3
			nSrc++
			d.output = false
			continue
		}

		r, size := rune(0xFFFD), 1
		switch d.state {
		case iso2022JPASCII:
			if c < 0x80 && c != 0x0E && c != 0x0F {
				// Copy the run of plain ASCII at once.
				n := 0
				for n < len(src)-nSrc && n < len(dst)-nDst {
					b := src[nSrc+n]
					if b >= 0x80 || b == 0x0E || b == 0x0F || b == 0x1B {
						break
					}
					dst[nDst+n] = b
					n++
				}
				if n == 0 {
					return nDst, nSrc, transform.ErrShortDst
				}
				nDst += n
				nSrc += n
				d.output = false
				continue
			}
		case iso2022JPRoman:
			switch {
			case c == 0x5C:
				r = 0xA5
			case c == 0x7E:
				r = 0x203E
			case c < 0x80 && c != 0x0E && c != 0x0F:
				r = rune(c)
			}
		case iso2022JPKatakana:
			if c >= 0x21 && c <= 0x5F {
				r = 0xFF61 - 0x21 + rune(c)
			}
		case iso2022JPLead:
			if c < 0x21 || c > 0x7E {
				break
			}
			// Fast path: pairs of 0x21-0x7E that map, through the EUC-JP
			// tables (the same jis0208 pointers with the high bits set).
			if n, m := d.fastJIS0208(dst[nDst:], src[nSrc:]); m > 0 {
				nDst += n
				nSrc += m
				d.output = false
				continue
			}
			// Trailing byte.
			if nSrc+1 >= len(src) {
				if !atEOF {
					return nDst, nSrc, transform.ErrShortSrc
				}
				break // End-of-queue in trailing byte: error.
			}
			c1 := src[nSrc+1]
			if c1 == 0x1B {
				// "Set decoder state to escape start and return error":
				// the ESC is processed next.
				break
			}
			size = 2
			if c1 >= 0x21 && c1 <= 0x7E {
				if cp := jis0208Index[(int(c)-0x21)*94+int(c1)-0x21]; cp != 0 {
					r = rune(cp)
				}
			}
		}
		n := putRune(dst[nDst:], r)
		if n == 0 {
			return nDst, nSrc, transform.ErrShortDst
		}
		nDst += n
		nSrc += size
		d.output = false
	}
	return nDst, nSrc, nil
}
