package decode

import (
	"bytes"

	"github.com/charsniff/charsniff/internal/ascii"
)

// The Go twins of the functions of sweep_amd64.s, compiled in every build:
// the functions of those names where the assembly is not built
// (sweep_other.go), and where it is, what they jump to on a CPU without
// what the assembly uses (sweepOK). They do the assembly's job with the
// decoder's word loops and the runtime's bytes.IndexByte, which take the
// text a run at a time rather than a block: sweepBlocksGeneric and
// cleanBlocksGeneric take UTF-8 up to the first CR or NUL the flags name
// and the first byte that is not valid UTF-8 (utf8Run), and a single-byte
// encoding's ASCII (internal/ascii) up to the same CR or NUL, where the
// careful path and the line copier take over; indexPairGeneric and
// squeezeBlocksGeneric give exactly what the assembly does,
// squeezeBlocksGeneric to the end of b. The tests compare each with the
// assembly and its model (sweep_twin_test.go, squeeze_test.go).

// cleanEnd returns the index of the first CR (if flags has sweepCR) or
// NUL (if flags has sweepNUL) in s, or len(s).
func cleanEnd(s []byte, flags uint64) int {
	k := -1
	switch flags & (sweepCR | sweepNUL) {
	case sweepCR | sweepNUL:
		k = indexPairGeneric(s, '\r', 0)
	case sweepCR:
		k = bytes.IndexByte(s, '\r')
	case sweepNUL:
		k = bytes.IndexByte(s, 0)
	}
	if k < 0 {
		return len(s)
	}
	return k
}

// sweepBlocksGeneric is the Go twin of sweepBlocks: it copies the prefix
// of s that cleanBlocksGeneric takes (with a table, the ASCII up to the
// first CR or NUL the flags name), as much of it as d has room for, and
// returns j = i and high non-zero if the text holds a byte from 0x80.
func sweepBlocksGeneric(d, s []byte, table *[256]uint32, flags uint64) (j, i, high int) {
	s = s[:min(len(d), len(s))]
	if table != nil {
		n := ascii.Prefix(s)
		n = cleanEnd(s[:n], flags)
		return copy(d, s[:n]), n, 0
	}
	n, h := cleanBlocksGeneric(s, flags)
	return copy(d, s[:n]), n, h
}

// cleanBlocksGeneric is the Go twin of cleanBlocks: the length of the
// longest prefix of s that is valid UTF-8 (four-byte sequences too, and
// ending at the end of a character) up to the first CR or NUL the flags
// name, and high non-zero if it holds a byte from 0x80.
func cleanBlocksGeneric(s []byte, flags uint64) (n, high int) {
	end := cleanEnd(s, flags)
	n, h := utf8Run(s, s[:end])
	if h {
		high = 1
	}
	return n, high
}

// indexPairGeneric is the Go twin of indexPair: the index of the first
// byte of s that is a or b, or -1, with two searches of bytes.IndexByte,
// the second only up to what the first found.
func indexPairGeneric(s []byte, a, b byte) int {
	k := bytes.IndexByte(s, a)
	if k >= 0 {
		s = s[:k]
	}
	if z := bytes.IndexByte(s, b); z >= 0 {
		return z
	}
	return k
}

// squeezeBlocksGeneric is the Go twin of squeezeBlocks: newline
// normalization of all of b[r:] from b[w:], a search for the next CR and
// a copy a line.
func squeezeBlocksGeneric(b []byte, r, w int, cr uint64) (r2, w2 int, cr2 uint64) {
	for r < len(b) {
		if cr != 0 {
			cr = 0
			if b[r] == '\n' {
				r++
				continue
			}
		}
		k := bytes.IndexByte(b[r:], '\r')
		if k < 0 {
			w += copy(b[w:], b[r:])
			r = len(b)
			break
		}
		w += copy(b[w:], b[r:r+k])
		r += k + 1
		b[w] = '\n'
		w++
		cr = 1
	}
	return r, w, cr
}
