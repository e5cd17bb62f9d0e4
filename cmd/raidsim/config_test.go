package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const cliConfig = `
name: cli
seed: 2
stack:
  drive: {preset: deskstar-7k500}
  cache: {size: 16MiB}
phases:
  - {name: fill, rw: write, bs: 64KiB, size: 2MiB}
  - {name: read back, rw: read, bs: 64KiB, size: 2MiB}
`

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "c.yaml")
	require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	return p
}

func TestRunConfigText(t *testing.T) {
	p := writeConfig(t, cliConfig)
	code, out, errOut := runCLI(t, "run", "--config", p)
	require.Equal(t, 0, code, errOut)
	for _, s := range []string{"cli: 2 phases, seed 2", "== Phase 1: fill", "== Phase 2: read back", "== Total", "Volume cache", "Drives"} {
		assert.Contains(t, out, s)
	}
}

func TestRunConfigJSON(t *testing.T) {
	p := writeConfig(t, cliConfig)
	code, out, errOut := runCLI(t, "run", "--config", p, "--json", "--seed", "2")
	require.Equal(t, 0, code, errOut)
	var rep struct {
		Name   string `json:"name"`
		Phases []struct {
			Name string `json:"name"`
			Read struct {
				IOs int64 `json:"ios"`
			} `json:"read"`
			SimSeconds float64 `json:"sim_s"`
		} `json:"phases"`
		Total struct {
			All struct {
				IOs int64 `json:"ios"`
			} `json:"all"`
		} `json:"total"`
		Disks []any `json:"disks"`
		Cache any   `json:"cache"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	assert.Equal(t, "cli", rep.Name)
	require.Len(t, rep.Phases, 2)
	assert.Equal(t, "read back", rep.Phases[1].Name)
	assert.EqualValues(t, 32, rep.Phases[1].Read.IOs)
	assert.EqualValues(t, 64, rep.Total.All.IOs)
	assert.Len(t, rep.Disks, 1)
	assert.NotNil(t, rep.Cache)

	_, again, _ := runCLI(t, "run", "--config", p, "--json", "--seed", "2")
	assert.Equal(t, out, again, "deterministic")
}

// TestRunConfigFlagsOverride: with --config the file is the base
// experiment and every other flag changes it, by its key path, whatever
// its place on the command line.
func TestRunConfigFlagsOverride(t *testing.T) {
	p := writeConfig(t, cliConfig)
	code, out, errOut := runCLI(t, "run", "--drive", "wd-1600ajs", "--config", p, "--rw", "randwrite", "--cache-nv",
		"--set", "phases[1].name=again", "--json")
	require.Equal(t, 0, code, errOut)
	var rep struct {
		Seed   uint64 `json:"seed"`
		Phases []struct {
			Name     string `json:"name"`
			Workload struct {
				RW string `json:"rw"`
				BS int64  `json:"bs_bytes"`
			} `json:"workload"`
		} `json:"phases"`
		Disks []struct {
			Model string `json:"model"`
		} `json:"disks"`
		Cache struct {
			NonVolatile bool `json:"non_volatile"`
		} `json:"cache"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	assert.EqualValues(t, 2, rep.Seed, "the file's seed, not the base experiment's")
	require.Len(t, rep.Phases, 2)
	assert.Equal(t, "randwrite", rep.Phases[0].Workload.RW, "--rw changes the first phase")
	assert.EqualValues(t, 64<<10, rep.Phases[0].Workload.BS, "the file's block size stays")
	assert.Equal(t, "read", rep.Phases[1].Workload.RW)
	assert.Equal(t, "again", rep.Phases[1].Name)
	assert.Equal(t, "wd-1600ajs", rep.Disks[0].Model, "--drive before --config changes the file too")
	assert.True(t, rep.Cache.NonVolatile)

	code, _, errOut = runCLI(t, "run", "--config", p, "--stripe", "128KiB")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "raidsim run: --stripe needs --raid (stack.raid)")
}

func TestRunConfigReportsEveryProblem(t *testing.T) {
	p := writeConfig(t, "stack: {disks: 2, raid: {level: 5}}\nphases: [{bs: 1000}]\n")
	code, _, errOut := runCLI(t, "run", "--config", p)
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "stack.disks: RAID 5 needs at least 3 drives, got 2")
	assert.Contains(t, errOut, "phases[0].bs: 1000 is not a multiple of 512")
}

func TestRunConfigExamples(t *testing.T) {
	for _, name := range []string{"single-drive-phases.yaml", "raid5-volume-cache.yaml", "custom-drive.json", "nas-host.yaml"} {
		code, out, errOut := runCLI(t, "run", "--config", filepath.Join("..", "..", "examples", "configs", name))
		require.Equal(t, 0, code, "%s: %s", name, errOut)
		assert.Contains(t, out, "== Total")
	}
}
