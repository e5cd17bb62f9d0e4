package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/simtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runCLI runs the command with args and returns its exit status and output.
func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestDemoGolden(t *testing.T) {
	code, out, errOut := runCLI(t)
	require.Equal(t, 0, code, errOut)
	for _, row := range demoRows {
		assert.Contains(t, out, row.label)
	}
	simtest.Golden(t, "demo.txt", []byte(out))
}

func TestDrivesListsEveryPreset(t *testing.T) {
	code, out, errOut := runCLI(t, "drives")
	require.Equal(t, 0, code, errOut)
	for _, name := range disk.PresetNames() {
		assert.Contains(t, out, name)
	}

	code, out, errOut = runCLI(t, "drives", "--json")
	require.Equal(t, 0, code, errOut)
	var figs []driveFigures
	require.NoError(t, json.Unmarshal([]byte(out), &figs))
	require.Len(t, figs, len(disk.PresetNames()))
	for _, f := range figs {
		assert.Positive(t, f.CapacityBytes, f.Name)
		assert.InDelta(t, 30000.0/float64(f.RPM), f.MeanRotationalLatencyMS, 0.01, "%s: half a revolution", f.Name)
		assert.Greater(t, f.OuterMediaMBps, f.InnerMediaMBps, "%s: outer zones are faster", f.Name)
		assert.Less(t, f.OuterSustainedMBps, f.InterfaceMBps, "%s: media slower than the bus", f.Name)
	}
}

func TestRunJSONHasTheReportFields(t *testing.T) {
	code, out, errOut := runCLI(t, "run", "--rw", "randrw", "--ios", "300", "--iodepth", "4", "--json")
	require.Equal(t, 0, code, errOut)
	var rep map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	for _, op := range []string{"read", "write", "all"} {
		obj, ok := rep[op].(map[string]any)
		require.True(t, ok, "report has object %q", op)
		for _, k := range []string{"ios", "bytes", "iops", "mb_per_s"} {
			assert.Contains(t, obj, k, "%s.%s", op, k)
		}
		lat, ok := obj["latency_ms"].(map[string]any)
		require.True(t, ok, "%s.latency_ms", op)
		for _, k := range []string{"mean", "p50", "p95", "p99", "max"} {
			assert.Contains(t, lat, k, "%s.latency_ms.%s", op, k)
		}
	}
	assert.Contains(t, rep, "sim_seconds")
	all := rep["all"].(map[string]any)
	assert.EqualValues(t, 300, all["ios"])
	read, write := rep["read"].(map[string]any), rep["write"].(map[string]any)
	assert.EqualValues(t, 300, read["ios"].(float64)+write["ios"].(float64))
	assert.Positive(t, rep["sim_seconds"])
}

func TestRunIsDeterministic(t *testing.T) {
	args := []string{"run", "--rw", "randwrite", "--ios", "400", "--iodepth", "8", "--json"}
	_, a, _ := runCLI(t, append(args, "--seed", "7")...)
	_, b, _ := runCLI(t, append(args, "--seed", "7")...)
	_, c, _ := runCLI(t, append(args, "--seed", "8")...)
	require.NotEmpty(t, a)
	assert.Equal(t, a, b, "same seed, byte-identical report")
	assert.NotEqual(t, a, c, "another seed, another report")
}

func TestRunTextReport(t *testing.T) {
	code, out, errOut := runCLI(t, "run", "--drive", "deskstar-7k500", "--rw", "read", "--bs", "64KiB", "--ios", "200")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "drive deskstar-7k500")
	assert.Contains(t, out, "read ")
	assert.Contains(t, out, "utilization")
}

func TestBadInputGetsClearErrors(t *testing.T) {
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{[]string{"run", "--bs", "3000"}, 1, "3000"},
		{[]string{"run", "--bs", "four"}, 2, "four"},
		{[]string{"run", "--drive", "floppy"}, 1, "floppy"},
		{[]string{"run", "--write-cache", "maybe"}, 1, "--write-cache"},
		{[]string{"run", "--scheduler", "elevator"}, 1, "elevator"},
		{[]string{"run", "--rw", "sideways"}, 1, "sideways"},
		{[]string{"run", "--iodepth", "0"}, 1, "--iodepth"},
		{[]string{"run", "--ios", "-5"}, 1, "--ios"},
		{[]string{"run", "--ncq", "64"}, 1, "64"},
		{[]string{"run", "--ncq", "0"}, 1, "--ncq"},
		{[]string{"run", "--bs", "0"}, 1, "--bs"},
		{[]string{"run", "--iodepth", "100000000"}, 1, "IODepth"},
		{[]string{"run", "--offset", "10TiB"}, 1, "outside"},
		{[]string{"run", "--random_distribution", "zipf:-1"}, 1, "zipf"},
		{[]string{"run", "stray"}, 1, "stray"},
		{[]string{"drives", "extra"}, 1, "extra"},
		{[]string{"run", "--raid", "7"}, 1, "--raid"},
		{[]string{"run", "--raid", "5", "--disks", "2"}, 1, "RAID 5 needs at least 3 members, got 2"},
		{[]string{"run", "--raid", "0", "--stripe", "3000"}, 1, "3000"},
		{[]string{"run", "--raid", "5", "--layout", "diagonal"}, 1, "--layout"},
		{[]string{"run", "--raid", "5", "--raid5-write", "maybe"}, 1, "--raid5-write"},
		{[]string{"run", "--raid", "5", "--fail-disk", "one@1s"}, 2, "one@1s"},
		{[]string{"run", "--raid", "5", "--disks", "4", "--fail-disk", "9@1s"}, 1, "9"},
		{[]string{"run", "--disks", "3"}, 1, "need --raid"},
		{[]string{"run", "--raid", "0", "--disks", "100000"}, 1, "Disks"},
		{[]string{"run", "--cache-mode", "write-through"}, 1, "needs a volume cache"},
		{[]string{"run", "--cache", "64MiB", "--cache-mode", "write-around"}, 1, "--cache-mode"},
		{[]string{"run", "--cache", "64MiB", "--destage", "never"}, 1, "--destage"},
		{[]string{"run", "--cache", "64MiB", "--destage-order", "random"}, 1, "--destage-order"},
		{[]string{"run", "--cache", "64MiB", "--cache-align", "stripe"}, 1, "needs --raid"},
		{[]string{"run", "--cache", "64MiB", "--high-water", "0.2", "--low-water", "0.4"}, 1, "LowWater"},
		{[]string{"run", "--cache", "-1"}, 2, "-1"},
		{[]string{"run", "--timeline", "3", "--json"}, 1, "--timeline"},
		{[]string{"run", "--timeline", "-1"}, 1, "--timeline"},
		{[]string{"demo", "x"}, 1, "no arguments"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			code, out, errOut := runCLI(t, c.args...)
			assert.Equal(t, c.code, code, "stdout: %s\nstderr: %s", out, errOut)
			assert.Contains(t, errOut, c.want)
		})
	}
}

func TestRunTimeline(t *testing.T) {
	code, out, errOut := runCLI(t, "run", "--ios", "20", "--iodepth", "4", "--timeline", "3")
	require.Equal(t, 0, code, errOut)
	i := strings.Index(out, "Request timeline")
	require.Positive(t, i, out)
	table := out[i:]
	for _, col := range []string{"queue", "seek", "rotate", "media", "bus", "latency"} {
		assert.Contains(t, table, col)
	}
	assert.Equal(t, 3, strings.Count(table, "read 4096@"), "three requests")
}

func TestRunRAIDWithFailures(t *testing.T) {
	base := []string{"run", "--drive", "deskstar-7k160", "--raid", "5", "--disks", "4", "--rw", "randrw",
		"--ios", "1500", "--iodepth", "8", "--json"}
	code, out, errOut := runCLI(t, append(base, "--fail-disk", "1@1s")...)
	require.Equal(t, 0, code, errOut)
	var rep struct {
		Failed int64 `json:"failed_requests"`
		All    struct {
			IOs int64 `json:"ios"`
		} `json:"all"`
		RAID  map[string]any `json:"raid"`
		Disks []struct {
			Name        string   `json:"name"`
			Utilization *float64 `json:"utilization"`
			IOs         *int64   `json:"ios"`
		} `json:"disks"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	for _, k := range []string{"full_stripe_writes", "rmw_writes", "rcw_writes", "preread_bytes", "degraded_reads"} {
		assert.Contains(t, rep.RAID, k)
	}
	assert.Positive(t, rep.RAID["degraded_reads"], "reads of member 1 are reconstructed")
	assert.Equal(t, []any{1.0}, rep.RAID["failed_members"])
	assert.Zero(t, rep.Failed, "one failure loses nothing")
	assert.EqualValues(t, 1500, rep.All.IOs)
	require.Len(t, rep.Disks, 4)
	for i, d := range rep.Disks {
		assert.Equal(t, fmt.Sprintf("disk%d", i), d.Name)
		require.NotNil(t, d.Utilization)
		require.NotNil(t, d.IOs)
	}

	// A second failure kills the requests that need both members, with a
	// clear error, and the run still ends with a report.
	code, out, errOut = runCLI(t, append(base[:len(base)-1], "--fail-disk", "1@1s", "--fail-disk", "2@2s")...)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "failed requests:")
	assert.Contains(t, out, "data lost")
}

func TestRunWithVolumeCache(t *testing.T) {
	code, out, errOut := runCLI(t, "run", "--drive", "deskstar-7k160", "--raid", "5", "--disks", "4",
		"--rw", "write", "--bs", "64KiB", "--ios", "2000", "--cache", "32MiB", "--json")
	require.Equal(t, 0, code, errOut)
	var rep struct {
		Cache map[string]any `json:"cache"`
		RAID  map[string]any `json:"raid"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	for _, k := range []string{"read_hit_ratio", "coalescing_factor", "full_stripe_destage_fraction", "dirty_peak_bytes", "stall_seconds"} {
		assert.Contains(t, rep.Cache, k)
	}
	assert.Greater(t, rep.Cache["full_stripe_destage_fraction"], 0.95, "over RAID the cache gathers full stripes by default")
	assert.Greater(t, rep.Cache["coalescing_factor"], 2.0)
	assert.EqualValues(t, 0, rep.RAID["preread_bytes"], "full stripes need no pre-reads")

	code, out, errOut = runCLI(t, "run", "--rw", "randwrite", "--ios", "500", "--size", "8MiB", "--cache", "64MiB", "--cache-nv", "--destage", "idle")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "Volume cache (64MiB, write-back, non-volatile)")
}

func TestHelp(t *testing.T) {
	code, out, _ := runCLI(t, "help")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "raidsim drives")
	code, _, errOut := runCLI(t, "run", "--help")
	assert.Equal(t, 0, code)
	assert.Contains(t, errOut, "-write-cache")
}

// TestRunPowerLoss: --power-loss-at adds the per-layer table and the
// JSON object; it combines with --config.
func TestRunPowerLoss(t *testing.T) {
	code, out, errOut := runCLI(t, "run", "--drive", "deskstar-7k160", "--raid", "5", "--disks", "4", "--rw", "randwrite",
		"--bs", "16KiB", "--iodepth", "8", "--ios", "3000", "--size", "1GiB", "--cache", "16MiB", "--power-loss-at", "300ms")
	require.Equal(t, 0, code, errOut)
	for _, want := range []string{"Power loss at 0.300 s", "volume cache", "disk3", "write hole", "total"} {
		assert.Contains(t, out, want)
	}
	code, out, errOut = runCLI(t, "run", "--rw", "randwrite", "--ios", "300", "--power-loss-at", "100ms", "--json")
	require.Equal(t, 0, code, errOut)
	var rep struct {
		PowerLoss *raidsim.PowerLossReport `json:"power_loss"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	require.NotNil(t, rep.PowerLoss)
	assert.InDelta(t, 0.1, rep.PowerLoss.AtSeconds, 1e-9)
	assert.Len(t, rep.PowerLoss.DriveCacheBytes, 1)

	code, _, errOut = runCLI(t, "run", "--power-loss-at", "-1s")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "--power-loss-at: -1s is negative")

	code, out, errOut = runCLI(t, "run", "--config", "../../examples/configs/raid5-volume-cache.yaml", "--power-loss-at", "1s")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "Power loss at 1.000 s")
}
