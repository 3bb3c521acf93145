package charsniff_test

import (
	"flag"
	"fmt"
	"go/build"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var updateArch = flag.Bool("update-arch", false, "rewrite the import graph in docs/ARCHITECTURE.md")

const module = "github.com/charsniff/charsniff"

// floors gives each package of the module its floor in the house: a
// package imports only packages on lower floors (docs/ARCHITECTURE.md,
// "Arrows"). Test support (testOnly) has no floor: no package users build
// may import it.
var floors = map[string]int{
	"internal/ascii":             -1, // ASCII's byte classes and word masks, below override
	"override":                   0,
	"internal/utf8seq":           0,
	"internal/mimetype":          0,
	"internal/mimesniff":         0,
	"internal/firsterr":          0,
	"internal/ordered":           0,
	"internal/zstdframe":         0,
	"internal/jsonstr":           0, // uses internal/ascii's masks
	"internal/region":            1,
	"internal/contentcoding":     1, // counts with internal/firsterr
	"decode/internal/singlebyte": 1,
	"prescan":                    1,
	"warc":                       1,
	"internal/autodetect":        2,
	"detect":                     3,
	"decode/codec":               2,
	"sniff":                      4,
	"decode":                     5,
	"":                           6, // the root package, charsniff
	"archive":                    6,
	"archive/index":              7,
	"cmd/charsniff":              8,
}

// testOnly are the packages that support tests, benchmarks and
// generators, which only other such packages may import.
var testOnly = map[string]bool{
	"internal/reference":               true,
	"internal/testutil":                true,
	"internal/warctest":                true,
	"internal/corpus":                  true,
	"internal/spec":                    true,
	"internal/benchpage":               true,
	"internal/corpus/extract":          true,
	"internal/invariance":              true,
	"detect/internal/eval":             true,
	"internal/autodetect/internal/gen": true,
	"fuzz":                             true,
}

// TestArchitecture checks that imports run only downward, that no package
// users build imports test support, and that the import graph written in
// docs/ARCHITECTURE.md is the code's (go test -run TestArchitecture
// -update-arch rewrites it).
func TestArchitecture(t *testing.T) {
	graph := importGraph(t)
	var names []string
	for p := range graph {
		names = append(names, p)
	}
	slices.Sort(names)
	for _, p := range names {
		if _, ok := floors[p]; !ok && !testOnly[p] {
			t.Errorf("package %q has no floor: add it to floors (or testOnly) and to docs/ARCHITECTURE.md", show(p))
			continue
		}
		for _, q := range graph[p] {
			switch {
			case testOnly[q] && !testOnly[p]:
				t.Errorf("%s imports %s, which is test support", show(p), show(q))
			case testOnly[p] || testOnly[q]:
			case floors[q] >= floors[p]:
				t.Errorf("%s (floor %d) imports %s (floor %d): imports run only downward", show(p), floors[p], show(q), floors[q])
			}
		}
	}

	var b strings.Builder
	for _, p := range names {
		if testOnly[p] {
			continue
		}
		deps := make([]string, 0, len(graph[p]))
		for _, q := range graph[p] {
			deps = append(deps, show(q))
		}
		if len(deps) == 0 {
			deps = []string{"(nothing of ours)"}
		}
		fmt.Fprintf(&b, "%-27s → %s\n", show(p), strings.Join(deps, ", "))
	}
	checkDocBlock(t, "docs/ARCHITECTURE.md", "imports", b.String())
}

// show names a package as the docs do.
func show(p string) string {
	if p == "" {
		return "charsniff (root)"
	}
	return p
}

// importGraph returns, for each package of the module with non-test Go
// files for this GOOS and GOARCH, the module's packages it imports, by path
// relative to the module ("" for the root).
func importGraph(t *testing.T) map[string][]string {
	t.Helper()
	graph := map[string][]string{}
	err := filepath.WalkDir(".", func(dir string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if base := d.Name(); dir != "." && (base == "testdata" || strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_")) {
			return filepath.SkipDir
		}
		if dir != "." {
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				return filepath.SkipDir // bench/, examples/: modules of their own
			}
		}
		pkg, err := build.ImportDir(dir, build.ImportComment)
		if err != nil {
			if _, ok := err.(*build.NoGoError); ok {
				return nil
			}
			return err
		}
		rel := filepath.ToSlash(dir)
		if rel == "." {
			rel = ""
		}
		var deps []string
		for _, imp := range pkg.Imports {
			if imp == module || strings.HasPrefix(imp, module+"/") {
				deps = append(deps, strings.TrimPrefix(strings.TrimPrefix(imp, module), "/"))
			}
		}
		slices.Sort(deps)
		graph[rel] = deps
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(graph) < len(floors) {
		t.Fatalf("found %d packages, fewer than the %d with floors: run from the module root", len(graph), len(floors))
	}
	return graph
}

// checkDocBlock checks that the code block after the marker
// "<!-- name: ... -->" in the file doc is want, or rewrites it with
// -update-arch.
func checkDocBlock(t *testing.T, doc, name, want string) {
	t.Helper()
	data, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	marker := "<!-- " + name + ":"
	i := strings.Index(text, marker)
	if i < 0 {
		t.Fatalf("%s has no %q marker", doc, marker)
	}
	open := strings.Index(text[i:], "```\n")
	if open < 0 {
		t.Fatalf("%s: no code block after %q", doc, marker)
	}
	start := i + open + len("```\n")
	end := strings.Index(text[start:], "```")
	if end < 0 {
		t.Fatalf("%s: the block after %q does not end", doc, marker)
	}
	got := text[start : start+end]
	if got == want {
		return
	}
	if *updateArch {
		text = text[:start] + want + text[start+end:]
		if err := os.WriteFile(doc, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s's %s block is not the code's (go test -run %s -update-arch rewrites it)\ngot:\n%s\nwant:\n%s",
		doc, name, path.Base(t.Name()), got, want)
}
