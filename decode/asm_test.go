package decode

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/charsniff/charsniff/internal/testutil"
)

// legacyX matches an operand that is one of the XMM registers a legacy SSE
// encoding can name, X0 to X15.
var legacyX = regexp.MustCompile(`(^|[^A-Za-z0-9_·])X([0-9]|1[0-5])([^0-9]|$)`)

// vexOperand matches a register or mnemonic that only VEX or EVEX encode:
// a Y or Z register, or an instruction of the V forms.
var vexOperand = regexp.MustCompile(`(^|[^A-Za-z0-9_·])[YZ]([0-9]|[12][0-9]|3[01])([^0-9]|$)`)

// legacySSE returns the instructions of an assembly file's text that use a
// legacy SSE encoding (an X register operand with a mnemonic that is not a
// V form: MOVQ, MOVD, MOVOU, PXOR, PCMPEQB, PMOVMSKB, PSHUFB, PINSR*,
// PEXTR*, PUNPCK* and all the rest), as "line: instruction", if the file
// also uses VEX (Y or Z registers, V mnemonics); else none. Mixing the two
// costs a transition on every such instruction on some CPUs (AMD Zen 3: some
// 100 ns each) once the upper halves of the vector registers are dirty.
// General-purpose instructions never take an X register, so the rule needs
// no list of SSE mnemonics. Macro bodies are split at their semicolons.
func legacySSE(text string) []string {
	type insn struct {
		line int
		op   string
		args string
	}
	var all []insn
	vex := false
	sc := bufio.NewScanner(strings.NewReader(text))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if k := strings.Index(line, "//"); k >= 0 {
			line = line[:k]
		}
		line = strings.TrimSuffix(strings.TrimSpace(line), `\`)
		if strings.HasPrefix(line, "#define") {
			line = strings.TrimPrefix(line, "#define")
			line = strings.TrimSpace(line)
			if k := strings.IndexAny(line, " \t"); k >= 0 { // the macro's name
				line = line[k:]
			} else {
				line = ""
			}
		}
		for _, stmt := range strings.Split(line, ";") {
			stmt = strings.TrimSpace(stmt)
			if k := strings.Index(stmt, ":"); k >= 0 && !strings.ContainsAny(stmt[:k], " \t(") {
				stmt = strings.TrimSpace(stmt[k+1:]) // a label
			}
			op, args, _ := strings.Cut(stmt, " ")
			op = strings.TrimSpace(op)
			if op == "" || strings.HasPrefix(op, "#") || op == "TEXT" || op == "DATA" || op == "GLOBL" {
				continue
			}
			if strings.HasPrefix(op, "V") || vexOperand.MatchString(args) {
				vex = true
			}
			all = append(all, insn{n, op, strings.TrimSpace(args)})
		}
	}
	if !vex {
		return nil
	}
	var bad []string
	for _, in := range all {
		if !strings.HasPrefix(in.op, "V") && legacyX.MatchString(in.args) {
			bad = append(bad, fmt.Sprintf("%d: %s %s", in.line, in.op, in.args))
		}
	}
	return bad
}

// TestNoLegacySSE fails on any legacy SSE instruction in an assembly file
// of the module that also uses VEX: every *.s under the module's root.
func TestNoLegacySSE(t *testing.T) {
	root := testutil.Root(t)
	files := 0
	err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() && (e.Name() == ".git" || e.Name() == "testdata") {
			return filepath.SkipDir
		}
		if e.IsDir() || !strings.HasSuffix(path, ".s") {
			return nil
		}
		files++
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, bad := range legacySSE(string(b)) {
			rel, _ := filepath.Rel(root, path)
			t.Errorf("%s:%s: legacy SSE in a file that uses VEX; use the V form", rel, bad)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files == 0 {
		t.Fatal("no assembly file found under the module's root")
	}
}

// TestLegacySSERule checks the scan of TestNoLegacySSE on small files.
func TestLegacySSERule(t *testing.T) {
	for _, c := range []struct {
		text string
		want int
	}{
		{"\tMOVQ R10, X2\n\tVPBROADCASTB X2, Y2\n", 1},
		{"\tVMOVQ R10, X2\n\tVPBROADCASTB X2, Y2\n", 0},
		{"\tMOVQ R10, X2\n\tPXOR X0, X0\n", 0}, // no VEX: SSE alone is fine
		{"#define M \\\n\tVPXOR Y0, Y0, Y0; \\\n\tPSHUFB X1, X0; \\\n\tMOVQ AX, BX\n", 1},
		{"loop:\tPINSRQ $1, AX, X3 // a comment Y1\n\tVZEROUPPER\n", 1},
		{"\tMOVQ AX, X12\n\tVMOVDQU64 (SI), Z0\n", 1},
		{"\tMOVQ AX, X16\n\tVMOVDQU (SI), Y0\n", 0}, // X16 has no legacy encoding
		{"\tMOVOU (SI), X0\n\tPCMPEQB X1, X0\n\tPMOVMSKB X0, AX\n\tVZEROUPPER\n", 3},
	} {
		if got := legacySSE(c.text); len(got) != c.want {
			t.Errorf("legacySSE(%q) = %q, want %d findings", c.text, got, c.want)
		}
	}
}
