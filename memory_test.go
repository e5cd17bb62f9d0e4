package raidsim_test

import (
	"errors"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/spec"
)

func planOf(t *testing.T, yaml string) *spec.Plan {
	t.Helper()
	x, err := spec.Parse([]byte(yaml), "x.yaml")
	require.NoError(t, err)
	pl, err := x.Plan()
	require.NoError(t, err)
	return pl
}

// TestMemoryEstimateRefusesBeforeBuilding: 256 preconditioned 1 TB SSDs
// written at random 100 million times would hold about 26 GB of mapping
// tables (each drive's map grows with the units written and moved); the
// run is refused before a drive is built (building them allocates 1.5 GB),
// naming the estimate, its largest part, the limit and the knobs. The
// same array read 1000 times is estimated at a few GB and runs (its
// drives hold 1.5 GB measured).
func TestMemoryEstimateRefusesBeforeBuilding(t *testing.T) {
	const array = "stack: {disks: 256, raid: {level: 0}, drive: {preset: samsung-970-evo-plus, precondition: steady}}\n"
	pl := planOf(t, array+"phases: [{rw: randwrite, ios: 100000000}]")
	est := raidsim.EstimateMemory(pl)
	assert.Greater(t, est.Bytes, int64(20e9))
	assert.Equal(t, "256 x samsung-970-evo-plus (ssd)", est.Parts[0].What)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := raidsim.RunPlan(pl, raidsim.RunOptions{MaxMemory: 24 << 30})
	runtime.ReadMemStats(&after)
	require.Error(t, err)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(10<<20), "refused before building (the drives take 1.5 GB)")
	assert.True(t, errors.Is(err, raidsim.ErrMemory))
	assert.Contains(t, err.Error(), "raidsim: not enough memory for the run: it would hold about 26.5 GB (256 x samsung-970-evo-plus (ssd) 26.4 GB), more than the 25.8 GB limit (as asked; --max-memory or GOMEMLIMIT sets it): fewer drives (--disks), less written (--ios, --size), smaller drives")

	reads := raidsim.EstimateMemory(planOf(t, array+"phases: [{rw: randread, ios: 1000}]"))
	assert.Less(t, reads.Bytes, int64(4e9))
	assert.Greater(t, reads.Bytes, int64(1.5e9), "at least what the drives hold")
}

// TestMemoryEstimateParts: the estimate counts an array's writes per
// member as the level spreads them, the volume cache's index and a
// rebuild's spare written whole.
func TestMemoryEstimateParts(t *testing.T) {
	est := func(y string) int64 { return raidsim.EstimateMemory(planOf(t, y)).Bytes }
	ssd := "drive: {preset: intel-x25m-g2}"
	raid0 := est("stack: {disks: 4, raid: {level: 0}, " + ssd + "}\nphases: [{rw: randwrite, ios: 1000000}]")
	raid1 := est("stack: {disks: 4, raid: {level: 1}, " + ssd + "}\nphases: [{rw: randwrite, ios: 1000000}]")
	assert.Greater(t, raid1, raid0, "RAID 1 writes every member")
	noCache := est("stack: {" + ssd + "}\nphases: [{ios: 10}]")
	withCache := est("stack: {" + ssd + ", cache: {size: 1GiB, block: 4KiB}}\nphases: [{ios: 10}]")
	assert.Equal(t, int64(1<<30/4096*220), withCache-noCache, "220 bytes a cache block")
	rebuild := est("stack: {disks: 2, raid: {level: 1}, " + ssd + ", failures: [{member: 0, at: 0s}], rebuild: {member: 0, at: 0s}}\nphases: [{ios: 10}]")
	healthy := est("stack: {disks: 2, raid: {level: 1}, " + ssd + "}\nphases: [{ios: 10}]")
	assert.Greater(t, rebuild-healthy, int64(150e6), "the spare's whole map")
}

// TestProgressReportsTheRun: RunOptions.Progress is called every 65,536
// events with the requests completed of those planned, and its error
// stops the run.
func TestProgressReportsTheRun(t *testing.T) {
	pl := planOf(t, "stack: {drive: {preset: intel-x25m-g2}}\nphases: [{rw: randread, ios: 1000000, iodepth: 4}]")
	var seen []raidsim.Progress
	stop := errors.New("enough")
	_, err := raidsim.RunPlan(pl, raidsim.RunOptions{Progress: func(p raidsim.Progress) error {
		seen = append(seen, p)
		if len(seen) == 2 {
			return stop
		}
		return nil
	}})
	require.ErrorIs(t, err, stop)
	require.Len(t, seen, 2)
	assert.Equal(t, int64(1000000), seen[0].Planned)
	assert.Greater(t, seen[1].Completed, seen[0].Completed)
	assert.Less(t, seen[1].Completed, int64(1000000))
	assert.Greater(t, seen[1].Now, seen[0].Now)
}

// TestHeapWatchStopsTheRun: a run whose heap passes its limit during the
// run (what the estimate cannot see, a trace's writes) stops with
// ErrMemory naming the heap, the limit and where the run was.
func TestHeapWatchStopsTheRun(t *testing.T) {
	pl := planOf(t, "stack: {drive: {preset: intel-x25m-g2}}\nphases: [{rw: randread, ios: 1000000, iodepth: 4}]")
	calls := 0
	defer raidsim.SetHeapBytes(func() int64 {
		calls++
		return int64(calls) << 30 // 1 GiB more each poll
	})()
	_, err := raidsim.RunPlan(pl, raidsim.RunOptions{MaxMemory: 3 << 30})
	require.ErrorIs(t, err, raidsim.ErrMemory)
	assert.Equal(t, 4, calls, "stopped at the first poll past the limit")
	assert.Contains(t, err.Error(), "raidsim: not enough memory for the run: its heap reached 4.29 GB, past the 3.22 GB limit (as asked; --max-memory or GOMEMLIMIT sets it)")
}
