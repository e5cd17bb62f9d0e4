package cache_test

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/cache"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
)

// TestReplacementConformance runs the device suite on a small cache
// under each replacement policy, with random service times below, so
// that clean data is evicted, split and dropped under every policy.
func TestReplacementConformance(t *testing.T) {
	for _, p := range cache.Replacements() {
		t.Run("replacement="+p.String(), func(t *testing.T) {
			simtest.TestDevice(t, func(t *testing.T) (sim.Device, *sim.Engine) {
				eng := sim.NewEngine(7)
				c, dev := newStack(t, eng, cache.Config{Size: 64 << 10, Replacement: p, ReadAhead: 16 << 10, MaxDestageBytes: 16 << 10}, memDefault)
				rng := eng.Rand("jitter")
				dev.SetLatency(func(*sim.Request) time.Duration { return time.Duration(rng.Int64N(int64(time.Millisecond))) })
				return c, eng
			}, simtest.WithData(), simtest.WithTrimZeroes(), simtest.WithSeed(7), simtest.WithRequests(1000))
		})
	}
}

// readHits reads each block of seq (4 KiB at block*4096), one at a
// time, through a read-only cache of blocks 4 KiB blocks under p, and
// returns H or M per read as the cache's statistics count it.
func readHits(t *testing.T, p cache.Replacement, blocks int64, seq []int64) string {
	t.Helper()
	eng := sim.NewEngine(1)
	c, _ := newStack(t, eng, cache.Config{Size: blocks * 4096, Replacement: p},
		simtest.MemConfig{Capacity: 1 << 40, ReadLatency: 100 * time.Microsecond})
	var b strings.Builder
	r := &sim.Request{Done: func(*sim.Request) {}}
	for _, x := range seq {
		hits := c.Stats().ReadHits
		*r = sim.Request{Op: sim.Read, Offset: x * 4096, Length: 4096, Done: r.Done}
		require.NoError(t, c.Submit(r))
		eng.Run()
		require.NoError(t, r.Err)
		if c.Stats().ReadHits > hits {
			b.WriteByte('H')
		} else {
			b.WriteByte('M')
		}
	}
	return b.String()
}

// TestBlockSimMatchesCache: a Cache reading one 4 KiB block at a time
// hits and misses exactly as a BlockSim of the same size under each
// policy, on a skewed random sequence with loops.
func TestBlockSimMatchesCache(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	zipf := rand.NewZipf(rng, 1.2, 1, 400)
	seq := make([]int64, 3000)
	for i := range seq {
		if i%500 < 100 {
			seq[i] = int64(1000 + i%100) // a loop
		} else {
			seq[i] = int64(zipf.Uint64())
		}
	}
	for _, p := range cache.Replacements() {
		sim, err := cache.NewBlockSim(p, 64)
		require.NoError(t, err)
		var want strings.Builder
		for _, x := range seq {
			if sim.Access(x) {
				want.WriteByte('H')
			} else {
				want.WriteByte('M')
			}
		}
		require.Equal(t, want.String(), readHits(t, p, 64, seq), "policy %v", p)
		require.Less(t, sim.MissRatio(), 0.9, "policy %v: the sequence has hits", p)
	}
}

// TestScanResistance: a loop over a working set of 90% of a 1000-block
// cache runs three times; then, for five passes, a one-time scan of
// new blocks is interleaved with it (one scan block after every fourth
// loop block), so each pass touches 1125 blocks, slightly more than the
// cache; then the loop runs three more times. LRU misses every loop
// block while the scan runs (each comes back after 1125 others) and
// again on the first pass after; ARC, 2Q, S3-FIFO and SIEVE keep the
// loop, which they have seen more than once, and let the scan go.
func TestScanResistance(t *testing.T) {
	const cacheBlocks, loop = 1000, 900
	var seq []int64
	pass := func(scan *int64) {
		for x := range int64(loop) {
			seq = append(seq, x)
			if scan != nil && x%4 == 3 {
				seq = append(seq, *scan)
				*scan++
			}
		}
	}
	for range 3 {
		pass(nil)
	}
	scan := int64(1 << 20)
	for range 5 {
		pass(&scan)
	}
	for range 3 {
		pass(nil)
	}
	miss := map[cache.Replacement]float64{}
	for _, p := range cache.Replacements() {
		got := readHits(t, p, cacheBlocks, seq)
		miss[p] = float64(strings.Count(got, "M")) / float64(len(got))
	}
	t.Logf("miss ratios over %d reads: %v", len(seq), miss)
	for _, p := range []cache.Replacement{cache.ARC, cache.TwoQ, cache.S3FIFO, cache.SIEVE} {
		require.Less(t, miss[p], miss[cache.LRU]-0.1, "%v against LRU", p)
	}
}
