package raidsim_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/raidsim/raidsim"

// allowedImports lists, for each package directory, the non-standard
// imports its non-test files may use: the dependency graph of DESIGN.md.
// A directory missing here (the root, cmd/, examples/) may import anything
// in the module.
var allowedImports = map[string][]string{
	"sim":         {},
	"disk":        {"sim", "internal/counters"},
	"ssd":         {"sim"},
	"raid":        {"sim"},
	"cache":       {"sim"},
	"host":        {"sim", "cache"},
	"trace":       {"sim", "gonum.org/v1/gonum"},
	"metrics":     {"sim", "gonum.org/v1/gonum"},
	"simtest":     {"sim"},
	"faults":      {"sim"},
	"reliability": {},
	"lifelog":     {"sim"},
	// traceevents writes a lifelog as Chrome trace events.
	"traceevents": {"sim", "lifelog"},
	"sweep":       {"internal/keypath"},
	"plot":        {"sim", "metrics", "gonum.org/v1/gonum", "gonum.org/v1/plot"},
	// spec describes and checks an experiment; it builds nothing, so it
	// reads the layers' configuration types and never the root.
	"spec":         {"sim", "disk", "ssd", "raid", "cache", "host", "trace", "faults", "internal/keypath", "go.yaml.in/yaml/v3"},
	"disk/disksim": {"sim", "disk"},
	// calibrate replays measured traces on drive models (DiskSim's among
	// them) and fits them with gonum's optimizers; it builds no stack.
	"calibrate":         {"sim", "disk", "disk/disksim", "metrics", "trace", "gonum.org/v1/gonum"},
	"internal/counters": {},
	// program drives devices one request at a time; it needs only the kernel.
	"program": {"sim"},
	// keypath is the one parser of key paths (spec, sweep, the CLI).
	"internal/keypath": {},
}

// testOnlyImports may also appear in _test.go files of any package.
// gonum is there for cross-checks of numbers against reference code.
var testOnlyImports = []string{"simtest", "internal/shareddata", "github.com/stretchr/testify", "gonum.org/v1/gonum"}

// testImports lists, per package directory, what its _test.go files may
// import beside its own rules and testOnlyImports: packages above it that
// its tests and Examples use as realistic partners.
var testImports = map[string][]string{
	// program's Example copies from one disk drive to another.
	"program": {"disk"},
}

// randAllowed are the math/rand/v2 names that build an injected source
// rather than use the global one.
var randAllowed = []string{"New", "NewPCG", "NewChaCha8", "NewZipf", "Rand", "Source", "PCG", "ChaCha8", "Zipf"}

type goFile struct {
	dir, path string
	test      bool
	ast       *ast.File
}

func parseModule(t *testing.T) []goFile {
	t.Helper()
	var files []goFile
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != "." && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		full, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files = append(files, goFile{
			dir:  filepath.ToSlash(filepath.Dir(path)),
			path: filepath.ToSlash(path),
			test: strings.HasSuffix(path, "_test.go"),
			ast:  full,
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// isStd reports whether an import path belongs to the standard library.
func isStd(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

func allowed(path string, list []string) bool {
	for _, a := range list {
		full := a
		if !strings.Contains(a, ".") {
			full = module + "/" + a
		}
		if path == full || strings.HasPrefix(path, full+"/") {
			return true
		}
	}
	return false
}

// TestArchitecture keeps the package graph of DESIGN.md: each package
// imports only the packages below it, and nothing outside the programs
// (cmd/, examples/) reads the wall clock or the global random source.
func TestArchitecture(t *testing.T) {
	files := parseModule(t)
	if len(files) < 10 {
		t.Fatalf("found only %d Go files; is the test running at the module root?", len(files))
	}
	for _, f := range files {
		top, _, _ := strings.Cut(f.dir, "/")
		rules, constrained := allowedImports[top]
		randName, timeName := "", ""
		for _, imp := range f.ast.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			local := ""
			if imp.Name != nil {
				local = imp.Name.Name
			}
			switch path {
			case "math/rand":
				if top != "cmd" && top != "examples" {
					t.Errorf("%s imports math/rand: use an Engine.Rand stream (math/rand/v2)", f.path)
				}
			case "math/rand/v2":
				randName = cmp(local, "rand")
			case "time":
				timeName = cmp(local, "time")
			}
			if isStd(path) || !constrained {
				continue
			}
			// A package's subpackages (disk/disksim) may build on it.
			list := slices.Concat(rules, []string{top})
			if f.test {
				list = slices.Concat(list, testOnlyImports, testImports[top])
			}
			if !allowed(path, list) {
				t.Errorf("%s imports %s; package %s may import only %v", f.path, path, top, rules)
			}
		}
		// Programs (the CLI and the examples) may time themselves; the
		// libraries they drive run on virtual time only.
		if top == "cmd" || top == "examples" {
			continue
		}
		ast.Inspect(f.ast, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			x, ok := sel.X.(*ast.Ident)
			if !ok {
				return true
			}
			switch {
			case timeName != "" && x.Name == timeName && slices.Contains([]string{"Now", "Since", "Until", "Sleep", "After", "Tick", "NewTimer", "NewTicker", "AfterFunc"}, sel.Sel.Name):
				t.Errorf("%s uses time.%s: simulations run on virtual time (sim.Engine)", f.path, sel.Sel.Name)
			case randName != "" && x.Name == randName && !slices.Contains(randAllowed, sel.Sel.Name):
				t.Errorf("%s uses the global rand.%s: take a stream from Engine.Rand", f.path, sel.Sel.Name)
			}
			return true
		})
	}
}

func cmp(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
