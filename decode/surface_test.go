package decode_test

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestExportedNames checks the names decode exports, as go doc lists them,
// against this list: the package's API on record, so that a name added or
// removed is a decision made in review here.
func TestExportedNames(t *testing.T) {
	want := []string{
		"Change", "ChangeKind", "ChangeKind.String",
		"NoChange", "RestartNeeded", "Restarted", "SameEncoding", "SwitchedOnTheFly",
		"NewReader", "Option", "Reader",
		"Reader.ChangeEncoding", "Reader.Read", "Reader.ReadRune", "Reader.Reset",
		"Reader.Result", "Reader.Settle", "Reader.WriteTo",
		"Result", "WithEncoding", "WithLookahead", "WithProvenance", "WithSniff", "WithoutPreprocessing",
	}
	got := exportedNames(t, ".")
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("exported names:\ngot  %q\nwant %q", got, want)
	}
}

// exportedNames returns the sorted exported names of the package in dir,
// from its non-test files: methods as Type.Method.
func exportedNames(t *testing.T, dir string) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	pkg, err := doc.NewFromFiles(fset, files, "github.com/charsniff/charsniff/decode")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	values := func(vs []*doc.Value) {
		for _, v := range vs {
			names = append(names, v.Names...)
		}
	}
	values(pkg.Consts)
	values(pkg.Vars)
	for _, f := range pkg.Funcs {
		names = append(names, f.Name)
	}
	for _, typ := range pkg.Types {
		names = append(names, typ.Name)
		values(typ.Consts)
		values(typ.Vars)
		for _, f := range typ.Funcs {
			names = append(names, f.Name)
		}
		for _, m := range typ.Methods {
			names = append(names, typ.Name+"."+m.Name)
		}
	}
	slices.Sort(names)
	return names
}
