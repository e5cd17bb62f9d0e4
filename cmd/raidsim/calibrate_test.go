package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/calibrate"
	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/spec"
)

// miniParv is a tiny DiskSim model (two zones, 3000 blocks) kept in the
// calibrate package's testdata.
var miniParv = filepath.Join("..", "..", "calibrate", "testdata", "mini.parv")

// writeMiniTrace writes a validate trace of n requests within the tiny
// model's 3000 blocks, with made-up but fixed service times, and returns
// its path.
func writeMiniTrace(t *testing.T, n int) string {
	t.Helper()
	var b strings.Builder
	for i := range n {
		op := "R"
		if i%3 == 0 {
			op = "W"
		}
		fmt.Fprintf(&b, "%s Hit %d %d %d.0 10000.0\n", op, (i*197)%2900, 1+i%8, 1500+(i*37)%6000)
	}
	path := filepath.Join(t.TempDir(), "mini.validate.trace")
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	return path
}

// TestCalibrateDiskSimOut fits the tiny model and writes it: raidsim
// validate scores the written model as calibrate scored the fit.
func TestCalibrateDiskSimOut(t *testing.T) {
	tr := writeMiniTrace(t, 400)
	dir := filepath.Join(t.TempDir(), "fitted")
	code, out, errOut := runCLI(t, "calibrate", "--disksim", miniParv, "--trace", tr, "--iterations", "60", "--out", dir)
	require.Equal(t, 0, code, errOut)
	for _, want := range []string{"# raidsim calibrate: MINI on mini.validate.trace, 400 requests, 60 models evaluated",
		"# demerit", "#   p99", "# largest gap before: simulated", "overhead_scale (x)", "# DiskSim parameters to change in mini.parv",
		"mini.seek: the seek curve, every point rescaled", "# fitted model written to"} {
		assert.Contains(t, out, want)
	}
	code, js, errOut := runCLI(t, "calibrate", "--disksim", miniParv, "--trace", tr, "--iterations", "60", "--json")
	require.Equal(t, 0, code, errOut)
	var res calibrateResult
	require.NoError(t, json.Unmarshal([]byte(js), &res))
	assert.Equal(t, 400, res.Requests)
	assert.LessOrEqual(t, res.After.DemeritMs, res.Before.DemeritMs)
	code, vout, errOut := runCLI(t, "validate", "--disksim", filepath.Join(dir, "mini.parv"), "--disksim-mode", "refined", "--trace", tr, "--json")
	require.Equal(t, 0, code, errOut)
	var v validateResult
	require.NoError(t, json.Unmarshal([]byte(vout), &v))
	assert.InDelta(t, res.After.DemeritMs, v.DemeritMs, 1e-3, "the written model scores as the fit")
}

// TestCalibrateDeskstarOnAtlas10k is issue 12's first case at reduced
// size (the first 2000 requests): the Deskstar 7K500 preset fitted to
// the Atlas 10K's measured trace improves its demerit by at least 20%,
// and the config it prints describes the fitted drive: replayed from the
// config, the drive scores the fitted demerit.
func TestCalibrateDeskstarOnAtlas10k(t *testing.T) {
	_, tr := validationFiles(t, "atlas10k")
	path := filepath.Join(t.TempDir(), "fitted.yaml")
	code, out, errOut := runCLI(t, "calibrate", "--drive", "deskstar-7k500", "--trace", tr, "--max-requests", "2000", "--iterations", "120", "--out", path, "--json")
	require.Equal(t, 0, code, errOut)
	var res calibrateResult
	require.NoError(t, json.Unmarshal([]byte(out), &res))
	t.Logf("demerit %.3f -> %.3f ms (%.1f%% better) in %d evaluations", res.Before.DemeritMs, res.After.DemeritMs, res.Improvement, res.Evaluations)
	assert.GreaterOrEqual(t, res.Improvement, 20.0)
	text, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, res.Config, string(text))
	x, err := spec.Load(path)
	require.NoError(t, err, string(text))
	pl, err := x.Plan()
	require.NoError(t, err)
	assert.Equal(t, "deskstar-7k500-calibrated", pl.Drive.(*disk.Model).Params().Name)
	recs, err := calibrate.LoadTrace(tr, "", 2000)
	require.NoError(t, err)
	reqs, err := calibrate.Replay(pl.Drive.(*disk.Model).Params(), recs)
	require.NoError(t, err)
	assert.InDelta(t, res.After.DemeritMs, calibrate.Compare(reqs).DemeritMs, 1e-9, "the config is the fitted drive")
}

func TestCalibrateErrors(t *testing.T) {
	tr := writeMiniTrace(t, 10)
	blk := filepath.Join(t.TempDir(), "b.blkparse")
	require.NoError(t, os.WriteFile(blk, []byte("  8,0    0        1     0.000000000  1234  Q   R 2048 + 8 [fio]\n"), 0o644))
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--trace", tr}, 2, "give one of --drive PRESET and --disksim FILE.parv"},
		{[]string{"--drive", "deskstar-7k500", "--disksim", miniParv, "--trace", tr}, 2, "give one of --drive PRESET and --disksim"},
		{[]string{"--drive", "deskstar-7k500"}, 2, "--trace is required"},
		{[]string{"--drive", "nosuch", "--trace", tr}, 2, `--drive "nosuch": unknown preset (known: cheetah-15k5,`},
		{[]string{"--drive", "intel-x25m-g2", "--trace", tr}, 2, `--drive "intel-x25m-g2" is an SSD: calibrate fits disk models only`},
		{[]string{"--drive", "deskstar-7k500", "--trace", tr, "--iterations", "0", "--max-requests", "-1"}, 2, "--max-requests -1: want 0 (all) or more\nraidsim calibrate: --iterations 0: want at least 1"},
		{[]string{"--drive", "deskstar-7k500", "--trace", tr, "--iterations", "many"}, 2, "--iterations: want a whole number (no exponent or fraction), got \"many\""},
		{[]string{"--drive", "deskstar-7k500", "--trace", tr, "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"--bogus"}, 2, "unknown flag: --bogus"},
		{[]string{"--drive", "deskstar-7k500", "--trace", "nosuch.trace"}, 1, "nosuch.trace: no such file"},
		{[]string{"--disksim", "nosuch.parv", "--trace", tr}, 1, "nosuch.parv"},
		{[]string{"--drive", "deskstar-7k500", "--trace", blk}, 1, "record 1: the trace records no measured service times (blkparse replays one kind of event; --format blkparse:DC pairs issues (D) with completions (C))"},
		{[]string{"--drive", "deskstar-7k500", "--trace", tr, "--format", "nosuch"}, 1, "unknown trace format"},
		{[]string{"--disksim", miniParv, "--trace", tr, "--out", filepath.Dir(miniParv)}, 1, "is the same file as the input --disksim"},
	} {
		code, _, errOut := runCLI(t, append([]string{"calibrate"}, tc.args...)...)
		assert.Equal(t, tc.code, code, "%v: %s", tc.args, errOut)
		assert.Contains(t, errOut, tc.want, "%v", tc.args)
		if tc.code == 2 {
			assert.Contains(t, errOut, "(see raidsim calibrate --help)", "%v", tc.args)
		}
	}
	code, out, _ := runCLI(t, "calibrate", "--help")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "Usage: raidsim calibrate --drive PRESET|--disksim FILE.parv --trace FILE")
	assert.Contains(t, out, "--max-requests")
}
