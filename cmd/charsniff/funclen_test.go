package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxFuncLines is the longest a function of the command, of package
// archive and of internal/ordered may be (issue 25): signature and braces
// included, tests excluded.
const maxFuncLines = 60

// TestFunctionLength checks that no function is longer than maxFuncLines.
func TestFunctionLength(t *testing.T) {
	for _, dir := range []string{"cmd/charsniff", "archive", "internal/ordered"} {
		files, err := filepath.Glob(filepath.Join(root, dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no Go files (%v)", dir, err)
		}
		for _, f := range files {
			if !strings.HasSuffix(f, "_test.go") {
				checkFuncLengths(t, f)
			}
		}
	}
}

// checkFuncLengths checks the functions of the Go file path.
func checkFuncLengths(t *testing.T, path string) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	ast.Inspect(f, func(n ast.Node) bool {
		var name string
		switch fn := n.(type) {
		case *ast.FuncDecl:
			name = fn.Name.Name
		case *ast.FuncLit:
			name = "a function literal"
		default:
			return true
		}
		start, end := fset.Position(n.Pos()), fset.Position(n.End())
		if lines := end.Line - start.Line + 1; lines > maxFuncLines {
			t.Errorf("%s:%d: %s has %d lines, want at most %d", filepath.Base(path), start.Line, name, lines, maxFuncLines)
		}
		return true
	})
}
