package bench

import (
	"flag"
	"fmt"
	"os"
	"testing"

	"golang.org/x/sys/cpu"
)

// TestMain prints, when benchmarks run, a line "loops: ..." among go
// test's goos, goarch and cpu lines: the vector loops decode runs in this
// process, a configuration that benchstat keeps beside the CPU.
func TestMain(m *testing.M) {
	flag.Parse()
	if f := flag.Lookup("test.bench"); f != nil && f.Value.String() != "" {
		fmt.Printf("loops: %s (GODEBUG=%s)\n", decodeLoops(), os.Getenv("GODEBUG"))
	}
	os.Exit(m.Run())
}

// decodeLoops names the loops decode runs, as decode's activeLoops does
// (decode/cpu.go; this module cannot see it): "avx2+latin" with AVX2,
// POPCNT and AVX-512 VBMI2, "avx2", or "go" (purego builds, other
// architectures, GODEBUG=cpu.avx2=off), as golang.org/x/sys/cpu reports
// the CPU after its GODEBUG switches.
func decodeLoops() string {
	x := cpu.X86
	switch {
	case purego || !x.HasAVX2 || !x.HasPOPCNT:
		return "go"
	case !(x.HasAVX512F && x.HasAVX512BW && x.HasAVX512VBMI && x.HasAVX512VBMI2 && x.HasBMI2):
		return "avx2"
	}
	return "avx2+latin"
}
