package raidsim_test

import (
	"fmt"
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

// allowedImports is the package graph of DESIGN.md: for each package
// directory of the module ("." is the root), the module packages (by
// directory, matched exactly: "disk" does not allow "disk/disksim") and
// third-party modules (by prefix) its non-test files may import. Every
// library directory is listed, nested ones under their own full path;
// a directory missing here fails the test. Programs (programDirs) may
// import anything.
var allowedImports = map[string][]string{
	// The kernel and the module's private helpers.
	"sim":               {},
	"internal/counters": {},
	// internal/samplegen writes testdata/traces; its output is checked in.
	"internal/samplegen":  {},
	"internal/shareddata": {},
	// testhooks are switches tests flip to break the model on purpose.
	"internal/testhooks": {},
	// campaign draws fault schedules over small arrays with real bytes
	// and checks what every acknowledged write reads back as.
	"internal/campaign": {"sim", "raid", "raid/crashcheck", "faults", "cache", "simtest"},
	// internal/bigtrace writes big synthetic traces for benchmarks.
	"internal/bigtrace": {},
	// keypath is the one parser of key paths (spec, sweep, the CLI).
	"internal/keypath": {},
	// outfile is the one output policy: every file raidsim writes.
	"internal/outfile": {},
	// The layers: each a sim.Device over the kernel. raid never imports
	// disk or ssd, disk and ssd never import each other, cache never
	// imports raid or ssd (an SSD cache tier is a sim.Device handed to it).
	// drive is the interface every kind of drive meets.
	"drive":        {"sim"},
	"disk":         {"sim", "drive", "internal/counters"},
	"disk/disksim": {"sim", "disk", "disk/disksim/exact"},
	// exact simulates a DiskSim disk as DiskSim's source does: stdlib only.
	"disk/disksim/exact": {},
	// The differential harness against the DiskSim binary and its command.
	"disk/disksim/internal/oracle":            {"disk/disksim", "disk/disksim/exact"},
	"disk/disksim/internal/oracle/cmd/oracle": {"disk/disksim/internal/oracle"},
	"ssd": {"sim", "drive"},
	// smr is drive-managed SMR: a translation layer over package disk's
	// mechanics (its platter), with the map in google/btree.
	"smr":    {"sim", "drive", "disk", "github.com/google/btree"},
	"raid":   {"sim", "internal/testhooks"},
	"cache":  {"sim", "github.com/google/btree"},
	"host":   {"sim", "cache"},
	"faults": {"sim"},
	// raid/crashcheck checks an array's bytes after a power loss; it
	// needs only the layout and parity maths.
	"raid/crashcheck": {"raid"},
	// raid/raidz is ZFS's RAIDZ; it reuses raid's GF(2^8) P+Q code.
	"raid/raidz": {"sim", "raid"},
	// Workloads, drivers, measurement and their views.
	"trace":       {"sim", "gonum.org/v1/gonum"},
	"program":     {"sim"},
	"metrics":     {"sim", "gonum.org/v1/gonum"},
	"simtest":     {"sim"},
	"lifelog":     {"sim"},
	"traceevents": {"sim", "lifelog"},
	"reliability": {"gonum.org/v1/gonum"},
	"sweep":       {"internal/keypath"},
	"plot":        {"sim", "metrics", "internal/outfile", "gonum.org/v1/gonum", "gonum.org/v1/plot"},
	// mrc computes miss-ratio curves of a trace with the cache's policies.
	"mrc": {"sim", "cache", "trace"},
	// tracestats describes a trace: counts, mix, arrivals, footprint,
	// reuse (mrc's curve), drawn on a page by plot.
	"tracestats": {"sim", "trace", "mrc", "metrics", "plot"},
	// spec describes and checks an experiment; it builds nothing, so it
	// reads the layers' configuration types and never the root.
	"spec": {"sim", "drive", "disk", "ssd", "smr", "raid", "raid/raidz", "cache", "host", "trace", "faults", "internal/keypath", "go.yaml.in/yaml/v3"},
	// calibrate replays measured traces on drive models (DiskSim's among
	// them) and fits them with gonum's optimizers; it builds no stack.
	"calibrate": {"sim", "disk", "disk/disksim", "disk/disksim/exact", "metrics", "trace", "internal/outfile", "gonum.org/v1/gonum"},
	// The root builds a spec's stack, runs it and reports: one job.
	".": {"sim", "drive", "raid", "raid/raidz", "raid/crashcheck", "cache", "host", "faults", "trace", "metrics", "lifelog", "spec"},
	// Above the root, on its runs: the teaching views and the benchmark
	// emulations.
	"teach":     {".", "sim", "raid", "trace", "metrics", "lifelog", "spec"},
	"benchmark": {".", "sim", "spec"},
}

// programDirs are the directories (with everything under them) of
// programs: the CLI and the runnable scenarios. They may import any
// package and time themselves; they never use the global math/rand.
var programDirs = []string{"cmd", "examples"}

// testOnlyImports may also appear in _test.go files of any package.
// gonum is there for cross-checks of numbers against reference code.
var testOnlyImports = []string{"simtest", "internal/shareddata", "github.com/stretchr/testify", "gonum.org/v1/gonum"}

// testImports lists, per package directory, what its _test.go files may
// import beside its own rules and testOnlyImports: packages above it that
// its tests and Examples use as realistic partners.
var testImports = map[string][]string{
	// program's Example copies from one disk drive to another.
	"program": {"disk"},
	// crashcheck's tests crash a real array, its members behind volatile
	// write caches.
	"raid/crashcheck": {"sim", "faults"},
	// raid's tests fail members the way drives fail: behind fault
	// wrappers that time out and fail outright.
	"raid": {"faults"},
	// The campaign's tests break the model on purpose and see it caught.
	"internal/campaign": {"internal/testhooks"},
	// The generator's test reads back the traces it wrote.
	"internal/samplegen": {"sim", "trace"},
	// The root's tests check whole stacks against the layers' own figures
	// (a disk's or an SSD's report, through drive.Report), run sweeps of
	// them, and validate reports against docs/report.schema.json.
	".": {"internal/counters", "internal/bigtrace", "sweep", "disk", "ssd", "smr", "github.com/santhosh-tekuri/jsonschema/v6"},
	// tracestats' benchmark and long test describe big generated traces.
	"tracestats": {"internal/bigtrace"},
}

// randAllowed are the math/rand/v2 names that build an injected source
// rather than use the global one.
var randAllowed = []string{"New", "NewPCG", "NewChaCha8", "NewZipf", "Rand", "Source", "PCG", "ChaCha8", "Zipf"}

// wallClock are the time package's functions that read or wait on the
// wall clock.
var wallClock = []string{"Now", "Since", "Until", "Sleep", "After", "Tick", "NewTimer", "NewTicker", "AfterFunc"}

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

// isProgram reports whether dir is a program's or under one.
func isProgram(dir string) bool {
	return slices.ContainsFunc(programDirs, func(p string) bool { return dir == p || strings.HasPrefix(dir, p+"/") })
}

// importPath is the import path of a module directory, or a third-party
// entry as written.
func importPath(entry string) string {
	switch {
	case entry == ".":
		return module
	case strings.Contains(strings.SplitN(entry, "/", 2)[0], "."):
		return entry
	}
	return module + "/" + entry
}

// allowed reports whether path is on list: a module package by its exact
// directory, a third-party module by prefix.
func allowed(path string, list []string) bool {
	for _, a := range list {
		full := importPath(a)
		if path == full {
			return true
		}
		if full != module && !strings.HasPrefix(full, module+"/") && strings.HasPrefix(path, full+"/") {
			return true
		}
	}
	return false
}

// checkImports returns every broken rule of the graph in files, each
// file judged by the rules of its own directory (its full path, never
// only its first element).
func checkImports(files []goFile) []string {
	var out []string
	for _, f := range files {
		rules, listed := allowedImports[f.dir]
		program := isProgram(f.dir)
		if !listed && !program {
			out = append(out, fmt.Sprintf("%s: package directory %q has no rule in allowedImports: add it where it belongs in DESIGN.md's graph", f.path, f.dir))
			continue
		}
		list := slices.Concat(rules)
		if f.test {
			list = slices.Concat(list, testOnlyImports, testImports[f.dir], []string{f.dir})
		}
		for _, imp := range f.ast.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			switch {
			case path == "math/rand" && !program:
				out = append(out, fmt.Sprintf("%s imports math/rand: use an Engine.Rand stream (math/rand/v2)", f.path))
			case isStd(path) || program:
			case !allowed(path, list):
				out = append(out, fmt.Sprintf("%s imports %s; package %s may import only %v", f.path, path, f.dir, rules))
			}
		}
	}
	return out
}

// checkClocks returns every use of the wall clock or the global random
// source outside the programs: libraries run on virtual time only.
func checkClocks(files []goFile) []string {
	var out []string
	for _, f := range files {
		if isProgram(f.dir) {
			continue
		}
		randName, timeName := "", ""
		for _, imp := range f.ast.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			local := ""
			if imp.Name != nil {
				local = imp.Name.Name
			}
			switch path {
			case "math/rand/v2":
				randName = cmp(local, "rand")
			case "time":
				timeName = cmp(local, "time")
			}
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
			case timeName != "" && x.Name == timeName && slices.Contains(wallClock, sel.Sel.Name):
				out = append(out, fmt.Sprintf("%s uses time.%s: simulations run on virtual time (sim.Engine)", f.path, sel.Sel.Name))
			case randName != "" && x.Name == randName && !slices.Contains(randAllowed, sel.Sel.Name):
				out = append(out, fmt.Sprintf("%s uses the global rand.%s: take a stream from Engine.Rand", f.path, sel.Sel.Name))
			}
			return true
		})
	}
	return out
}

// TestArchitecture keeps the package graph of DESIGN.md: each package
// imports only the packages below it, and nothing outside the programs
// (cmd/, examples/) reads the wall clock or the global random source.
func TestArchitecture(t *testing.T) {
	files := parseModule(t)
	if len(files) < 10 {
		t.Fatalf("found only %d Go files; is the test running at the module root?", len(files))
	}
	for _, v := range slices.Concat(checkImports(files), checkClocks(files)) {
		t.Error(v)
	}
}

// TestArchitectureRulesAreAcyclic: the graph allowedImports draws is a
// DAG over listed directories, so the layers can be read bottom up.
func TestArchitectureRulesAreAcyclic(t *testing.T) {
	state := map[string]int{} // 1 visiting, 2 done
	var visit func(dir string, path []string)
	visit = func(dir string, path []string) {
		switch state[dir] {
		case 1:
			t.Errorf("allowedImports has a cycle: %s", strings.Join(append(path, dir), " -> "))
			return
		case 2:
			return
		}
		state[dir] = 1
		for _, d := range allowedImports[dir] {
			if importPath(d) == d { // third party
				continue
			}
			if _, ok := allowedImports[d]; !ok {
				t.Errorf("allowedImports[%q] names %q, which has no rule of its own", dir, d)
				continue
			}
			visit(d, append(path, dir))
		}
		state[dir] = 2
	}
	for dir := range allowedImports {
		visit(dir, nil)
	}
}

// parseSource parses one synthetic file placed in dir.
func parseSource(t *testing.T, dir, src string) goFile {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), dir+"/x.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	return goFile{dir: dir, path: dir + "/x.go", ast: f}
}

// TestArchitectureNestedRules: a nested package is judged by its own
// rule, not by its first path element's (nor left unchecked because its
// first element has none), and a package's rule does not admit its
// subpackages by prefix.
func TestArchitectureNestedRules(t *testing.T) {
	imports := func(dir, pkg string) goFile {
		return parseSource(t, dir, fmt.Sprintf("package x\nimport _ %q\n", importPath(pkg)))
	}
	for _, c := range []struct {
		file goFile
		bad  bool
	}{
		{imports("disk/disksim", "internal/counters"), true}, // disk may, disksim may not
		{imports("raid/crashcheck", "sim"), true},            // raid may, crashcheck may not
		{imports("internal/counters", "sim"), true},          // "internal" has no rule; internal/counters does
		{imports("disk", "disk/disksim"), true},              // "disk" does not admit disk/disksim
		{imports("teach/newview", "sim"), true},              // an unlisted library directory
		{imports("disk/disksim", "disk"), false},
		{imports("raid/crashcheck", "raid"), false},
		{imports("trace", "gonum.org/v1/gonum/stat/distuv"), false}, // third party by prefix
		{imports("cmd/raidsim/playground", "disk/disksim"), false},  // programs import anything
	} {
		got := checkImports([]goFile{c.file})
		if c.bad && len(got) == 0 {
			t.Errorf("%s importing %v: no violation reported", c.file.dir, c.file.ast.Imports[0].Path.Value)
		}
		if !c.bad && len(got) > 0 {
			t.Errorf("%s importing %v: %v", c.file.dir, c.file.ast.Imports[0].Path.Value, got)
		}
	}
	clock := parseSource(t, "internal/counters", "package x\nimport \"time\"\nvar _ = time.Now\n")
	if len(checkClocks([]goFile{clock})) == 0 {
		t.Error("time.Now in internal/counters was not reported")
	}
}

func cmp(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
