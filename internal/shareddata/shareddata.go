// Package shareddata finds, for tests, the third-party data kept beside the
// repository in ../shared (published traces, DiskSim's validated drive
// models), and skips the tests that need it, saying why, on a clone
// without it. Only test files import it.
//
// A package whose tests call Dir runs them through Main:
//
//	func TestMain(m *testing.M) { shareddata.Main(m) }
//
// so that `go test ./...`, which hides the output of passing packages,
// still shows one line per package naming what did not run:
//
//	raidsim/trace: 5 tests skipped, ../shared absent: TestDiskSimSample, TestMQSimSamples, ...
//
// The environment variable RAIDSIM_SHARED, when set, names the folder to
// use instead of ../shared (a relative path is taken from the repository
// root, the folder holding go.mod); RAIDSIM_SHARED=/nonexistent shows what
// a fresh clone sees.
package shareddata

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// EnvVar names the environment variable that overrides ../shared.
const EnvVar = "RAIDSIM_SHARED"

// stampName is a file under internal/shareddata (ignored by git) that a
// skip for missing data opens and rewrites. cmd/go does not cache a test
// result when the test opened a file of the module modified less than two
// seconds before the run ended, so a package with such skips is run, and
// its line printed, every time rather than replayed from the cache.
const stampName = ".nocache"

// linkName is a symbolic link under internal/shareddata (ignored by git)
// to ../shared. cmd/go keys a cached test result on the files the test
// looked at only when they are inside the module; Dir and Lookup look at
// ../shared through this link, so that a result cached while ../shared
// was there is not replayed once it is gone, nor the other way round.
const linkName = ".shared"

// Dir returns the path of the file or folder parts (joined, e.g. "traces",
// "msr-hm0-sample.csv") inside the shared data folder, or skips tb when it
// is absent, with a reason naming it, and records the skip for Main's
// summary. With no parts it returns the shared folder itself.
func Dir(tb testing.TB, parts ...string) string {
	tb.Helper()
	watch()
	return std.dir(tb, parts...)
}

// Lookup returns the path of parts inside the shared data folder and
// whether it exists, without skipping or recording anything: for data a
// test can do without, such as extra seeds of a fuzz corpus.
func Lookup(parts ...string) (string, bool) {
	watch()
	loc := locate()
	p := filepath.Join(append([]string{loc.dir}, parts...)...)
	if loc.err != nil {
		return p, false
	}
	_, err := os.Stat(p)
	return p, err == nil
}

// Main runs the tests of m, then, if any skipped for missing shared data,
// prints one line naming them where the go command shows it (see
// Summary), and exits with m's code. Call it from TestMain.
func Main(m *testing.M) {
	code := m.Run()
	std.report()
	os.Exit(code)
}

// location is where the shared data is looked for.
type location struct {
	dir   string // the folder (absolute when the root was found)
	where string // how to name it: "../shared" or "RAIDSIM_SHARED=..."
	root  string // the repository root, "" if not found
	err   error  // the root was not found (and no absolute RAIDSIM_SHARED)
}

func locate() location {
	root, rootErr := moduleRoot()
	if env := os.Getenv(EnvVar); env != "" {
		loc := location{dir: env, where: EnvVar + "=" + env, root: root}
		if !filepath.IsAbs(env) {
			if rootErr != nil {
				loc.err = rootErr
			} else {
				loc.dir = filepath.Join(root, env)
			}
		}
		return loc
	}
	if rootErr != nil {
		return location{dir: filepath.Join("..", "shared"), where: "../shared", err: rootErr}
	}
	return location{dir: filepath.Join(filepath.Dir(root), "shared"), where: "../shared", root: root}
}

// moduleRoot walks up from the working directory (a test runs in its
// package's folder) to the folder holding go.mod.
func moduleRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for dir := wd; ; {
		if fi, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil && !fi.IsDir() {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", fmt.Errorf("no go.mod in %s or above it", wd)
		}
		dir = up
	}
}

// watch stats ../shared through the link linkName inside the module (made
// if missing), which puts ../shared's state in the test cache's key.
// RAIDSIM_SHARED is in the key already: the go command records the
// environment variables a test reads.
func watch() {
	dir := ownDir()
	if dir == "" {
		return
	}
	link := filepath.Join(dir, linkName)
	if _, err := os.Lstat(link); errors.Is(err, fs.ErrNotExist) {
		os.Symlink(filepath.Join("..", "..", "..", "shared"), link) // at worst, no link: results may be replayed
	}
	os.Stat(link)
}

// ownDir returns this package's folder, internal/shareddata under the
// repository root, or "" if it is not there.
func ownDir() string {
	root, err := moduleRoot()
	if err != nil {
		return ""
	}
	dir := filepath.Join(root, "internal", "shareddata")
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return ""
	}
	return dir
}

// state records the tests that skipped for missing data.
type state struct {
	mu    sync.Mutex
	tests map[string]bool // top-level test names
	where string          // how the last skip named the data folder
	stamp func() string   // path of the stamp file, "" for none
}

var std = &state{stamp: defaultStamp}

func defaultStamp() string {
	dir := ownDir()
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, stampName)
}

func (s *state) dir(tb testing.TB, parts ...string) string {
	tb.Helper()
	loc := locate()
	rel := filepath.ToSlash(filepath.Join(parts...))
	p := filepath.Join(append([]string{loc.dir}, parts...)...)
	if loc.err != nil {
		s.skip(tb, loc.where, fmt.Sprintf("needs %s (third-party data beside the repo), but the repository root is not found: %v",
			name(loc, rel), loc.err))
		return p
	}
	_, err := os.Stat(p)
	switch {
	case err == nil:
		return p
	case errors.Is(err, fs.ErrNotExist) && loc.where == "../shared":
		s.skip(tb, loc.where, fmt.Sprintf("needs %s (third-party data beside the repo; absent on this clone)", name(loc, rel)))
	case errors.Is(err, fs.ErrNotExist):
		s.skip(tb, loc.where, fmt.Sprintf("needs %s (third-party data, from %s; absent)", name(loc, rel), loc.where))
	default:
		s.skip(tb, loc.where, fmt.Sprintf("needs %s (third-party data beside the repo): %v", name(loc, rel), err))
	}
	return p
}

// name is how a skip names the missing data: ../shared/traces/x, or the
// path under RAIDSIM_SHARED.
func name(loc location, rel string) string {
	base := loc.where
	if base != "../shared" {
		base = strings.TrimSuffix(filepath.ToSlash(strings.TrimPrefix(loc.where, EnvVar+"=")), "/")
	}
	if rel == "" || rel == "." {
		return base
	}
	return base + "/" + rel
}

// skip records tb's top-level test, keeps the package's result out of the
// test cache, and skips tb.
func (s *state) skip(tb testing.TB, where, reason string) {
	tb.Helper()
	top, _, _ := strings.Cut(tb.Name(), "/")
	s.mu.Lock()
	if s.tests == nil {
		s.tests = map[string]bool{}
	}
	s.tests[top] = true
	s.where = where
	s.mu.Unlock()
	s.touch()
	tb.Skip(reason)
}

// touch rewrites the stamp file through os.OpenFile, which the test log
// records as an input of the run. Errors are ignored: at worst a result
// is cached and its line not printed again.
func (s *state) touch() {
	if s.stamp == nil {
		return
	}
	p := s.stamp()
	if p == "" {
		return
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return
	}
	f.Write([]byte("tests skipped for missing shared data; see shareddata.go\n"))
	f.Close()
}

// skipped returns the recorded tests in order and how the data folder was
// named.
func (s *state) skipped() ([]string, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	names := make([]string, 0, len(s.tests))
	for n := range s.tests {
		names = append(names, n)
	}
	slices.Sort(names)
	return names, s.where
}

func (s *state) report() {
	names, where := s.skipped()
	if len(names) == 0 {
		return
	}
	// The stamp was opened during the run; rewrite it now, as the run
	// ends, so that it is still fresh when the go command looks at it.
	s.touch()
	cond := "absent"
	if loc := locate(); loc.err == nil {
		if _, err := os.Stat(loc.dir); err == nil {
			cond = "incomplete"
		}
	}
	line := Summary(packageName(), where, cond, names) + "\n"
	if w := parentStderr(); w != nil {
		_, err := w.Write([]byte(line))
		w.Close()
		if err == nil {
			return
		}
	}
	os.Stderr.WriteString(line)
}

// Summary formats Main's line: the package, how many tests skipped and
// which, and the data folder's name and state ("absent" or "incomplete").
func Summary(pkg, where, state string, tests []string) string {
	noun := "tests"
	if len(tests) == 1 {
		noun = "test"
	}
	return fmt.Sprintf("%s: %d %s skipped, %s %s: %s", pkg, len(tests), noun, where, state, strings.Join(tests, ", "))
}

// packageName names the package under test as the last element of the
// module path and the package's folder under the root: raidsim/trace.
func packageName() string {
	wd, err := os.Getwd()
	if err != nil {
		return "?"
	}
	root, err := moduleRoot()
	if err != nil {
		return filepath.Base(wd)
	}
	mod := filepath.Base(root)
	if b, err := os.ReadFile(filepath.Join(root, "go.mod")); err == nil {
		if m := modulePath(b); m != "" {
			mod = m
		}
	}
	rel, err := filepath.Rel(root, wd)
	if err != nil {
		rel = "."
	}
	return pkgName(mod, rel)
}

// pkgName joins the module path's last element and a package's folder
// relative to the module root.
func pkgName(module, rel string) string {
	if i := strings.LastIndex(module, "/"); i >= 0 {
		module = module[i+1:]
	}
	rel = filepath.ToSlash(rel)
	if rel == "." || rel == "" {
		return module
	}
	return module + "/" + rel
}

func modulePath(gomod []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(gomod))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`)
		}
	}
	return ""
}

// parentStderr opens the go command's standard error when it is the
// test's parent (Linux only): in package list mode the go command shows a
// passing test's output only with -v, and replays it from the cache. It
// returns nil, and the line goes to the test's own standard error, when
// the parent is not the go command, on other systems, or when the go
// command's standard error is a regular file it writes at its own offset
// and shares with its standard output (`go test ./... >log 2>&1`), where
// an appended line would be overwritten.
func parentStderr() *os.File {
	ppid := os.Getppid()
	proc := fmt.Sprintf("/proc/%d", ppid)
	comm, err := os.ReadFile(proc + "/comm")
	if err != nil || strings.TrimSpace(string(comm)) != "go" {
		return nil
	}
	fi, err := os.Stat(proc + "/fd/2")
	if err != nil {
		return nil
	}
	if fi.Mode().IsRegular() && !appendMode(proc+"/fdinfo/2") {
		if out, err := os.Stat(proc + "/fd/1"); err == nil && os.SameFile(fi, out) {
			return nil
		}
	}
	f, err := os.OpenFile(proc+"/fd/2", os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return nil
	}
	return f
}

// appendMode reports whether an fdinfo file's flags include O_APPEND
// (02000, octal as fdinfo prints them).
func appendMode(fdinfo string) bool {
	b, err := os.ReadFile(fdinfo)
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "flags:"); ok {
			var flags uint64
			if _, err := fmt.Sscanf(strings.TrimSpace(v), "%o", &flags); err == nil {
				return flags&0o2000 != 0
			}
		}
	}
	return false
}
