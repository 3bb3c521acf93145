package decode

// The vector loops run where the CPU has what they use (sweep_amd64.go),
// as golang.org/x/sys/cpu reports it; its GODEBUG switches make the
// decoder run as on a CPU with fewer features: GODEBUG=cpu.avx512f=off
// turns the AVX-512 latin loop off (the AVX2 loops alone, as on AMD Zen 3
// or Intel before Ice Lake), GODEBUG=cpu.avx2=off the assembly of
// sweep_amd64.s (its Go twins, as on CPUs without AVX2 and other
// architectures). See docs/speed.md.

// activeLoops names the vector loops that run in this process, for
// benchmarks to report: "avx2+latin" (AVX2 and the AVX-512 VBMI2 latin
// loop), "avx2", or "go" (the Go twins and the portable paths of
// ascii.go).
func activeLoops() string {
	switch {
	case latinOK:
		return "avx2+latin"
	case sweepOK:
		return "avx2"
	}
	return "go"
}
