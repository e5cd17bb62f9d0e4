package main

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// conceptStep is one command of docs/concepts.md and the output lines
// the guide quotes from it.
type conceptStep struct {
	line   int
	args   []string
	quoted []string
}

// conceptSteps reads the guide: every ```sh block holds one raidsim
// command, and the ```text block after it the lines quoted.
func conceptSteps(t *testing.T, path string) []conceptStep {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var steps []conceptStep
	var block string // "sh", "text" or "" outside a block
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		n++
		line := sc.Text()
		switch {
		case block == "" && strings.HasPrefix(line, "```"):
			block = strings.TrimPrefix(line, "```")
			if block == "text" {
				require.NotEmpty(t, steps, "line %d: quoted output before any command", n)
			}
		case strings.HasPrefix(line, "```"):
			block = ""
		case block == "sh":
			fields := strings.Fields(line)
			require.True(t, len(fields) > 1 && fields[0] == "raidsim", "line %d: want a raidsim command, got %q", n, line)
			steps = append(steps, conceptStep{line: n, args: fields[1:]})
		case block == "text":
			steps[len(steps)-1].quoted = append(steps[len(steps)-1].quoted, line)
		}
	}
	require.NoError(t, sc.Err())
	return steps
}

// TestConceptsGuide runs every command of docs/concepts.md and checks
// that every line the guide quotes is in the command's output, numbers
// and all, so the guide never goes stale.
func TestConceptsGuide(t *testing.T) {
	const path = "../../docs/concepts.md"
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	for _, topic := range []string{"Seek plus half a revolution", "Zones", "Queueing and SATF", "Write cache and flush",
		"RAID 5's four I/Os", "Full-stripe writes", "Write-back caching and its risk", "The write hole"} {
		assert.Contains(t, string(raw), "## "+topic)
	}
	steps := conceptSteps(t, path)
	require.GreaterOrEqual(t, len(steps), 8)
	for _, s := range steps {
		require.NotEmpty(t, s.quoted, "line %d: a command with no quoted output", s.line)
		code, out, errOut := runCLI(t, s.args...)
		require.Equal(t, 0, code, "line %d: %s", s.line, errOut)
		got := map[string]bool{}
		for _, l := range strings.Split(out, "\n") {
			got[strings.TrimSpace(l)] = true
		}
		for _, q := range s.quoted {
			assert.True(t, got[strings.TrimSpace(q)], "docs/concepts.md line %d: raidsim %s no longer prints\n%s",
				s.line, strings.Join(s.args, " "), q)
		}
	}
}
