package cache_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/cache"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
)

// driver keeps depth requests outstanding, recycling them from Done.
type driver struct {
	dev     sim.Device
	rng     *rand.Rand
	span    int64 // bytes addressed
	size    int64
	readPct int
	seq     bool
	next    int64
	done    int
	limit   int
	fn      func(*sim.Request)
	err     error
}

func (d *driver) fill(r *sim.Request) {
	r.Op = sim.Write
	if d.rng.IntN(100) < d.readPct {
		r.Op = sim.Read
	}
	if d.seq {
		r.Offset = d.next
		d.next = (d.next + d.size) % d.span
	} else {
		r.Offset = d.rng.Int64N(d.span/d.size) * d.size
	}
	r.Length = d.size
	r.Done = d.fn
}

func (d *driver) onDone(r *sim.Request) {
	d.done++
	if d.done+1 > d.limit {
		return
	}
	d.fill(r)
	if err := d.dev.Submit(r); err != nil && d.err == nil {
		d.err = err
	}
}

type benchCase struct {
	name    string
	cfg     cache.Config
	size    int64
	span    int64
	readPct int
	seq     bool
	depth   int
}

var benchCases = []benchCase{
	{"op=seqwrite/bs=65536", cache.Config{Size: 64 << 20}, 65536, 1 << 30, 0, true, 8},
	{"op=randwrite/bs=4096/ws=cache", cache.Config{Size: 64 << 20, HighWater: 0.9, LowWater: 0.8}, 4096, 32 << 20, 0, false, 32},
	{"op=randwrite/bs=4096/ws=big", cache.Config{Size: 64 << 20}, 4096, 1 << 30, 0, false, 32},
	{"op=randread/bs=4096/hit", cache.Config{Size: 64 << 20}, 4096, 16 << 20, 100, false, 32},
	{"op=randrw/bs=16384", cache.Config{Size: 64 << 20}, 16384, 1 << 30, 70, false, 32},
	{"op=seqwrite/bs=65536/align=stripe", cache.Config{Size: 64 << 20, Align: cache.AlignStripe, StripeUnit: 64 << 10, DataMembers: 3}, 65536, 1 << 30, 0, true, 8},
	{"op=randwrite/bs=4096/order=wow", cache.Config{Size: 64 << 20, Order: cache.OrderWOW}, 4096, 1 << 30, 0, false, 32},
	{"op=randwrite/bs=4096/mode=write-through", cache.Config{Size: 64 << 20, Mode: cache.WriteThrough}, 4096, 1 << 30, 0, false, 32},
	{"op=seqread/bs=65536/readahead=1MiB", cache.Config{Size: 64 << 20, ReadAhead: 1 << 20}, 65536, 1 << 30, 100, true, 1},
}

// newBench returns a driver over a cache over a MemDevice that serves
// 16 requests at once in about 100µs each.
func newBench(tb testing.TB, bc benchCase, seed uint64) (*sim.Engine, *cache.Cache, *driver) {
	eng := sim.NewEngine(seed)
	dev, err := simtest.NewMemDevice(eng, simtest.MemConfig{Capacity: 2 << 30, ReadLatency: 100 * time.Microsecond,
		WriteLatency: 100 * time.Microsecond, Bandwidth: 1 << 30})
	require.NoError(tb, err)
	c, err := cache.New(eng, bc.cfg, dev, "cache", nil)
	require.NoError(tb, err)
	d := &driver{dev: c, rng: eng.Rand("bench"), span: bc.span, size: bc.size, readPct: bc.readPct, seq: bc.seq}
	d.fn = d.onDone
	return eng, c, d
}

func (d *driver) start(depth int) {
	for range depth {
		r := new(sim.Request)
		d.fill(r)
		if err := d.dev.Submit(r); err != nil {
			d.err = err
		}
	}
}

// BenchmarkCache measures simulated requests per wall-clock second
// through the cache; allocs/op is per completed host request.
func BenchmarkCache(b *testing.B) {
	for _, bc := range benchCases {
		b.Run(bc.name, func(b *testing.B) {
			eng, c, d := newBench(b, bc, 1)
			// Warm up to the steady state: cache full, free lists grown.
			d.limit = 200_000
			d.start(bc.depth)
			for d.done < 100_000 && eng.Step() {
			}
			b.ReportAllocs()
			b.ResetTimer()
			target := d.done + b.N
			d.limit = target + bc.depth
			for d.done < target && eng.Step() {
			}
			b.StopTimer()
			require.NoError(b, d.err)
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "requests/s")
			st := c.Stats()
			b.ReportMetric(st.CoalescingFactor(), "coalescing")
		})
	}
}

// TestSteadyStateAllocations checks that the hot paths do not allocate
// per request once warmed up.
func TestSteadyStateAllocations(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	for _, bc := range benchCases {
		t.Run(bc.name, func(t *testing.T) {
			eng, _, d := newBench(t, bc, 1)
			d.limit = 1 << 40
			d.start(bc.depth)
			for d.done < 30_000 && eng.Step() {
			}
			const n = 5_000
			allocs := testing.AllocsPerRun(1, func() {
				target := d.done + n
				for d.done < target && eng.Step() {
				}
			}) / n
			t.Logf("%.4f allocations per request", allocs)
			if allocs > 0.05 {
				t.Errorf("%.4f allocations per request in steady state", allocs)
			}
		})
	}
}
