package detect

import "github.com/charsniff/charsniff/override"

// latinWord counts the evidence that the non-ASCII bytes are accented
// letters inside words of ASCII letters, as in Latin-script text ("się",
// "równi", "Ĉiuj"): a lone byte 0x80-0xFF between ASCII bytes, next to
// ASCII letters. Text in another script puts its non-ASCII bytes in runs
// (a Cyrillic or Greek word, a double-byte character), so it has almost
// none, except a CJK character whose trail byte is an ASCII letter; such a
// trail byte follows a lead byte, which is why a run of letters right
// after a non-ASCII byte counts only from its second letter.
//
// A run of these lone letters is what chardetng calls Latin evidence: a
// few accented letters among ASCII words decode as some Latin encoding
// even when no language model knows them (Polish in ISO-8859-13,
// Esperanto in ISO-8859-3), and a script whose letters would all be
// isolated among ASCII letters is not what the text is written in.
type latinWord struct {
	run       uint8 // ASCII letters right before the current byte, at most 2
	afterHigh bool  // the run follows a byte 0x80-0xFF; false when run is 2
	pending   bool  // the previous byte is 0x80-0xFF after an ASCII byte
	pendOK    bool  // ... and it would count if the next byte is ASCII
	pendWord  bool  // ... it starts a word: it counts if an ASCII letter follows
	lone      int64 // lone non-ASCII bytes that count as Latin evidence
}

// asciiLetter reports whether b is an ASCII letter.
func asciiLetter(b byte) bool { return b|0x20 >= 'a' && b|0x20 <= 'z' }

// next accounts for byte b after byte prev.
func (w *latinWord) next(prev, b byte) {
	if w.pending {
		w.pending = false
		if b < 0x80 && (w.pendOK || w.pendWord && asciiLetter(b)) {
			w.lone++
		}
	}
	switch {
	case b >= 0x80:
		if prev < 0x80 {
			w.pending = true
			w.pendOK = w.run >= 2 || w.run == 1 && !w.afterHigh
			w.pendWord = w.run == 0
		}
		w.run, w.afterHigh = 0, true
	case asciiLetter(b):
		w.grow(1)
	default:
		w.run, w.afterHigh = 0, false
	}
}

// skip accounts for p, a run of ASCII bytes with nothing pending (the
// detector's fast path), as next would byte by byte.
func (w *latinWord) skip(p []byte) {
	n := 0
	for n < len(p) && n < 2 && asciiLetter(p[len(p)-1-n]) {
		n++
	}
	if n < len(p) {
		// An ASCII byte that is not a letter starts the run, or it is 2 long.
		w.run, w.afterHigh = uint8(n), false
		return
	}
	w.grow(n)
}

// grow extends the run by n letters. At 2 letters, afterHigh no longer
// matters and is cleared, so that the state does not depend on how the
// input was chunked.
func (w *latinWord) grow(n int) {
	w.run = min(w.run+uint8(n), 2)
	if w.run == 2 {
		w.afterHigh = false
	}
}

// latinEvidence is the share of non-ASCII bytes that must be lone
// letters in ASCII words for the text to read as Latin script: one in
// three. Measured on the sentences of the tests: Latin-script text has
// 1/3 to 1/1 (Polish with its clusters "ści" lowest; Vietnamese, 6/31,
// has its own Latin models anyway), other scripts 0 to 1/41.
const latinEvidence = 3

// latin reports whether the text reads as Latin script: at least one lone
// letter, and one for every latinEvidence of the nonASCII bytes.
func (w *latinWord) latin(nonASCII int64) bool {
	return w.lone > 0 && w.lone*latinEvidence >= nonASCII
}

// latinScript reports whether e is an encoding of Latin-script text.
func latinScript(e override.Encoding) bool {
	switch e {
	case override.Windows1252, override.Windows1250, override.ISO8859_2, override.Windows1254,
		override.Windows1257, override.ISO8859_13, override.Windows1258,
		override.ISO8859_3, override.ISO8859_4, override.ISO8859_10, override.ISO8859_14,
		override.ISO8859_15, override.ISO8859_16, override.Macintosh:
		return true
	}
	return false
}
