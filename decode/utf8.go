package decode

import (
	"encoding/binary"
	"math/bits"

	"golang.org/x/text/transform"

	"github.com/charsniff/charsniff/internal/utf8seq"
)

// utf8 is Transform on pathUTF8: the Encoding Standard's UTF-8 decoder
// (https://encoding.spec.whatwg.org/#utf-8-decoder). Valid input is copied
// as it is; each maximal subpart of an ill-formed sequence becomes one
// U+FFFD. A sequence cut off by the end of src waits for more input, or
// becomes one U+FFFD at EOF.
//
// The sweep (sweepBlocks) takes the text 32 bytes at a time: with the
// assembly (sweepOK), validated, copied and preprocessed in one pass, and
// the careful path below only the block it stops at (a four-byte
// sequence, ill-formed input, NUL) and the last bytes of the buffers.
// Elsewhere its Go twin takes the blocks of plain ASCII until a CR is met
// (then the line copier, d.pat.lines, takes lines of ASCII), and the
// careful path the rest: the CR and NUL found with bytes.IndexByte, the
// text between them validated by utf8Run and moved with one copy.
func (d *decoder) utf8(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	nSrc = d.skipLF(src)
	st := stops{-1, -1}
	// lines: a CR has been met in this call, so the text likely has
	// short lines that end in CR LF, which d.pat.lines copies in one
	// pass.
	lines := false
	// window bounds the careful path's search for CR and NUL: with the
	// vector sweep it only takes over for the block the sweep stopped at.
	window := len(dst)
	// sweepAt is where the sweep is tried next. After a try that takes
	// less than a few blocks (text in another encoding, ill-formed all
	// the way) the next waits for the careful path to go d.backoff
	// further, doubled at each such try up to 4 KB and kept across
	// calls, so that such text costs no more than without the sweep.
	sweepAt := nSrc + int(d.backoff)
	for nSrc < len(src) {
		if nSrc >= sweepAt && (sweepOK || !lines) {
			w, r, high := d.pat.sweep(dst[nDst:], src[nSrc:], nil)
			d.noteSweepHigh(high, src[nSrc:nSrc+r])
			nDst += w
			nSrc += r
			if r >= sweepMinRun || len(src)-nSrc < sweepMinRun || len(dst)-nDst < sweepMinRun {
				// A run, or the end of the buffers.
				d.backoff = 0
			} else {
				d.backoff = min(max(2*d.backoff, 64), 4096)
			}
			sweepAt = nSrc + int(d.backoff)
			if sweepOK {
				window = max(64, int(d.backoff))
			}
		} else if lines {
			w, r := d.pat.lines(dst[nDst:], src[nSrc:])
			nDst += w
			nSrc += r
			if nSrc >= len(src)-1 {
				// The last byte (a CR there waits for its LF) goes
				// the careful way below.
				if nSrc == len(src) {
					break
				}
			} else if c := src[nSrc]; c == '\r' && d.pat.crOn && nDst < len(dst) {
				// CR LF or a lone CR: LF.
				dst[nDst] = '\n'
				nDst++
				nSrc++
				if src[nSrc] == '\n' {
					nSrc++
				}
				continue
			} else if c == 0 && d.pat.nulOn {
				if nDst, nSrc, err = d.special(dst, src, nDst, nSrc); err != nil {
					return nDst, nSrc, err
				}
				continue
			}
		}
		lim := st.limit(src, nSrc, min(len(dst)-nDst, window), d.pat.crOn, d.pat.nulOn)
		n, high := utf8Run(dst[nDst:], src[nSrc:lim])
		copy(dst[nDst:], src[nSrc:nSrc+n])
		nSrc += n
		nDst += n
		if high {
			d.high = true
		}
		if nSrc == len(src) {
			break
		}
		c := src[nSrc]
		if c < 0x80 {
			if nDst == len(dst) {
				return nDst, nSrc, transform.ErrShortDst
			}
			if c == '\r' && d.pat.crOn || c == 0 && d.pat.nulOn {
				if nDst, nSrc, err = d.special(dst, src, nDst, nSrc); err != nil {
					return nDst, nSrc, err
				}
				lines = lines || c == '\r'
				continue
			}
			dst[nDst] = c
			nDst++
			nSrc++
			continue
		}
		// Non-ASCII bytes one sequence at a time, for as long as they
		// are ill-formed (text in another encoding): utf8Run would stop
		// at each.
		for {
			n, ok := utf8Sequence(src[nSrc:])
			if n == 0 {
				if !atEOF {
					return nDst, nSrc, transform.ErrShortSrc
				}
				// The end of the input inside a sequence: one U+FFFD.
				n = len(src) - nSrc
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
			d.high = true
			if ok || nSrc == len(src) || src[nSrc] < 0x80 {
				break
			}
		}
	}
	return nDst, nSrc, nil
}

// utf8Clean returns the length of the longest prefix of src that the UTF-8
// path copies unchanged: valid UTF-8 up to the first CR or NUL that the
// preprocessing changes, ill-formed input, or a sequence cut off by the end
// of src. It notes a non-ASCII byte in d.high as utf8 does.
func (d *decoder) utf8Clean(src []byte) int {
	start, high := d.pat.clean(src)
	d.noteSweepHigh(high, src[:start])
	s := src[start:]
	end := len(s)
	if k := indexSpecial(s, d.pat.crOn, d.pat.nulOn); k >= 0 {
		end = k
	}
	n, high := utf8Run(s, s[:end])
	if high {
		d.high = true
	}
	return start + n
}

// utf8Sequence examines the sequence that starts with the non-ASCII byte
// s[0], following the UTF-8 decoder's steps. It returns the length of a
// valid sequence and true; or the length of a maximal subpart of an
// ill-formed sequence (the bytes that one U+FFFD replaces; the byte after it
// is decoded afresh) and false; or 0 if s ends before the sequence can be
// judged.
func utf8Sequence(s []byte) (int, bool) {
	switch n, st := utf8seq.Sequence(s); st {
	case utf8seq.Valid:
		return n, true
	case utf8seq.Invalid:
		return n, false
	}
	return 0, false
}

// utf8Run is the fast path of the UTF-8 decoder. Valid UTF-8 is its own
// decoding, so it returns the length of the longest prefix of src (as long
// as fits dst) that is valid UTF-8, for the caller to copy with one copy,
// and whether it holds a non-ASCII byte. It leaves ill-formed input and a
// sequence cut off by the end of src to the careful loop of utf8, which
// also cut src before the first CR or NUL that the preprocessing changes.
//
// ASCII goes 32 bytes at a time with one test; other text 32 bytes at a
// time through mixedRun, which checks ASCII, two- and three-byte
// characters together with no branch but the loop's, so that a change of
// script, a space or a line feed costs nothing more; a block that mixedRun
// refuses goes one sequence at a time. Japanese text (runs of about 13
// three-byte characters between a few ASCII bytes) takes 6.6 instructions
// a byte and 30 000 mispredicted branches a 4 MB pass (cachegrind of
// BenchmarkDecode in bench/): a loop for each kind of character would take
// about as many instructions but mispredict ten times as often, at half
// the speed.
func utf8Run(dst, src []byte) (i int, high bool) {
	s := src[:min(len(dst), len(src))]
	for i < len(s) {
		if s[i] < 0x80 {
			// ASCII, 32 bytes at a time, then to the first non-ASCII
			// byte.
			for ; i <= len(s)-32; i += 32 {
				w := (*[32]byte)(s[i:])
				if (binary.LittleEndian.Uint64(w[:8])|binary.LittleEndian.Uint64(w[8:16])|binary.LittleEndian.Uint64(w[16:24])|binary.LittleEndian.Uint64(w[24:]))&hi8 != 0 {
					break
				}
			}
			i = skipASCII(s, i)
			if i == len(s) {
				break
			}
		}
		// One sequence first: on ill-formed input it is likely the one
		// that ends the run, and mixedRun would waste a block on it.
		n := validSequence(s[i:])
		if n == 0 {
			break
		}
		i += n
		high = true
		var carry uint64
		var ascii bool
		i, carry, ascii = mixedRun(s, i)
		if ascii {
			continue
		}
		// Back to the start of a sequence that crosses into the block.
		if carry != 0 {
			i--
			if s[i] < 0xC0 {
				i--
			}
		}
		// The block that mixedRun refused, or the last bytes, one
		// sequence at a time.
		for end := min(i+32, len(s)); i < end; {
			if s[i] < 0x80 {
				i = skipASCII(s, i)
				continue
			}
			n := validSequence(s[i:])
			if n == 0 {
				return i, high
			}
			i += n
		}
	}
	return i, high
}

// validSequence returns the length of the valid sequence that starts with
// the non-ASCII byte s[0], or 0 if it is ill-formed or cut off: two- and
// three-byte sequences with no narrower bound on their trail bytes inline,
// others through utf8Sequence.
func validSequence(s []byte) int {
	switch c := s[0]; {
	case c-0xC2 <= 0xDF-0xC2:
		if len(s) >= 2 && s[1]&0xC0 == 0x80 {
			return 2
		}
	case c-0xE1 <= 0xEF-0xE1 && c != 0xED:
		if len(s) >= 3 && s[1]&0xC0 == 0x80 && s[2]&0xC0 == 0x80 {
			return 3
		}
	case c == 0xE0 || c == 0xED || c-0xF0 <= 0xF4-0xF0:
		if n, ok := utf8Sequence(s); ok {
			return n
		}
	}
	return 0
}

// skipASCII returns the position of the first non-ASCII byte in s from i,
// or len(s).
func skipASCII(s []byte, i int) int {
	for ; i <= len(s)-8; i += 8 {
		if m := binary.LittleEndian.Uint64(s[i:i+8]) & hi8; m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for i < len(s) && s[i] < 0x80 {
		i++
	}
	return i
}

// mixedRun returns the end of the run of 32-byte blocks of s from i that
// mixedWord accepts, each block with at least one non-ASCII byte; the
// carry into the block after it: bit 7 set in its bytes where the
// sequences begun before it expect trail bytes; and whether that block is
// ASCII. A sequence may cross from a word or block into the next: the
// carry checks its trail bytes there. (About 36 instructions a word; one
// function for all four words would be too large to be inlined.)
func mixedRun(s []byte, i int) (int, uint64, bool) {
	var carry uint64
	for i <= len(s)-32 {
		w := (*[32]byte)(s[i:])
		x0 := binary.LittleEndian.Uint64(w[:8])
		x1 := binary.LittleEndian.Uint64(w[8:16])
		x2 := binary.LittleEndian.Uint64(w[16:24])
		x3 := binary.LittleEndian.Uint64(w[24:])
		if (x0|x1|x2|x3)&hi8 == 0 {
			if carry != 0 {
				break
			}
			return i, 0, true // likely more: the ASCII loop is faster
		}
		b0, c := mixedWord(x0, carry)
		b1, c := mixedWord(x1, c)
		b2, c := mixedWord(x2, c)
		b3, c := mixedWord(x3, c)
		if (b0|b1|b2|b3)&hi8 != 0 {
			break
		}
		carry = c
		i += 32
	}
	return i, carry & hi8, false
}

// mixedWord checks x, eight bytes in memory order, for mixedRun: bit 7 of
// each byte of its first result is clear if the byte is ASCII, or the lead
// or trail byte of a two-byte sequence with lead C2-DF or a three-byte
// sequence with lead E1-EC or EE-EF (E0 and ED bound their first trail
// byte more tightly, so they are left to the careful path), where carry
// has bit 7 set in the bytes that sequences begun before x expect to be
// trail bytes. Bit 7 of each byte of its second result is set where
// sequences begun in x expect trail bytes in the next word. (Other bits of
// both are garbage.)
func mixedWord(x, carry uint64) (bad, next uint64) {
	lead := x & (x << 1)     // bit 7: 11xxxxxx
	lead3 := lead & (x << 2) // bit 7: 111xxxxx
	// Trail bytes (x ^ lead: 10xxxxxx) where a lead expects one, and
	// nowhere else.
	bad = x ^ lead ^ (lead<<8 | lead3<<16 | carry)
	// Leads from C2 and below F0: with bit 7 set, the low seven bits from
	// 0x42 and below 0x70 (no borrow crosses a byte).
	u := x | hi8
	bad |= lead &^ ((u - 0x42*lo8) ^ (u - 0x70*lo8))
	// Neither E0 nor ED (bytes from 0x80 that XOR to 0; spurious bits
	// only above one that does).
	bad |= ((x ^ 0xE0*lo8 - lo8) | (x ^ 0xED*lo8 - lo8)) & x
	return bad, lead>>56 | lead3>>48
}
