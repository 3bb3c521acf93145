package decode

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestCPUEnv runs this test binary again with the GODEBUG switches of
// golang.org/x/sys/cpu that docs/speed.md names and checks the loops it
// reports (TestCPUEnvChild): the variable is read when the program starts.
func TestCPUEnv(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the test binary again")
	}
	base := activeLoops()
	if strings.Contains(os.Getenv("GODEBUG"), "cpu.") {
		t.Skip("GODEBUG has cpu switches for this run")
	}
	for _, c := range []struct{ env, want string }{
		{"cpu.avx512f=off", strings.TrimSuffix(base, "+latin")},
		{"cpu.avx2=off", "go"},
		{"cpu.popcnt=off", "go"},
		{"cpu.avx2=off,cpu.avx512f=off", "go"},
		{"", base},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCPUEnvChild$", "-test.v")
		cmd.Env = append(os.Environ(), "GODEBUG="+c.env, "CHARSNIFF_LOOPS_CHILD=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("GODEBUG=%s: %v\n%s", c.env, err, out)
		}
		if !strings.Contains(string(out), "loops="+c.want+"\n") {
			t.Errorf("GODEBUG=%q: the child reports\n%s\nwant loops=%s", c.env, out, c.want)
		}
	}
}

// TestCPUEnvChild reports the active loops, for TestCPUEnv.
func TestCPUEnvChild(t *testing.T) {
	if os.Getenv("CHARSNIFF_LOOPS_CHILD") == "" {
		t.Skip("run by TestCPUEnv")
	}
	os.Stdout.WriteString("loops=" + activeLoops() + "\n")
}

// ActiveLoops is activeLoops for the benchmarks of package decode_test.
var ActiveLoops = activeLoops
