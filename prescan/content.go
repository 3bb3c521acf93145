package prescan

import (
	"bytes"
	"encoding/binary"
	"math/bits"

	"github.com/charsniff/charsniff/internal/ascii"
	"github.com/charsniff/charsniff/override"
)

// contentState is a step of "extracting a character encoding from a meta
// element", run one byte at a time over a content attribute's value.
type contentState uint8

const (
	ceSearch       contentState = iota // step "Loop": looking for "charset"
	ceAfterCharset                     // skipping white space after "charset"
	ceAfterEq                          // skipping white space after =
	ceQuoted                           // inside a quoted label
	ceUnquoted                         // inside an unquoted label
	ceDone                             // the answer is known
)

// contentScan extracts a character encoding from a meta element's content
// value, fed one byte at a time (already lower-cased by get an attribute).
type contentScan struct {
	state contentState
	k     uint8 // ceSearch: bytes of "charset" matched
	quote byte  // ceQuoted: the quote that ends the label
	label labelBuf
	enc   override.Encoding // ceDone: the answer, or override.Unknown for nothing

	legacy bool // resolve labels with override.LookupLegacy
}

func (e *contentScan) reset(legacy bool) { *e = contentScan{legacy: legacy} }

// feedBytes feeds the bytes of v, skipping quickly to a c or C while no
// part of "charset" is matched.
func (e *contentScan) feedBytes(v []byte) {
	for i := 0; i < len(v); i++ {
		if e.state == ceSearch && e.k == 0 {
			j := indexFoldC(v[i:])
			if j < 0 {
				return
			}
			i += j
			if i+len("charset") <= len(v) {
				// The whole of "charset" or not, at once: after a
				// mismatch the match restarts at the next c.
				if !foldCharset.equal(v[i : i+len("charset")]) {
					continue
				}
				e.state = ceAfterCharset
				i += len("charset") - 1
				continue
			}
		}
		e.feed(lower(v[i]))
	}
}

// A folded is a lower-case ASCII string of 4 to 16 bytes, ready to be
// compared with bytes a word at a time, A-Z counting as a-z.
type folded struct {
	n      int
	w0, w1 uint64 // the first and the last 8 bytes (4 when n < 8)
	m0, m1 uint64 // 0x20 at each letter of w0, w1
}

func newFolded(s string) folded {
	f := folded{n: len(s)}
	words := func(s string) (w, m uint64) {
		for k := len(s) - 1; k >= 0; k-- {
			w, m = w<<8|uint64(s[k]), m<<8
			if 'a' <= s[k] && s[k] <= 'z' {
				m |= 0x20
			}
		}
		return w, m
	}
	k := 4
	if len(s) >= 8 {
		k = 8
	}
	f.w0, f.m0 = words(s[:k])
	f.w1, f.m1 = words(s[len(s)-k:])
	return f
}

// equal reports whether b is the string, with A-Z in b counting as a-z: a
// byte b with b|0x20 == c, for a letter c, is c or its upper case.
func (f *folded) equal(b []byte) bool {
	if len(b) != f.n {
		return false
	}
	if len(b) >= 8 {
		return binary.LittleEndian.Uint64(b)|f.m0 == f.w0 &&
			binary.LittleEndian.Uint64(b[len(b)-8:])|f.m1 == f.w1
	}
	return uint64(binary.LittleEndian.Uint32(b))|f.m0 == f.w0 &&
		uint64(binary.LittleEndian.Uint32(b[len(b)-4:]))|f.m1 == f.w1
}

var (
	foldCharset     = newFolded("charset")
	foldContent     = newFolded("content")
	foldHTTPEquiv   = newFolded("http-equiv")
	foldContentType = newFolded(contentType)
)

// indexFoldC returns the index of the first c or C in v, or -1, testing
// eight bytes at a time.
func indexFoldC(v []byte) int {
	i := 0
	for ; i <= len(v)-8; i += 8 {
		// A byte b is c or C exactly when b|0x20 is 0x63: a zero byte of
		// y. The lowest flagged byte is exact.
		y := binary.LittleEndian.Uint64(v[i:]) | 0x20*ascii.LowBits ^ 0x63*ascii.LowBits
		if m := (y - ascii.LowBits) &^ y & ascii.HighBits; m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for ; i < len(v); i++ {
		if v[i]|0x20 == 'c' {
			return i
		}
	}
	return -1
}

// matchWord moves the match of word on by c, with *k bytes of it matched
// before (fewer than len(word)), and reports whether word is now whole.
// The first byte of word must occur nowhere else in it ("charset",
// "encoding"): then after a mismatch the match can restart only at c.
func matchWord(word string, k *uint8, c byte) bool {
	switch c {
	case word[*k]:
		*k++
		return int(*k) == len(word)
	case word[0]:
		*k = 1
	default:
		*k = 0
	}
	return false
}

func (e *contentScan) feed(c byte) {
	for {
		switch e.state {
		case ceSearch:
			if matchWord("charset", &e.k, c) {
				e.state = ceAfterCharset
			}
		case ceAfterCharset:
			switch {
			case isSpace(c):
			case c == '=':
				e.state = ceAfterEq
			default:
				// Not charset=: search again from this byte.
				e.state = ceSearch
				e.k = 0
				continue
			}
		case ceAfterEq:
			switch {
			case isSpace(c):
			case c == '"' || c == '\'':
				e.quote = c
				e.label.reset()
				e.state = ceQuoted
			case c == ';':
				// The label up to the first ; is empty: failure.
				e.enc = override.Unknown
				e.state = ceDone
			default:
				e.label.reset()
				e.label.add(c)
				e.state = ceUnquoted
			}
		case ceQuoted:
			if c == e.quote {
				e.finishLabel()
			} else {
				e.label.add(c)
			}
		case ceUnquoted:
			if isSpace(c) || c == ';' {
				e.finishLabel()
			} else {
				e.label.add(c)
			}
		}
		return
	}
}

// finishLabel is "return the result of getting an encoding" for the label.
func (e *contentScan) finishLabel() {
	e.enc, _ = e.label.lookup(e.legacy)
	e.state = ceDone
}

// finish is the end of the value. It returns the encoding found, if any.
func (e *contentScan) finish() (override.Encoding, bool) {
	switch e.state {
	case ceUnquoted:
		// The label runs to the end of the value.
		e.finishLabel()
		fallthrough
	case ceDone:
		return e.enc, e.enc != override.Unknown
	}
	// No charset=, a quote without its partner, or nothing after =.
	return override.Unknown, false
}

// extractWhole is extracting a character encoding from a meta element for
// v, a whole content value: what feeding v to a fresh contentScan and then
// calling finish gives.
func extractWhole(v []byte, legacy bool) (override.Encoding, bool) {
	i := 0
	for {
		// Loop: the next "charset", compared whole at each c.
		j := indexFoldC(v[i:])
		if j < 0 {
			return override.Unknown, false
		}
		i += j
		if len(v)-i < len("charset") {
			return override.Unknown, false
		}
		if !foldCharset.equal(v[i : i+len("charset")]) {
			i++
			continue
		}
		i += len("charset")
		for i < len(v) && isSpace(v[i]) {
			i++
		}
		if i < len(v) && v[i] == '=' {
			break
		}
		// Not charset=: search again from here.
	}
	i++
	for i < len(v) && isSpace(v[i]) {
		i++
	}
	if i == len(v) {
		return override.Unknown, false
	}
	if q := v[i]; q == '"' || q == '\'' {
		j := bytes.IndexByte(v[i+1:], q)
		if j < 0 {
			return override.Unknown, false
		}
		return lookupWhole(v[i+1:i+1+j], legacy)
	}
	j := i
	for j < len(v) && !isSpace(v[j]) && v[j] != ';' {
		j++
	}
	return lookupWhole(v[i:j], legacy)
}

// lookupWhole is "get an encoding" for label given whole: what adding its
// bytes to a labelBuf and calling lookup gives.
func lookupWhole(label []byte, legacy bool) (override.Encoding, bool) {
	for len(label) > 0 && isSpace(label[0]) {
		label = label[1:]
	}
	if len(label) > MaxLabel {
		for _, c := range label[MaxLabel:] {
			if !isSpace(c) {
				return override.Unknown, false
			}
		}
		label = label[:MaxLabel]
	}
	return lookupLabel(label, legacy)
}

// labelBuf collects a label one byte at a time for "get an encoding": it
// drops leading ASCII whitespace and keeps at most MaxLabel bytes after it.
// Trailing whitespace beyond the buffer is allowed; any other byte beyond it
// makes the label too long to look up.
type labelBuf struct {
	buf     [MaxLabel]byte
	n       int
	started bool // a byte other than white space was added
	spill   bool // white space was dropped for lack of room
	tooLong bool // a byte other than white space did not fit
}

func (l *labelBuf) reset() { *l = labelBuf{} }

func (l *labelBuf) add(c byte) {
	if isSpace(c) {
		if !l.started {
			return
		}
		if l.n < len(l.buf) {
			l.buf[l.n] = c
			l.n++
		} else {
			l.spill = true
		}
		return
	}
	l.started = true
	if l.spill || l.n == len(l.buf) {
		l.tooLong = true
		return
	}
	l.buf[l.n] = c
	l.n++
}

// lookup is "get an encoding" for the label.
func (l *labelBuf) lookup(legacy bool) (override.Encoding, bool) {
	if l.tooLong {
		return override.Unknown, false
	}
	return lookupLabel(l.buf[:l.n], legacy)
}

func lookupLabel(b []byte, legacy bool) (override.Encoding, bool) {
	if legacy {
		return override.LookupLegacy(b)
	}
	return override.Lookup(b)
}
