//go:build amd64 && !purego

package singlebyte

import (
	"os"
	"strings"

	"golang.org/x/sys/cpu"
)

// vectorOK reports whether Dense runs denseVector's assembly where it has
// a Vector: on CPUs with AVX-512 VBMI2 (Intel from Ice Lake, AMD from Zen
// 4), with every instruction set denseVector uses (AVX-512 F, BW, VBMI,
// VBMI2; BMI2's PDEP, POPCNT), unless CHARSNIFF_CPU has noavx512 or noavx2
// (package decode's switch, docs/speed.md, read here again).
var vectorOK = cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VBMI &&
	cpu.X86.HasAVX512VBMI2 && cpu.X86.HasBMI2 && cpu.X86.HasPOPCNT && !avx512Off(os.Getenv("CHARSNIFF_CPU"))

// avx512Off reports whether v, a value of CHARSNIFF_CPU, turns the AVX-512
// loops off: it has noavx512 or noavx2 among its comma-separated words.
func avx512Off(v string) bool {
	for _, f := range strings.Split(v, ",") {
		switch strings.ToLower(strings.TrimSpace(f)) {
		case "noavx512", "noavx2":
			return true
		}
	}
	return false
}

// denseVector is denseWords with AVX-512 VBMI2 (dense_amd64.s), the same
// contract: the same i and j, the same dst[:j]. It reads t and v; the
// caller checks vectorOK.
//
//go:noescape
func denseVector(dst, src []byte, t *[256]uint32, v *Vector) (i, j int)

// hasAssembly reports whether denseVector is assembly in this build.
const hasAssembly = true
