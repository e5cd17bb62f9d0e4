package simtest

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestGoldenRoundTrip(t *testing.T) {
	file := filepath.Join(t.TempDir(), "sub", "out.txt")
	got := []byte("alpha\nbeta\ngamma\n")
	if err := golden(file, got, false); err == nil || !strings.Contains(err.Error(), "-update") {
		t.Errorf("missing golden file: got %v, want a hint to run with -update", err)
	}
	if err := golden(file, got, true); err != nil {
		t.Fatalf("update: %v", err)
	}
	if err := golden(file, got, false); err != nil {
		t.Errorf("compare after update: %v", err)
	}
	err := golden(file, []byte("alpha\nBETA\ngamma\n"), false)
	if err == nil {
		t.Fatal("a changed line compares equal")
	}
	for _, want := range []string{`line 1 (same): "alpha\n"`, `line 2 want: "beta\n"`, `line 2 got:  "BETA\n"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("diff lacks %q:\n%v", want, err)
		}
	}
	err = golden(file, []byte("alpha\nbeta\n"), false)
	if err == nil || !strings.Contains(err.Error(), "line 3 got:  (end of file)") {
		t.Errorf("truncated output: %v", err)
	}
}

func TestGoldenFile(t *testing.T) {
	// testdata/golden.txt is checked in; -update rewrites it with the
	// same bytes.
	Golden(t, "golden.txt", []byte("simtest golden file\n"))
}
