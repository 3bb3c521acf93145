// Package autodetect is the machinery of the autodetection step of the
// WHATWG encoding sniffing algorithm, kept out of the public API: the
// frequency-analysis detector that package detect presents (its three
// calls, and what else its users inside the module ask of it: how much
// evidence a guess rests on, and whether a rival is still in the running),
// the answers that structure alone gives, which sniff's step tries first,
// and the Autodetector, which runs the step over a prefix that grows, for
// decode's late autodetection.
//
// The detector's statistics are generated (tables.go, by internal/gen)
// from translated manual pages and gettext catalogs; detect/README.md says
// how, and what accuracy they reach.
package autodetect

//go:generate go run ./internal/gen -corpus /tmp/charsniff-corpus -spec ../spec/whatwg-encoding -out tables.go

import (
	"encoding/binary"
	"math/bits"

	"github.com/charsniff/charsniff/internal/utf8seq"
	"github.com/charsniff/charsniff/override"

	"github.com/charsniff/charsniff/internal/ascii"
)

// Strength is the kind of evidence a guess rests on: detect.Strength,
// which documents the values.
type Strength uint8

const (
	// NoEvidence means the input gave no evidence (it is ASCII, or no
	// candidate decodes it without errors, or too little of it is
	// non-ASCII to tell encodings apart): the guess is the hint's
	// default encoding, or windows-1252.
	NoEvidence Strength = iota
	// Statistical means the guess won on character statistics.
	Statistical
	// Structural means the guess follows from structure alone: valid
	// UTF-8 with non-ASCII bytes, ISO-2022-JP escape sequences, or the
	// zero bytes of ASCII text in UTF-16.
	Structural
)

// String returns "none", "statistical" or "structural".
func (s Strength) String() string {
	switch s {
	case Statistical:
		return "statistical"
	case Structural:
		return "structural"
	}
	return "none"
}

// Scoring knobs, in the units of the generated tables: quarter bits of
// log-likelihood (a score of -4 is a factor of 1/2).
const (
	// cjkBoundary is added when text switches between ASCII and double-byte
	// characters, the CJK counterpart of the single-byte scores for a
	// letter next to a space or punctuation (about 1 in 4).
	cjkBoundary = -8
	// halfWidthKatakana is the cost of a half-width katakana in Shift_JIS
	// or EUC-JP: legal but rare on the Web since the 1990s (1 in 2^15).
	halfWidthKatakana = -60
	// jis0212Char is the cost of a JIS X 0212 character in EUC-JP: valid
	// but almost never used (1 in 2^25).
	jis0212Char = -100
	// gb18030FourByte is the cost of a four-byte gb18030 sequence: valid,
	// but rare in pages that a browser would guess for.
	gb18030FourByte = -100
	// gbkEuro is the cost of the lone byte 0x80 (euro sign) in GBK, so that
	// a windows-1252 euro sign does not make English look Chinese.
	gbkEuro = -80
	// caseSwitch is the cost of an upper-case letter right after a
	// lower-case one ("aB"), rare in bicameral scripts and typical of a
	// wrong guess between encodings that put the cases in different halves.
	caseSwitch = -24
	// hintBonus is added to the encodings customary for the hinted TLD or
	// language: it settles close calls (about 12 bits of evidence) but not
	// clear ones, as browsers' TLD defaults do.
	hintBonus = 48
)

// Short inputs: a title or a few words hold a handful of non-ASCII bytes,
// and a handful of letters often fits some model of a rare encoding as
// well as the right one (two kanji in Shift_JIS read as four capitals in
// IBM866). On such inputs rare encodings need more evidence and the
// hint's default wins close calls, as in chardetng. The values were chosen
// on a table of short snippets (TestShortInputs) and checked against the
// held-out evaluation, which they do not make worse.
const (
	// shortEvidence is the number of non-ASCII bytes up to which an input
	// is short: a few words.
	shortEvidence = 16
	// rareEncoding is added on short inputs to the encodings that browsers
	// detect but few pages ever used (see rare), unless the hint's region
	// favours them: 24 bits. At 16 bits two-kanji Shift_JIS titles still
	// came out as IBM866.
	rareEncoding = -96
	// decisive is how far, on short inputs, a guess that the hint's region
	// does not favour must lead the region's default encoding: 8 bits.
	// Closer calls answer the default, with NoEvidence.
	decisive = 32
)

// rare reports whether e is one of the encodings that browsers detect but
// few pages used. KOI8-R is not: it was common in Russian legacy pages.
func rare(e override.Encoding) bool {
	switch e {
	case override.IBM866, override.ISO8859_4, override.ISO8859_5, override.ISO8859_6, override.ISO8859_8, override.ISO8859_13:
		return true
	}
	return false
}

// Byte classes of the generated single-byte tables.
const (
	classRare = 5    // the first letter class: a letter outside the alphabet
	upperBit  = 0x80 // set on upper-case letters
	invalid   = 0xFF // unmapped byte or C1 control: disqualifies the encoding
)

// sbEncoding is one single-byte candidate: its encoding and the class of
// each of its bytes in its group's alphabet.
type sbEncoding struct {
	enc     override.Encoding
	classes [256]uint8
}

// sbRow is one scored pair of a single-byte encoding and a language model
// of its group: the model's n*n scores start at sbScores[off].
type sbRow struct {
	enc uint8 // index in sbEncodings
	n   uint16
	off uint32
}

// allRows has a bit set for each row of sbRows.
const allRows = 1<<numRows - 1

// browserRows has a bit set for each row of sbRows that a browser scores:
// the others are the wide detector's (Detector.All).
const browserRows = 1<<numBrowserRows - 1

// rowsOf[e] has bit r set if sbRows[r] scores sbEncodings[e].
var rowsOf = func() (m [numSingleByte]uint64) {
	for r, row := range sbRows {
		m[row.enc] |= 1 << r
	}
	return m
}()

// encWidth[e] is the class count n of every row of sbEncodings[e]: the
// rows of an encoding share its byte classes, so feedSingleByte computes
// the index i*n+j of a pair once per encoding, not once per row. It
// panics at init if two rows of an encoding disagree.
var encWidth = func() (w [numSingleByte]int) {
	for _, row := range sbRows {
		if w[row.enc] != 0 && w[row.enc] != int(row.n) {
			panic("detect: rows of one encoding with different class counts")
		}
		w[row.enc] = int(row.n)
	}
	return w
}()

// rowOff[r] is sbRows[r].off, apart so that the per-row loop of
// feedSingleByte reads one dense array.
var rowOff = func() (o [numRows]int) {
	for r, row := range sbRows {
		o[r] = int(row.off)
	}
	return o
}()

// Pruning: at the firstPrune-th non-ASCII byte and every pruneEvery-th,
// candidates more than pruneMargin behind the leader stop being scored
// (the first prune at 16 rather than 32 halves the all-rows scoring of
// a page whose first kilobyte holds a few letters; eval: Baltic gains one
// document, nothing loses). 64 bits of evidence
// against a candidate is more than any later text plausibly reverses, and
// far more than hintBonus; pruning at byte counts keeps the guess
// independent of chunking.
//
// Before that, at the earlyPrune-th, only whole single-byte encodings
// stop, those all of whose rows are more than earlyMargin behind (another
// script's, mostly): eight letters tell scripts apart, not always the
// languages of one (a Polish sentence, then a Czech one, reads as Hebrew
// if the Czech rows go at 8, or with a margin of 64 bits windows-1250's).
// It scores letters 9 to 16 of a page with a few accented letters in its
// first kilobyte at about half the cost; eval answers are unchanged.
const (
	pruneEvery  = 32
	firstPrune  = 16
	earlyPrune  = 8
	earlyMargin = 2 * pruneMargin
	pruneMargin = 4 * 64
)

// The double-byte candidates, after the single-byte ones.
const (
	cjkShiftJIS = iota
	cjkEUCJP
	cjkEUCKR
	cjkGBK
	cjkBig5
	numCJK
)

var cjkEncodings = [numCJK]override.Encoding{override.ShiftJIS, override.EUCJP, override.EUCKR, override.GBK, override.Big5}

// cjkState is the decoder state and score of one double-byte candidate.
type cjkState struct {
	score    int32
	lead     byte // pending lead byte, 0 if none
	lead2    byte // second pending byte (EUC-JP 0x8F, gb18030 four-byte)
	lead3    byte // third pending byte (gb18030 four-byte)
	dead     bool // a decoding error was seen
	inChar   bool // the last complete character was double-byte
	seenHigh bool // a non-ASCII byte was seen (for the katakana rule)
}

// utf16MinUnits is the number of code units of ASCII text in UTF-16 needed
// before the zero-byte pattern counts as unmistakable.
const utf16MinUnits = 16

// Detector guesses an encoding from bytes fed to it: the frequency
// analysis behind detect.Detector, whose documentation of Feed, Guess and
// Reset is the contract of the same methods here. The zero Detector is
// ready to be fed. A Detector is not safe for concurrent use, holds no
// pointers, and never allocates.
type Detector struct {
	// All is detect.Detector.All: the wide detector. Set it before the
	// first Feed; Reset keeps it.
	All bool

	n         int64 // bytes fed so far
	prev      byte  // the last byte fed; 0 (a space, to the statistics) before any
	busy      bool  // a multi-byte sequence is pending or prev is not ASCII: ASCII may not be skipped
	nonASCII  int64 // bytes 0x80-0xFF fed
	punct     int64 // of them, shared punctuation (sharedPunct)
	tail      int64 // length of the run of bytes 0x80-0xFF that ends the input
	eof       bool  // the last chunk was fed: the input is complete
	zeros     [2]int64
	koi8U     bool   // a byte that is a Ukrainian or Belarusian letter only in KOI8-U
	hist      uint32 // the last 4 bytes fed, the last in the low byte (latin.go)
	lone      int64  // lone non-ASCII letters in ASCII words (latin.go)
	lonePunct int64  // of them, shared punctuation (latin.go)
	gb4       bool   // a four-byte gb18030 sequence was seen

	sbScore [numRows]int32
	sbDead  uint64 // bit r: sbRows[r] is no longer a candidate (or, without All, a wide row)

	cjk     [numCJK]cjkState
	cjkDead bool // every cjk[k].dead, as of the last prune (a candidate never comes back to life)

	utf8Need int  // continuation bytes still expected; 0 once utf8Dead
	utf8Lo   byte // bounds of the next continuation byte, while utf8Need > 0
	utf8Hi   byte
	utf8Dead bool
	utf8Runs int64 // complete non-ASCII UTF-8 characters

	esc     byte // ISO-2022-JP escape state: 0, 1 after ESC, '$' or '(' after ESC $ or ESC (
	escSeen bool // a valid escape sequence was seen
	escBad  bool // an invalid escape sequence was seen
}

// NonASCII returns the number of bytes 0x80-0xFF fed since New or Reset:
// the amount of evidence a Statistical guess rests on. A caller that
// reads on while it can (package decode's look-ahead) asks it to tell a
// guess from a handful of letters, which more text may overturn, from one
// it can keep.
func (d *Detector) NonASCII() int64 { return d.nonASCII }

// Evidence returns how many of the bytes 0x80-0xFF fed can tell e from
// the other encodings Guess answers: NonASCII, less, for a windows
// encoding, the … • “ ” ‘ ’ – — (0x85, 0x91-0x97) that every windows
// encoding reads as the same punctuation (Guess does not let them decide
// between those). A caller that keeps a guess once it rests on enough
// evidence (package sniff) counts these: a page of English strings with
// curly quotes is no evidence of the encoding of the Hebrew words that
// come later.
func (d *Detector) Evidence(e override.Encoding) int64 {
	switch e {
	case override.Windows1250, override.Windows1251, override.Windows1252, override.Windows1253,
		override.Windows1254, override.Windows1255, override.Windows1256, override.Windows1257,
		override.Windows1258, override.Windows874:
		return d.nonASCII - d.punct
	}
	return d.nonASCII
}

// Twin returns the encoding that decodes most of e's letters alike, where
// no count of letters tells the two apart and only a few bytes do:
// ISO-8859-7 for windows-1253 and back (Ά, the quotation marks); Unknown
// for any other e. A caller that reads on while a guess may change asks
// [Detector.Candidate] whether e's twin is still in the running.
func Twin(e override.Encoding) override.Encoding {
	switch e {
	case override.Windows1253:
		return override.ISO8859_7
	case override.ISO8859_7:
		return override.Windows1253
	}
	return override.Unknown
}

// Candidate reports whether Guess may still answer e by statistics: e is
// UTF-8, a single-byte or a double-byte encoding the detector scores, and
// no byte fed so far has disqualified it, nor has pruning dropped it (a
// candidate far behind the leader is no longer scored and never comes
// back). KOI8-R and KOI8-U are one candidate, as are GBK and gb18030. For any other
// encoding (UTF-16 and ISO-2022-JP follow from structure) it reports
// false. A caller that reads on while a guess may change (package
// sniff's Autodetector) asks it whether a close rival is still in the
// running: windows-1253 and ISO-8859-7 decode Greek letters alike and
// differ in a few bytes, so a guess of one is final only once the other
// is out.
func (d *Detector) Candidate(e override.Encoding) bool {
	switch e {
	case override.UTF8:
		return !d.utf8Dead
	case override.KOI8R:
		e = override.KOI8U // one row set; Guess names it by the letters seen
	case override.GB18030:
		e = override.GBK
	}
	for k, c := range cjkEncodings {
		if c == e {
			return !d.cjk[k].dead
		}
	}
	live := allRows &^ d.sbDead
	if !d.All {
		live &= browserRows
	}
	for i := range sbEncodings {
		if sbEncodings[i].enc == e {
			return rowsOf[i]&live != 0
		}
	}
	return false
}

// Reset forgets all bytes fed, as if d were new; it keeps d.All
// (detect.Detector.Reset).
func (d *Detector) Reset() { *d = Detector{All: d.All} }

// Masks for looking at eight bytes at once.
const (
	lsb = ascii.LowBits
	msb = ascii.HighBits
)

// hasZeroByte reports whether one of the 8 bytes of w is zero.
func hasZeroByte(w uint64) bool { return (w-lsb)&^w&msb != 0 }

// zeroOrEsc(w)&msb is not zero if and only if a byte of w is NUL or ESC.
func zeroOrEsc(w uint64) uint64 {
	e := w ^ 0x1B*lsb
	return (w-lsb)&^w | (e-lsb)&^e
}

// Feed examines the next chunk of the input (detect.Detector.Feed).
func (d *Detector) Feed(p []byte, last bool) bool {
	if d.eof {
		panic("detect: Feed after the last chunk")
	}
	d.eof = last
	if !d.All && len(p) > 0 {
		d.sbDead |= allRows &^ browserRows // never scored: not a browser's
	}
	i := 0
	for i < len(p) {
		if !d.busy {
			// Skip ASCII that holds no zero byte and no ESC: pairs of ASCII
			// bytes never count, and no decoder is mid-sequence.
			start := i
			for i+32 <= len(p) {
				q := p[i : i+32 : i+32]
				a := binary.LittleEndian.Uint64(q)
				b := binary.LittleEndian.Uint64(q[8:])
				c := binary.LittleEndian.Uint64(q[16:])
				e := binary.LittleEndian.Uint64(q[24:])
				if (a|b|c|e)&msb != 0 || (zeroOrEsc(a)|zeroOrEsc(b)|zeroOrEsc(c)|zeroOrEsc(e))&msb != 0 {
					break
				}
				i += 32
			}
			for i+8 <= len(p) {
				w := binary.LittleEndian.Uint64(p[i:])
				if w&msb != 0 || hasZeroByte(w) || hasZeroByte(w^(0x1B*lsb)) {
					break
				}
				i += 8
			}
			for i < len(p) {
				if b := p[i]; b >= 0x80 || b == 0 || b == 0x1B {
					break
				}
				i++
			}
			if i > start {
				d.tail = 0
				d.n += int64(i - start)
				d.hist = history(d.hist, p[start:i])
				d.prev = p[i-1]
				for k := range d.cjk {
					d.cjk[k].ascii()
				}
			}
			if i == len(p) {
				break
			}
		}
		d.feedByte(p[i])
		i++
	}
	return d.nonASCII > 0
}

// ascii is the effect of an ASCII byte on a double-byte candidate with no
// lead byte pending.
func (s *cjkState) ascii() {
	if s.inChar {
		s.score += cjkBoundary
		s.inChar = false
	}
}

// char scores a complete double-byte character of frequency letter f from
// a generated table (' ' unmapped).
func (s *cjkState) char(f byte) {
	if f == ' ' {
		s.dead = true
		return
	}
	s.score -= 4 * int32(f-'@')
	if !s.inChar {
		s.score += cjkBoundary
		s.inChar = true
	}
}

// other scores a valid character that the frequency tables do not cover.
func (s *cjkState) other(cost int32) {
	s.score += cost
	if !s.inChar {
		s.score += cjkBoundary
		s.inChar = true
	}
}

func (d *Detector) feedByte(b byte) {
	pos := d.n
	d.n++
	if b <= 0x1B { // NUL or ESC, rare in text: one test for both
		if b == 0 {
			d.zeros[pos&1]++
		}
		if b == 0x1B || d.esc != 0 {
			d.feedEscape(b)
		}
	} else if d.esc != 0 {
		d.feedEscape(b)
	}
	if b < 0x80 {
		d.tail = 0
	} else {
		d.tail++
		d.nonASCII++
	}
	sp := sharedTab[b] // 0 below 0x80
	d.punct += int64(sp)
	if b < 0x80 && d.prev >= 0x80 && loneLetter(d.hist, b) {
		d.lone += int64(loneTab[d.prev])
		d.lonePunct += int64(sharedTab[d.prev])
	}
	d.hist = d.hist<<8 | uint32(b)

	if !d.utf8Dead {
		d.feedUTF8(b)
	}

	// Single-byte candidates score every pair with a non-ASCII byte.
	if (b >= 0x80 || d.prev >= 0x80) && d.sbDead != allRows {
		d.feedSingleByte(d.prev, b, sp|sharedTab[d.prev] != 0)
	}

	if !d.cjkDead {
		if !d.cjk[cjkShiftJIS].dead {
			d.feedShiftJIS(&d.cjk[cjkShiftJIS], b)
		}
		if !d.cjk[cjkEUCJP].dead {
			d.feedEUCJP(&d.cjk[cjkEUCJP], b)
		}
		if !d.cjk[cjkEUCKR].dead {
			d.feedEUCKR(&d.cjk[cjkEUCKR], b)
		}
		if !d.cjk[cjkGBK].dead {
			d.feedGBK(&d.cjk[cjkGBK], b)
		}
		if !d.cjk[cjkBig5].dead {
			d.feedBig5(&d.cjk[cjkBig5], b)
		}
	}

	d.prev = b
	d.busy = b >= 0x80 || d.esc != 0 || d.utf8Need != 0
	if !d.busy && !d.cjkDead {
		for k := range d.cjk {
			if d.cjk[k].lead != 0 && !d.cjk[k].dead {
				d.busy = true
				break
			}
		}
	}
	if b >= 0x80 && (d.nonASCII%pruneEvery == 0 || d.nonASCII == firstPrune || d.nonASCII == earlyPrune) {
		d.prune(d.nonASCII == earlyPrune)
	}
}

// feedEscape follows ISO-2022-JP escape sequences.
func (d *Detector) feedEscape(b byte) {
	switch {
	case b == 0x1B:
		if d.esc != 0 {
			d.escBad = true
		}
		d.esc = 1
	case d.esc == 1:
		if b == '$' || b == '(' {
			d.esc = b
		} else {
			d.escBad, d.esc = true, 0
		}
	case d.esc == '$':
		if b == '@' || b == 'B' {
			d.escSeen = true
		} else {
			d.escBad = true
		}
		d.esc = 0
	case d.esc == '(':
		if b == 'B' || b == 'J' || b == 'I' {
			d.escSeen = true
		} else {
			d.escBad = true
		}
		d.esc = 0
	}

}

// feedUTF8 validates UTF-8 as the Encoding Standard's UTF-8 decoder does.
// It is called only while UTF-8 is a candidate.
func (d *Detector) feedUTF8(b byte) {
	if d.utf8Need == 0 {
		d.utf8Need, d.utf8Lo, d.utf8Hi = utf8seq.Lead(b)
		if d.utf8Need < 0 {
			d.utf8Dead, d.utf8Need = true, 0
		}
		return
	}
	if b < d.utf8Lo || b > d.utf8Hi {
		d.utf8Dead, d.utf8Need = true, 0 // nothing pending: ASCII may be skipped again
		return
	}
	d.utf8Lo, d.utf8Hi = 0x80, 0xBF
	d.utf8Need--
	if d.utf8Need == 0 {
		d.utf8Runs++
	}
}

// feedSingleByte scores the pair (p, b) for every live single-byte
// candidate; mark reports that p or b is shared punctuation
// (sharedPunct), which feedByte looks up once for each byte.
func (d *Detector) feedSingleByte(p, b byte, mark bool) {
	if b >= 0xA0 && b < 0xC0 {
		switch b {
		case 0xA4, 0xA6, 0xA7, 0xAD, 0xAE, 0xB4, 0xB6, 0xB7, 0xBD, 0xBE:
			d.koi8U = true
		}
	}
	if mark && sharedPair(p, b) {
		d.feedShared(p, b)
		return
	}
	// Encoding by encoding: the byte classes and the case test are the
	// encoding's, shared by its rows (one per language model).
	for live := allRows &^ d.sbDead; live != 0; {
		enc := sbRows[bits.TrailingZeros64(live)].enc
		rows := rowsOf[enc] & live
		live &^= rows
		e := &sbEncodings[enc]
		cb := e.classes[b]
		if cb == invalid {
			d.sbDead |= rowsOf[enc]
			continue
		}
		cp := e.classes[p]
		if cp == invalid {
			continue // cannot happen: p would have disqualified the encoding
		}
		var sw int32
		if cb&upperBit != 0 && cp&upperBit == 0 && cp >= classRare {
			sw = caseSwitch
		}
		k := int(cp&^upperBit)*encWidth[enc] + int(cb&^upperBit)
		for ; rows != 0; rows &= rows - 1 {
			r := bits.TrailingZeros64(rows) & (numRows - 1)
			d.sbScore[r] += int32(sbScores[rowOff[r]+k]) + sw
		}
	}
}

// pair returns the index k in the score matrix of each row of
// sbEncodings[enc] of the pair (p, b), and the cost sw of its change of
// case; ok is false if b rules enc out, which pair records.
func (d *Detector) pair(enc uint8, p, b byte) (k int, sw int32, ok bool) {
	e := &sbEncodings[enc]
	cb, cp := e.classes[b], e.classes[p]
	if cb == invalid {
		d.sbDead |= rowsOf[enc]
		return 0, 0, false
	}
	// cp is not invalid: p would have ruled enc out.
	if cb&upperBit != 0 && cp&upperBit == 0 && cp >= classRare {
		sw = caseSwitch
	}
	return int(cp&^upperBit)*encWidth[enc] + int(cb&^upperBit), sw, true
}

// score adds the pair at k, and sw, to each of rows.
func (d *Detector) score(rows uint64, k int, sw int32) {
	for ; rows != 0; rows &= rows - 1 {
		r := bits.TrailingZeros64(rows) & (numRows - 1)
		d.sbScore[r] += int32(sbScores[rowOff[r]+k]) + sw
	}
}

// feedShared scores a pair of shared punctuation and ASCII (“%s”,
// didn’t), or of two shared marks. It means the same in every encoding
// that reads it as punctuation: each of their rows adds the best of their
// scores, so that no language model's view of quotation marks (rare in
// the training text of some) decides between encodings; a pair no model
// finds plausible (“ between two kanji bytes) still costs. An encoding
// with letters there (macintosh) is scored as usual.
func (d *Detector) feedShared(p, b byte) {
	best := int32(-1 << 31)
	var punct uint64 // the rows that read the pair as punctuation
	for live := allRows &^ d.sbDead; live != 0; {
		enc := sbRows[bits.TrailingZeros64(live)].enc
		rows := rowsOf[enc] & live
		live &^= rows
		k, sw, ok := d.pair(enc, p, b)
		if e := &sbEncodings[enc]; !ok || e.classes[b]&^upperBit >= classRare && sharedPunct(b) ||
			e.classes[p]&^upperBit >= classRare && sharedPunct(p) {
			if ok {
				d.score(rows, k, sw)
			}
			continue
		}
		punct |= rows
		for ; rows != 0; rows &= rows - 1 {
			r := bits.TrailingZeros64(rows) & (numRows - 1)
			best = max(best, int32(sbScores[rowOff[r]+k])+sw)
		}
	}
	for ; punct != 0; punct &= punct - 1 {
		d.sbScore[bits.TrailingZeros64(punct)&(numRows-1)] += best
	}
}

// sharedPunct reports whether b is … • “ ” ‘ ’ – or — (0x85, 0x91-0x97):
// the same punctuation in every single-byte encoding that can decode it
// (windows-1250 to -1258, windows-874; the others rule it out as a C1
// control).
func sharedPunct(b byte) bool { return sharedTab[b] != 0 }

// sharedTab[b] is 1 where sharedPunct(b): one load, where feedSingleByte
// tests both bytes of every pair.
var sharedTab = [256]uint8{0x85: 1, 0x91: 1, 0x92: 1, 0x93: 1, 0x94: 1, 0x95: 1, 0x96: 1, 0x97: 1}

// sharedPair reports whether the pair (p, b) is shared punctuation and
// ASCII, or two shared punctuation marks.
func sharedPair(p, b byte) bool {
	return (sharedPunct(b) || b < 0x80) && (sharedPunct(p) || p < 0x80)
}

// prune stops scoring the candidates far behind the leader. While the
// text reads as Latin script (latin.go), the leader is the best Latin
// candidate, so that a foreign script cannot prune the encodings Guess
// will choose among.
func (d *Detector) prune(early bool) {
	best := int32(-1 << 31)
	latin := d.latin()
	for live := allRows &^ d.sbDead; live != 0; live &= live - 1 {
		r := bits.TrailingZeros64(live)
		if !latin || latinScript(sbEncodings[sbRows[r].enc].enc) {
			best = max(best, d.sbScore[r])
		}
	}
	for k := range d.cjk {
		if !d.cjk[k].dead && !latin {
			best = max(best, d.cjk[k].score)
		}
	}
	if early {
		// Whole encodings only, and no double-byte candidate.
		for live := allRows &^ d.sbDead; live != 0; {
			rows := rowsOf[sbRows[bits.TrailingZeros64(live)].enc] & live
			live &^= rows
			lead := int32(-1 << 31)
			for rs := rows; rs != 0; rs &= rs - 1 {
				lead = max(lead, d.sbScore[bits.TrailingZeros64(rs)])
			}
			if lead < best-earlyMargin {
				d.sbDead |= rows
			}
		}
		return
	}
	for live := allRows &^ d.sbDead; live != 0; live &= live - 1 {
		r := bits.TrailingZeros64(live)
		if d.sbScore[r] < best-pruneMargin {
			d.sbDead |= 1 << r
		}
	}
	d.cjkDead = true
	for k := range d.cjk {
		if d.cjk[k].score < best-pruneMargin {
			d.cjk[k].dead = true
		}
		d.cjkDead = d.cjkDead && d.cjk[k].dead
	}
}

// The feeders of the double-byte candidates are called only while their
// candidate is live (feedByte checks).

// feedShiftJIS follows the Encoding Standard's Shift_JIS decoder.
func (d *Detector) feedShiftJIS(s *cjkState, b byte) {
	if l := s.lead; l != 0 {
		s.lead = 0
		if (b >= 0x40 && b <= 0x7E) || (b >= 0x80 && b <= 0xFC) {
			lo, to := 0x81, 0x40
			if l >= 0xA0 {
				lo = 0xC1
			}
			if b >= 0x7F {
				to = 0x41
			}
			s.char(jis0208Freq[(int(l)-lo)*188+int(b)-to])
			return
		}
		s.dead = true
		return
	}
	switch {
	case b < 0x80:
		s.ascii()
	case b >= 0xA1 && b <= 0xDF:
		// Half-width katakana as the first non-ASCII character is the
		// telltale of EUC-JP or another encoding misread as Shift_JIS.
		if !s.seenHigh {
			s.dead = true
		}
		s.other(halfWidthKatakana)
	case (b >= 0x81 && b <= 0x9F) || (b >= 0xE0 && b <= 0xFC):
		s.lead = b
	default: // 0x80 (a C1 control), 0xA0, 0xFD-0xFF
		s.dead = true
	}
	if b >= 0x80 {
		s.seenHigh = true
	}
}

// feedEUCJP follows the Encoding Standard's EUC-JP decoder.
func (d *Detector) feedEUCJP(s *cjkState, b byte) {
	inRange := b >= 0xA1 && b <= 0xFE
	switch l := s.lead; {
	case l == 0x8E:
		s.lead = 0
		if b < 0xA1 || b > 0xDF {
			s.dead = true
			return
		}
		if !s.seenHigh {
			s.dead = true
		}
		s.seenHigh = true
		s.other(halfWidthKatakana)
		return
	case l == 0x8F:
		if !inRange {
			s.dead = true
			return
		}
		if s.lead2 == 0 {
			s.lead2 = b
			return
		}
		s.lead, s.lead2 = 0, 0
		s.seenHigh = true
		s.other(jis0212Char)
		return
	case l != 0:
		s.lead = 0
		if !inRange {
			s.dead = true
			return
		}
		s.seenHigh = true
		s.char(jis0208Freq[(int(l)-0xA1)*94+int(b)-0xA1])
		return
	}
	switch {
	case b < 0x80:
		s.ascii()
	case b == 0x8E || b == 0x8F || inRange:
		s.lead = b
	default:
		s.dead = true
	}
}

// start takes b outside a sequence, for EUC-KR, GBK and Big5, whose lead
// bytes are 0x81 to 0xFE: ASCII, a lead byte, or an error.
func (s *cjkState) start(b byte) {
	switch {
	case b < 0x80:
		s.ascii()
	case b >= 0x81 && b <= 0xFE:
		s.lead = b
	default:
		s.dead = true
	}
}

// trail takes b as the trail byte of the pending lead byte l of a
// two-byte encoding (EUC-KR, Big5) and reports true; with no lead
// pending, it starts a character with b (start) and reports false.
func (s *cjkState) trail(b byte) (l byte, ok bool) {
	if l = s.lead; l == 0 {
		s.start(b)
		return 0, false
	}
	s.lead = 0
	return l, true
}

// feedEUCKR follows the Encoding Standard's EUC-KR decoder.
func (d *Detector) feedEUCKR(s *cjkState, b byte) {
	l, ok := s.trail(b)
	if !ok {
		return
	}
	if b >= 0x41 && b <= 0xFE {
		s.char(euckrFreq[(int(l)-0x81)*190+int(b)-0x41])
		return
	}
	s.dead = true
}

// feedGBK follows the Encoding Standard's gb18030 decoder (which GBK
// shares).
func (d *Detector) feedGBK(s *cjkState, b byte) {
	switch {
	case s.lead3 != 0: // fourth byte of a four-byte sequence
		s.lead, s.lead2, s.lead3 = 0, 0, 0
		if b < 0x30 || b > 0x39 {
			s.dead = true
			return
		}
		d.gb4 = true
		s.other(gb18030FourByte)
		return
	case s.lead2 != 0: // third byte
		if b < 0x81 || b > 0xFE {
			s.dead = true
			return
		}
		s.lead3 = b
		return
	case s.lead != 0:
		l := s.lead
		if b >= 0x30 && b <= 0x39 {
			s.lead2 = b
			return
		}
		s.lead = 0
		if (b >= 0x40 && b <= 0x7E) || (b >= 0x80 && b <= 0xFE) {
			to := 0x40
			if b >= 0x7F {
				to = 0x41
			}
			s.char(gbkFreq[(int(l)-0x81)*190+int(b)-to])
			return
		}
		s.dead = true
		return
	}
	if b == 0x80 {
		s.other(gbkEuro)
		return
	}
	s.start(b)
}

// feedBig5 follows the Encoding Standard's Big5 decoder.
func (d *Detector) feedBig5(s *cjkState, b byte) {
	l, ok := s.trail(b)
	if !ok {
		return
	}
	if (b >= 0x40 && b <= 0x7E) || (b >= 0xA1 && b <= 0xFE) {
		to := 0x40
		if b >= 0x7F {
			to = 0x62
		}
		ptr := (int(l)-0x81)*157 + int(b) - to
		switch ptr {
		case 1133, 1135, 1164, 1166: // Ê and ê with diacritics: two code points
			s.other(-4 * 31)
		default:
			s.char(big5Freq[ptr])
		}
		return
	}
	s.dead = true
}

// Guess returns the detector's guess for the bytes fed so far, favouring
// the encodings customary for hint, and how it reached it
// (detect.Detector.Guess).
func (d *Detector) Guess(hint Hint) (override.Encoding, Strength) {
	reg, fallback := hint.resolve()
	if e, ok := d.utf16(); ok {
		return e, Structural
	}
	if d.nonASCII == 0 {
		if d.escSeen && !d.escBad {
			return override.ISO2022JP, Structural
		}
		return fallback, NoEvidence
	}
	if !d.utf8Dead && d.utf8Runs > 0 && !(d.eof && d.utf8Need > 0) {
		return override.UTF8, Structural
	}
	if d.nonASCII == d.tail && !d.utf8Dead && d.utf8Need > 0 {
		// The only non-ASCII bytes are the start of a UTF-8 character
		// cut off by the end of the input. At the end of a prefix UTF-8
		// is the likeliest reading, as chardetng answers, but a guess
		// that the rest of the character may overturn; at the end of
		// the input UTF-8 is ruled out, and so few bytes tell nothing.
		if d.eof {
			return fallback, NoEvidence
		}
		return override.UTF8, Statistical
	}
	if d.nonASCII == d.tail && d.tail == 1 {
		// One byte at the end that starts no UTF-8 character: not
		// enough to tell encodings apart.
		return fallback, NoEvidence
	}
	short := d.nonASCII <= shortEvidence
	best, bestScore := override.Unknown, int32(-1<<31)
	fallbackScore := int32(-1 << 31) // the fallback's score; unset while it cannot decode the input
	latin := d.latin()
	for live := allRows &^ d.sbDead; live != 0; live &= live - 1 {
		r := bits.TrailingZeros64(live)
		e := sbEncodings[sbRows[r].enc].enc
		if latin && !latinScript(e) && !reg.Customary(e) {
			continue
		}
		s := d.sbScore[r]
		if reg.Customary(e) {
			s += hintBonus
		}
		if short && rare(e) && !reg.Customary(e) {
			s += rareEncoding
		}
		if s > bestScore {
			best, bestScore = e, s
		}
		if e == fallback {
			fallbackScore = max(fallbackScore, s)
		}
	}
	for k := range d.cjk {
		if d.cjk[k].dead || latin && !reg.Customary(cjkEncodings[k]) {
			continue
		}
		s := d.cjk[k].score
		if reg.Customary(cjkEncodings[k]) {
			s += hintBonus
		}
		if s > bestScore {
			best, bestScore = cjkEncodings[k], s
		}
		if cjkEncodings[k] == fallback {
			fallbackScore = s
		}
	}
	if short && best != fallback && !reg.Customary(best) && fallbackScore > -1<<31 && bestScore-fallbackScore < decisive {
		// A few letters that the default decodes too, and a foreign
		// guess not clearly better: the default, as chardetng answers
		// its TLD's encoding unless a candidate outscores it.
		return fallback, NoEvidence
	}
	switch best {
	case override.Unknown:
		return fallback, NoEvidence
	case override.KOI8U:
		if !d.koi8U {
			best = override.KOI8R
		}
	case override.GBK:
		if d.gb4 {
			best = override.GB18030
		}
	}
	return best, Statistical
}

// utf16 reports UTF-16 when the input looks like ASCII text in UTF-16: at
// least utf16MinUnits code units, nearly all with a zero high byte and
// nearly none with a zero low byte.
func (d *Detector) utf16() (override.Encoding, bool) {
	units := d.n / 2
	if units < utf16MinUnits {
		return override.Unknown, false
	}
	even, odd := d.zeros[0], d.zeros[1]
	switch {
	case odd*10 >= units*9 && even*20 <= units:
		return override.UTF16LE, true
	case even*10 >= units*9 && odd*20 <= units:
		return override.UTF16BE, true
	}
	return override.Unknown, false
}
