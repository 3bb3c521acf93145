package decode

import "strings"

// cpuEnv names the environment variable that has the decoder run as on
// another CPU, read once when the package is initialized: a comma-separated
// list of noavx512 (the AVX2 loops only, as on AMD Zen 3 or Intel before
// Ice Lake: no latin loop) and noavx2 (the portable Go paths, as on CPUs
// without AVX2 or other architectures). Other values are ignored. See
// docs/speed.md.
const cpuEnv = "CHARSNIFF_CPU"

// cpuOff is what CHARSNIFF_CPU turns off.
type cpuOff struct {
	avx2, avx512 bool
}

// parseCPUEnv returns what the value v of CHARSNIFF_CPU turns off.
func parseCPUEnv(v string) cpuOff {
	var off cpuOff
	for _, f := range strings.Split(v, ",") {
		switch strings.ToLower(strings.TrimSpace(f)) {
		case "noavx2":
			off.avx2 = true
			off.avx512 = true
		case "noavx512":
			off.avx512 = true
		}
	}
	return off
}

// activeLoops names the vector loops that run in this process, for
// benchmarks to report: "avx2+latin" (AVX2 and the AVX-512 VBMI2 latin
// loop), "avx2", or "go" (the portable paths of ascii.go).
func activeLoops() string {
	switch {
	case latinOK:
		return "avx2+latin"
	case sweepOK:
		return "avx2"
	}
	return "go"
}
