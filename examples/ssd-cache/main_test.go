package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/spec"
)

// testSizes keep the runs short: a 4 GiB share, larger than the 64 MiB
// RAM cache, with a 1 GiB SSD tier.
var testSizes = Sizes{IOs: 6000, Warm: 6000, Share: 4 << 30, RAM: 64 << 20, SSDCache: 1 << 30, PowerLossAt: 2 * time.Second}

func measure(t *testing.T, label string, st spec.Stack) Row {
	t.Helper()
	r, err := Measure(label, Experiment(st, testSizes))
	require.NoError(t, err)
	return r
}

// TestSSDTierRaisesIOPS: on a working set larger than RAM, the SSD tier
// serves hits from flash: several times the IOPS of the RAID 6 alone,
// a far lower p99, and the disks left with the misses and destages.
func TestSSDTierRaisesIOPS(t *testing.T) {
	alone := measure(t, "RAID 6", raid6())
	tier := measure(t, "SSD writeback", ssdTier("writeback", false)(testSizes))
	t.Logf("RAID 6: %.0f IOPS, p99 %.1f ms; SSD tier: %.0f IOPS, p99 %.1f ms, hits %.3f", alone.IOPS, alone.P99MS, tier.IOPS, tier.P99MS, tier.HitRatio)
	assert.Greater(t, tier.IOPS, 3*alone.IOPS)
	assert.Less(t, tier.P99MS, alone.P99MS/2)
	assert.Greater(t, tier.HitRatio, 0.3)
	assert.Greater(t, tier.Report.Cache.DeviceReads, int64(0))
	assert.Greater(t, tier.Report.Cache.JournalWrites, int64(0))
}

// TestSequentialCutoffKeepsHotSet: a sequential read twice the SSD
// tier's size between two runs of the hot random reads evicts the hot
// set without bcache's cutoff and leaves it with it (4 MiB, the
// default): the reads after it are faster with the cutoff.
func TestSequentialCutoffKeepsHotSet(t *testing.T) {
	after := func(cutoff int64) float64 {
		st := ssdTier("writeback", true)(testSizes)
		st.Cache.SequentialCutoff = spec.Cutoff(cutoff)
		hot := Workload(testSizes, 4000)
		hot.RWMixRead = nil
		hot.RW = "randread"
		x := &spec.Experiment{Name: "cutoff", Seed: 1, Stack: st, Phases: []spec.Phase{
			{Name: "hot", Job: hot},
			{Name: "scan", Job: spec.Job{RW: "read", BS: 1 << 20, IODepth: 4, Offset: 8 << 30, Size: 2 << 30}},
			{Name: "hot again", Job: hot},
		}}
		r, err := Measure("cutoff", x)
		require.NoError(t, err)
		return r.IOPS
	}
	with, without := after(0), after(64<<30)
	t.Logf("hot reads after the scan: %.0f IOPS with the cutoff, %.0f without", with, without)
	assert.Greater(t, with, 1.5*without)
}

// TestWriteAroundLosesAbsorption: in writearound mode no write is
// absorbed: each waits for the RAID 6 below, where writeback
// acknowledges it from the SSD.
func TestWriteAroundLosesAbsorption(t *testing.T) {
	back := measure(t, "writeback", ssdTier("writeback", false)(testSizes))
	around := measure(t, "writearound", ssdTier("writearound", false)(testSizes))
	assert.Positive(t, back.WritesAbsorbed)
	assert.Zero(t, around.WritesAbsorbed)
	assert.Greater(t, around.Report.Total.Write.LatencyMS.P50, 5*back.Report.Total.Write.LatencyMS.P50)
	assert.Less(t, around.IOPS, back.IOPS)
}

// TestPowerLossProtection: a power failure mid-run loses what the cache
// SSD's volatile write buffer held without power-loss protection, and
// nothing with it; the RAM cache loses its dirty data.
func TestPowerLossProtection(t *testing.T) {
	without := measure(t, "no PLP", ssdTier("writeback", false)(testSizes))
	with := measure(t, "PLP", ssdTier("writeback", true)(testSizes))
	ram := measure(t, "RAM", func() spec.Stack { s := raid6(); s.Cache = &spec.Cache{Size: spec.Size(testSizes.RAM)}; return s }())
	pl := without.Report.PowerLoss
	require.NotNil(t, pl.CacheDeviceBytes)
	assert.Positive(t, *pl.CacheDeviceBytes)
	assert.Zero(t, pl.VolumeCacheBytes, "the tier's data is on flash")
	assert.Zero(t, *with.Report.PowerLoss.CacheDeviceBytes)
	assert.Zero(t, with.Report.PowerLoss.LostBytes-sum(with.Report.PowerLoss.DriveCacheBytes), "with PLP only the disks' own write caches lose anything")
	assert.Greater(t, ram.Report.PowerLoss.VolumeCacheBytes, *pl.CacheDeviceBytes)
}

func sum(xs []int64) int64 {
	var s int64
	for _, x := range xs {
		s += x
	}
	return s
}

// TestRAMOverSSD: a RAM cache stacked on the SSD tier runs and absorbs
// writes in RAM.
func TestRAMOverSSD(t *testing.T) {
	r, err := RunRAMOverSSD(testSizes)
	require.NoError(t, err)
	assert.Positive(t, r.WritesAbsorbed)
	assert.Greater(t, r.HitRatio, 0.3)
}

// TestRunAndPlot: the table prints every setup, and the plot is drawn.
func TestRunAndPlot(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every setup")
	}
	var b bytes.Buffer
	path := filepath.Join(t.TempDir(), "ssd-cache.svg")
	sz := testSizes
	sz.IOs, sz.Warm = 2000, 2000
	require.NoError(t, run(&b, sz, ""))
	for _, s := range Setups {
		assert.Contains(t, b.String(), s.Label)
	}
	assert.Contains(t, b.String(), "RAM over SSD")
	require.NoError(t, Plot(path, sz, []int64{256 << 20, 1 << 30}))
	st, err := os.Stat(path)
	require.NoError(t, err)
	assert.Greater(t, st.Size(), int64(1000))
}
