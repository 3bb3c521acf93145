//go:build amd64 && !purego

package singlebyte

import "golang.org/x/sys/cpu"

// vectorOK reports whether Dense runs denseVector's assembly where it has
// a Vector: on CPUs with AVX-512 VBMI2 (Intel from Ice Lake, AMD from Zen
// 4), with every instruction set denseVector uses (AVX-512 F, BW, VBMI,
// VBMI2; BMI2's PDEP, POPCNT), and AVX2, as the decoder's other vector
// loops: GODEBUG=cpu.avx512f=off or cpu.avx2=off turns it off with them
// (golang.org/x/sys/cpu reads the switches; docs/speed.md).
var vectorOK = cpu.X86.HasAVX2 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VBMI &&
	cpu.X86.HasAVX512VBMI2 && cpu.X86.HasBMI2 && cpu.X86.HasPOPCNT

// denseVector is denseWords with AVX-512 VBMI2 (dense_amd64.s), the same
// contract: the same i and j, the same dst[:j]. It reads t and v; the
// caller checks vectorOK.
//
//go:noescape
func denseVector(dst, src []byte, t *[256]uint32, v *Vector) (i, j int)

// hasAssembly reports whether denseVector is assembly in this build.
const hasAssembly = true
