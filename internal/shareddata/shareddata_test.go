package shareddata

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// fakeTB stands for a test that Dir may skip: Skip records the reason and
// ends the goroutine, as testing.T's does.
type fakeTB struct {
	testing.TB
	name    string
	skipped string
}

func (f *fakeTB) Helper()      {}
func (f *fakeTB) Name() string { return f.name }
func (f *fakeTB) Skip(args ...any) {
	f.skipped = fmt.Sprint(args...)
	runtime.Goexit()
}

// run calls s.dir on a fake test named name in its own goroutine and
// returns the path and the skip reason ("" if it did not skip).
func run(s *state, name string, parts ...string) (path, skipped string) {
	tb := &fakeTB{name: name}
	done := make(chan struct{})
	go func() {
		defer close(done)
		path = s.dir(tb, parts...)
	}()
	<-done
	return path, tb.skipped
}

func TestDirFindsData(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "traces"), 0o755); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(dir, "traces", "x.csv")
	if err := os.WriteFile(want, []byte("1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvVar, dir)
	if got := Dir(t, "traces", "x.csv"); got != want {
		t.Errorf("Dir = %q, want %q", got, want)
	}
	if got := Dir(t); got != dir {
		t.Errorf("Dir() = %q, want %q", got, dir)
	}
	if got, ok := Lookup("traces", "x.csv"); got != want || !ok {
		t.Errorf("Lookup = %q, %v; want %q, true", got, ok, want)
	}
	if got, ok := Lookup("traces", "y.csv"); got != filepath.Join(dir, "traces", "y.csv") || ok {
		t.Errorf("Lookup of a missing file = %q, %v", got, ok)
	}
	if names, _ := std.skipped(); len(names) != 0 {
		t.Errorf("found data recorded skips: %v", names)
	}
}

func TestDirRelativeEnvIsFromTheRoot(t *testing.T) {
	t.Setenv(EnvVar, "internal")
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := Dir(t, "shareddata"), filepath.Join(root, "internal", "shareddata"); got != want {
		t.Errorf("Dir = %q, want %q", got, want)
	}
}

func TestDirSkipsOnMissingData(t *testing.T) {
	s := &state{}
	t.Setenv(EnvVar, "")
	_, why := run(s, "TestA/sub", "traces", "no-such-sample.csv")
	if want := "needs ../shared/traces/no-such-sample.csv (third-party data beside the repo; absent on this clone)"; why != want {
		t.Errorf("skip reason %q\n want %q", why, want)
	}
	t.Setenv(EnvVar, "/nonexistent")
	_, why = run(s, "TestB", "disksim-models")
	if want := "needs /nonexistent/disksim-models (third-party data, from RAIDSIM_SHARED=/nonexistent; absent)"; why != want {
		t.Errorf("skip reason %q\n want %q", why, want)
	}
	run(s, "TestA/other", "traces")
	names, where := s.skipped()
	if fmt.Sprint(names) != "[TestA TestB]" || where != "RAIDSIM_SHARED=/nonexistent" {
		t.Errorf("recorded %v, %q; want [TestA TestB] under RAIDSIM_SHARED=/nonexistent", names, where)
	}
}

func TestSummary(t *testing.T) {
	for _, tc := range []struct {
		tests []string
		where string
		want  string
	}{
		{[]string{"TestA"}, "../shared", "raidsim/trace: 1 test skipped, ../shared absent: TestA"},
		{[]string{"TestA", "TestB", "TestC"}, "RAIDSIM_SHARED=/x", "raidsim/trace: 3 tests skipped, RAIDSIM_SHARED=/x absent: TestA, TestB, TestC"},
	} {
		if got := Summary("raidsim/trace", tc.where, "absent", tc.tests); got != tc.want {
			t.Errorf("got  %q\nwant %q", got, tc.want)
		}
	}
}

func TestPackageName(t *testing.T) {
	for _, tc := range []struct{ module, rel, want string }{
		{"github.com/raidsim/raidsim", ".", "raidsim"},
		{"github.com/raidsim/raidsim", "trace", "raidsim/trace"},
		{"github.com/raidsim/raidsim", filepath.Join("disk", "disksim"), "raidsim/disk/disksim"},
		{"example", "a", "example/a"},
	} {
		if got := pkgName(tc.module, tc.rel); got != tc.want {
			t.Errorf("pkgName(%q, %q) = %q, want %q", tc.module, tc.rel, got, tc.want)
		}
	}
	if got := packageName(); got != "raidsim/internal/shareddata" {
		t.Errorf("packageName() = %q", got)
	}
	if got := modulePath([]byte("// c\nmodule \"example.com/m\" // x\n\ngo 1.26\n")); got != "example.com/m" {
		t.Errorf("modulePath = %q", got)
	}
}

func TestAppendMode(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		info string
		want bool
	}{
		{"pos:\t0\nflags:\t0100001\nmnt_id:\t27\n", false},
		{"pos:\t0\nflags:\t0102001\nmnt_id:\t27\n", true},
		{"garbage", false},
	} {
		p := filepath.Join(dir, "fdinfo")
		if err := os.WriteFile(p, []byte(tc.info), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := appendMode(p); got != tc.want {
			t.Errorf("appendMode(%q) = %v", tc.info, got)
		}
	}
}
