package decode

import (
	"bytes"
	"encoding/binary"
	"math/bits"

	"golang.org/x/text/transform"

	"github.com/charsniff/charsniff/decode/codec"
	"github.com/charsniff/charsniff/decode/internal/singlebyte"
	"github.com/charsniff/charsniff/override"
)

// path is the way a decoder turns bytes into UTF-8.
type path uint8

const (
	// pathUTF8 validates UTF-8 and copies it, ASCII a word at a time.
	pathUTF8 path = iota
	// pathTable looks bytes up in a table of ready-made UTF-8 (the
	// single-byte encodings and x-user-defined).
	pathTable
	// pathCodec runs a codec decoder into the stage buffer, then
	// preprocesses the stage into the output.
	pathCodec
)

// stageSize is the size of the buffer that holds the output of a codec
// decoder before preprocessing.
const stageSize = 1024

// fffd is U+FFFD REPLACEMENT CHARACTER in UTF-8.
const fffd = "\uFFFD"

// decoder is the Encoding Standard's decoder for one encoding followed by
// the HTML input-stream preprocessing: a leading byte order mark of the
// encoding removed, CR LF and lone CR turned into LF, U+0000 replaced with
// U+FFFD, each as configured. It is a transform.Transformer; [Reader]
// embeds one.
//
// Transform makes progress whenever len(dst) >= 4 (utf8.UTFMax) and the
// source holds a complete character or atEOF is set. On the UTF-8 and table
// paths it never splits a character across calls; on the codec path it may.
type decoder struct {
	enc  override.Encoding
	path path
	// backoff is how far the UTF-8 path goes on the careful path before
	// it tries the vector sweep again (0: at once, at most 4096; see
	// utf8). An int32 beside the bytes above, in what would be padding.
	backoff int32
	pat     patterns

	// stripBOM reports whether a leading byte order mark of enc is removed.
	stripBOM bool
	// bomDone reports that the start of the input has been dealt with:
	// a byte order mark skipped, or none found, or none to look for.
	bomDone bool
	// cr reports that the last character written was a CR (written as LF),
	// so that an LF right after it is dropped.
	cr bool
	// high reports that a byte from 0x80 has been read since the start of
	// the stream: the bytes decoded so far are not all ASCII. The UTF-8
	// and table paths note it in passing; the codec path looks at the bytes
	// its codec read only while track is set.
	high, track bool
	// mode is the table path's mode for its next call (see tableRun).
	mode uint8
	// direct reports that the codec decodes straight into dst, with the
	// preprocessing done in place (see codecDirect).
	direct bool
	// tEnc is the encoding of t.
	tEnc override.Encoding

	// table maps bytes to UTF-8 on pathTable (see tables.go).
	table *[256]uint32

	// t is the codec decoder of tEnc on pathCodec; it is kept across
	// resets while the encoding stays the same.
	t transform.Transformer
	// codecs keeps the codec decoders d has made, by encoding, once it has
	// needed a second one (a Reader reused across documents, or a change
	// of encoding while parsing), so that switching back does not
	// allocate.
	codecs *[override.NumEncodings + 1]transform.Transformer
	// stage[s0:s1] is codec output not yet preprocessed into dst; stage
	// is allocated when the codec path first needs it (the double-byte
	// encodings, decoded straight into dst, seldom do).
	stage  *[stageSize]byte
	s0, s1 int
}

// noteHigh sets d.high if b holds a byte from 0x80, looking only if maybe
// (a sweep that saw one, or the codec path while it tracks) and d.high is
// not set yet.
func (d *decoder) noteHigh(maybe bool, b []byte) {
	if maybe && !d.high {
		d.high = indexHigh(b) >= 0
	}
}

// configure sets the preprocessing switches from c.
func (d *decoder) configure(c *config) {
	d.stripBOM = true
	d.pat = newPatterns(!c.raw, !c.raw)
}

// setEncoding makes d a decoder for e at the start of a stream. It
// allocates only when e needs a codec decoder that d has not made before
// (and once, for the cache of them, when it needs a second).
func (d *decoder) setEncoding(e override.Encoding) {
	d.enc = e
	d.table = nil
	d.direct = false
	switch {
	case e == override.UTF8:
		d.path = pathUTF8
	case singlebyte.Is(e) || e == override.XUserDefined:
		d.path = pathTable
		d.table = byteTable(e)
	default:
		d.path = pathCodec
		d.direct = directCodec(e)
		if d.tEnc != e || d.t == nil {
			if d.t != nil {
				if d.codecs == nil {
					d.codecs = new([override.NumEncodings + 1]transform.Transformer)
				}
				d.codecs[d.tEnc] = d.t
			}
			if d.codecs != nil && d.codecs[e] != nil {
				d.t = d.codecs[e]
			} else {
				d.t = codec.Encoding(e).NewDecoder().Transformer
			}
			d.tEnc = e
		}
	}
	d.Reset()
}

// switchTo makes d decode the rest of the stream with e: the Encoding
// Standard's decoder changes, the preprocessing carries on (a byte order
// mark dealt with, a pending CR). The caller switches only where the old
// decoder holds no partial character and its stage is empty.
func (d *decoder) switchTo(e override.Encoding) {
	bomDone, cr, high, track := d.bomDone, d.cr, d.high, d.track
	d.setEncoding(e)
	d.bomDone, d.cr, d.high, d.track = bomDone, cr, high, track
}

// Reset implements transform.Transformer: d starts over at the start of a
// stream, with the same encoding.
func (d *decoder) Reset() {
	d.bomDone = !d.stripBOM
	d.cr = false
	d.high = false
	d.mode = modeASCII
	d.backoff = 0
	d.s0, d.s1 = 0, 0
	if d.path == pathCodec {
		d.t.Reset()
	}
}

// skipBOM deals with the start of the input, src, as Transform does
// first: it adds the length of a byte order mark of the encoding at its
// start (if any) to *pos, and reports true; or false, changing nothing, if
// src is too short to tell and atEOF is not set.
func (d *decoder) skipBOM(src []byte, atEOF bool, pos *int) bool {
	n, ok := skipBOM(d.enc, src, atEOF)
	if ok {
		*pos += n
		d.bomDone = true
	}
	return ok
}

// Transform implements transform.Transformer.
func (d *decoder) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	if !d.bomDone && !d.skipBOM(src, atEOF, &nSrc) {
		return 0, 0, transform.ErrShortSrc
	}
	var m int
	switch d.path {
	case pathUTF8:
		nDst, m, err = d.utf8(dst, src[nSrc:], atEOF)
	case pathTable:
		nDst, m, err = d.tableDecode(dst, src[nSrc:])
	default:
		nDst, m, err = d.codec(dst, src[nSrc:], atEOF)
	}
	return nDst, nSrc + m, err
}

// bomOf returns the byte order mark of e, or "" if e has none.
func bomOf(e override.Encoding) string {
	switch e {
	case override.UTF8:
		return "\xEF\xBB\xBF"
	case override.UTF16BE:
		return "\xFE\xFF"
	case override.UTF16LE:
		return "\xFF\xFE"
	}
	return ""
}

// skipBOM returns the length of the byte order mark of e at the start of
// src (0 if there is none), or false if src is too short to tell and more
// may come.
func skipBOM(e override.Encoding, src []byte, atEOF bool) (int, bool) {
	bom := bomOf(e)
	if len(src) >= len(bom) {
		if string(src[:len(bom)]) == bom {
			return len(bom), true
		}
		return 0, true
	}
	if !atEOF && string(src) == bom[:len(src)] {
		return 0, false
	}
	return 0, true
}

// special writes the preprocessed form of the ASCII byte src[nSrc] that a
// clean run stopped at (CR or NUL, as configured) to dst[nDst:]. A CR
// becomes LF and takes a following LF with it; if src ends right after the
// CR, d.cr remembers to drop an LF at the start of the next call. special
// returns the positions after the byte, or transform.ErrShortDst with them
// unchanged if dst is too short. The loops of Transform call it for each
// CR or NUL, with their positions, so that each needs one line for it.
func (d *decoder) special(dst, src []byte, nDst, nSrc int) (int, int, error) {
	switch c := src[nSrc]; {
	case c == '\r' && d.pat.crOn:
		if nDst >= len(dst) {
			return nDst, nSrc, transform.ErrShortDst
		}
		dst[nDst] = '\n'
		if nSrc+1 == len(src) {
			d.cr = true
			return nDst + 1, nSrc + 1, nil
		}
		if src[nSrc+1] == '\n' {
			return nDst + 1, nSrc + 2, nil
		}
		return nDst + 1, nSrc + 1, nil
	case c == 0:
		return d.nulRun(dst, src, nDst, nSrc)
	default:
		if nDst >= len(dst) {
			return nDst, nSrc, transform.ErrShortDst
		}
		dst[nDst] = c
		return nDst + 1, nSrc + 1, nil
	}
}

// nulRun is special for a NUL: it takes the whole run of NUL bytes from
// src[nSrc] that fits dst at once, each as U+FFFD (or as itself if the
// preprocessing keeps NUL), so that a page of NULs costs a copy of its
// output rather than a trip through the decoder's loop for each byte
// (20 MB of NUL took 40 times as long as 20 MB of letters).
func (d *decoder) nulRun(dst, src []byte, nDst, nSrc int) (int, int, error) {
	room := len(dst) - nDst
	if d.pat.nulOn {
		room /= len(fffd)
	}
	if room == 0 {
		return nDst, nSrc, transform.ErrShortDst
	}
	n := zeroRun(src[nSrc:min(len(src), nSrc+room)])
	if !d.pat.nulOn {
		clear(dst[nDst : nDst+n])
		return nDst + n, nSrc + n, nil
	}
	putFFFD(dst[nDst : nDst+n*len(fffd)])
	return nDst + n*len(fffd), nSrc + n, nil
}

// fffd16 is sixteen U+FFFD, the pattern putFFFD starts from.
const fffd16 = fffd + fffd + fffd + fffd + fffd + fffd + fffd + fffd +
	fffd + fffd + fffd + fffd + fffd + fffd + fffd + fffd

// putFFFD fills d, whose length is a multiple of three, with U+FFFD: a
// few at a time while d is short, then by doubling what it has written
// (one memmove each, as bytes.Repeat does).
func putFFFD(d []byte) {
	k := copy(d, fffd16)
	for k < len(d) {
		k += copy(d[k:], d[:k])
	}
}

// zeroRun returns the length of the run of 00 bytes at the start of s,
// 32 bytes at a time, then eight.
func zeroRun(s []byte) int {
	i := 0
	for ; i <= len(s)-32; i += 32 {
		w := (*[32]byte)(s[i:])
		if binary.LittleEndian.Uint64(w[:8])|binary.LittleEndian.Uint64(w[8:16])|binary.LittleEndian.Uint64(w[16:24])|binary.LittleEndian.Uint64(w[24:]) != 0 {
			break
		}
	}
	for ; i <= len(s)-8; i += 8 {
		if x := binary.LittleEndian.Uint64(s[i : i+8]); x != 0 {
			return i + bits.TrailingZeros64(x)>>3
		}
	}
	for i < len(s) && s[i] == 0 {
		i++
	}
	return i
}

// skipLF drops an LF at the start of src if the previous call ended with a
// CR, and returns the bytes dropped.
func (d *decoder) skipLF(src []byte) int {
	if d.cr && len(src) > 0 {
		d.cr = false
		if src[0] == '\n' {
			return 1
		}
	}
	return 0
}

// codec is Transform on pathCodec: the codec decoder writes into the stage,
// and the stage is preprocessed into dst.
func (d *decoder) codec(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	if d.direct && d.s0 == d.s1 && len(dst) >= 16 {
		var done bool
		nDst, nSrc, err, done = d.codecDirect(dst, src, atEOF)
		if done {
			return nDst, nSrc, err
		}
	}
	for {
		if d.s0 < d.s1 {
			n, m := d.preprocess(dst[nDst:], d.stage[d.s0:d.s1])
			nDst += n
			d.s0 += m
			if d.s0 < d.s1 {
				return nDst, nSrc, transform.ErrShortDst
			}
		}
		if nSrc == len(src) && !atEOF {
			return nDst, nSrc, nil
		}
		if d.stage == nil {
			d.stage = new([stageSize]byte)
		}
		n, m, terr := d.t.Transform(d.stage[:], src[nSrc:], atEOF)
		d.noteHigh(d.track, src[nSrc:nSrc+m])
		nSrc += m
		d.s0, d.s1 = 0, n
		if n == 0 && (m == 0 || terr != nil) {
			// No output and no progress (the codec needs more input, or is
			// done at EOF), or a failure, which codecs never report.
			if terr == transform.ErrShortDst {
				terr = errCodecStuck
			}
			return nDst, nSrc, terr
		}
	}
}

// preprocess copies UTF-8 from src to dst, normalizing newlines and
// replacing NUL as configured. It returns the bytes written and read; it
// stops when dst is full (possibly inside a multi-byte character).
func (d *decoder) preprocess(dst, src []byte) (nDst, nSrc int) {
	if !d.pat.crOn && !d.pat.nulOn {
		n := copy(dst, src)
		return n, n
	}
	nSrc = d.skipLF(src)
	for nSrc < len(src) {
		k := d.pat.copyUTF8(dst[nDst:], src[nSrc:])
		nDst += k
		nSrc += k
		if nSrc == len(src) {
			break
		}
		var err error
		if nDst, nSrc, err = d.special(dst, src, nDst, nSrc); err != nil {
			break
		}
	}
	return nDst, nSrc
}

// directCodec reports whether the codec of e may decode straight into the
// caller's buffer: its output holds U+0000 only where its input holds a
// 00 byte, so that the one step of the preprocessing that grows the text
// (U+0000 to U+FFFD) can be avoided by cutting the input at the first 00
// byte. These are the double-byte encodings, whose every byte below 0x80
// decodes to itself.
func directCodec(e override.Encoding) bool {
	switch e {
	case override.ShiftJIS, override.EUCJP, override.GBK, override.GB18030, override.Big5, override.EUCKR:
		return true
	}
	return false
}

// codecDirect is the codec path without the stage: the codec decodes
// straight into dst, and CR LF and lone CR are turned into LF in place,
// which only shrinks the text. The input is cut before the first 00 byte
// when NUL is replaced, so the output holds no U+0000. (Shift_JIS through
// the decode Reader, cachegrind, when this path came: 18.7 instructions a
// byte through the stage, 15.5 without.) It reports done false when the
// caller's staged loop must go on from nDst, nSrc: at a 00 byte, or for a
// sequence cut by that cut.
func (d *decoder) codecDirect(dst, src []byte, atEOF bool) (nDst, nSrc int, err error, done bool) {
	// The search for 00 looks no further than the codec is likely to read:
	// it writes at least one byte for each byte of ASCII and each
	// character of two bytes, so it usually fills dst before it reads
	// 5/4×len(dst) bytes (and if not, it stops early, which is allowed).
	s, cut, window := src, false, false
	if w := len(dst) + len(dst)/4; len(s) > w {
		s, window = s[:w], true
	}
	// One search finds the first CR or 00 byte. These codecs write CR
	// only for a 0D byte (no trail byte is 0D), so with none in s the
	// output needs no newline normalization.
	k := indexSpecial(s, d.pat.crOn, d.pat.nulOn)
	hasCR := k >= 0 && s[k] == '\r'
	if hasCR {
		// The first 00 byte, if any, is past the CR.
		k = nextByte(s, k, 0, d.pat.nulOn)
		if k == len(s) {
			k = -1
		}
	}
	if k >= 0 {
		if k < 16 {
			return 0, 0, nil, false
		}
		s, cut, window = s[:k], true, false
	}
	n, m, err := d.t.Transform(dst, s, atEOF && !cut && !window)
	if window && (err == nil || err == transform.ErrShortSrc) {
		// The codec read to the end of the window: the caller comes back
		// for more.
		err = transform.ErrShortDst
	}
	d.noteHigh(d.track, s[:m])
	if hasCR || d.cr {
		n = d.compactCR(dst[:n])
	}
	if m == len(src) || err == transform.ErrShortDst || err != nil && err != transform.ErrShortSrc || err == transform.ErrShortSrc && !cut {
		return n, m, err, true
	}
	return n, m, nil, false
}

// squeezeMin is the least text from the first CR on for which compactCR
// takes the vector path (squeezeCR): with less, a line or two, its loop of
// a search and a copy a line costs less.
const squeezeMin = 64

// squeezeCR is compactCR from the first CR on (b[r+k], the text before it
// having no CR): squeezeBlocks takes it (the assembly 32 bytes a step
// whatever their line ends, its Go twin a line a step), and the last
// bytes the assembly leaves go one at a time.
func (d *decoder) squeezeCR(b []byte, r, k int) int {
	w := k
	if r > 0 {
		copy(b, b[r:r+k])
	}
	r, w, cr := squeezeBlocks(b, r+k, w, 0)
	for ; r < len(b); r++ {
		c := b[r]
		if c == '\n' && cr != 0 {
			cr = 0
			continue
		}
		cr = 0
		if c == '\r' {
			c, cr = '\n', 1
		}
		b[w] = c
		w++
	}
	d.cr = cr != 0
	return w
}

// compactCR applies newline normalization in place to b, which is UTF-8,
// and returns the new length: CR LF and lone CR become LF, and an LF right
// after a CR that ended the previous output is dropped.
func (d *decoder) compactCR(b []byte) int {
	r := 0
	if d.cr && len(b) > 0 {
		d.cr = false
		if b[0] == '\n' {
			r = 1
		}
	}
	k := bytes.IndexByte(b[r:], '\r')
	if k < 0 {
		if r == 0 {
			return len(b)
		}
		return copy(b, b[r:])
	}
	if len(b)-r-k >= squeezeMin {
		return d.squeezeCR(b, r, k)
	}
	w := 0
	for {
		w += copy(b[w:], b[r:r+k])
		r += k
		b[w] = '\n'
		w++
		r++
		if r == len(b) {
			d.cr = true
			break
		}
		if b[r] == '\n' {
			r++
		}
		if k = bytes.IndexByte(b[r:], '\r'); k < 0 {
			w += copy(b[w:], b[r:])
			break
		}
	}
	return w
}
