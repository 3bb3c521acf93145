package autodetect

import (
	"bytes"
	"encoding/binary"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/charsniff/charsniff/override"
)

// detectors pools the built-in detectors: a Detector holds a few
// hundred bytes of state and is not safe for concurrent use.
var detectors = sync.Pool{New: func() any { return new(Detector) }}

// Builtin is sniff's default autodetection step: the detector's three
// calls (Reset, Feed, Guess) behind the sniff.Detector contract. It feeds
// prefix as the whole input when atEOF, else as a prefix (a character cut
// off at its end then counts for nothing), and asks with the hint of
// locale and tld ([HintOf]). The answer counts only when the detector
// found evidence: it declines (false) on ASCII-only input and on input
// with too few non-ASCII bytes to tell encodings apart, which leaves the
// decision to the default step. With all set it is the wide detector
// (Detector.All, sniff.Options.DetectAll). It does not allocate.
//
// When structure alone decides (quickDetect), the detector does not run:
// its statistics could not change the answer.
func Builtin(prefix []byte, locale, tld string, atEOF, all bool) (override.Encoding, bool) {
	if enc, ok, decided := quickDetect(prefix, atEOF); decided {
		return enc, ok
	}
	enc, s := Guess(prefix, locale, tld, atEOF, all)
	return enc, s > NoEvidence
}

// Guess returns the built-in detector's guess over prefix (the whole
// input if atEOF), with the hint of locale and tld, and the kind of
// evidence it rests on: the full detector, for sniff.Explain, which
// reports its strength too. It does not allocate.
func Guess(prefix []byte, locale, tld string, atEOF, all bool) (override.Encoding, Strength) {
	d := detectors.Get().(*Detector)
	d.All = all
	d.Reset()
	d.Feed(prefix, atEOF)
	enc, s := d.Guess(HintOf(locale, tld))
	detectors.Put(d)
	return enc, s
}

// HintOf returns the built-in detector's hint for sniff's Options.Locale
// and Options.TLD: a locale that starts with a dot is a top-level domain
// hint, as sniff.DefaultEncoding reads it; tld, when set, is one too and
// wins.
func HintOf(locale, tld string) Hint {
	hint := Hint{Language: locale, TLD: tld}
	if strings.HasPrefix(locale, ".") {
		hint = Hint{TLD: locale}
		if tld != "" {
			hint.TLD = tld
		}
	}
	return hint
}

// quickDetect gives the built-in detector's answer, without its
// statistics, for the two kinds of input whose answer follows from their
// structure, and decided false for any other input. The detector's Guess
// answers, in order: UTF-16 for a pattern of zero bytes, ISO-2022-JP for
// escape sequences in ASCII input, no evidence for other ASCII input, and
// UTF-8 for valid UTF-8 holding a complete non-ASCII character (a
// character cut off at the end allowed unless atEOF). So, for input
// without a zero byte:
//   - ASCII without ESC: no evidence (Unknown, false);
//   - valid UTF-8 of that kind: (UTF-8, true), whatever the hint.
//
// Both tests cost a fraction of feeding the detector, which scores every
// non-ASCII byte against some forty models. TestQuickDetect and
// FuzzQuickDetect check that the answers are the detector's.
func quickDetect(p []byte, atEOF bool) (enc override.Encoding, ok, decided bool) {
	// Skip ASCII other than NUL and ESC, 8 bytes at a time.
	i := 0
	for ; i+8 <= len(p); i += 8 {
		w := binary.LittleEndian.Uint64(p[i:])
		e := w ^ 0x1B*lsb // a zero byte where w has an ESC
		if w&msb != 0 || (w-lsb)&^w&msb != 0 || (e-lsb)&^e&msb != 0 {
			break
		}
	}
	for ; i < len(p); i++ {
		if c := p[i]; c >= utf8.RuneSelf || c == 0 || c == 0x1B {
			break
		}
	}
	switch {
	case i == len(p):
		return override.Unknown, false, true
	case p[i] < utf8.RuneSelf: // NUL or ESC: UTF-16 or ISO-2022-JP may win
		return override.Unknown, false, false
	}
	rest := p[i:]
	if !validUTF8(rest, atEOF) || bytes.IndexByte(rest, 0) >= 0 {
		return override.Unknown, false, false
	}
	return override.UTF8, true, true
}

// validUTF8 reports whether prefix is valid UTF-8 with at least one
// complete non-ASCII character, allowing a character cut off at the end
// unless atEOF (prefix is the whole input, so its last bytes will not
// follow). An all-ASCII prefix says nothing; text in a legacy encoding is
// very rarely valid UTF-8: as the HTML Standard notes, UTF-8 has a highly
// detectable bit pattern.
func validUTF8(prefix []byte, atEOF bool) bool {
	// Skip the ASCII run, 8 bytes at a time.
	i := 0
	for ; i+8 <= len(prefix); i += 8 {
		w := uint64(prefix[i]) | uint64(prefix[i+1])<<8 | uint64(prefix[i+2])<<16 | uint64(prefix[i+3])<<24 |
			uint64(prefix[i+4])<<32 | uint64(prefix[i+5])<<40 | uint64(prefix[i+6])<<48 | uint64(prefix[i+7])<<56
		if w&msb != 0 {
			break
		}
	}
	for i < len(prefix) && prefix[i] < utf8.RuneSelf {
		i++
	}
	rest := prefix[i:]
	if len(rest) == 0 {
		return false // pure ASCII
	}
	if !atEOF {
		// Set aside an incomplete last character: its lead byte is among
		// the last three bytes and it is a valid start of a longer one.
		for k := 1; k <= 3 && k <= len(rest); k++ {
			c := rest[len(rest)-k]
			if c < 0x80 {
				break
			}
			if c >= 0xC0 {
				if tail := rest[len(rest)-k:]; !utf8.FullRune(tail) {
					rest = rest[:len(rest)-k]
				}
				break
			}
		}
		if len(rest) == 0 {
			return false // only an incomplete character
		}
	}
	return utf8.Valid(rest)
}
