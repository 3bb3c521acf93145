package decode

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestParseCPUEnv checks what each value of CHARSNIFF_CPU turns off.
func TestParseCPUEnv(t *testing.T) {
	for _, c := range []struct {
		v    string
		want cpuOff
	}{
		{"", cpuOff{}},
		{"noavx512", cpuOff{avx512: true}},
		{"noavx2", cpuOff{avx2: true, avx512: true}},
		{"noavx512,noavx2", cpuOff{avx2: true, avx512: true}},
		{" NoAVX512 , other", cpuOff{avx512: true}},
		{"avx512", cpuOff{}},
	} {
		if got := parseCPUEnv(c.v); got != c.want {
			t.Errorf("parseCPUEnv(%q) = %+v, want %+v", c.v, got, c.want)
		}
	}
}

// TestCPUEnv runs this test binary again with each value of CHARSNIFF_CPU
// and checks the loops it reports (TestCPUEnvChild): the variable is read
// when the package is initialized.
func TestCPUEnv(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the test binary again")
	}
	base := activeLoops()
	if os.Getenv(cpuEnv) != "" {
		t.Skip(cpuEnv + " is set for this run")
	}
	for _, c := range []struct{ env, want string }{
		{"noavx512", strings.TrimSuffix(base, "+latin")},
		{"noavx2", "go"},
		{"noavx2,noavx512", "go"},
		{"", base},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCPUEnvChild$", "-test.v")
		cmd.Env = append(os.Environ(), cpuEnv+"="+c.env, "CHARSNIFF_CPU_CHILD=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s=%s: %v\n%s", cpuEnv, c.env, err, out)
		}
		if !strings.Contains(string(out), "loops="+c.want+"\n") {
			t.Errorf("%s=%q: the child reports\n%s\nwant loops=%s", cpuEnv, c.env, out, c.want)
		}
	}
}

// TestCPUEnvChild reports the active loops, for TestCPUEnv.
func TestCPUEnvChild(t *testing.T) {
	if os.Getenv("CHARSNIFF_CPU_CHILD") == "" {
		t.Skip("run by TestCPUEnv")
	}
	os.Stdout.WriteString("loops=" + activeLoops() + "\n")
}

// ActiveLoops is activeLoops for the benchmarks of package decode_test.
var ActiveLoops = activeLoops
