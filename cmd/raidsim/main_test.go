package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/simtest"
	"github.com/raidsim/raidsim/smr"
	"github.com/raidsim/raidsim/ssd"
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
	for _, name := range append(append(disk.PresetNames(), ssd.PresetNames()...), smr.PresetNames()...) {
		assert.Contains(t, out, name)
	}

	code, out, errOut = runCLI(t, "drives", "--json")
	require.Equal(t, 0, code, errOut)
	var raw []json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(out), &raw))
	require.Len(t, raw, len(disk.PresetNames())+len(ssd.PresetNames())+len(smr.PresetNames()))
	for _, r := range raw {
		var kind struct{ Kind string }
		require.NoError(t, json.Unmarshal(r, &kind))
		if kind.Kind == smr.KindName {
			var f smr.Datasheet
			require.NoError(t, json.Unmarshal(r, &f))
			assert.Positive(t, f.CapacityBytes, f.Name)
			if f.Recording == "SMR" {
				assert.Positive(t, f.MediaCacheBytes, "%s: an SMR drive has a media cache", f.Name)
				assert.Positive(t, f.BandBytes, "%s: and bands", f.Name)
			} else {
				assert.Zero(t, f.BandBytes, "%s: a CMR drive has no bands", f.Name)
			}
			continue
		}
		if kind.Kind == ssd.KindName {
			var f ssd.Datasheet
			require.NoError(t, json.Unmarshal(r, &f))
			assert.Positive(t, f.RandomRead4KIOPS, f.Name)
			assert.Greater(t, f.SteadyWA, 1.0, "%s: GC copies data", f.Name)
			assert.LessOrEqual(t, f.SeqReadMBps, f.InterfaceMBps, "%s: the link bounds reads", f.Name)
			continue
		}
		var f disk.Datasheet
		require.NoError(t, json.Unmarshal(r, &f))
		assert.Equal(t, disk.KindName, f.Kind)
		assert.Positive(t, f.CapacityBytes, f.Name)
		assert.InDelta(t, 30000.0/float64(f.RPM), f.MeanRotationalLatencyMS, 0.01, "%s: half a revolution", f.Name)
		assert.Greater(t, f.OuterMediaMBps, f.InnerMediaMBps, "%s: outer zones are faster", f.Name)
		assert.Less(t, f.OuterSustainedMBps, f.InterfaceMBps, "%s: media slower than the bus", f.Name)
	}
}

// TestRunJSONHasTheReportFields: the JSON report of a run carries its
// schema version, each phase (one here) and the total, each with read,
// write and all summaries.
func TestRunJSONHasTheReportFields(t *testing.T) {
	code, out, errOut := runCLI(t, "run", "--rw", "randrw", "--ios", "300", "--iodepth", "4", "--json")
	require.Equal(t, 0, code, errOut)
	var rep struct {
		SchemaVersion int              `json:"schema_version"`
		Phases        []map[string]any `json:"phases"`
		Total         map[string]any   `json:"total"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	assert.Equal(t, raidsim.SchemaVersion, rep.SchemaVersion)
	require.Len(t, rep.Phases, 1)
	for name, ph := range map[string]map[string]any{"phases[0]": rep.Phases[0], "total": rep.Total} {
		for _, op := range []string{"read", "write", "all"} {
			obj, ok := ph[op].(map[string]any)
			require.True(t, ok, "%s has object %q", name, op)
			for _, k := range []string{"ios", "bytes", "iops", "mb_per_s"} {
				assert.Contains(t, obj, k, "%s.%s.%s", name, op, k)
			}
			lat, ok := obj["latency_ms"].(map[string]any)
			require.True(t, ok, "%s.%s.latency_ms", name, op)
			for _, k := range []string{"mean", "p50", "p95", "p99", "max"} {
				assert.Contains(t, lat, k, "%s.%s.latency_ms.%s", name, op, k)
			}
		}
		assert.Positive(t, ph["sim_s"], name)
		all := ph["all"].(map[string]any)
		assert.EqualValues(t, 300, all["ios"], name)
		read, write := ph["read"].(map[string]any), ph["write"].(map[string]any)
		assert.EqualValues(t, 300, read["ios"].(float64)+write["ios"].(float64), name)
	}
	assert.Equal(t, "randrw", rep.Phases[0]["workload"].(map[string]any)["rw"])
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

// TestBadInputGetsClearErrors: a bad command line exits 2 with one line
// per problem naming the flag and the field; a command that fails while
// running exits 1.
func TestBadInputGetsClearErrors(t *testing.T) {
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{[]string{"run", "--bs", "3000"}, 2, "--bs: phases[0].bs: 3000 is not a multiple of 512"},
		{[]string{"run", "--bs", "four"}, 2, `--bs: phases[0].bs: size "four"`},
		{[]string{"run", "--drive", "floppy"}, 2, `--drive: stack.drive.preset: unknown preset "floppy"`},
		{[]string{"run", "--write-cache", "maybe"}, 2, `--write-cache: stack.drive.write_cache: want true or false (or on, off), got "maybe"`},
		{[]string{"run", "--scheduler", "elevator"}, 2, `--scheduler: stack.drive.scheduler: "elevator"`},
		{[]string{"run", "--rw", "sideways"}, 2, `--rw: phases[0].rw: "sideways"`},
		{[]string{"run", "--iodepth", "0"}, 2, "--iodepth: phases[0].iodepth: 0 is not a usable value"},
		{[]string{"run", "--ios", "-5"}, 2, "--ios: phases[0].ios: -5 is outside 0..4294967296"},
		{[]string{"run", "--number_ios", "1e12"}, 2, "--ios: phases[0].ios: 1000000000000 is outside 0..4294967296"},
		{[]string{"run", "--ncq", "64"}, 2, "--ncq: stack.drive.queue_depth: 64 is outside 1..32"},
		{[]string{"run", "--ncq", "0"}, 2, "--ncq: stack.drive.queue_depth: 0 is not a usable value"},
		{[]string{"run", "--bs", "0"}, 2, "--bs: phases[0].bs: 0 is not a usable value: leave the key out for the default, 4KiB"},
		{[]string{"run", "--iodepth", "100000000"}, 2, "--iodepth: phases[0].iodepth: 100000000 is outside 0..65536"},
		{[]string{"run", "--offset", "10TiB"}, 2, "--offset: phases[0].offset: 10995116277760 is past the end of the 500107862016-byte stack"},
		{[]string{"run", "--random_distribution", "zipf:-1"}, 2, `--random-distribution: phases[0].random_distribution: "zipf:-1"`},
		{[]string{"run", "stray"}, 2, `unexpected argument "stray"`},
		{[]string{"run", "--frobnicate"}, 2, "unknown flag: --frobnicate"},
		{[]string{"run", "--bs"}, 2, "flag needs an argument: --bs"},
		{[]string{"drives", "extra"}, 2, "extra"},
		{[]string{"run", "--raid", "7"}, 2, `--raid: stack.raid.level: "7" is not a RAID level`},
		{[]string{"run", "--raid", "5", "--disks", "2"}, 2, "--disks: stack.disks: RAID 5 needs at least 3 drives, got 2"},
		{[]string{"run", "--raid", "0", "--stripe", "3000"}, 2, "--stripe: stack.raid.stripe_unit: 3000 is not a multiple of 512"},
		{[]string{"run", "--raid", "0", "--stripe", "0"}, 2, "--stripe: stack.raid.stripe_unit: 0 is not a usable value"},
		{[]string{"run", "--raid", "5", "--layout", "diagonal"}, 2, `--layout: stack.raid.layout: "diagonal"`},
		{[]string{"run", "--raid", "5", "--raid5-write", "maybe"}, 2, `--raid5-write: stack.raid.raid5_write: "maybe"`},
		{[]string{"run", "--raid", "5", "--fail-disk", "one@1s"}, 2, `--fail-disk: stack.failures[0].member: want a whole number, got a string "one"`},
		{[]string{"run", "--raid", "5", "--fail-disk", "1"}, 2, `--fail-disk: want MEMBER@TIME, e.g. 1@2s, got "1"`},
		{[]string{"run", "--raid", "5", "--disks", "4", "--fail-disk", "9@1s"}, 2, "--fail-disk: stack.failures[0].member: 9 is not a member index (0..3)"},
		{[]string{"run", "--disks", "3"}, 2, "--disks needs --raid (stack.raid)"},
		{[]string{"run", "--layout", "left-asymmetric"}, 2, "--layout needs --raid (stack.raid)"},
		{[]string{"run", "--fail-disk", "1@1s"}, 2, "--fail-disk needs --raid (stack.raid)"},
		{[]string{"run", "--raid", "0", "--disks", "100000"}, 2, "--disks: stack.disks: 100000 is outside 0..256"},
		{[]string{"run", "--cache-mode", "write-through"}, 2, "--cache-mode needs --cache (stack.cache)"},
		{[]string{"run", "--cache", "off", "--destage", "idle"}, 2, "--destage needs --cache (stack.cache)"},
		{[]string{"run", "--cache", "64MiB", "--cache-mode", "write-sideways"}, 2, `--cache-mode: stack.cache.mode: "write-sideways"`},
		{[]string{"run", "--cache", "64MiB", "--destage", "never"}, 2, `--destage: stack.cache.policy: "never"`},
		{[]string{"run", "--cache", "64MiB", "--destage-order", "random"}, 2, `--destage-order: stack.cache.order: "random"`},
		{[]string{"run", "--cache", "64MiB", "--cache-align", "stripe"}, 2, "--cache-align: stack.cache.align: stripe alignment needs an array (stack.raid)"},
		{[]string{"run", "--cache", "64MiB", "--high-water", "0.2", "--low-water", "0.4"}, 2, "--low-water: stack.cache.low_water: 0.4 must be below high_water 0.2"},
		{[]string{"run", "--cache", "-1"}, 2, "--cache: stack.cache.size: -1 is negative"},
		{[]string{"run", "--cache", "1PiB"}, 2, "--cache: stack.cache.size: 1125899906842624 bytes is more than 1TiB"},
		{[]string{"run", "--timeline", "3", "--json"}, 2, "--timeline prints a table: drop --json or --timeline"},
		{[]string{"run", "--timeline", "-1"}, 2, `--timeline: want 0 to 10000 requests, got "-1"`},
		{[]string{"run", "--output-format", "terse"}, 2, `--output-format: want normal or json, got "terse"`},
		{[]string{"run", "--set", "stack.raid"}, 2, `--set: want PATH=VALUE`},
		{[]string{"run", "--set", "stack.raid.stripe=64KiB"}, 2, "--set: stack.raid.stripe: unknown key"},
		{[]string{"run", "--power-loss-at", "-1s"}, 2, "--power-loss-at: power_loss_at: -1s is outside"},
		{[]string{"run", "--raid", "5", "--fail-disk", "0@1s", "--fail-disk", "0@2s"}, 2,
			"--fail-disk: stack.failures[1].member: member 0 already fails (stack.failures[0]): a failed member cannot fail again"},
		{[]string{"run", "--cache", "1TiB"}, 2, "--cache: stack.cache.size: 1TiB in 4KiB blocks is 268435456 blocks, more than 16777216"},
		{[]string{"run", "--raid", "0", "--disks", "64", "--drive", "deskstar-7k1000", "--ios", "0"}, 2,
			"--ios: phases[0].ios: 0 means one pass over the 64013111132160-byte region: 15628200960 requests of 4096 bytes, more than 4294967296"},
		{[]string{"run", "--config", "a.yaml", "--config", "b.yaml"}, 2, "--config: give one file"},
		{[]string{"run", "--config", "/nonexistent/x.yaml"}, 1, "no such file"},
		{[]string{"demo", "x"}, 2, "no arguments"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			code, out, errOut := runCLI(t, c.args...)
			assert.Equal(t, c.code, code, "stdout: %s\nstderr: %s", out, errOut)
			assert.Contains(t, errOut, c.want)
			assert.Empty(t, out)
			if c.code == 2 && c.args[0] != "frobnicate" {
				assert.Contains(t, errOut, fmt.Sprintf("(see raidsim %s --help)\n", c.args[0]), "a hint, not the usage")
			}
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
		Total struct {
			Failed int64 `json:"failed_requests"`
			All    struct {
				IOs int64 `json:"ios"`
			} `json:"all"`
		} `json:"total"`
		RAID  map[string]any `json:"raid"`
		Disks []struct {
			Name        string   `json:"name"`
			Utilization *float64 `json:"utilization_ratio"`
			IOs         *int64   `json:"ios"`
		} `json:"disks"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	for _, k := range []string{"full_stripe_writes", "rmw_writes", "rcw_writes", "preread_bytes", "degraded_reads"} {
		assert.Contains(t, rep.RAID, k)
	}
	assert.Positive(t, rep.RAID["degraded_reads"], "reads of member 1 are reconstructed")
	assert.Equal(t, []any{1.0}, rep.RAID["failed_members"])
	assert.Zero(t, rep.Total.Failed, "one failure loses nothing")
	assert.EqualValues(t, 1500, rep.Total.All.IOs)
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
	for _, k := range []string{"read_hit_ratio", "coalescing_factor", "full_stripe_destage_ratio", "dirty_peak_bytes", "stall_s"} {
		assert.Contains(t, rep.Cache, k)
	}
	assert.Greater(t, rep.Cache["full_stripe_destage_ratio"], 0.95, "over RAID the cache gathers full stripes by default")
	assert.Greater(t, rep.Cache["coalescing_factor"], 2.0)
	assert.EqualValues(t, 0, rep.RAID["preread_bytes"], "full stripes need no pre-reads")

	code, out, errOut = runCLI(t, "run", "--rw", "randwrite", "--ios", "500", "--size", "8MiB", "--cache", "64MiB", "--cache-nv", "--destage", "idle")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "Volume cache (64MiB, write-back, non-volatile)")
}

// TestHelp: help goes to standard output with exit status 0, and every
// command has it, on the same GNU-style flags (pflag): --help and -h,
// and a single-dash long flag refused.
func TestHelp(t *testing.T) {
	code, out, _ := runCLI(t, "help")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "raidsim drives")
	cmds := slices.Sorted(maps.Keys(commands))
	require.Contains(t, cmds, "convert")
	for _, cmd := range cmds {
		if cmd != "demo" { // raidsim alone
			assert.Contains(t, usage, "raidsim "+cmd, "the usage lists %s", cmd)
		}
		code, _, errOut := runCLI(t, cmd, "-zz")
		assert.Equal(t, 2, code, "%s -zz: not a GNU flag", cmd)
		assert.Contains(t, errOut, "unknown shorthand flag: 'z' in -zz", cmd)
	}
	for _, cmd := range cmds {
		for _, h := range []string{"--help", "-h"} {
			code, out, errOut := runCLI(t, cmd, h)
			assert.Equal(t, 0, code, "%s %s", cmd, h)
			assert.Empty(t, errOut, "%s %s", cmd, h)
			assert.Contains(t, out, "Usage: raidsim", "%s %s", cmd, h)
		}
	}
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

	code, out, errOut = runCLI(t, "run", "--config", "../../examples/configs/raid5-volume-cache.yaml", "--power-loss-at", "1s")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "Power loss at 1.000 s")
}
