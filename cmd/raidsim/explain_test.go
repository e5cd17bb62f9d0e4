package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExplainCommand runs the example and checks that it names
// the plan, the parity member, the pre-reads and every drive phase.
func TestExplainCommand(t *testing.T) {
	args := []string{"explain", "--drive", "deskstar-7k160", "--raid", "5", "--disks", "4", "--stripe", "64KiB",
		"--rw", "randwrite", "--bs", "4KiB", "--ios", "3", "--seed", "1"}
	code, out, errOut := runCLI(t, args...)
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, 3, strings.Count(out, "\nrequest ")+strings.Count(out[:8], "request"), out)
	for _, want := range []string{"reconstruct-write", "a tie, which Linux md gives to reconstruct-write", "parity on member",
		"pre-read other data", "data write", "parity write", "overhead", "seek", "over", "cylinders", "rotate",
		"platter at", "media", "bus", "in short:"} {
		assert.Contains(t, out, want)
	}
	code, out, errOut = runCLI(t, append(args, "--raid5-write", "rmw", "--requests", "1")...)
	require.Equal(t, 0, code, errOut)
	for _, want := range []string{"read-modify-write", "pre-read old data", "pre-read old parity", "forced to read-modify-write"} {
		assert.Contains(t, out, want)
	}
	code, _, errOut = runCLI(t, "explain", "--requests", "0")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "--requests: want 1 to")
}

func TestRunTimelineSummary(t *testing.T) {
	code, out, errOut := runCLI(t, "run", "--ios", "50", "--iodepth", "4", "--timeline-summary", "--timeline", "2")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "Where the time went")
	assert.Contains(t, out, "Request timeline")
	assert.Contains(t, out, "NCQ decodes")
	code, _, errOut = runCLI(t, "run", "--json", "--timeline-summary")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "--timeline-summary prints a table")
}
