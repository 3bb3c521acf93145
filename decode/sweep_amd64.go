//go:build !purego

package decode

import (
	"os"

	"golang.org/x/sys/cpu"
)

// envOff is what CHARSNIFF_CPU turned off at the package's initialization
// (cpu.go).
var envOff = parseCPUEnv(os.Getenv(cpuEnv))

// sweepOK reports whether the vector sweep runs: on amd64 with AVX2,
// unless CHARSNIFF_CPU has noavx2.
var sweepOK = cpu.X86.HasAVX2 && !envOff.avx2

// latinOK reports whether the sweep's latin loop for windows-1252 runs
// (sweepLatin1): on CPUs with AVX-512 VBMI2 (Intel from Ice Lake, AMD from
// Zen 4), unless CHARSNIFF_CPU has noavx512. Tests turn it off to run the
// AVX2 paths.
var latinOK = sweepOK && !envOff.avx512 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW &&
	cpu.X86.HasAVX512VBMI && cpu.X86.HasAVX512VBMI2 && cpu.X86.HasBMI2 && cpu.X86.HasPOPCNT

// sweepAVX2 copies s to d 32 bytes at a time, with AVX2, while the text is
// clean. Clean is ASCII other than NUL (if flags has sweepNUL) and: with
// sweepUTF8, valid UTF-8 sequences of two and three bytes, copied as they
// are; with a table (a single-byte encoding's, see tables.go), any byte
// from 0x80, written as the table says. With sweepCR it writes each CR as
// LF and drops each LF right after a CR, on the way. It returns the bytes
// written to d and read from s, at the start of the first 32-byte block
// that holds anything else (a four-byte sequence, ill-formed UTF-8, NUL) or
// for which there is too little room (32 bytes of s and of d for a block
// with no letter of a table, whatever its line ends; 65 of s, and 80 of d,
// for one with a table's letter). It may write up to 80 bytes past
// the bytes written. What it read of UTF-8 may end inside a sequence, and
// any text right after a CR whose LF it has not seen: sweep backs up over
// those. high is non-zero if the blocks it read (or the one it stopped
// at) hold a byte from 0x80. sweepLatin1 (only with latin1Table, and only
// if latinOK) has it take windows-1252 text 64 bytes at a time with
// AVX-512, where letters are many; the result is the same.
//
//go:noescape
func sweepAVX2(d, s []byte, table *[256]uint32, flags uint64) (j, i, high int)

// indexPairAVX2 returns the index of the first byte of s that is a or b,
// or -1 if there is none: bytes.IndexByte for two bytes in one pass.
//
//go:noescape
func indexPairAVX2(s []byte, a, b byte) int

// cleanAVX2 returns the length of the prefix of s, in whole 32-byte blocks,
// that sweepAVX2 would copy unchanged as UTF-8: no CR (if flags has
// sweepCR), no NUL (if flags has sweepNUL), valid sequences of one to three
// bytes. The prefix may end inside a sequence. high is non-zero if it (or
// the block after it) holds a byte from 0x80.
//
//go:noescape
func cleanAVX2(s []byte, flags uint64) (n, high int)

// squeezeCRAVX2 applies newline normalization to b[r:] in place, writing
// from b[w:] (w <= r), 32-byte blocks at a time with AVX2: CR becomes LF
// and an LF right after a CR (cr is 1 if the byte before b[r] is one) is
// left out. It stops with fewer than 32 bytes left, and returns r and w
// there, and cr2 1 if the last byte it took is a CR. It writes no further
// than b[r2-1] (bytes it has read).
//
//go:noescape
func squeezeCRAVX2(b []byte, r, w int, cr uint64) (r2, w2 int, cr2 uint64)
