package raidsim_test

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeListsEveryPackage: the README's Packages section lists every
// library package TestArchitecture knows (internal/... as one line), so
// the folder names a newcomer reads there are all the rooms there are.
func TestReadmeListsEveryPackage(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(readme), "\n## Packages")
	if !ok {
		t.Fatal("README.md has no Packages section")
	}
	_, block, _ := strings.Cut(sec, "```\n")
	block, _, _ = strings.Cut(block, "```")
	listed := map[string]bool{}
	names := regexp.MustCompile(`^([a-z][a-z0-9/.]*(?:, [a-z][a-z0-9/]*)*)(?: \(root\))?  `)
	for _, line := range strings.Split(block, "\n") {
		if m := names.FindStringSubmatch(line); m != nil {
			for _, n := range strings.Split(m[1], ", ") {
				listed[n] = true
			}
		}
	}
	for dir := range allowedImports {
		switch {
		case dir == ".":
			dir = "raidsim"
		case strings.HasPrefix(dir, "internal/"):
			dir = "internal/..."
		}
		if !listed[dir] {
			t.Errorf("README.md's Packages section does not list %s", dir)
		}
	}
}
