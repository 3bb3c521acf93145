package main

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/charsniff/charsniff/internal/reference"
)

// specTables are the test files whose tables hold the cases of the
// encoding sniffing algorithm: every slice literal there of a struct with
// an "in" field (or of calls of a helper with an "in" parameter) is read.
var specTables = []string{
	"sniff/sniff_test.go",
	"prescan/prescan_test.go",
	"prescan/tokenizer_test.go",
}

// stdinRefused lists the cases that the command refuses from standard
// input, without a type or a name, and why: bytes the MIME Sniffing
// Standard's rules for an unknown type call binary, in which the HTML
// encoding sniffing algorithm finds nothing of its own (no BOM, no
// <meta>, no XML declaration, no UTF-16 XML prefix; it answers with the
// default). A browser given them without a type downloads them; named
// page.html (or with --content-type text/html) they are answered, which
// TestStandardCasesAnswered checks too.
var stdinRefused = map[string]string{
	"<meta\vcharset=gbk>": "0x0B is a binary data byte and no <meta>: the prescan's vertical tab case",
	"<\x00?\x00x":         "BOM-less UTF-16, five bytes: too short for the UTF-16 XML prefix",
	"<\x00?\x00X\x00":     "BOM-less UTF-16, upper-case X: not the UTF-16 XML prefix",
	" <\x00?\x00x\x00":    "BOM-less UTF-16 after a space: not the UTF-16 XML prefix",
}

// TestStandardCasesAnswered runs every case of the encoding sniffing
// algorithm the repository has (the html5lib encoding tests and the
// inputs of the sniff and prescan tables, read from their source) through
// the command without --text, from standard input and as a file named
// case.html, and checks that each is answered: an encoding, not the
// refusal of binary data (but for the documented stdinRefused).
func TestStandardCasesAnswered(t *testing.T) {
	var ins []string
	for _, c := range reference.Cases(t) {
		ins = append(ins, string(c.Input))
	}
	n := len(ins)
	for _, f := range specTables {
		got, bad := tableInputs(t, filepath.Join(root, f))
		if len(got) == 0 || bad > len(got)/10 {
			t.Errorf("%s: %d inputs read, %d not: has the table's shape changed?", f, len(got), bad)
		}
		t.Logf("%s: %d inputs (%d expressions not evaluated)", f, len(got), bad)
		ins = append(ins, got...)
	}
	t.Logf("%d html5lib cases, %d table inputs", n, len(ins)-n)
	dir := t.TempDir()
	page := filepath.Join(dir, "case.html")
	refused := map[string]bool{}
	for _, in := range ins {
		if err := os.WriteFile(page, []byte(in), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, errs, code := runStdin(nil, "", page); code != 0 || !strings.Contains(out, `"encoding":`) {
			t.Errorf("charsniff --json case.html holding %q: exit %d, %q %q; want an encoding", in, code, out, errs)
		}
		out, errs, code := runStdin(nil, in)
		switch ok := code == 0 && strings.Contains(out, `"encoding":`); {
		case !ok && stdinRefused[in] != "" && strings.Contains(errs, "binary data ("):
			refused[in] = true
		case !ok:
			t.Errorf("charsniff --json < %q: exit %d, %q %q; want an encoding", in, code, out, errs)
		case stdinRefused[in] != "":
			t.Errorf("charsniff --json < %q: answered, but stdinRefused lists it", in)
		}
	}
	for in := range stdinRefused {
		if !refused[in] {
			t.Errorf("stdinRefused lists %q, which no table holds now", in)
		}
	}
}

// runStdin runs the command in this process with --json, extra flags and
// args, stdin as its standard input.
func runStdin(extra []string, stdin string, args ...string) (stdout, stderr string, code int) {
	var o, e bytes.Buffer
	all := append(append([]string{"--json"}, extra...), args...)
	code = run(all, strings.NewReader(stdin), &o, &e)
	return o.String(), e.String(), code
}

// tableInputs returns the "in" values of the tables in the Go test file
// path, and how many it could not evaluate. It evaluates what the tables
// use: string literals, +, strings.Repeat, len, and constants and
// variables given such values in the file.
func tableInputs(t *testing.T, path string) (ins []string, bad int) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	ev := &evaluator{names: map[string]ast.Expr{}}
	structs := map[string]*ast.StructType{}
	funcs := map[string]*ast.FuncDecl{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ValueSpec:
			for i, name := range n.Names {
				if i < len(n.Values) {
					ev.names[name.Name] = n.Values[i]
				}
			}
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE && len(n.Lhs) == len(n.Rhs) {
				for i, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						ev.names[id.Name] = n.Rhs[i]
					}
				}
			}
		case *ast.TypeSpec:
			if st, ok := n.Type.(*ast.StructType); ok {
				structs[n.Name.Name] = st
			}
		case *ast.FuncDecl:
			funcs[n.Name.Name] = n
		}
		return true
	})
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.CompositeLit)
		if !ok {
			return true
		}
		arr, ok := lit.Type.(*ast.ArrayType)
		if !ok {
			return true
		}
		var st *ast.StructType
		switch e := arr.Elt.(type) {
		case *ast.StructType:
			st = e
		case *ast.Ident:
			st = structs[e.Name]
		}
		field := fieldIndex(st)
		if field < 0 {
			return true
		}
		for _, el := range lit.Elts {
			x := caseInput(el, field, funcs)
			if x == nil {
				bad++
				continue
			}
			if s, ok := ev.str(x); ok {
				ins = append(ins, s)
			} else {
				bad++
			}
		}
		return false
	})
	return ins, bad
}

// fieldIndex returns the position of the field "in" of st, or -1.
func fieldIndex(st *ast.StructType) int {
	if st == nil {
		return -1
	}
	i := 0
	for _, f := range st.Fields.List {
		for _, name := range f.Names {
			if name.Name == "in" {
				return i
			}
			i++
		}
	}
	return -1
}

// caseInput returns the expression of a table element's "in": a keyed or
// positional field of a composite literal, or the "in" argument of a call
// of a helper declared in the file.
func caseInput(el ast.Expr, field int, funcs map[string]*ast.FuncDecl) ast.Expr {
	switch el := el.(type) {
	case *ast.CompositeLit:
		for i, x := range el.Elts {
			if kv, ok := x.(*ast.KeyValueExpr); ok {
				if id, ok := kv.Key.(*ast.Ident); ok && id.Name == "in" {
					return kv.Value
				}
			} else if i == field {
				return x
			}
		}
	case *ast.CallExpr:
		id, ok := el.Fun.(*ast.Ident)
		if !ok || funcs[id.Name] == nil {
			return nil
		}
		i := 0
		for _, p := range funcs[id.Name].Type.Params.List {
			for _, name := range p.Names {
				if name.Name == "in" && i < len(el.Args) {
					return el.Args[i]
				}
				i++
			}
		}
	}
	return nil
}

// evaluator evaluates the string and integer expressions of a test table.
type evaluator struct {
	names map[string]ast.Expr // the file's constants and variables
	depth int
}

func (ev *evaluator) str(x ast.Expr) (string, bool) {
	if ev.depth > 20 {
		return "", false
	}
	ev.depth++
	defer func() { ev.depth-- }()
	switch x := x.(type) {
	case *ast.BasicLit:
		if x.Kind == token.STRING {
			s, err := strconv.Unquote(x.Value)
			return s, err == nil
		}
	case *ast.ParenExpr:
		return ev.str(x.X)
	case *ast.BinaryExpr:
		a, ok1 := ev.str(x.X)
		b, ok2 := ev.str(x.Y)
		return a + b, ok1 && ok2 && x.Op == token.ADD
	case *ast.Ident:
		if v, ok := ev.names[x.Name]; ok {
			return ev.str(v)
		}
	case *ast.CallExpr:
		if sel, ok := x.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Repeat" && len(x.Args) == 2 {
			s, ok1 := ev.str(x.Args[0])
			n, ok2 := ev.int(x.Args[1])
			if ok1 && ok2 && n >= 0 && n < 1<<20 {
				return strings.Repeat(s, n), true
			}
		}
	}
	return "", false
}

func (ev *evaluator) int(x ast.Expr) (int, bool) {
	switch x := x.(type) {
	case *ast.BasicLit:
		if x.Kind == token.INT {
			n, err := strconv.Atoi(x.Value)
			return n, err == nil
		}
	case *ast.ParenExpr:
		return ev.int(x.X)
	case *ast.BinaryExpr:
		a, ok1 := ev.int(x.X)
		b, ok2 := ev.int(x.Y)
		if !ok1 || !ok2 {
			return 0, false
		}
		switch x.Op {
		case token.ADD:
			return a + b, true
		case token.SUB:
			return a - b, true
		case token.MUL:
			return a * b, true
		}
	case *ast.CallExpr:
		if id, ok := x.Fun.(*ast.Ident); ok && id.Name == "len" && len(x.Args) == 1 {
			s, ok := ev.str(x.Args[0])
			return len(s), ok
		}
	case *ast.Ident:
		if v, ok := ev.names[x.Name]; ok {
			return ev.int(v)
		}
	}
	return 0, false
}
