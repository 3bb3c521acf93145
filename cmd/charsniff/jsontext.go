package main

import (
	"io"
	"unicode/utf8"
)

// jsonText writes text as the contents of a JSON string (without the
// quotes), escaped exactly as encoding/json escapes a string with
// SetEscapeHTML(false): '"' and '\\' and the control characters, U+2028 and
// U+2029, and each byte of invalid UTF-8 as \ufffd. It streams: a character
// split across two writes is held until the second, and Close writes what
// is held of one that never completed. So a record's text goes into its
// JSON line however large it is, in bounded memory.
type jsonText struct {
	w io.Writer
	// held[:nheld] is the start of a UTF-8 sequence that the last write
	// cut short.
	held  [utf8.UTFMax - 1]byte
	nheld int
	// buf collects the escaped output of a write.
	buf []byte
	err error
}

const hexDigits = "0123456789abcdef"

// safe[c] reports whether ASCII byte c goes into a JSON string as it is.
var safe = func() (t [utf8.RuneSelf]bool) {
	for c := ' '; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// reset makes j write to w.
func (j *jsonText) reset(w io.Writer) {
	j.w, j.nheld, j.err = w, 0, nil
	j.buf = j.buf[:0]
}

// Write escapes p and writes it.
func (j *jsonText) Write(p []byte) (int, error) {
	if j.err != nil {
		return 0, j.err
	}
	n := len(p)
	b := j.buf[:0]
	for j.nheld > 0 {
		// Complete the held sequence with the first bytes of p.
		var seq [utf8.UTFMax]byte
		k := copy(seq[:], j.held[:j.nheld])
		k += copy(seq[k:], p)
		if !utf8.FullRune(seq[:k]) {
			// p is too short to complete it (k < UTFMax): hold p too.
			j.nheld += copy(j.held[j.nheld:], p)
			j.buf = b
			if _, err := j.write(b); err != nil {
				return 0, err
			}
			return n, nil
		}
		if _, size := utf8.DecodeRune(seq[:k]); size > j.nheld {
			b = appendRune(b, seq[:size])
			p = p[size-j.nheld:]
			j.nheld = 0
			break
		}
		// The first held byte starts no character: it is one invalid
		// byte, and the ones after it are looked at again.
		b = append(b, `\ufffd`...)
		j.nheld = copy(j.held[:], j.held[1:j.nheld])
	}
	i, start := 0, 0
	for i < len(p) {
		c := p[i]
		if c < utf8.RuneSelf {
			if safe[c] {
				i++
				continue
			}
			b = append(b, p[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		if !utf8.FullRune(p[i:]) {
			// Cut short at the end of p: hold it for the next write.
			b = append(b, p[start:i]...)
			j.nheld = copy(j.held[:], p[i:])
			i, start = len(p), len(p)
			break
		}
		r, size := utf8.DecodeRune(p[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			b = append(b, p[start:i]...)
			b = appendRune(b, p[i:i+size])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, p[start:]...)
	j.buf = b
	if _, err := j.write(b); err != nil {
		return 0, err
	}
	return n, nil
}

// appendRune appends the escaped form of the one character (or invalid
// byte) seq.
func appendRune(b, seq []byte) []byte {
	r, size := utf8.DecodeRune(seq)
	switch {
	case r == utf8.RuneError && size == 1:
		return append(b, `\ufffd`...)
	case r == '\u2028':
		return append(b, `\u2028`...)
	case r == '\u2029':
		return append(b, `\u2029`...)
	}
	return append(b, seq...)
}

func (j *jsonText) write(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	n, err := j.w.Write(b)
	if err != nil {
		j.err = err
	}
	return n, err
}

// Close writes what is held of a character that the text cut short: each
// byte of it is invalid UTF-8, so each becomes \ufffd.
func (j *jsonText) Close() error {
	if j.err != nil {
		return j.err
	}
	b := j.buf[:0]
	for range j.nheld {
		b = append(b, `\ufffd`...)
	}
	j.nheld = 0
	j.buf = b
	_, err := j.write(b)
	return err
}
