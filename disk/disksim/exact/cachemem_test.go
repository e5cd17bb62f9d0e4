package exact

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// spaceModel is smartModel with a 64-block cache of 8-block lines
// under segmented LRU with one segment, written through with write
// scheme 1 (a write completes when the disk has it).
func spaceModel() *Model {
	m := smartModel(0.005, 0.01)
	m.Controller.Smart.Cache = CacheMem{Size: 64, LineSize: 8, BitGranularity: 1, LockGranularity: 1,
		Replacement: replaceSLRU, SLRUSegments: 1, SLRUListGiven: true, WriteScheme: writeSyncOnly, FlushIdleDelay: -1}
	return m
}

// TestCacheHitAndMiss works a miss and two hits by hand. A read of the
// 8-block line at 1000 misses: the line is allocated and write-locked,
// and a fill of the same 8 blocks goes to the disk
// (cache_issue_fillreq), which takes what the size-0 cache's read
// takes. Read again it hits in full (cache_read_continue returns 0):
// the controller only moves the 8 blocks to the host, 8 x 0.01 ms,
// and its completion reaches the driver 0.5 ms later: 0.58 ms. A read
// of 4 of its blocks: 4 x 0.01 + 0.5 = 0.54 ms.
func TestCacheHitAndMiss(t *testing.T) {
	noSpace, err := smartModel(0.005, 0.01).Run([]Request{{Blkno: 1000, Bcount: 8, Read: true}}, true)
	require.NoError(t, err)
	reqs := []Request{{Blkno: 1000, Bcount: 8, Read: true}, {Blkno: 1000, Bcount: 8, Read: true}, {Blkno: 1002, Bcount: 4, Read: true}}
	res, err := spaceModel().Run(reqs, true)
	require.NoError(t, err)
	require.True(t, res[0].Done && res[1].Done && res[2].Done)
	assert.InDelta(t, noSpace[0].Response, res[0].Response, 1e-9, "miss")
	assert.Greater(t, res[0].Response, 10.0)
	assert.InDelta(t, 0.58, res[1].Response, 1e-9, "full hit")
	assert.InDelta(t, 0.54, res[2].Response, 1e-9, "hit on part of the line")
}

// TestCacheLineSizeZero: with Line size 0 each block is a line of its
// own (cache_allocate_space_continue links no atoms): an 8-block read
// misses with one fill of its 8 blocks, taking what it takes with
// 8-block lines, and hits when read again (8 x 0.01 + 0.5 = 0.58 ms).
func TestCacheLineSizeZero(t *testing.T) {
	reqs := []Request{{Blkno: 1000, Bcount: 8, Read: true}, {Blkno: 1000, Bcount: 8, Read: true}}
	lines8, err := spaceModel().Run(reqs, true)
	require.NoError(t, err)
	m := spaceModel()
	m.Controller.Smart.Cache.LineSize = 0
	res, err := m.Run(reqs, true)
	require.NoError(t, err)
	require.True(t, res[0].Done && res[1].Done)
	assert.InDelta(t, lines8[0].Response, res[0].Response, 1e-9, "miss")
	assert.InDelta(t, 0.58, res[1].Response, 1e-9, "hit")
}

// TestCacheLRU: the 64-block cache holds 8 lines. After lines 0-7 are
// read, a hit on line 0 moves it to the back of the LRU list
// (cache_access), so line 8 replaces line 1 (the list's head,
// cache_replace): line 0 hits again, line 1 misses.
func TestCacheLRU(t *testing.T) {
	var reqs []Request
	line := func(k int) Request { return Request{Blkno: 1000 + 8*k, Bcount: 8, Read: true} }
	for k := 0; k < 8; k++ {
		reqs = append(reqs, line(k))
	}
	reqs = append(reqs, line(0), line(8), line(0), line(1))
	res, err := spaceModel().Run(reqs, true)
	require.NoError(t, err)
	for _, r := range res {
		require.True(t, r.Done)
	}
	assert.InDelta(t, 0.58, res[8].Response, 1e-9, "line 0 hits")
	assert.Greater(t, res[9].Response, 1.0, "line 8 misses")
	assert.InDelta(t, 0.58, res[10].Response, 1e-9, "line 0 hits after line 8 came in")
	assert.Greater(t, res[11].Response, 1.0, "line 1 was replaced")
}

// TestCacheWriteThrough: a write moves its blocks from the host and
// writes them through; under write scheme 1 it completes when the disk
// has them, as with no space (2.31 ms, TestSmartWriteTiming), under
// scheme 2 as soon as the cache has them (8 x 0.01 + 0.5 = 0.58 ms).
// Either way the blocks are valid: a read of them hits (0.58 ms).
func TestCacheWriteThrough(t *testing.T) {
	for _, c := range []struct {
		scheme int
		write  float64
	}{{writeSyncOnly, 2.31}, {writeThru, 0.58}} {
		m := spaceModel()
		m.Controller.Smart.Cache.WriteScheme = c.scheme
		res, err := m.Run([]Request{{Blkno: 1000, Bcount: 8, Gap: 20}, {Blkno: 1000, Bcount: 8, Read: true}}, true)
		require.NoError(t, err)
		require.True(t, res[0].Done && res[1].Done)
		assert.InDelta(t, c.write, res[0].Response, 1e-9, "write scheme %d", c.scheme)
		assert.InDelta(t, 0.58, res[1].Response, 1e-9, "read after write scheme %d", c.scheme)
	}
}

// TestCacheWriteBack: under write scheme 3 a write completes once the
// cache has its blocks (8 x 0.01 + 0.5 = 0.58 ms), which stay dirty.
// The periodic flush at 5 ms writes them (cache_periodic_flush), read
// locking the line: the write to the disk takes what a write through
// takes from the host move's end to the controller's completion
// (TestSmartWriteTiming: 2.31 - 0.08 - 0.5 = 1.73 ms), so it completes
// at 6.73 ms. A second write of the line arriving at 5.5 ms waits for
// its write lock until then, and completes 0.58 ms after: 1.81 ms.
// Without flushing it takes 0.58 ms.
func TestCacheWriteBack(t *testing.T) {
	// the second is issued 4.92 ms after the first completes: at 5.5 ms
	reqs := []Request{{Blkno: 1000, Bcount: 8, Gap: 4.92}, {Blkno: 1000, Bcount: 8}}
	for _, c := range []struct {
		policy int
		second float64
	}{{0, 0.58}, {1, 1.81}} {
		m := spaceModel()
		k := &m.Controller.Smart.Cache
		k.WriteScheme, k.FlushPolicy, k.FlushPeriod = writeBack, c.policy, 5
		res, err := m.Run(reqs, true)
		require.NoError(t, err)
		require.True(t, res[0].Done && res[1].Done)
		assert.InDelta(t, 0.58, res[0].Response, 1e-9, "write-back write, flush policy %d", c.policy)
		assert.InDelta(t, c.second, res[1].Response, 1e-9, "write during the flush, flush policy %d", c.policy)
	}
}

// TestCacheSpaceRefusals: what exact mode does not simulate of a cache
// with space is named with its value.
func TestCacheSpaceRefusals(t *testing.T) {
	for _, c := range []struct {
		set  func(*CacheMem)
		want string
	}{
		{func(k *CacheMem) { k.LineSize, k.LockGranularity = 0, 4 }, "Line size = 0 with Bit granularity = 1 and Lock granularity = 4"},
		{func(k *CacheMem) { k.LineSize = 24 }, "Line size = 24 does not divide the size"},
		{func(k *CacheMem) { k.Replacement = replaceRandom }, "Replacement policy = 3"},
		{func(k *CacheMem) { k.SLRUSegments = 2 }, "SLRU segments = 2 values"},
		{func(k *CacheMem) { k.LineByLine = true }, "Line-by-line fetches = 1"},
		{func(k *CacheMem) { k.MaxGather = 4 }, "Max gather = 4"},
	} {
		m := spaceModel()
		c.set(&m.Controller.Smart.Cache)
		_, err := m.Run([]Request{{Blkno: 1000, Bcount: 8}}, true)
		assert.ErrorContains(t, err, c.want)
		assert.ErrorContains(t, err, "Cache size = 64")
	}
}
