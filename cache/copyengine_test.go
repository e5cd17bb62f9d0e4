package cache_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/cache"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
)

// TestCopyEngineBoundsThroughput: the copy rate is one engine's, so a
// deep queue of writes absorbed (or of read hits) goes in at most at
// CopyRate, never at depth x CopyRate (32 concurrent 1 MiB writes at
// 2 GB/s completed at 49.8 GB/s when the copy was a per-request delay).
func TestCopyEngineBoundsThroughput(t *testing.T) {
	const rate = 2_000_000_000
	for _, depth := range []int{1, 32, 256} {
		for _, op := range []sim.Op{sim.Write, sim.Read} {
			eng := sim.NewEngine(1)
			c, _, _ := recStack(t, eng, cache.Config{Size: 512 << 20, CopyRate: rate},
				simtest.MemConfig{Capacity: 1 << 30, ReadLatency: time.Millisecond, WriteLatency: time.Millisecond})
			const n = 1 << 20
			if op == sim.Read { // make every read a hit
				for i := range depth {
					submitNow(t, c, &sim.Request{Op: sim.Write, Offset: int64(i) * n, Length: n})
				}
				eng.Run()
			}
			start := eng.Now()
			var last sim.Time
			for i := range depth {
				submitNow(t, c, &sim.Request{Op: op, Offset: int64(i) * n, Length: n, Done: func(r *sim.Request) {
					require.NoError(t, r.Err)
					last = max(last, r.Completed)
				}})
			}
			eng.RunUntil(start.Add(time.Second))
			got := float64(depth*n) / last.Sub(start).Seconds()
			assert.LessOrEqual(t, got, float64(rate), "%v depth %d: %.3g B/s", op, depth, got)
			// The engine is the bound, not something slower: the last
			// request ends one copy time per request plus the hit latency.
			want := time.Duration(depth)*time.Duration(n*1e9/rate+1) + cache.DefaultHitLatency
			assert.InDelta(t, want, last.Sub(start), float64(depth), "%v depth %d", op, depth)
		}
	}
}
