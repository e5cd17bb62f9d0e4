package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestGenLogReplaysInFio: what `raidsim gen --to fio` writes, Debian's
// fio replays onto a scratch file, issuing exactly its reads and writes.
func TestGenLogReplaysInFio(t *testing.T) {
	fio, err := exec.LookPath("fio")
	if err != nil {
		t.Skip("fio is not on the PATH (.ci/run installs it with apt-get); skipping the replay in real fio")
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "gen.log")
	code, _, errOut := runCLI(t, "gen", "--rw", "randrw", "--bssplit", "4k/60:16k/40", "--size", "4MiB",
		"--ios", "250", "--seed", "9", "--to", "fio", "--out", log)
	require.Equal(t, 0, code, errOut)
	text, err := os.ReadFile(log)
	require.NoError(t, err)
	reads, writes := bytes.Count(text, []byte(" read ")), bytes.Count(text, []byte(" write "))
	require.Equal(t, 250, reads+writes)

	scratch := filepath.Join(dir, "scratch.img")
	require.NoError(t, os.WriteFile(scratch, make([]byte, 4<<20), 0o600))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, fio, "--name=replay", "--read_iolog="+log,
		"--replay_redirect="+scratch, "--ioengine=psync", "--output-format=json")
	cmd.Dir = dir
	out, err := cmd.Output()
	require.NoError(t, err, "fio: %s", out)
	var res struct {
		Jobs []struct {
			Error int `json:"error"`
			Read  struct {
				TotalIOs int `json:"total_ios"`
			} `json:"read"`
			Write struct {
				TotalIOs int `json:"total_ios"`
			} `json:"write"`
		} `json:"jobs"`
	}
	require.NoError(t, json.Unmarshal(out, &res), "%s", out)
	require.Len(t, res.Jobs, 1)
	require.Zero(t, res.Jobs[0].Error)
	require.Equal(t, reads, res.Jobs[0].Read.TotalIOs, "reads")
	require.Equal(t, writes, res.Jobs[0].Write.TotalIOs, "writes")
}
