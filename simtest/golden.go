package simtest

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// update is the -update flag of every test binary that links simtest.
// Go registers flags in one global set, so a package whose tests use
// Golden must not define its own "update" flag: the test binary would
// panic at start-up with "flag redefined: update". Read it with Updating.
var update = flag.Bool("update", false, "simtest: rewrite golden files under testdata/ instead of comparing with them")

// Updating reports whether the test binary runs with -update, for tests
// that keep golden data in a form Golden does not handle.
func Updating() bool { return *update }

// Golden compares got with the golden file testdata/<path> (path is
// slash-separated and relative to testdata, in the package directory the
// test runs in) and fails t with the first differing line when they
// differ or the file is missing. When the test binary runs with -update,
// it writes got to the file instead, creating directories as needed.
//
// The -update flag is defined by simtest; packages using Golden must not
// define a flag of the same name.
func Golden(t testing.TB, path string, got []byte) {
	t.Helper()
	file := filepath.Join("testdata", filepath.FromSlash(path))
	if err := golden(file, got, *update); err != nil {
		t.Error(err)
	}
}

// golden does Golden's work on file, returning the failure.
func golden(file string, got []byte, update bool) error {
	if update {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			return fmt.Errorf("simtest: golden: %v", err)
		}
		if err := os.WriteFile(file, got, 0o644); err != nil {
			return fmt.Errorf("simtest: golden: %v", err)
		}
		return nil
	}
	want, err := os.ReadFile(file)
	if err != nil {
		return fmt.Errorf("simtest: golden: %v (run the test with -update to create it)", err)
	}
	if bytes.Equal(got, want) {
		return nil
	}
	return fmt.Errorf("simtest: golden: output differs from %s (run with -update to accept it):\n%s", file, firstDiff(want, got))
}

// firstDiff describes the first line where want and got differ, with a
// line of context before it.
func firstDiff(want, got []byte) string {
	lines := func(b []byte) []string {
		ls := strings.SplitAfter(string(b), "\n")
		if ls[len(ls)-1] == "" {
			ls = ls[:len(ls)-1]
		}
		return ls
	}
	wl, gl := lines(want), lines(got)
	i := 0
	for i < len(wl) && i < len(gl) && wl[i] == gl[i] {
		i++
	}
	line := func(ls []string, i int) string {
		if i >= len(ls) {
			return "(end of file)"
		}
		return fmt.Sprintf("%q", ls[i])
	}
	var b strings.Builder
	if i > 0 {
		fmt.Fprintf(&b, "  line %d (same): %q\n", i, wl[i-1])
	}
	fmt.Fprintf(&b, "  line %d want: %s\n", i+1, line(wl, i))
	fmt.Fprintf(&b, "  line %d got:  %s\n", i+1, line(gl, i))
	fmt.Fprintf(&b, "  (%d bytes wanted, %d got)", len(want), len(got))
	return b.String()
}
