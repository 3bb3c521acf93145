//go:build !purego

package decode

import "golang.org/x/sys/cpu"

// sweepOK reports whether the assembly of sweep_amd64.s runs: on CPUs with
// AVX2 and POPCNT, the instruction sets its 32-byte loops use. Without
// them its functions jump to their Go twins. GODEBUG=cpu.avx2=off turns it
// off (docs/speed.md).
var sweepOK = cpu.X86.HasAVX2 && cpu.X86.HasPOPCNT

// latinOK reports whether the sweep's AVX-512 loops run: latin for
// windows-1252 (sweepLatin1) and wideCR for UTF-8 with CR (sweepWide), on
// CPUs with AVX-512 F, BW, VBMI and VBMI2 and BMI2 (Intel from Ice Lake,
// AMD from Zen 4). GODEBUG=cpu.avx512f=off turns them off. Tests turn it
// off to run the AVX2 paths.
var latinOK = sweepOK && cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW &&
	cpu.X86.HasAVX512VBMI && cpu.X86.HasAVX512VBMI2 && cpu.X86.HasBMI2

// sweepBlocks copies s to d 32 bytes at a time while the text is clean.
// Clean is ASCII other than NUL (if flags has sweepNUL) and: with
// sweepUTF8, valid UTF-8 sequences of two and three bytes, copied as they
// are; with a table (a single-byte encoding's, see tables.go), any byte
// from 0x80, written as the table says. With sweepCR it writes each CR as
// LF and drops each LF right after a CR, on the way. It returns the bytes
// written to d and read from s, at the start of a 32-byte block: the
// assembly (sweepAVX2) stops at the first that holds anything else (a
// four-byte sequence, ill-formed UTF-8, NUL) or for which there is too
// little room (32 bytes of s and of d for a block with no letter of a
// table, whatever its line ends; 65 of s, and 80 of d, for one with a
// table's letter). The Go twin (sweepBlocksGeneric) takes UTF-8 up to the
// first CR or NUL the flags name or byte that is not valid UTF-8, and a
// table's ASCII up to such a CR or NUL (sweep_generic.go). It may write up
// to 80 bytes past the bytes written. What it read of UTF-8 may end inside
// a sequence, and any text right after a CR whose LF it has not seen:
// sweep backs up over those. high is non-zero if the blocks it read (or
// the one it stopped at) hold a byte from 0x80. sweepLatin1 (only with
// latin1Table, and only if latinOK) has it take windows-1252 text 64 bytes
// at a time with AVX-512, where letters are many, and sweepWide (UTF-8
// with sweepCR, only if latinOK) ASCII text with line ends; the result is
// the same.
//
//go:noescape
func sweepBlocks(d, s []byte, table *[256]uint32, flags uint64) (j, i, high int)

// indexPair returns the index of the first byte of s that is a or b, or -1
// if there is none: bytes.IndexByte for two bytes in one pass.
//
//go:noescape
func indexPair(s []byte, a, b byte) int

// cleanBlocks returns the length of a prefix of s, in whole 32-byte
// blocks, that sweepBlocks would copy unchanged as UTF-8: no CR (if flags
// has sweepCR), no NUL (if flags has sweepNUL), valid sequences of one to
// three bytes. The prefix may end inside a sequence. The Go twin
// (cleanBlocksGeneric) takes the longest clean prefix, not in blocks. high is non-zero if it (or
// the block after it) holds a byte from 0x80.
//
//go:noescape
func cleanBlocks(s []byte, flags uint64) (n, high int)

// squeezeBlocks applies newline normalization to b[r:] in place, writing
// from b[w:] (w <= r): CR becomes LF and an LF right after a CR (cr is 1
// if the byte before b[r] is one) is left out. The assembly takes 32-byte
// blocks and stops with fewer than 32 bytes left; the Go twin takes all.
// It returns r and w where it stopped, and cr2 1 if the last byte it took
// is a CR. It writes no further than b[r2-1] (bytes it has read).
//
//go:noescape
func squeezeBlocks(b []byte, r, w int, cr uint64) (r2, w2 int, cr2 uint64)
