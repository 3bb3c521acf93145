package decode

import (
	"encoding/binary"
	"math/bits"

	"golang.org/x/text/transform"

	"github.com/charsniff/charsniff/decode/internal/singlebyte"
	"github.com/charsniff/charsniff/override"
)

// A byte table maps each byte of a single-byte encoding to its UTF-8 form,
// ready to store: the UTF-8 bytes in the low three bytes (little-endian, so
// a 4-byte store writes them in order) and their count in the high byte.
// NUL and CR have count 0, so that the table loop stops at them and leaves
// them to the preprocessing. singlebyte.Preprocess builds them (on first
// use, shared by all readers).

// byteTable returns the byte table of e, a single-byte encoding or
// x-user-defined.
func byteTable(e override.Encoding) *[256]uint32 { return singlebyte.Preprocess(e) }

// tableDecode is Transform on pathTable.
func (d *decoder) tableDecode(dst, src []byte) (nDst, nSrc int, err error) {
	t := d.table
	// v: the encoding's Vector, for modeDense only (looked up then rather
	// than kept in the decoder, whose size is budgeted: TestReaderSize).
	var v *singlebyte.Vector
	if d.mode == modeDense {
		v = singlebyte.Vec(d.enc)
	}
	nSrc = d.skipLF(src)
	// CR and NUL stop tableRun whatever the preprocessing: the table
	// leaves them to the byte loop below.
	st := stops{-1, -1}
	// lines: a CR has been met in this call; as on the UTF-8 path, lines
	// of ASCII that end in CR LF are copied in one pass (d.pat.lines),
	// up to the first byte that needs the table. The vector sweep, where
	// it runs, does that and the table's letters too, but for text as
	// dense as Cyrillic (see MAXEVENTS in sweep_amd64.s); its Go twin
	// (where the assembly does not run) the blocks of plain ASCII only,
	// until a CR is met, and then the line copier.
	lines := false
	// ri, rx: the bytes tableRun read and the extra bytes it wrote, since
	// the mode was last chosen (every 256 bytes or more of its input,
	// whatever the lengths of the lines).
	ri, rx := 0, 0
	for nSrc < len(src) {
		var i, j int
		if lines && d.mode == modeDense {
			var w int
			w, i, j = d.denseCR(dst[nDst:], src[nSrc:], v)
			nDst += w
		} else {
			nDst, nSrc = d.tableLines(dst, src, nDst, nSrc, lines)
			lim := st.limit(src, nSrc, len(dst)-nDst, true, true)
			if d.mode != modeDense {
				// The mode is chosen again after at most modeSpan
				// bytes: a fresh Reader's first window of Cyrillic
				// text without a CR went all through modeASCII.
				lim = min(lim, nSrc+modeSpan)
			}
			i, j = tableRun(dst[nDst:], src[nSrc:], lim-nSrc, t, v, d.mode)
			nDst += j
		}
		nSrc += i
		// tableRun writes one byte for each ASCII byte and two or three
		// for the others.
		if j > i {
			d.high = true
		}
		if ri, rx = ri+i, rx+j-i; ri >= 256 {
			if d.mode = tableMode(ri, rx); d.mode == modeDense && v == nil {
				v = singlebyte.Vec(d.enc)
			}
			ri, rx = 0, 0
		}
		if nSrc == len(src) {
			break
		}
		// Byte by byte, with exact room checks, up to and including the
		// first CR or NUL, or for eight bytes near the ends of the
		// buffers.
		for end := min(len(src), nSrc+8); nSrc < end; {
			c := src[nSrc]
			v := t[c]
			n := int(v >> 24)
			if n == 0 {
				if nDst, nSrc, err = d.special(dst, src, nDst, nSrc); err != nil {
					return nDst, nSrc, err
				}
				lines = lines || c == '\r'
				break
			}
			if nDst+4 <= len(dst) {
				// One store: v's top byte, n, lands past the n bytes
				// written, in room dst leaves for scratch.
				binary.LittleEndian.PutUint32(dst[nDst:nDst+4], v)
			} else if !putShort(dst[nDst:], v, n) {
				return nDst, nSrc, transform.ErrShortDst
			}
			nDst += n
			nSrc++
			if n > 1 {
				d.high = true
			}
		}
	}
	return nDst, nSrc, nil
}

// tableLines is the first part of a step of tableDecode's loop, before
// tableRun: the vector sweep, or once a CR has been met the line copier,
// from src[nSrc] and dst[nDst]. It returns the new nDst and nSrc.
func (d *decoder) tableLines(dst, src []byte, nDst, nSrc int, lines bool) (int, int) {
	if d.mode != modeDense && (sweepOK || !lines) {
		w, r, high := d.pat.sweep(dst[nDst:], src[nSrc:], d.table)
		d.noteSweepHigh(high, src[nSrc:nSrc+r])
		nDst += w
		nSrc += r
	}
	if lines && (!sweepOK || d.mode == modeDense) {
		w, r := d.pat.lines(dst[nDst:], src[nSrc:])
		nDst += w
		nSrc += r
	}
	return nDst, nSrc
}

// denseCR is tableRun in modeDense once a CR has been met: src is decoded
// through its CRs, up to its first NUL if NUL is replaced, with the
// encoding's Decode table (in which CR and NUL are themselves), and with
// the newline normalization on the text written is then normalized in
// place (compactCR), as the double-byte codecs' is (codecDirect). A CR
// that ends what tableRun took is left to tableDecode's byte loop, which
// looks at the byte after it, as sweepEnd leaves one to the careful path.
// It returns the bytes written, and the bytes read and written by
// tableRun (before the normalization). Stopping the table loop at each
// CR, a line at a time, left windows-1251 text with CR LF at 28 % of the
// speed of the same text with LF (AMD EPYC Zen 4, decode's
// BenchmarkReadCRLF).
func (d *decoder) denseCR(dst, src []byte, v *singlebyte.Vector) (w, i, j int) {
	lim := nextByte(src[:min(len(src), len(dst))], 0, 0, d.pat.nulOn)
	i, j = tableRun(dst, src, lim, singlebyte.Decode(d.enc), v, modeDense)
	if !d.pat.crOn {
		return j, i, j
	}
	if i > 0 && src[i-1] == '\r' {
		i, j = i-1, j-1
	}
	return d.compactCR(dst[:j]), i, j
}

// putShort writes the n bytes of the table entry v to dst, which has
// fewer than four bytes of room, or reports false if they do not fit.
func putShort(dst []byte, v uint32, n int) bool {
	if len(dst) < n {
		return false
	}
	for i := range n {
		dst[i] = byte(v >> (8 * i))
	}
	return true
}

// The modes of tableRun, chosen by tableDecode from how many non-ASCII
// bytes the text had so far, so that the choice costs no mispredicted
// branches.
const (
	// modeASCII: non-ASCII bytes are rare (markup, English). Runs of ASCII
	// are found sixteen bytes at a time and moved with one copy.
	modeASCII = iota
	// modeLatin: a non-ASCII byte in every 8 to 512 or so (French,
	// German: an accented letter every few words). Sixteen bytes are
	// stored and tested at a time; the first non-ASCII byte among them
	// goes through the table.
	modeLatin
	// modeDense: a non-ASCII byte in every eight or so (Cyrillic, Greek).
	// Each word with one goes through the table byte by byte, unrolled.
	modeDense
)

// modeSpan is the most input tableRun takes in modeASCII or modeLatin
// before tableDecode chooses the mode again.
const modeSpan = 1 << 10

// tableMode returns the mode for text in which n bytes of input decoded to
// n+extra bytes of output (each non-ASCII byte makes one or two extra).
func tableMode(n, extra int) uint8 {
	switch {
	case extra*8 >= n:
		return modeDense
	case extra*512 >= n:
		return modeLatin
	}
	return modeASCII
}

// tableRun is the fast loop of tableDecode. It decodes src[:lim], which
// holds no CR or NUL (the table leaves them to tableDecode's
// preprocessing), while there are sixteen bytes of input and 64 of room,
// and returns the bytes read and written. Each mode has its own loop, kept
// small so that the compiler holds its values in registers (one loop for
// all three spilled them to the stack: 82 instructions a word). They work a
// word of eight input bytes at a time, stored to dst at once (the bytes
// from the first that needs the table on are written again):
//
//   - modeASCII (tableASCII): a word of ASCII starts a run, whose end is
//     found sixteen bytes at a time (one OR and one test: CR and NUL are
//     ruled out by lim, found with bytes.IndexByte) and which is moved with
//     one copy. A word with one non-ASCII byte is copied up to it, the byte
//     goes through the table with one 4-byte store, and the next word
//     starts after it.
//   - modeLatin (tableLatin): 32 bytes are stored and tested at a time;
//     if they hold a non-ASCII byte, the first one goes through the table
//     (found among the four words without a branch on which) and the next
//     step starts after it. An accented letter costs one such step, and
//     the one mispredicted branch of leaving the clean blocks.
//   - modeDense (singlebyte.Dense, with the encoding's Vector v): 64
//     bytes a step with AVX-512 VBMI2 where the CPU has it, else and in
//     the other modes a word with two or more non-ASCII bytes: the word
//     goes through the table byte by byte, unrolled (tableWord), into a
//     64-byte window of dst whose offsets the compiler proves in range.
//
// The word that holds lim, and the words past the last 64 bytes of room
// (a Reader's WriteTo decodes 4 KB at a time), are done a word or one
// non-ASCII byte at a time, leaving tableDecode's byte loop at most the
// last 16 bytes of room.
//
// Cachegrind, instructions a byte of BenchmarkDecode through WriteTo:
// windows-1251 Russian, a plain byte loop 31.7, unrolled words 13.0, 13.5
// with a one-letter step for words with one Cyrillic letter (a
// mispredicted branch a word), 10.5 in modeDense; windows-1252 French,
// unrolled words only 7.6, with the one-letter step and a word test for
// CR and NUL 5.7, 4.7 in modeLatin with 16-byte steps, 4.1 with 32, 3.6
// with the letter found through highBits (3.85 before, with a 4 KB output
// buffer).
func tableRun(dst, src []byte, lim int, t *[256]uint32, v *singlebyte.Vector, mode uint8) (i, j int) {
	switch mode {
	case modeDense:
		i, j = singlebyte.Dense(dst, src[:lim], t, v)
	case modeLatin:
		i, j = tableLatin(dst, src[:lim], t)
	default:
		i, j = tableASCII(dst, src[:lim], t)
	}
	for 0 <= i && i <= len(src)-8 && 0 <= j && j <= len(dst)-16 {
		x := binary.LittleEndian.Uint64((*[8]byte)(src[i:])[:])
		binary.LittleEndian.PutUint64((*[8]byte)(dst[j:])[:], x)
		k := bits.TrailingZeros64(x&hi8) >> 3
		if i+k >= lim {
			j += lim - i
			i = lim
			break
		}
		if k == 8 {
			i += 8
			j += 8
			continue
		}
		v := t[src[i+k]]
		binary.LittleEndian.PutUint32((*[4]byte)(dst[j+k:])[:], v)
		i += k + 1
		j += k + int(v>>24)
	}
	return i, j
}

// tableASCII is tableRun in modeASCII, over src cut at lim (as are the
// other two).
func tableASCII(dst, src []byte, t *[256]uint32) (i, j int) {
	for 0 <= i && i <= len(src)-8 && 0 <= j && j <= len(dst)-64 {
		s, d := (*[8]byte)(src[i:]), (*[64]byte)(dst[j:])
		x := binary.LittleEndian.Uint64(s[0:8])
		binary.LittleEndian.PutUint64(d[0:8], x)
		if h := x & hi8; h != 0 {
			if h&(h-1) != 0 {
				j += tableWord(d, s, t)
				i += 8
				continue
			}
			k := bits.TrailingZeros64(h) >> 3
			v := t[s[k&7]]
			binary.LittleEndian.PutUint32(d[k&7:], v)
			i += k + 1
			j += k + int(v>>24)
			continue
		}
		// A run of ASCII: find its end, then one copy.
		n := 8 + asciiBlocks(src[i+8:i+8+max(0, min(len(src)-i, len(dst)-j)-8)])
		copy(dst[j+8:j+n], src[i+8:i+n])
		i += n
		j += n
	}
	return i, j
}

// tableLatin is tableRun in modeLatin.
func tableLatin(dst, src []byte, t *[256]uint32) (i, j int) {
	for 0 <= i && i <= len(src)-32 && 0 <= j && j <= len(dst)-40 {
		s, d := (*[32]byte)(src[i:]), (*[40]byte)(dst[j:])
		a := binary.LittleEndian.Uint64(s[0:8])
		b := binary.LittleEndian.Uint64(s[8:16])
		c := binary.LittleEndian.Uint64(s[16:24])
		e := binary.LittleEndian.Uint64(s[24:32])
		binary.LittleEndian.PutUint64(d[0:8], a)
		binary.LittleEndian.PutUint64(d[8:16], b)
		binary.LittleEndian.PutUint64(d[16:24], c)
		binary.LittleEndian.PutUint64(d[24:32], e)
		if (a|b|c|e)&hi8 == 0 {
			i += 32
			j += 32
			continue
		}
		// The first non-ASCII byte of the 32, with no branch on which
		// word holds it.
		k := bits.TrailingZeros32(uint32(highBits(a) | highBits(b)<<8 | highBits(c)<<16 | highBits(e)<<24))
		v := t[s[k&31]]
		binary.LittleEndian.PutUint32(d[k&31:], v)
		i += k + 1
		j += k + int(v>>24)
	}
	return i, j
}

// highBits returns the high bits of the eight bytes of x as one byte: bit
// n is the high bit of byte n (one multiplication gathers them, as SIMD's
// movemask does).
func highBits(x uint64) uint64 {
	return (x & hi8 >> 7) * 0x0102040810204080 >> 56
}

// tableWord decodes the eight bytes of b, none of them CR or NUL, through
// the table into w and returns the length of their UTF-8, unrolled, with
// offsets the compiler proves in range. It is kept out of line for the
// loops that seldom need it; singlebyte.Dense has its own copy.
//
//go:noinline
func tableWord(w *[64]byte, b *[8]byte, t *[256]uint32) int {
	v := t[b[0]]
	binary.LittleEndian.PutUint32(w[0:], v)
	o := int(v >> 24)
	v = t[b[1]]
	binary.LittleEndian.PutUint32(w[o&31:], v)
	o += int(v >> 24)
	v = t[b[2]]
	binary.LittleEndian.PutUint32(w[o&31:], v)
	o += int(v >> 24)
	v = t[b[3]]
	binary.LittleEndian.PutUint32(w[o&31:], v)
	o += int(v >> 24)
	v = t[b[4]]
	binary.LittleEndian.PutUint32(w[o&31:], v)
	o += int(v >> 24)
	v = t[b[5]]
	binary.LittleEndian.PutUint32(w[o&31:], v)
	o += int(v >> 24)
	v = t[b[6]]
	binary.LittleEndian.PutUint32(w[o&31:], v)
	o += int(v >> 24)
	v = t[b[7]]
	binary.LittleEndian.PutUint32(w[o&31:], v)
	o += int(v >> 24)
	return o
}

// asciiBlocks returns the length of the longest prefix of s made of whole
// blocks of sixteen ASCII bytes.
func asciiBlocks(s []byte) int {
	k := 0
	for ; k <= len(s)-16; k += 16 {
		w := (*[16]byte)(s[k:])
		if (binary.LittleEndian.Uint64(w[0:8])|binary.LittleEndian.Uint64(w[8:16]))&hi8 != 0 {
			break
		}
	}
	return k
}
