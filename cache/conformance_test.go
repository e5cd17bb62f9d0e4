package cache_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/cache"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
)

// newStack returns a cache with cfg over a MemDevice of capacity bytes.
func newStack(t testing.TB, eng *sim.Engine, cfg cache.Config, mem simtest.MemConfig) (*cache.Cache, *simtest.MemDevice) {
	t.Helper()
	dev, err := simtest.NewMemDevice(eng, mem)
	require.NoError(t, err)
	c, err := cache.New(eng, cfg, dev, "cache", nil)
	require.NoError(t, err)
	return c, dev
}

var memDefault = simtest.MemConfig{
	Capacity:     64 << 20,
	ReadLatency:  200 * time.Microsecond,
	WriteLatency: 300 * time.Microsecond,
	FlushLatency: 100 * time.Microsecond,
}

func TestConformance(t *testing.T) {
	cases := []struct {
		name string
		cfg  cache.Config
	}{
		{"write-back", cache.Config{Size: 1 << 20}},
		{"write-back/tiny", cache.Config{Size: 64 << 10, Block: 4096}},
		{"write-back/lrw", cache.Config{Size: 512 << 10, Order: cache.OrderLRW, MaxDestageBytes: 64 << 10, MaxOutstandingDestages: 2}},
		{"write-back/wow-linear", cache.Config{Size: 512 << 10, Order: cache.OrderWOW, Policy: cache.Linear, HighWater: 0.9, LowWater: 0.8}},
		{"write-back/interval", cache.Config{Size: 1 << 20, Policy: cache.Interval, Interval: time.Millisecond}},
		{"write-back/idle", cache.Config{Size: 1 << 20, Policy: cache.Idle, Idle: 500 * time.Microsecond}},
		{"write-back/stripe", cache.Config{Size: 1 << 20, Align: cache.AlignStripe, StripeUnit: 16 << 10, DataMembers: 3, ReadAhead: 64 << 10}},
		{"write-back/no-read-cache", cache.Config{Size: 1 << 20, NoReadCache: true}},
		{"write-back/max-dirty", cache.Config{Size: 1 << 20, MaxDirty: 64 << 10, ReadAhead: 32 << 10}},
		{"write-through", cache.Config{Size: 1 << 20, Mode: cache.WriteThrough, ReadAhead: 32 << 10}},
		{"off", cache.Config{Mode: cache.Off}},
		{"non-volatile", cache.Config{Size: 1 << 20, NonVolatile: true}},
		{"non-volatile/ignores-flush", cache.Config{Size: 1 << 20, NonVolatile: true, NVIgnoresFlush: true}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			simtest.TestDevice(t, func(t *testing.T) (sim.Device, *sim.Engine) {
				eng := sim.NewEngine(1)
				c, _ := newStack(t, eng, tc.cfg, memDefault)
				return c, eng
			}, simtest.WithData(), simtest.WithTrimZeroes())
		})
	}
}

// TestConformanceJitter runs the suite with random service times below,
// so that destages, write-arounds and reads complete out of order.
func TestConformanceJitter(t *testing.T) {
	for _, mode := range []cache.Mode{cache.WriteBack, cache.WriteThrough, cache.Off} {
		for _, seed := range []uint64{1, 2, 3} {
			t.Run(mode.String(), func(t *testing.T) {
				simtest.TestDevice(t, func(t *testing.T) (sim.Device, *sim.Engine) {
					eng := sim.NewEngine(seed)
					c, dev := newStack(t, eng, cache.Config{Mode: mode, Size: 256 << 10, MaxDestageBytes: 32 << 10, ReadAhead: 16 << 10}, memDefault)
					rng := eng.Rand("jitter")
					dev.SetLatency(func(*sim.Request) time.Duration { return time.Duration(rng.Int64N(int64(time.Millisecond))) })
					return c, eng
				}, simtest.WithData(), simtest.WithTrimZeroes(), simtest.WithSeed(seed), simtest.WithRequests(1000))
			})
		}
	}
}
