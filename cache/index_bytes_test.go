package cache_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/cache"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
)

// TestExtentIndexBytes measures what a dirty extent costs in memory:
// random 4 KiB writes that never touch make one extent each, so this is
// the cost per block that spec's bound on a cache's blocks
// (maxCacheBlocks, "about 220 bytes per extent") rests on.
func TestExtentIndexBytes(t *testing.T) {
	const n = 100_000
	eng := sim.NewEngine(1)
	dev, err := simtest.NewMemDevice(eng, simtest.MemConfig{Capacity: 8 * n * 4096})
	require.NoError(t, err)
	cfg := cache.Config{Size: 4 * n * 4096, Policy: cache.Interval, Interval: time.Hour}
	c, err := cache.New(eng, cfg, dev, "cache", nil)
	require.NoError(t, err)
	reqs := make([]sim.Request, n)
	done := func(*sim.Request) {}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range reqs {
		reqs[i] = sim.Request{Op: sim.Write, Offset: int64(i) * 2 * 4096, Length: 4096, Done: done}
		require.NoError(t, c.Submit(&reqs[i]))
	}
	eng.RunUntil(eng.Now().Add(time.Minute))
	runtime.GC()
	runtime.ReadMemStats(&after)
	require.Equal(t, int64(n*4096), c.DirtyBytes(), "every write still dirty, none merged")
	perExtent := float64(after.HeapAlloc-before.HeapAlloc) / n
	t.Logf("%.0f bytes per dirty extent", perExtent)
	require.Less(t, perExtent, 250.0, "spec's maxCacheBlocks assumes about 220 bytes per extent")
	runtime.KeepAlive(c)
}
