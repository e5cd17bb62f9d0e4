package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReliabilityRAID5And6: the array, 4 x 2 TB at AFR 2 % and
// URE 1e-14: both MTTDLs printed and agreeing within the Monte Carlo
// error; RAID 6 loses data far less often than RAID 5.
func TestReliabilityRAID5And6(t *testing.T) {
	get := func(level string) reliabilityReport {
		code, out, errOut := runCLI(t, "reliability", "--raid", level, "--disks", "4", "--capacity", "2000000000000",
			"--afr", "2", "--ure", "1e-14", "--rebuild", "6h", "--json")
		require.Equal(t, 0, code, errOut)
		var r reliabilityReport
		require.NoError(t, json.Unmarshal([]byte(out), &r))
		return r
	}
	r5, r6 := get("5"), get("6")
	for _, r := range []reliabilityReport{r5, r6} {
		assert.InDelta(t, r.MTTDLHoursMarkov, r.MTTDLHoursMonteCarlo, 4*r.MTTDLMonteCarloStdErr, "RAID %d", r.RAID)
		assert.Equal(t, 6.0, r.RebuildHours)
	}
	assert.InDelta(t, 284400, r5.MTTDLHoursMarkov, 500)
	assert.InDelta(t, 0.0304, r5.PLossPerYear, 0.001)
	assert.Greater(t, r6.MTTDLHoursMarkov, 1e4*r5.MTTDLHoursMarkov)
}

// TestReliabilityText: the table names both models and the rebuild's
// origin; a drive preset caps the rebuild rate at its sequential rate.
func TestReliabilityText(t *testing.T) {
	code, out, errOut := runCLI(t, "reliability", "--raid", "10", "--disks", "4", "--drive", "deskstar-7k1000", "--afr", "3", "--ure", "1e-14")
	require.Equal(t, 0, code, errOut)
	for _, want := range []string{"RAID 10 of 4 drives of", "MTTDL hours, Markov", "MTTDL hours, Monte Carlo", "P(loss) per year, Monte Carlo",
		"(deskstar-7k1000 mean sequential rate)"} {
		assert.Contains(t, out, want)
	}
}

// TestReliabilitySSDPreset: an SSD preset gives the capacity and, where
// the flags do not, its data sheet's MTBF (as the MTTF) and UBER; flags
// win over the sheet.
func TestReliabilitySSDPreset(t *testing.T) {
	get := func(args ...string) reliabilityReport {
		code, out, errOut := runCLI(t, append([]string{"reliability", "--raid", "5", "--disks", "8", "--drive", "intel-d7-p5500", "--json"}, args...)...)
		require.Equal(t, 0, code, errOut)
		var r reliabilityReport
		require.NoError(t, json.Unmarshal([]byte(out), &r))
		return r
	}
	r := get()
	assert.Equal(t, int64(7680e9), r.CapacityBytes)
	assert.Equal(t, 2e6, r.MTTFHours)
	assert.Equal(t, 1e-17, r.UREPerBit)
	assert.Equal(t, []string{"MTBF 2000000 h (as the MTTF)", "UBER 1e-17"}, r.DataSheet)
	r = get("--afr", "1", "--ure", "1e-16")
	assert.Zero(t, r.MTTFHours)
	assert.Equal(t, 0.01, r.AFR)
	assert.Equal(t, 1e-16, r.UREPerBit)
	assert.Empty(t, r.DataSheet)
	code, out, errOut := runCLI(t, "reliability", "--raid", "6", "--disks", "8", "--drive", "samsung-970-evo-plus", "--rebuild-rate", "10000000000")
	require.Equal(t, 0, code, errOut)
	for _, want := range []string{"(samsung-970-evo-plus sequential write rate)", "From the samsung-970-evo-plus data sheet: MTBF 1500000 h (as the MTTF), UBER 1e-15."} {
		assert.Contains(t, out, want)
	}
}

// TestReliabilityBadFlags: every problem at once, under its flag.
func TestReliabilityBadFlags(t *testing.T) {
	code, out, errOut := runCLI(t, "reliability", "--raid", "7", "--afr", "200", "--ure", "2", "--cycles", "0")
	assert.Equal(t, 2, code)
	assert.Empty(t, out)
	for _, want := range []string{`--raid: "7": want 1, 5, 6 or 10`, "--capacity: give the drives' capacity (or --drive)",
		"--afr: 200 is not a percentage between 0 and 100", "--ure: 2 is not a probability (0..1)", "--cycles: 0 is outside"} {
		assert.Contains(t, errOut, want)
	}
	code, _, errOut = runCLI(t, "reliability", "--raid", "6", "--disks", "3", "--capacity", "1TB", "--mttf", "1e6")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "--disks: RAID 6 needs at least 4 drives, got 3")
}

// TestRebuildUnderUREsReportsLoss: the run on small drives (1
// GiB, so the rebuild is quick to simulate) at a URE rate high enough to
// meet several (25 here): RAID 5 reports the rebuild's time, the lost
// bytes and their ranges, and the foreground's slowdown.
func TestRebuildUnderUREsReportsLoss(t *testing.T) {
	args := []string{"run", "--drive", "deskstar-7k160", "--set", "stack.drive.spec.capacity=1GiB", "--disks", "4",
		"--fail-disk", "0@0s", "--rebuild", "0@1ms", "--ure", "1e-9", "--erc", "7s", "--ios", "200", "--rw", "randrw"}
	code, out, errOut := runCLI(t, append(args, "--raid", "5")...)
	require.Equal(t, 0, code, errOut)
	assert.Regexp(t, `rebuild of member 0: [0-9.]+ s \(done\); foreground mean [0-9.]+ ms, [0-9.]+ ms healthy: [0-9.]+x slower`, out)
	assert.Regexp(t, `lost [0-9]+ bytes \([0-9]+KiB\) in [0-9]+ ranges \(byte offset\+length\): [0-9]+\+[0-9]+`, out)

	code, out, errOut = runCLI(t, append(args, "--raid", "5", "--json")...)
	require.Equal(t, 0, code, errOut)
	var rep struct {
		RAID struct {
			LostBytes      int64    `json:"lost_bytes"`
			LostRanges     []string `json:"lost_ranges"`
			RebuildSeconds float64  `json:"rebuild_s"`
			Rebuild        struct {
				Done     bool    `json:"done"`
				Slowdown float64 `json:"foreground_slowdown"`
			} `json:"rebuild"`
		} `json:"raid"`
		Faults struct {
			UREs int64 `json:"ures"`
		} `json:"faults"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	assert.True(t, rep.RAID.Rebuild.Done)
	assert.Positive(t, rep.RAID.RebuildSeconds)
	assert.Greater(t, rep.RAID.Rebuild.Slowdown, 1.0)
	assert.Positive(t, rep.Faults.UREs)
	assert.Positive(t, rep.RAID.LostBytes)
	assert.NotEmpty(t, rep.RAID.LostRanges)
	assert.Zero(t, rep.RAID.LostBytes%65536, "whole stripe units")

	// The same run as RAID 6 loses nothing: Q solves what the URE hid.
	code, out, errOut = runCLI(t, append(args, "--raid", "6", "--json")...)
	require.Equal(t, 0, code, errOut)
	rep.RAID.LostBytes, rep.RAID.LostRanges = 0, nil
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	assert.True(t, rep.RAID.Rebuild.Done)
	assert.Positive(t, rep.Faults.UREs)
	assert.Zero(t, rep.RAID.LostBytes)
	assert.Empty(t, rep.RAID.LostRanges)
	assert.NotContains(t, out, "first_error")
}

// TestReliabilityRebuildUnderLoad: --load simulates the rebuild on the
// preset under a foreground job; the rebuild takes longer than the
// drive's idle sequential pass would, and the estimate says how it was
// made.
func TestReliabilityRebuildUnderLoad(t *testing.T) {
	run := func(extra ...string) reliabilityReport {
		args := append([]string{"reliability", "--raid", "5", "--disks", "4", "--drive", "deskstar-7k160", "--afr", "2",
			"--ure", "1e-14", "--json"}, extra...)
		code, out, errOut := runCLI(t, args...)
		require.Equal(t, 0, code, errOut)
		var r reliabilityReport
		require.NoError(t, json.Unmarshal([]byte(out), &r))
		return r
	}
	idle := run()
	loaded := run("--load", "randrw", "--load-iodepth", "4", "--load-window", "30s")
	assert.Contains(t, loaded.RebuildFrom, "simulated under randrw at depth 4")
	assert.Greater(t, loaded.RebuildHours, idle.RebuildHours, "a loaded rebuild is slower")
	assert.Less(t, loaded.MTTDLHoursMarkov, idle.MTTDLHoursMarkov, "a longer window loses data sooner")
	code, _, errOut := runCLI(t, "reliability", "--raid", "5", "--capacity", "1TB", "--afr", "2", "--load", "randrw")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "--load needs --drive")
}
