package main

import (
	"io"
	"unicode/utf8"

	"github.com/charsniff/charsniff/internal/jsonstr"
)

// jsonText writes text as the contents of a JSON string (without the
// quotes), escaped exactly as encoding/json escapes a string with
// SetEscapeHTML(false): '"' and '\\' and the control characters, U+2028 and
// U+2029, and each byte of invalid UTF-8 as \ufffd. It streams: a character
// split across two writes is held until the second, and Close writes what
// is held of one that never completed. So a record's text goes into its
// JSON line however large it is, in bounded memory.
//
// The text is decoded output, valid UTF-8: a write that is valid is
// searched for the only bytes that need escaping there (internal/jsonstr,
// 32 bytes a step with AVX2), and the clean runs between them are copied
// whole.
type jsonText struct {
	w io.Writer
	// held[:nheld] is the start of a UTF-8 sequence that the last write
	// cut short.
	held  [utf8.UTFMax - 1]byte
	nheld int
	// buf collects the escaped output of a write.
	buf []byte
	err error
	// valid says the text is a decode.Reader's, valid UTF-8 by its
	// contract (which fuzz/decode_test.go checks): it is not validated
	// again, which took as long as the escaping on a crawl of non-Latin
	// pages. Its bytes are still escaped as encoding/json escapes them.
	valid bool
}

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
	b, p, all := j.completeHeld(j.buf[:0], p)
	if !all {
		cut := len(p) - cutShort(p)
		if body := p[:cut]; j.valid || utf8.Valid(body) {
			b = appendValid(b, body)
		} else {
			b = appendAny(b, body)
		}
		j.nheld = copy(j.held[:], p[cut:])
	}
	j.buf = b
	if _, err := j.write(b); err != nil {
		return 0, err
	}
	return n, nil
}

// completeHeld completes the held sequence with the first bytes of p,
// appending its escaped form to b, and returns the rest of p. If p is too
// short to complete it, p is held too and all is set.
func (j *jsonText) completeHeld(b, p []byte) (_, rest []byte, all bool) {
	for j.nheld > 0 {
		var seq [utf8.UTFMax]byte
		k := copy(seq[:], j.held[:j.nheld])
		k += copy(seq[k:], p)
		if !utf8.FullRune(seq[:k]) {
			// p is too short to complete it (k < UTFMax).
			j.nheld += copy(j.held[j.nheld:], p)
			return b, nil, true
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
	return b, p, false
}

// cutShort returns the length of the start of a UTF-8 sequence that p
// ends with and that the next write may complete; 0 if there is none.
func cutShort(p []byte) int {
	for i := len(p) - 1; i >= 0 && i >= len(p)-(utf8.UTFMax-1); i-- {
		c := p[i]
		if c < utf8.RuneSelf {
			return 0
		}
		if utf8.RuneStart(c) {
			if utf8.FullRune(p[i:]) {
				return 0
			}
			return len(p) - i
		}
	}
	return 0
}

// appendValid appends the escaped form of s, which is valid UTF-8.
func appendValid(b, s []byte) []byte {
	for {
		k := jsonstr.IndexSpecial(s)
		if k < 0 {
			return append(b, s...)
		}
		b = append(b, s[:k]...)
		s = s[k:]
		if c := s[0]; c != 0xE2 {
			b = appendASCII(b, c)
			s = s[1:]
			continue
		}
		// 0xE2 starts a three-byte character (s is valid).
		if s[1] == 0x80 && (s[2] == 0xA8 || s[2] == 0xA9) {
			b = append(b, `\u202`...)
			b = append(b, "89"[s[2]-0xA8])
		} else {
			b = append(b, s[:3]...)
		}
		s = s[3:]
	}
}

// appendAny appends the escaped form of s, which may hold invalid UTF-8
// (each invalid byte becomes \ufffd, as encoding/json writes it).
func appendAny(b, p []byte) []byte {
	i, start := 0, 0
	for i < len(p) {
		c := p[i]
		if c < utf8.RuneSelf {
			if !jsonstr.NeedsLook(c) {
				i++
				continue
			}
			b = append(b, p[start:i]...)
			b = appendASCII(b, c)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRune(p[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			b = append(b, p[start:i]...)
			b = appendRune(b, p[i:i+size])
			start = i + size
		}
		i += size
	}
	return append(b, p[start:]...)
}

const hexDigits = "0123456789abcdef"

// appendASCII appends the escaped form of a control character, '"' or
// '\\'.
func appendASCII(b []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(b, '\\', c)
	case '\b':
		return append(b, '\\', 'b')
	case '\f':
		return append(b, '\\', 'f')
	case '\n':
		return append(b, '\\', 'n')
	case '\r':
		return append(b, '\\', 'r')
	case '\t':
		return append(b, '\\', 't')
	}
	return append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
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
