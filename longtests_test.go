package raidsim_test

import (
	"fmt"
	"go/build/constraint"
	"os"
	"strings"
	"testing"
)

// TestLongTestsAreTagged keeps the heavy tests' convention: a file holds
// tests behind the build tag long exactly when its name ends in
// _long_test.go, so `go test ./...` stays fast, the folder listing shows
// what only CI runs, and .ci/run runs their packages with -tags long
// (and vets every file with the tag).
func TestLongTestsAreTagged(t *testing.T) {
	long := 0
	for _, f := range parseModule(t) {
		tagged, err := needsTag(f.path, "long")
		if err != nil {
			t.Fatal(err)
		}
		named := strings.HasSuffix(f.path, "_long_test.go")
		switch {
		case named && !tagged:
			t.Errorf("%s: a _long_test.go file needs //go:build long", f.path)
		case tagged && !named:
			t.Errorf("%s: a file behind the tag long is named *_long_test.go", f.path)
		}
		if named {
			long++
		}
	}
	if long == 0 {
		t.Error("no _long_test.go file found")
	}
	ci, err := os.ReadFile(".ci/run")
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range []string{"go test ./...\n", "go test -tags long ", "go vet -tags long ./...\n", `"$staticcheck" -tags long ./...` + "\n"} {
		if !strings.Contains(string(ci), "\n"+step) {
			t.Errorf(".ci/run lacks the step %q", step)
		}
	}
}

// needsTag reports whether the file at path builds only with tag: its
// //go:build line (before the package clause) holds with tag set and
// not without it.
func needsTag(path, tag string) (bool, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return false, err
	}
	for _, line := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(line, "package ") {
			break
		}
		if !constraint.IsGoBuild(line) {
			continue
		}
		expr, err := constraint.Parse(line)
		if err != nil {
			return false, fmt.Errorf("%s: %w", path, err)
		}
		return expr.Eval(func(t string) bool { return t == tag }) && !expr.Eval(func(string) bool { return false }), nil
	}
	return false, nil
}
