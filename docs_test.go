package raidsim_test

import (
	"go/parser"
	"go/token"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/raidsim/raidsim/raid"
)

// TestDocsNameWhatIsModelled: the package doc and the README's opening
// paragraph name every RAID level package raid builds, the SSDs and the
// host, so a newcomer's first read says what the project simulates.
func TestDocsNameWhatIsModelled(t *testing.T) {
	var levels []string
	for l := range 64 {
		if raid.Level(l).Valid() {
			levels = append(levels, strconv.Itoa(l))
		}
	}
	n := len(levels)
	slashed := "RAID " + strings.Join(levels, "/")
	listed := "RAID " + strings.Join(levels[:n-1], ", ") + " and " + levels[n-1]

	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	intro, _, _ := strings.Cut(string(readme), "\nIt is for")
	for name, text := range map[string]string{"doc.go": f.Doc.Text(), "README.md's intro": intro} {
		text = strings.Join(strings.Fields(text), " ")
		if !strings.Contains(text, slashed) && !strings.Contains(text, listed) {
			t.Errorf("%s does not name the RAID levels as %q or %q", name, slashed, listed)
		}
		for _, word := range []string{"SSD", "host"} {
			if !strings.Contains(text, word) {
				t.Errorf("%s does not mention the %s", name, word)
			}
		}
	}
}
