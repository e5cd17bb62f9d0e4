package exact

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// smartModel is c700Model's disk behind a smart controller with an
// FCFS queue, one access at a time on the disk and a cache of size 0.
func smartModel(busBlk, ctlrBlk float64) *Model {
	m := c700Model(ctlrSmart, busBlk, ctlrBlk)
	m.Controller.Smart = &SmartController{MaxOutstanding: 1, PendingCount: 1,
		Queue: Queue{Policy: schedFCFS}, Cache: CacheMem{FlushIdleDelay: -1}}
	return m
}

// TestSmartWriteTiming works an 8-block fast write through a smart
// controller with a cache of size 0 by hand (disksim_ctlrsmart.c,
// disksim_cachemem.c): the controller first moves the 8 blocks from the
// host at its own block time (controller_smart_host_data_transfer),
// then writes them through (cachemem_free_block_dirty): the access
// crosses to the disk after the bus arbitration (0.2 ms) and the
// controller's 0.5 ms; the disk answers ready-to-transfer after its
// write-hit overhead and data preparation (0.3 + 0.1 ms), which the
// controller answers itself after 0.5 ms; the controller moves the
// blocks at the slower of its block time and the disk's (the bus's
// and the disk's own 0.002 ms); the disk sends its completion after
// 0.05 ms, and the controller's completion reaches the driver 0.5 ms
// later. So 2.15 ms plus twice the transfer when the controller is the
// slower (8 x 0.01 each way: 2.31 ms), or the host's 8 x 0.001 and the
// bus's 8 x 0.02 (2.318 ms).
func TestSmartWriteTiming(t *testing.T) {
	for _, c := range []struct {
		busBlk, ctlrBlk, want float64
	}{
		{0.005, 0.01, 2.31},
		{0.02, 0.001, 2.318},
	} {
		res, err := smartModel(c.busBlk, c.ctlrBlk).Run([]Request{{Blkno: 1000, Bcount: 8}}, true)
		require.NoError(t, err)
		require.True(t, res[0].Done)
		assert.InDelta(t, c.want, res[0].Response, 1e-9, "bus block %g ms, controller block %g ms", c.busBlk, c.ctlrBlk)
	}
}

// TestSmartReadHostTransfer: a read misses the size-0 cache, goes to
// the disk, and only once the disk has delivered it are its blocks
// moved to the host, at the controller's block time. With the bus
// slower than either controller block time, the disk's side is the
// same, so the two reads differ by the host transfer alone:
// 8 x (0.01 - 0.001) = 0.072 ms.
func TestSmartReadHostTransfer(t *testing.T) {
	read := func(ctlrBlk float64) float64 {
		res, err := smartModel(0.02, ctlrBlk).Run([]Request{{Blkno: 1000, Bcount: 8, Read: true}}, true)
		require.NoError(t, err)
		require.True(t, res[0].Done)
		return res[0].Response
	}
	assert.InDelta(t, 0.072, read(0.01)-read(0.001), 1e-9)
}

// TestSmartPendingCount: the controller keeps at most "Max per-disk
// pending count" accesses on the disk; with none, no access ever goes
// down and no request completes (DiskSim runs on with nothing done).
func TestSmartPendingCount(t *testing.T) {
	m := smartModel(0.005, 0.01)
	m.Controller.Smart.PendingCount = 0
	res, err := m.Run([]Request{{Blkno: 1000, Bcount: 8}}, true)
	require.NoError(t, err)
	assert.False(t, res[0].Done)
}

// TestSmartRefusals: what exact mode does not simulate of a smart
// controller's cache is named with its value.
func TestSmartRefusals(t *testing.T) {
	for _, c := range []struct {
		set  func(*CacheMem)
		want string
	}{
		{func(k *CacheMem) { k.Size = 64 }, "Cache size = 64"},
		{func(k *CacheMem) { k.FlushPolicy, k.Replacement = 1, 2 }, "Flush policy = 1 with Flush period = 0 under segmented LRU"},
	} {
		m := smartModel(0.005, 0.01)
		c.set(&m.Controller.Smart.Cache)
		_, err := m.Run([]Request{{Blkno: 1000, Bcount: 8}}, true)
		assert.ErrorContains(t, err, c.want)
	}
}

// TestSmartSplitWrite: with a Max request size of 8 the driver sends a
// 16-block write down as two 8-block parts, the second when the first
// completes (iodriver_access_complete's oversized list), so it takes
// what the two halves take written one after the other: the first
// 2.31 ms as in TestSmartWriteTiming, the second longer, as the disk's
// one write segment is still being written to the media.
func TestSmartSplitWrite(t *testing.T) {
	m := smartModel(0.005, 0.01)
	halves, err := m.Run([]Request{{Blkno: 1000, Bcount: 8}, {Blkno: 1008, Bcount: 8}}, true)
	require.NoError(t, err)
	require.InDelta(t, 2.31, halves[0].Response, 1e-9)
	m.Controller.Smart.Cache.MaxRequestSize = 8
	res, err := m.Run([]Request{{Blkno: 1000, Bcount: 16}}, true)
	require.NoError(t, err)
	require.True(t, res[0].Done)
	assert.InDelta(t, halves[0].Response+halves[1].Response, res[0].Response, 1e-9)
	assert.Greater(t, halves[1].Response, halves[0].Response)
}

// TestSmartPeriodicFlush: with no space a periodic flush walks the
// empty LRU list and DiskSim segfaults at the first period, so a run
// still going then stops with ErrDiskSimAbort and one that ends before
// is untouched; under segmented LRU with no segments the flush walks
// nothing and the idle delay changes nothing either.
func TestSmartPeriodicFlush(t *testing.T) {
	reqs := []Request{{Blkno: 1000, Bcount: 8, GapUs: 10000}, {Blkno: 3000, Bcount: 8}}
	base, err := smartModel(0.005, 0.01).Run(reqs, true)
	require.NoError(t, err)
	for _, c := range []struct {
		period      float64
		replacement int
		idle        float64
		stops       bool
	}{
		{5, 1, -1, true}, {1000, 1, -1, false}, {5, 2, -1, false}, {5, 2, 0, false},
	} {
		m := smartModel(0.005, 0.01)
		k := &m.Controller.Smart.Cache
		k.FlushPolicy, k.FlushPeriod, k.Replacement, k.FlushIdleDelay = 1, c.period, c.replacement, c.idle
		res, err := m.Run(reqs, true)
		if c.stops {
			require.ErrorIs(t, err, ErrDiskSimAbort)
			assert.ErrorContains(t, err, "cache_periodic_flush")
			continue
		}
		require.NoError(t, err, "%+v", c)
		assert.Equal(t, base, res, "%+v", c)
	}
}

// TestSmartIdleFlush: a completion that leaves the controller's queue
// empty arms the idle detector for the Flush idle delay; if the queue
// is still empty then, the idle flush walks the empty cache's LRU list
// and DiskSim segfaults. Two writes 10 ms apart (each about 2.3 ms):
// a delay of 5 ms fires between them, one of 20 ms after the last
// completion, when the run has ended.
func TestSmartIdleFlush(t *testing.T) {
	reqs := []Request{{Blkno: 1000, Bcount: 8, Gap: 10}, {Blkno: 3000, Bcount: 8}}
	for _, c := range []struct {
		idle        float64
		replacement int
		stops       bool
	}{
		{5, 1, true}, {20, 1, false}, {5, 2, false},
	} {
		m := smartModel(0.005, 0.01)
		k := &m.Controller.Smart.Cache
		k.FlushIdleDelay, k.Replacement = c.idle, c.replacement
		_, err := m.Run(reqs, true)
		if c.stops {
			require.ErrorIs(t, err, ErrDiskSimAbort)
			assert.ErrorContains(t, err, "cache_idletime_detected")
			continue
		}
		require.NoError(t, err, "%+v", c)
	}
}
