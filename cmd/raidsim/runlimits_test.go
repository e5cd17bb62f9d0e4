package main

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMaxMemoryRefusesTheRun: --max-memory bounds the up-front estimate;
// the error names the estimate, its parts, the limit and the knobs.
func TestMaxMemoryRefusesTheRun(t *testing.T) {
	code, _, errOut := runCLI(t, "run", "--drive", "samsung-970-evo-plus", "--disks", "16", "--raid", "5", "--rw", "randwrite", "--ios", "1000", "--max-memory", "100MiB")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "raidsim: not enough memory for the run: it would hold about 291 MB (16 x samsung-970-evo-plus (ssd) 224 MB; the run itself 67.1 MB), more than the 105 MB limit (as asked; --max-memory or GOMEMLIMIT sets it): fewer drives (--disks)")
	code, _, errOut = runCLI(t, "run", "--max-memory", "lots")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, `--max-memory: want a size such as 8GiB, or off, got "lots"`)
	code, _, errOut = runCLI(t, "run", "--ios", "10", "--max-memory", "off")
	assert.Equal(t, 0, code, errOut)
}

// TestProgressLine: --progress on draws the line on stderr (requests
// done of planned, elapsed, left, simulated time) and clears it before
// the report; off draws nothing.
func TestProgressLine(t *testing.T) {
	defer func(d time.Duration) { progressAfter = d }(progressAfter)
	progressAfter = 0
	code, out, errOut := runCLI(t, "run", "--drive", "intel-x25m-g2", "--ios", "300000", "--progress", "on")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, errOut, "\rphase 1/1 phase 1: ")
	assert.Contains(t, errOut, " of 300,000 requests (")
	assert.Regexp(t, `elapsed, ~\d+:\d\d left, \d+\.\d s simulated`, errOut)
	assert.True(t, strings.HasSuffix(errOut, "\r\033[K"), "the line is cleared")
	assert.Contains(t, out, "read   300000")
	_, _, errOut = runCLI(t, "run", "--drive", "intel-x25m-g2", "--ios", "300000", "--progress", "off")
	assert.Empty(t, errOut)
	assert.Equal(t, "1,234,567", thousands(1234567))
	assert.Equal(t, "-123,456", thousands(-123456))
}
