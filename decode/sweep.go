package decode

import (
	"bytes"

	"github.com/charsniff/charsniff/override"
)

// The flags of sweepBlocks.
const (
	sweepCR     = 1 << iota // CR becomes LF, and an LF right after a CR is dropped
	sweepNUL                // NUL stops the sweep
	sweepUTF8               // the text is UTF-8: its valid sequences of two and three bytes pass
	sweepLatin1             // the table is latin1Table: its letters from A0 are expanded without it
	sweepWide               // UTF-8 with sweepCR: ASCII with line ends goes 64 bytes a step (wideCR)
)

// latin1Table is the table of windows-1252, whose bytes from 0xA0 are the
// Latin-1 letters U+00A0 to U+00FF: two bytes of UTF-8 each that the sweep
// works out with vector arithmetic, without the table.
var latin1Table = byteTable(override.Windows1252)

// sweepMinRun is the least a sweep should take for the UTF-8 path to try
// the next one at once: less (ill-formed text) and it backs off.
const sweepMinRun = 128

// sweep copies clean text from s to d with the vector sweep (sweepBlocks):
// UTF-8 if table is nil, else a single-byte encoding through its table
// (tables.go); CR LF and lone CR become LF where p says. It returns the
// bytes written and read. It ends at the start of a character, and not
// between a CR and its LF, so that the caller's careful path can take over
// there. It may write up to 80 bytes past the bytes written. high is false
// if the bytes read are ASCII (true may also mean that the byte from 0x80
// is one just past them).
func (p *patterns) sweep(d, s []byte, table *[256]uint32) (j, i int, high bool) {
	j, i, h := sweepBlocks(d, s, table, p.tableFlags(table))
	j, i = p.sweepEnd(s, table, j, i)
	return j, i, h != 0
}

// tableFlags returns the flags of sweepBlocks for p and table.
func (p *patterns) tableFlags(table *[256]uint32) uint64 {
	flags := p.sweepFlags()
	switch table {
	case nil:
		flags |= sweepUTF8
		if latinOK && p.crOn {
			flags |= sweepWide
		}
	case latin1Table:
		if latinOK {
			flags |= sweepLatin1
		}
	}
	return flags
}

// sweepEnd returns j and i of sweepBlocks backed up to the start of a
// character and to before a CR whose LF the sweep has not seen.
func (p *patterns) sweepEnd(s []byte, table *[256]uint32, j, i int) (int, int) {
	if table == nil {
		k := cutSequence(s, i)
		i, j = i-k, j-k
	}
	// A CR, written as LF, whose LF (if one follows) is still to drop.
	if i > 0 && s[i-1] == '\r' && p.crOn {
		i, j = i-1, j-1
	}
	return j, i
}

// sweepFlags returns the flags of sweepBlocks and cleanBlocks for p.
func (p *patterns) sweepFlags() uint64 {
	var flags uint64
	if p.crOn {
		flags |= sweepCR
	}
	if p.nulOn {
		flags |= sweepNUL
	}
	return flags
}

// cutSequence returns how many bytes at the end of s[:i], which the vector
// sweep found to be valid UTF-8 up to its last block, start a sequence
// whose trail bytes lie past i: one lead byte, or a three-byte lead and
// one trail byte (four-byte sequences never pass the sweep); else 0.
func cutSequence(s []byte, i int) int {
	switch {
	case i >= 1 && s[i-1] >= 0xC0:
		return 1
	case i >= 2 && s[i-2] >= 0xE0:
		return 2
	}
	return 0
}

// clean returns the length of a prefix of s, which is UTF-8, that the
// decoder copies unchanged (valid, with no CR or NUL that p changes), found
// with the vector sweep's checks (cleanBlocks), ending at the start of a
// character; and high as sweep does.
func (p *patterns) clean(s []byte) (n int, high bool) {
	n, h := cleanBlocks(s, p.sweepFlags())
	return n - cutSequence(s, n), h != 0
}

// indexSpecial returns the index of the first CR (if cr) or NUL (if nul)
// in s, or -1 if there is none.
func indexSpecial(s []byte, cr, nul bool) int {
	switch {
	case cr && nul:
		return indexPair(s, '\r', 0)
	case cr:
		return bytes.IndexByte(s, '\r')
	case nul:
		return bytes.IndexByte(s, 0)
	}
	return -1
}

// noteSweepHigh is noteHigh for the text b that a sweep (or clean) took
// and its high: the Go twins' high is exact, so where they run (sweepOK
// false) it is taken as it is; the assembly's may come from the block
// just past b, so noteHigh looks.
func (d *decoder) noteSweepHigh(high bool, b []byte) {
	if !sweepOK {
		d.high = d.high || high
		return
	}
	d.noteHigh(high, b)
}
