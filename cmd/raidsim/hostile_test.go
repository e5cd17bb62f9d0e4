package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOpenLoopOverloadWarns: an open-loop trace whose requests all
// arrive at once outruns a drive; the report says so instead of queueing
// silently.
func TestOpenLoopOverloadWarns(t *testing.T) {
	var b strings.Builder
	b.WriteString("time_ns,op,offset,length,device,fua,measured_ns\n")
	for i := range 3000 {
		fmt.Fprintf(&b, "%d,read,%d,4096,0,0,0\n", i, int64(i)*1048576)
	}
	path := filepath.Join(t.TempDir(), "burst.csv")
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	code, out, errOut := runCLI(t, "run", "--trace", path)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "warning: the trace outran the stack: up to 3000 requests were outstanding at once")
}

// TestTraceIsADirectory: a directory given as a trace is named as one.
func TestTraceIsADirectory(t *testing.T) {
	dir := t.TempDir()
	code, _, errOut := runCLI(t, "run", "--trace", dir)
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, dir+" is a directory, not a trace file")
}
