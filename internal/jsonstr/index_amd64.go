//go:build !purego

package jsonstr

import "golang.org/x/sys/cpu"

// avx2OK reports whether the assembly of index_amd64.s runs: on CPUs with
// AVX2, the one instruction set its loop uses (VEX-encoded throughout).
// Without it IndexSpecial jumps to its Go twin. GODEBUG=cpu.avx2=off turns
// it off.
var avx2OK = cpu.X86.HasAVX2

// IndexSpecial returns the index of the first byte of s for which
// NeedsLook is true, or -1 if there is none.
//
//go:noescape
func IndexSpecial(s []byte) int
