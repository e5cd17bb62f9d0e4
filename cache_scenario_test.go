package raidsim_test

import (
	"testing"
	"time"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/cache"
	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/spec"
	"github.com/raidsim/raidsim/trace"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// s3 is scenario S3's stack: two deskstar-7k160 in RAID 0 with a 128 KiB
// stripe, with or without a 64 MiB volume write-back cache (destaging
// extents as they lie, not gathered into stripes).
func s3(t *testing.T, withCache bool, job spec.Job) *raidsim.Report {
	t.Helper()
	x := experiment("deskstar-7k160", job)
	x.Stack.RAID, x.Stack.Disks = &spec.RAID{Level: "0", StripeUnit: 128 << 10}, 2
	if withCache {
		x.Stack.Cache = &spec.Cache{Size: 64 << 20, Align: "none"}
	}
	return runOne(t, x)
}

// TestVolumeCacheScenarioDirection reproduces the direction of S2/S3's
// effects on RAID 0.
func TestVolumeCacheScenarioDirection(t *testing.T) {
	t.Run("sequential writes gain", func(t *testing.T) {
		w := spec.Job{RW: "write", BS: 64 << 10, IODepth: 1, IOs: 4000}
		off, on := s3(t, false, w), s3(t, true, w)
		t.Logf("sequential 64 KiB writes: %.1f MB/s without, %.1f MB/s with the volume cache", off.Total.All.MBPerS, on.Total.All.MBPerS)
		assert.GreaterOrEqual(t, on.Total.All.MBPerS, 1.2*off.Total.All.MBPerS)
	})
	t.Run("random reads unchanged", func(t *testing.T) {
		w := spec.Job{RW: "randread", BS: 4096, IODepth: 1, IOs: 1500}
		off, on := s3(t, false, w), s3(t, true, w)
		t.Logf("random 4 KiB reads: %.1f IOPS without, %.1f with", off.Total.All.IOPS, on.Total.All.IOPS)
		assert.InEpsilon(t, off.Total.All.IOPS, on.Total.All.IOPS, 0.10)
	})
	t.Run("small working set at memory speed", func(t *testing.T) {
		w := spec.Job{RW: "randwrite", BS: 4096, IODepth: 1, IOs: 3000, Size: 16 << 20}
		rep := s3(t, true, w)
		t.Logf("random writes over 16 MiB: mean %.4f ms, max %.4f ms", rep.Total.All.LatencyMS.Mean, rep.Total.All.LatencyMS.Max)
		assert.Less(t, rep.Total.All.LatencyMS.Max, 0.05, "every write absorbed in memory")
		assert.Nil(t, rep.Cache.FilledAtSeconds, "a working set smaller than the cache never fills it")
	})
}

// TestVolumeCacheFillsThenSlows: random writes over a working set four
// times the cache run at memory latency until the cache fills, which the
// report dates, and at disk speed after.
func TestVolumeCacheFillsThenSlows(t *testing.T) {
	x := experiment("deskstar-7k160", spec.Job{RW: "randwrite", BS: 4096, IODepth: 1, IOs: 12000, Size: 256 << 20})
	x.Stack.RAID, x.Stack.Disks = &spec.RAID{Level: "0", StripeUnit: 128 << 10}, 2
	x.Stack.Cache = &spec.Cache{Size: 32 << 20, Align: "none"}
	type done struct {
		at  sim.Time
		lat time.Duration
	}
	var log []done
	obs := &sim.Observer{Completed: func(dev string, r *sim.Request, now sim.Time) {
		if dev == trace.ReplayObserverName {
			log = append(log, done{now, r.Latency()})
		}
	}}
	rep, err := raidsim.RunWith(x, raidsim.RunOptions{Observer: obs})
	require.NoError(t, err)
	require.NotNil(t, rep.Cache.FilledAtSeconds, "the report says when the cache filled")
	filled := sim.Time(*rep.Cache.FilledAtSeconds * 1e9)
	var before, after []time.Duration
	for _, d := range log {
		if d.at < filled {
			before = append(before, d.lat)
		} else {
			after = append(after, d.lat)
		}
	}
	require.NotEmpty(t, before)
	require.NotEmpty(t, after)
	for _, l := range before {
		require.Less(t, l, 50*time.Microsecond, "writes before the cache filled are absorbed in memory")
	}
	mean := func(ls []time.Duration) time.Duration {
		var sum time.Duration
		for _, l := range ls {
			sum += l
		}
		return sum / time.Duration(len(ls))
	}
	mb, ma := mean(before), mean(after)
	t.Logf("filled at %.3f s after %d writes (mean %v); the %d later writes average %v", filled.Seconds(), len(before), mb, len(after), ma)
	assert.Greater(t, ma, 10*mb, "once full, writes wait for destage")
}

// TestFlushThroughVolumeAndDriveCaches: a FLUSH through a volatile
// write-back cache over drives with their write caches on completes only
// when every earlier write is on the platters: nothing dirty in the
// volume cache or in any drive.
func TestFlushThroughVolumeAndDriveCaches(t *testing.T) {
	eng := sim.NewEngine(5)
	p, err := disk.Preset("deskstar-7k160")
	require.NoError(t, err)
	require.True(t, p.WriteCache, "drives ship with the write cache on")
	var drives []*disk.Drive
	var members []sim.Device
	for i := range 2 {
		d, err := disk.New(eng, p, "disk"+string(rune('0'+i)), nil)
		require.NoError(t, err)
		drives, members = append(drives, d), append(members, d)
	}
	arr, err := raid.New(eng, raid.Config{Level: raid.RAID0, StripeUnit: 128 << 10}, members, "array", nil)
	require.NoError(t, err)
	vc, err := cache.New(eng, cache.Config{Size: 64 << 20}, arr, "cache", nil)
	require.NoError(t, err)

	rng := eng.Rand("flush")
	const n = 300
	reqs := make([]sim.Request, n)
	acked := 0
	for i := range reqs {
		reqs[i] = sim.Request{Op: sim.Write, Offset: rng.Int64N(vc.Capacity()/4096-4) * 4096, Length: 8192,
			Done: func(r *sim.Request) { require.NoError(t, r.Err); acked++ }}
		require.NoError(t, vc.Submit(&reqs[i]))
	}
	eng.RunUntil(sim.Time(20 * time.Millisecond))
	require.Equal(t, n, acked, "the volume cache acknowledged every write")
	require.Positive(t, vc.Stats().DirtyBytes, "and holds them dirty")

	flushed := false
	flush := sim.Request{Op: sim.Flush, Done: func(r *sim.Request) {
		require.NoError(t, r.Err)
		flushed = true
		assert.Zero(t, vc.Stats().DirtyBytes, "volume cache dirty at flush completion")
		for _, d := range drives {
			assert.Zero(t, d.DirtyBytes(), "%s write cache dirty at flush completion", d.Name())
		}
	}}
	require.NoError(t, vc.Submit(&flush))
	eng.Run()
	require.True(t, flushed)
	var destaged int64
	for _, d := range drives {
		destaged += d.Stats().Destages
	}
	assert.Positive(t, destaged, "the drives had cached writes to put on the platters")
}
