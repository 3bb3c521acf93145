package bench

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"golang.org/x/sys/cpu"
)

// TestMain prints, when benchmarks run, a line "loops: ..." among go
// test's goos, goarch and cpu lines: the vector loops decode runs in this
// process, a configuration that benchstat keeps beside the CPU.
func TestMain(m *testing.M) {
	flag.Parse()
	if f := flag.Lookup("test.bench"); f != nil && f.Value.String() != "" {
		fmt.Printf("loops: %s (CHARSNIFF_CPU=%s)\n", decodeLoops(os.Getenv("CHARSNIFF_CPU")), os.Getenv("CHARSNIFF_CPU"))
	}
	os.Exit(m.Run())
}

// decodeLoops names the loops decode runs, as decode's activeLoops does
// (decode/cpu.go; this module cannot see it): "avx2+latin" with AVX2 and
// AVX-512 VBMI2, "avx2", or "go" (purego builds, other architectures,
// CHARSNIFF_CPU=noavx2), env being CHARSNIFF_CPU.
func decodeLoops(env string) string {
	var no2, no512 bool
	for _, f := range strings.Split(env, ",") {
		switch strings.ToLower(strings.TrimSpace(f)) {
		case "noavx2":
			no2, no512 = true, true
		case "noavx512":
			no512 = true
		}
	}
	x := cpu.X86
	switch {
	case purego || !x.HasAVX2 || no2:
		return "go"
	case no512 || !(x.HasAVX512F && x.HasAVX512BW && x.HasAVX512VBMI && x.HasAVX512VBMI2 && x.HasBMI2 && x.HasPOPCNT):
		return "avx2"
	}
	return "avx2+latin"
}
