package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestIOzoneCommand(t *testing.T) {
	code, out, errOut := runCLI(t, "iozone", "--host", "nas-1gb", "--drive", "deskstar-7k160", "--page-cache", "64MiB",
		"--file-sizes", "1MiB,256MiB", "--record-sizes", "64KiB,48MiB")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "iozone (write, rewrite, read, reread) behind nas-1gb")
	assert.Contains(t, out, "256MiB  64KiB")
	assert.NotContains(t, out, "48MiB", "a record that divides no file is skipped")

	code, out, errOut = runCLI(t, "iozone", "--file-sizes", "4MiB", "--json")
	require.Equal(t, 0, code, errOut)
	var pts []struct {
		FileSize int64
		MBPerS   [4]float64
	}
	require.NoError(t, json.Unmarshal([]byte(out), &pts))
	require.Len(t, pts, 1)
	assert.Equal(t, int64(4<<20), pts[0].FileSize)
	assert.Greater(t, pts[0].MBPerS[3], 1000.0, "a 4 MiB file rereads from the server's page cache")

	code, _, errOut = runCLI(t, "iozone", "--file-sizes", "x,-1", "--record-sizes", "0", "--host", "mainframe")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, `--file-sizes: "x" is not a positive size`)
	assert.Contains(t, errOut, `--record-sizes: "0" is not a positive size`)

	code, _, errOut = runCLI(t, "iozone", "--host", "mainframe")
	assert.NotEqual(t, 0, code)
	assert.Contains(t, errOut, "stack.host.preset")

	code, out, _ = runCLI(t, "iozone", "--help")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "--file-sizes LIST")
	assert.Contains(t, out, "--host PRESET|none")
}
