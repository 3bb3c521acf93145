package autodetect

import (
	"math/bits"

	"github.com/charsniff/charsniff/override"
)

// Latin evidence: a lone byte 0x80-0xFF between ASCII bytes, next to
// ASCII letters, is an accented letter inside a word of Latin-script text
// ("się", "równi", "Ĉiuj"). Text in another script puts its non-ASCII
// bytes in runs (a Cyrillic or Greek word, a double-byte character), so it
// has almost none, except a CJK character whose trail byte is an ASCII
// letter; such a trail byte follows a lead byte, which is why a letter
// right after a non-ASCII byte does not make the next lone byte count.
//
// A few such letters decode as some Latin encoding even when no language
// model knows them (Polish in ISO-8859-13, Esperanto in ISO-8859-3), and a
// script whose letters would all stand alone among ASCII letters is not
// what the text is written in.

// big5Punct is the lead byte of Big5's row of punctuation (，、。：；？！
// 「」『』【】, the ideographic space), whose trail bytes 0x40-0x7E are
// ASCII, most of them letters: a Big5 title in 【】 or a sentence with a
// comma puts the byte alone among ASCII letters, like an accented letter.
// In the Latin encodings it is punctuation, ¡ (windows-1252, -1254,
// -1258) or ˇ (windows-1250), a letter only in ISO-8859-2 and -4 (Ą,
// which few words start with), so it is no Latin evidence. Counted, a
// Big5 feed titled "【Leave Something】" read as Latin script until its
// Chinese text came, and the command kept the Latin guess it made there
// (TestBig5Feeds).
const big5Punct = 0xA1

// loneTab[b] is 1 where a byte b 0x80-0xFF alone among ASCII letters
// counts as a lone letter: all but big5Punct. A load where feedByte counts
// them, not a branch (a compare there cost 1.4 % of the instructions of
// BenchmarkDetectCJK/Shift_JIS/8KB, whose trail bytes are ASCII).
var loneTab = func() (t [256]uint8) {
	for i := range t {
		t[i] = 1
	}
	t[big5Punct] = 0
	return t
}()

// asciiLetter reports whether b is an ASCII letter.
func asciiLetter(b byte) bool { return b|0x20 >= 'a' && b|0x20 <= 'z' }

// loneLetter reports whether the byte before b, a byte 0x80-0xFF, is a
// lone letter in an ASCII word; hist holds the last bytes before b, the
// last in its low byte. It counts if the byte before it is ASCII and
// either that byte is a letter not right after a non-ASCII byte, or it is
// not a letter and b is.
func loneLetter(hist uint32, b byte) bool {
	p2, p3 := byte(hist>>8), byte(hist>>16)
	if p2 >= 0x80 {
		return false
	}
	if asciiLetter(p2) {
		return p3 < 0x80
	}
	return asciiLetter(b)
}

// history returns hist, the last 4 bytes fed, after the bytes of p.
func history(hist uint32, p []byte) uint32 {
	if len(p) > 4 {
		p = p[len(p)-4:]
	}
	for _, b := range p {
		hist = hist<<8 | uint32(b)
	}
	return hist
}

// latinEvidence is the share of non-ASCII bytes that must be lone
// letters in ASCII words for the text to read as Latin script: one in
// three. Measured on the sentences of the tests: Latin-script text has
// 1/3 to 1/1 (Polish with its clusters "ści" lowest; Vietnamese, 6/31,
// has its own Latin models anyway), other scripts 0 to 1/41.
const latinEvidence = 3

// latin reports whether the text reads as Latin script, so that only
// Latin-script encodings compete: at least one lone letter, one for every
// latinEvidence of the non-ASCII bytes, and a Latin-script candidate
// left. Past shortEvidence non-ASCII bytes, the shared punctuation
// (sharedPunct) counts neither as a lone letter nor among the bytes: a
// quotation mark beside an English word says the words are ASCII, which a
// title of a few bytes needs ("\x93V\x8bC", 天気 in Shift_JIS, reads as
// Cyrillic without it), but not which script the letters are in (English
// catalog strings with curly quotes before Hebrew text read as Latin with
// it). Text whose bytes have ruled every Latin encoding out is not Latin,
// however its few non-ASCII bytes sit (English strings with quotation
// marks and a few Hebrew abbreviations in windows-1255).
func (d *Detector) latin() bool {
	lone, n := d.lone, d.nonASCII
	if n > shortEvidence {
		lone, n = lone-d.lonePunct, n-d.punct
	}
	if lone == 0 || lone*latinEvidence < n {
		return false
	}
	for live := allRows &^ d.sbDead; live != 0; live &= live - 1 {
		if latinScript(sbEncodings[sbRows[bits.TrailingZeros64(live)].enc].enc) {
			return true
		}
	}
	return false
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
