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

// tierLatency is the tier's read and write time in these tests; the
// device below takes memDefault's (200 and 300 µs).
const tierLatency = 50 * time.Microsecond

// newTiered returns a cache on a MemDevice tier of tierCap bytes over a
// MemDevice below.
func newTiered(t testing.TB, eng *sim.Engine, cfg cache.Config, tierCap int64) (*cache.Cache, *simtest.MemDevice, *simtest.MemDevice) {
	t.Helper()
	below, err := simtest.NewMemDevice(eng, memDefault)
	require.NoError(t, err)
	tier, err := simtest.NewMemDevice(eng, simtest.MemConfig{Capacity: tierCap, ReadLatency: tierLatency, WriteLatency: tierLatency, FlushLatency: tierLatency})
	require.NoError(t, err)
	c, err := cache.NewOnDevice(eng, cfg, below, tier, "ssd-cache", nil)
	require.NoError(t, err)
	return c, below, tier
}

func TestTierConformance(t *testing.T) {
	for _, mode := range []cache.Mode{cache.WriteBack, cache.WriteThrough, cache.WriteAround} {
		for _, seed := range []uint64{1, 2} {
			t.Run(mode.String(), func(t *testing.T) {
				simtest.TestDevice(t, func(t *testing.T) (sim.Device, *sim.Engine) {
					eng := sim.NewEngine(seed)
					c, below, _ := newTiered(t, eng, cache.Config{Mode: mode, Size: 256 << 10, MaxDestageBytes: 32 << 10, SequentialCutoff: 64 << 10}, 4<<20)
					rng := eng.Rand("jitter")
					below.SetLatency(func(*sim.Request) time.Duration { return time.Duration(rng.Int64N(int64(time.Millisecond))) })
					return c, eng
				}, simtest.WithData(), simtest.WithTrimZeroes(), simtest.WithSeed(seed), simtest.WithRequests(1000))
			})
		}
	}
}

// TestRAMOverTierConformance: a RAM cache over an SSD-tier cache over
// the device: caches stack.
func TestRAMOverTierConformance(t *testing.T) {
	simtest.TestDevice(t, func(t *testing.T) (sim.Device, *sim.Engine) {
		eng := sim.NewEngine(3)
		ssd, _, _ := newTiered(t, eng, cache.Config{Size: 512 << 10}, 4<<20)
		ram, err := cache.New(eng, cache.Config{Size: 64 << 10}, ssd, "ram", nil)
		require.NoError(t, err)
		return ram, eng
	}, simtest.WithData(), simtest.WithTrimZeroes(), simtest.WithRequests(1000))
}

// one submits r and runs the engine until it completes, returning its
// latency.
func one(t *testing.T, eng *sim.Engine, d sim.Device, op sim.Op, off, n int64) time.Duration {
	t.Helper()
	r := &sim.Request{Op: op, Offset: off, Length: n, Done: func(*sim.Request) {}}
	require.NoError(t, d.Submit(r))
	eng.Run()
	require.NoError(t, r.Err)
	return r.Completed.Sub(r.Issued)
}

// TestTierCosts: an absorbed write waits for its data and then its
// journal write on the tier (two tier writes); a hit is one tier read;
// a miss reads below and is written to the tier in the background; a
// destage reads the tier, then writes below.
func TestTierCosts(t *testing.T) {
	eng := sim.NewEngine(1)
	c, below, tier := newTiered(t, eng, cache.Config{Size: 1 << 20, HitLatency: time.Microsecond}, 8<<20)
	assert.Equal(t, 2*tierLatency, one(t, eng, c, sim.Write, 0, 4096), "data then journal")
	st := c.Stats()
	assert.EqualValues(t, 1, st.WritesAbsorbed)
	assert.EqualValues(t, 1, st.JournalWrites)
	assert.EqualValues(t, 2, tier.Stats().Writes)
	assert.Equal(t, tierLatency, one(t, eng, c, sim.Read, 0, 4096), "a hit reads the tier")
	assert.EqualValues(t, 1, c.Stats().ReadHits)
	assert.Equal(t, 200*time.Microsecond, one(t, eng, c, sim.Read, 1<<20, 4096), "a miss reads below")
	assert.EqualValues(t, 1, c.Stats().ReadHits)
	assert.EqualValues(t, 3, tier.Stats().Writes, "the miss's data went to the tier")
	assert.Equal(t, tierLatency, one(t, eng, c, sim.Read, 1<<20, 4096), "and hits there next")
	assert.EqualValues(t, 0, below.Stats().Writes)
	one(t, eng, c, sim.Flush, 0, 0)
	assert.EqualValues(t, 1, below.Stats().Writes, "the flush destaged the write")
	assert.EqualValues(t, 3, tier.Stats().Reads, "reading it from the tier first")
	assert.EqualValues(t, 1, tier.Stats().Flushes, "and flushed the tier too")
}

// TestTierJournalBatches: writes arriving together share journal
// writes (group commit).
func TestTierJournalBatches(t *testing.T) {
	eng := sim.NewEngine(1)
	c, _, _ := newTiered(t, eng, cache.Config{Size: 4 << 20}, 16<<20)
	done := 0
	for i := range 64 {
		r := &sim.Request{Op: sim.Write, Offset: int64(i) * 8192, Length: 4096, Done: func(*sim.Request) { done++ }}
		require.NoError(t, c.Submit(r))
	}
	eng.Run()
	assert.Equal(t, 64, done)
	assert.LessOrEqual(t, c.Stats().JournalWrites, int64(3), "64 writes, journal writes")
}

// TestSequentialCutoff: a long sequential read does not evict the hot
// set from a cache with bcache's cutoff (only its first 4 MiB are
// kept); without one, it does.
func TestSequentialCutoff(t *testing.T) {
	for _, tc := range []struct {
		cutoff int64
		hits   int64
	}{{0, 64}, {-1, 0}} {
		eng := sim.NewEngine(1)
		c, _, _ := newTiered(t, eng, cache.Config{Size: 16 << 20, SequentialCutoff: tc.cutoff}, 32<<20)
		hot := func() {
			for i := range int64(64) {
				one(t, eng, c, sim.Read, (56<<20)+i*64<<10, 4096)
			}
		}
		hot()
		for off := int64(0); off < 48<<20; off += 128 << 10 { // 48 MiB sequential: 3 times the cache
			one(t, eng, c, sim.Read, off, 128<<10)
		}
		before := c.Stats().ReadHits
		hot()
		assert.Equal(t, tc.hits, c.Stats().ReadHits-before, "cutoff %d", tc.cutoff)
		if tc.cutoff == 0 {
			assert.EqualValues(t, 384-31, c.Stats().BypassedReads, "the stream's reads from the one reaching 4 MiB on")
		}
	}
}

// TestWriteAround: writes go below, are not absorbed and drop what the
// cache held of their range; reads are still cached.
func TestWriteAround(t *testing.T) {
	eng := sim.NewEngine(1)
	c, below, _ := newTiered(t, eng, cache.Config{Mode: cache.WriteAround, Size: 1 << 20}, 8<<20)
	one(t, eng, c, sim.Read, 0, 4096)
	assert.Equal(t, tierLatency, one(t, eng, c, sim.Read, 0, 4096))
	assert.Equal(t, 300*time.Microsecond, one(t, eng, c, sim.Write, 0, 4096), "the write waits for the device below")
	assert.EqualValues(t, 0, c.Stats().WritesAbsorbed)
	assert.EqualValues(t, 1, below.Stats().Writes)
	assert.Equal(t, 200*time.Microsecond, one(t, eng, c, sim.Read, 0, 4096), "the write dropped the cached copy")
}

// TestTierCrashKeepsData: a power loss loses nothing the cache holds:
// its data and journal are on the tier.
func TestTierCrashKeepsData(t *testing.T) {
	eng := sim.NewEngine(1)
	c, _, _ := newTiered(t, eng, cache.Config{Size: 1 << 20}, 8<<20)
	one(t, eng, c, sim.Write, 0, 4096)
	assert.EqualValues(t, 4096, c.DirtyBytes())
	assert.Empty(t, c.Crash())
	assert.EqualValues(t, 4096, c.DirtyBytes())
}

func TestNewOnDeviceRejects(t *testing.T) {
	eng := sim.NewEngine(1)
	below, _ := simtest.NewMemDevice(eng, memDefault)
	small, _ := simtest.NewMemDevice(eng, simtest.MemConfig{Capacity: 1 << 20})
	_, err := cache.NewOnDevice(eng, cache.Config{Size: 1 << 20}, below, small, "c", nil)
	require.ErrorContains(t, err, "do not fit")
	_, err = cache.NewOnDevice(eng, cache.Config{Size: 1 << 20}, below, nil, "c", nil)
	require.ErrorContains(t, err, "needs a device")
}
