package cache_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/cache"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
)

// recStack is a cache over a Recorder over a MemDevice.
func recStack(t testing.TB, eng *sim.Engine, cfg cache.Config, mem simtest.MemConfig) (*cache.Cache, *simtest.Recorder, *simtest.MemDevice) {
	t.Helper()
	dev, err := simtest.NewMemDevice(eng, mem)
	require.NoError(t, err)
	rec := simtest.NewRecorder(eng, dev)
	c, err := cache.New(eng, cfg, rec, "cache", nil)
	require.NoError(t, err)
	return c, rec, dev
}

func writesBelow(rec *simtest.Recorder) []simtest.Record {
	var out []simtest.Record
	for _, r := range rec.Requests() {
		if r.Op == sim.Write {
			out = append(out, r)
		}
	}
	return out
}

// submitAll submits rs from outside the event loop and runs the engine.
func submitAll(t testing.TB, eng *sim.Engine, d sim.Device, rs ...*sim.Request) {
	t.Helper()
	for _, r := range rs {
		if r.Done == nil {
			r.Done = func(*sim.Request) {}
		}
		require.NoError(t, d.Submit(r))
	}
	eng.Run()
}

// submitNow submits rs without running the engine.
func submitNow(t testing.TB, d sim.Device, rs ...*sim.Request) {
	t.Helper()
	for _, r := range rs {
		if r.Done == nil {
			r.Done = func(*sim.Request) {}
		}
		require.NoError(t, d.Submit(r))
	}
}

// seqWrites returns n sequential writes of size bytes from off.
func seqWrites(n int, off, size int64, done func(*sim.Request)) []*sim.Request {
	rs := make([]*sim.Request, n)
	for i := range rs {
		rs[i] = &sim.Request{Op: sim.Write, Offset: off + int64(i)*size, Length: size, Done: done}
	}
	return rs
}

func TestSequentialWritesCoalesce(t *testing.T) {
	for _, depth := range []int{1, 32, 1000} {
		t.Run(fmt.Sprintf("depth=%d", depth), func(t *testing.T) {
			eng := sim.NewEngine(1)
			c, rec, _ := recStack(t, eng, cache.Config{Size: 64 << 20, MaxDestageBytes: 1 << 20},
				simtest.MemConfig{Capacity: 1 << 30, WriteLatency: time.Millisecond})
			i := 0
			var next func(*sim.Request)
			next = func(*sim.Request) {
				if i == 1000 {
					return
				}
				r := &sim.Request{Op: sim.Write, Offset: int64(i) * 4096, Length: 4096, Done: next}
				i++
				require.NoError(t, c.Submit(r))
			}
			for range depth {
				next(nil)
			}
			eng.Run()
			submitAll(t, eng, c, &sim.Request{Op: sim.Flush})
			ws := writesBelow(rec)
			assert.LessOrEqual(t, len(ws), 4, "destage writes for 1,000 sequential 4 KiB writes: %v", ws)
			var total int64
			for _, w := range ws {
				assert.LessOrEqual(t, w.Length, int64(1<<20))
				total += w.Length
			}
			assert.Equal(t, int64(1000*4096), total)
			st := c.Stats()
			assert.Equal(t, int64(1000), st.WritesAbsorbed)
			assert.InDelta(t, 250, st.CoalescingFactor(), 1)
			assert.Zero(t, c.DirtyBytes())
		})
	}
}

func TestStripeAlignedDestage(t *testing.T) {
	const unit, members = 64 << 10, 3 // RAID 5 over 4 drives
	const stripe = unit * members
	for _, tc := range []struct {
		order cache.Order
		bs    int64
		depth int
	}{{cache.OrderLBA, 65536, 8}, {cache.OrderLRW, 65536, 8}, {cache.OrderWOW, 65536, 8},
		{cache.OrderLBA, 4096, 32}, {cache.OrderLBA, 262144, 4}, {cache.OrderLRW, 4096, 1}} {
		order, bs, depth := tc.order, tc.bs, tc.depth
		t.Run(fmt.Sprintf("order=%v/bs=%d/depth=%d", order, bs, depth), func(t *testing.T) {
			eng := sim.NewEngine(1)
			c, rec, _ := recStack(t, eng, cache.Config{
				Size: 8 << 20, Align: cache.AlignStripe, StripeUnit: unit, DataMembers: members, Order: order,
			}, simtest.MemConfig{Capacity: 1 << 30, WriteLatency: 2 * time.Millisecond, Bandwidth: 60 << 20, Serial: true})
			// A stream of 128 MiB, starting mid-stripe.
			n := int((128 << 20) / bs)
			i := 0
			var next func(*sim.Request)
			next = func(*sim.Request) {
				if i == n {
					return
				}
				r := &sim.Request{Op: sim.Write, Offset: 4096 + int64(i)*bs, Length: bs, Done: next}
				i++
				require.NoError(t, c.Submit(r))
			}
			for range depth {
				next(nil)
			}
			eng.Run()
			submitAll(t, eng, c, &sim.Request{Op: sim.Flush})
			ws := writesBelow(rec)
			full := 0
			for _, w := range ws {
				if w.Offset%stripe == 0 && w.Length%stripe == 0 {
					full++
				}
			}
			frac := float64(full) / float64(len(ws))
			assert.GreaterOrEqual(t, frac, 0.95, "%d of %d destages full-stripe", full, len(ws))
			t.Logf("%d of %d destages full-stripe", full, len(ws))
			assert.InDelta(t, frac, c.Stats().FullStripeFraction(), 1e-9)
			assert.Positive(t, c.Stats().Stalls, "the stream outruns the device")
		})
	}
}

func TestFlushWaitsForEarlierWrites(t *testing.T) {
	for _, mode := range []cache.Mode{cache.WriteBack, cache.WriteThrough, cache.Off} {
		t.Run(mode.String(), func(t *testing.T) {
			eng := sim.NewEngine(1)
			c, rec, dev := recStack(t, eng, cache.Config{Mode: mode, Size: 4 << 20, MaxOutstandingDestages: 2, MaxDestageBytes: 64 << 10},
				simtest.MemConfig{Capacity: 64 << 20, WriteLatency: time.Millisecond, FlushLatency: 3 * time.Millisecond})
			var acked []*sim.Request
			for i := range 50 {
				r := &sim.Request{Op: sim.Write, Offset: int64(i*7%50) * 65536, Length: 32768, Data: make([]byte, 32768)}
				r.Data[0] = byte(i + 1)
				r.Done = func(r *sim.Request) { acked = append(acked, r) }
				require.NoError(t, c.Submit(r))
			}
			eng.RunUntil(eng.Now().Add(time.Millisecond)) // 50 copies of 32 KiB at 2 GB/s: 819µs
			flushed := false
			f := &sim.Request{Op: sim.Flush, Done: func(f *sim.Request) {
				flushed = true
				for _, r := range acked {
					b := make([]byte, 1)
					_, _ = dev.ReadAt(b, r.Offset)
					assert.Equal(t, r.Data[0], b[0], "%v acknowledged before the flush is on the device", r)
				}
				// The flush below completed before this one.
				var below *simtest.Record
				for _, x := range rec.Requests() {
					if x.Op == sim.Flush {
						below = &x
					}
				}
				if assert.NotNil(t, below, "a flush went below") {
					assert.True(t, below.Done)
					assert.LessOrEqual(t, below.Completed, f.Completed)
				}
			}}
			ackedBefore := len(acked)
			require.NoError(t, c.Submit(f))
			eng.Run()
			assert.True(t, flushed)
			assert.Len(t, acked, 50)
			if mode == cache.WriteBack {
				assert.Equal(t, 50, ackedBefore, "write-back acknowledges at memory speed")
			}
		})
	}
}

func TestNonVolatileFlush(t *testing.T) {
	eng := sim.NewEngine(1)
	c, rec, _ := recStack(t, eng, cache.Config{Size: 4 << 20, NonVolatile: true, NVIgnoresFlush: true},
		simtest.MemConfig{Capacity: 64 << 20, WriteLatency: time.Millisecond})
	submitAll(t, eng, c, seqWrites(10, 0, 4096, nil)...)
	f := &sim.Request{Op: sim.Flush}
	submitAll(t, eng, c, f)
	assert.Less(t, f.Latency(), 10*time.Microsecond)
	assert.Empty(t, writesBelow(rec), "the flush was acknowledged from non-volatile memory")
	assert.Equal(t, int64(40960), c.DirtyBytes())
	assert.Nil(t, c.Crash())
	assert.Equal(t, int64(40960), c.DirtyBytes(), "non-volatile memory keeps its data")
}

func TestBackPressure(t *testing.T) {
	eng := sim.NewEngine(1)
	c, _, _ := recStack(t, eng, cache.Config{Size: 256 << 10, MaxOutstandingDestages: 1, MaxDestageBytes: 16 << 10},
		simtest.MemConfig{Capacity: 64 << 20, WriteLatency: 5 * time.Millisecond, Serial: true})
	rng := eng.Rand("test")
	var done int
	var lat []time.Duration
	for range 400 {
		off := rng.Int64N(16<<20/4096) * 4096
		r := &sim.Request{Op: sim.Write, Offset: off, Length: 4096, Done: func(r *sim.Request) {
			done++
			lat = append(lat, r.Latency())
		}}
		require.NoError(t, c.Submit(r))
	}
	eng.Run()
	assert.Equal(t, 400, done, "every write completes")
	st := c.Stats()
	assert.Positive(t, st.Stalls)
	assert.Positive(t, st.StallTime)
	assert.NotEqual(t, sim.Never, st.FilledAt)
	assert.Less(t, lat[0], 100*time.Microsecond, "the first writes are absorbed at memory speed")
	assert.Greater(t, lat[len(lat)-1], 100*time.Millisecond, "the last ones waited for destage")
	assert.LessOrEqual(t, st.DirtyPeak, int64(256<<10))
	f := &sim.Request{Op: sim.Flush}
	submitAll(t, eng, c, f)
	assert.Zero(t, c.DirtyBytes())
}

func TestCrashReportsDirtyExtents(t *testing.T) {
	eng := sim.NewEngine(1)
	c, _, dev := recStack(t, eng, cache.Config{Size: 4 << 20}, simtest.MemConfig{Capacity: 64 << 20, WriteLatency: time.Millisecond})
	w := func(off, n int64, b byte) *sim.Request {
		r := &sim.Request{Op: sim.Write, Offset: off, Length: n, Data: make([]byte, n)}
		for i := range r.Data {
			r.Data[i] = b
		}
		return r
	}
	submitAll(t, eng, c, w(0, 8192, 1), w(8192, 4096, 2), w(65536, 4096, 3))
	submitAll(t, eng, c, &sim.Request{Op: sim.Flush})
	submitAll(t, eng, c, w(4096, 8192, 4), w(1<<20, 512, 5), w(1<<20+512, 512, 6))
	fua := w(65536, 4096, 7)
	fua.FUA = true
	submitAll(t, eng, c, fua)
	assert.Equal(t, int64(8192+1024), c.DirtyBytes())
	lost := c.Crash()
	assert.Equal(t, []cache.Extent{{4096, 8192}, {1 << 20, 1024}}, lost)
	assert.Zero(t, c.DirtyBytes())
	b := make([]byte, 1)
	_, _ = dev.ReadAt(b, 65536)
	assert.Equal(t, byte(7), b[0], "the FUA write is on the device")
	// After the crash reads come from the device.
	r := &sim.Request{Op: sim.Read, Offset: 4096, Length: 4096, Data: make([]byte, 4096)}
	submitAll(t, eng, c, r)
	assert.Equal(t, byte(1), r.Data[0])
	assert.Equal(t, int64(8192+1024), c.Stats().LostBytes)
}

func TestReadHitsAndMisses(t *testing.T) {
	eng := sim.NewEngine(1)
	c, rec, _ := recStack(t, eng, cache.Config{Size: 4 << 20}, simtest.MemConfig{Capacity: 64 << 20, ReadLatency: time.Millisecond})
	submitAll(t, eng, c, &sim.Request{Op: sim.Write, Offset: 8192, Length: 4096})
	rec.Reset()
	// [0, 16K): 8K miss, 4K dirty hit, 4K miss.
	r := &sim.Request{Op: sim.Read, Offset: 0, Length: 16384}
	submitAll(t, eng, c, r)
	var reads []string
	for _, x := range rec.Requests() {
		reads = append(reads, x.Op.String()+" "+itoa(x.Offset)+"+"+itoa(x.Length))
	}
	assert.Equal(t, []string{"read 0+8192", "read 12288+4096"}, reads)
	assert.GreaterOrEqual(t, r.Latency(), time.Millisecond)
	// Now all of it is clean or dirty: a hit at memory speed.
	r2 := &sim.Request{Op: sim.Read, Offset: 0, Length: 16384}
	submitAll(t, eng, c, r2)
	assert.Less(t, r2.Latency(), 20*time.Microsecond)
	st := c.Stats()
	assert.Equal(t, int64(2), st.Reads)
	assert.Equal(t, int64(1), st.ReadHits)
	assert.Equal(t, int64(1), st.ReadPartialHits)
	assert.InDelta(t, 0.5, st.ReadHitRatio(), 1e-9)
	assert.InDelta(t, float64(4096+16384)/32768, st.ByteHitRatio(), 1e-9)
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

// peakOutstanding returns the most records in flight at once.
func peakOutstanding(rs []simtest.Record) int {
	peak := 0
	for _, a := range rs {
		n := 0
		for _, b := range rs {
			if b.Issued <= a.Issued && (!b.Done || b.Completed > a.Issued) {
				n++
			}
		}
		peak = max(peak, n)
	}
	return peak
}

func TestReadAhead(t *testing.T) {
	eng := sim.NewEngine(1)
	c, rec, _ := recStack(t, eng, cache.Config{Size: 4 << 20, ReadAhead: 64 << 10}, simtest.MemConfig{Capacity: 64 << 20, ReadLatency: time.Millisecond})
	for i := range 32 {
		submitAll(t, eng, c, &sim.Request{Op: sim.Read, Offset: int64(i) * 4096, Length: 4096})
	}
	// The first read is not sequential; the second misses and starts a
	// 64 KiB read-ahead. Every read after it is a hit (the first one
	// waits for the read-ahead to land), and a new 64 KiB read-ahead
	// starts whenever less than 32 KiB is left ahead: at 72 KiB and at
	// 136 KiB.
	assert.Equal(t, 5, len(rec.Requests()), "%v", rec)
	for i, want := range []int64{8 << 10, 72 << 10, 136 << 10} {
		q := rec.Requests()[2+i]
		assert.Equal(t, want, q.Offset, "read-ahead %d", i)
		assert.Equal(t, int64(64<<10), q.Length, "read-ahead %d", i)
	}
	assert.Equal(t, int64(30), c.Stats().ReadHits)
	assert.Equal(t, int64(3*64<<10), c.Stats().ReadAheadBytes)
}

// TestReadAheadInBackground: the host does not wait for the read-ahead
// its read starts, only a later read that needs the data does, and only
// until it lands.
func TestReadAheadInBackground(t *testing.T) {
	eng := sim.NewEngine(1)
	// 1 MB/s: a 4 KiB read takes 4.1 ms, the 256 KiB read-ahead 262 ms.
	c, _, _ := recStack(t, eng, cache.Config{Size: 4 << 20, ReadAhead: 256 << 10}, simtest.MemConfig{Capacity: 64 << 20, Bandwidth: 1e6})
	var lat []time.Duration
	read := func(off int64) {
		submitAll(t, eng, c, &sim.Request{Op: sim.Read, Offset: off, Length: 4096, Done: func(r *sim.Request) { lat = append(lat, r.Latency()) }})
	}
	read(0)
	read(4096) // sequential: starts the read-ahead, which it does not wait for
	assert.Less(t, lat[1], 5*time.Millisecond)
	// submitAll ran the engine dry, so the read-ahead has landed: the
	// next reads are hits.
	read(8192)
	read(12288)
	assert.Less(t, lat[2], 100*time.Microsecond)
	assert.Less(t, lat[3], 100*time.Microsecond)

	// A read that arrives while the read-ahead is in flight waits for it.
	eng2 := sim.NewEngine(1)
	c2, rec2, _ := recStack(t, eng2, cache.Config{Size: 4 << 20, ReadAhead: 256 << 10}, simtest.MemConfig{Capacity: 64 << 20, Bandwidth: 1e6})
	var got []time.Duration
	done := func(r *sim.Request) { got = append(got, r.Latency()) }
	submitAll(t, eng2, c2, &sim.Request{Op: sim.Read, Offset: 0, Length: 4096, Done: done})
	submitNow(t, c2, &sim.Request{Op: sim.Read, Offset: 4096, Length: 4096, Done: done},
		&sim.Request{Op: sim.Read, Offset: 8192, Length: 4096, Done: done})
	eng2.Run()
	require.Len(t, got, 3)
	assert.Greater(t, got[2], 200*time.Millisecond, "waited for the read-ahead")
	assert.Len(t, rec2.Requests(), 3, "and did not read the same data again")
}

func TestWriteThroughKeepsCleanCopy(t *testing.T) {
	eng := sim.NewEngine(1)
	c, rec, _ := recStack(t, eng, cache.Config{Mode: cache.WriteThrough, Size: 4 << 20},
		simtest.MemConfig{Capacity: 64 << 20, WriteLatency: time.Millisecond, ReadLatency: time.Millisecond})
	w := &sim.Request{Op: sim.Write, Offset: 0, Length: 4096, Data: make([]byte, 4096)}
	w.Data[10] = 42
	submitAll(t, eng, c, w)
	assert.Equal(t, time.Millisecond, w.Latency(), "write-through waits for the device")
	r := &sim.Request{Op: sim.Read, Offset: 0, Length: 4096, Data: make([]byte, 4096)}
	submitAll(t, eng, c, r)
	assert.Equal(t, byte(42), r.Data[10])
	assert.Less(t, r.Latency(), 20*time.Microsecond)
	assert.Len(t, rec.Requests(), 1)
	assert.Zero(t, c.DirtyBytes())
}

func TestOffPassesThrough(t *testing.T) {
	eng := sim.NewEngine(1)
	c, rec, _ := recStack(t, eng, cache.Config{Mode: cache.Off}, simtest.MemConfig{Capacity: 64 << 20, WriteLatency: time.Millisecond})
	rs := []*sim.Request{
		{Op: sim.Write, Offset: 0, Length: 4096, FUA: true},
		{Op: sim.Read, Offset: 0, Length: 4096},
		{Op: sim.Read, Offset: 0, Length: 4096},
		{Op: sim.Flush},
	}
	submitAll(t, eng, c, rs...)
	got := rec.Requests()
	require.Len(t, got, 4)
	for i, r := range rs {
		assert.Equal(t, r.Op, got[i].Op)
		assert.Equal(t, r.FUA, got[i].FUA)
	}
	assert.Equal(t, time.Millisecond, rs[0].Latency())
}

func TestOverwritesAbsorbed(t *testing.T) {
	eng := sim.NewEngine(1)
	c, rec, _ := recStack(t, eng, cache.Config{Size: 4 << 20}, simtest.MemConfig{Capacity: 64 << 20})
	for range 100 {
		submitAll(t, eng, c, &sim.Request{Op: sim.Write, Offset: 4096, Length: 8192})
	}
	submitAll(t, eng, c, &sim.Request{Op: sim.Flush})
	assert.Len(t, writesBelow(rec), 1)
	st := c.Stats()
	assert.Equal(t, int64(99*8192), st.OverwrittenBytes)
	assert.Equal(t, int64(8192), st.DestageBytes)
	assert.Equal(t, 100.0, st.CoalescingFactor())
}

func TestPolicies(t *testing.T) {
	mem := simtest.MemConfig{Capacity: 64 << 20, WriteLatency: 100 * time.Microsecond}
	t.Run("watermark", func(t *testing.T) {
		eng := sim.NewEngine(1)
		c, rec, _ := recStack(t, eng, cache.Config{Size: 1 << 20, HighWater: 0.5, LowWater: 0.25, MaxDestageBytes: 64 << 10}, mem)
		submitAll(t, eng, c, seqWrites(127, 0, 4096, nil)...) // just under half
		assert.Empty(t, writesBelow(rec))
		submitAll(t, eng, c, seqWrites(1, 127*4096, 4096, nil)...)
		assert.NotEmpty(t, writesBelow(rec))
		assert.InDelta(t, 256<<10, c.DirtyBytes(), 64<<10, "drained to the low water mark")
		assert.NotEqual(t, sim.Never, c.Stats().HighWaterAt)
	})
	t.Run("interval", func(t *testing.T) {
		eng := sim.NewEngine(1)
		c, rec, _ := recStack(t, eng, cache.Config{Size: 1 << 20, Policy: cache.Interval, Interval: 10 * time.Millisecond}, mem)
		submitNow(t, c, seqWrites(4, 0, 4096, nil)...)
		eng.RunUntil(6 * sim.Time(time.Millisecond))
		submitNow(t, c, seqWrites(1, 1<<20, 4096, nil)...)
		// A rewrite does not make data younger: its oldest byte counts.
		eng.RunUntil(8 * sim.Time(time.Millisecond))
		submitNow(t, c, seqWrites(1, 0, 4096, nil)...)
		eng.Run()
		ws := writesBelow(rec)
		require.Len(t, ws, 2)
		ms := float64(time.Millisecond)
		assert.InDelta(t, 10*ms, float64(ws[0].Issued), 0.01*ms, "the first writes destaged when 10ms old")
		assert.Equal(t, int64(16384), ws[0].Length)
		assert.InDelta(t, 16*ms, float64(ws[1].Issued), 0.01*ms, "the later write when it is 10ms old")
		assert.Zero(t, c.DirtyBytes())
	})
	t.Run("idle", func(t *testing.T) {
		eng := sim.NewEngine(1)
		c, rec, _ := recStack(t, eng, cache.Config{Size: 1 << 20, Policy: cache.Idle, Idle: 5 * time.Millisecond}, mem)
		for i := range 10 {
			eng.RunUntil(sim.Time(i) * sim.Time(time.Millisecond))
			require.NoError(t, c.Submit(&sim.Request{Op: sim.Write, Offset: int64(i) * 8192, Length: 4096, Done: func(*sim.Request) {}}))
		}
		eng.Run()
		ws := writesBelow(rec)
		require.NotEmpty(t, ws)
		assert.GreaterOrEqual(t, ws[0].Issued, sim.Time(14*time.Millisecond), "destage waits for 5ms of quiet")
		assert.Zero(t, c.DirtyBytes())
	})
	t.Run("linear", func(t *testing.T) {
		eng := sim.NewEngine(1)
		c, rec, _ := recStack(t, eng, cache.Config{Size: 1 << 20, Policy: cache.Linear, HighWater: 0.9, LowWater: 0.5,
			MaxDestageBytes: 4096, MaxOutstandingDestages: 8}, mem)
		rng := eng.Rand("t")
		// Random 4 KiB writes to fill 45%: below the low threshold.
		for c.Stats().Writes < 115 {
			submitAll(t, eng, c, &sim.Request{Op: sim.Write, Offset: rng.Int64N(4096) * 8192, Length: 4096})
		}
		assert.Empty(t, writesBelow(rec), "below the low threshold nothing goes")
		// Then to about 60%, between the thresholds, so a few destages
		// run at once but not the maximum.
		for c.Stats().Writes < 115+40 {
			r := &sim.Request{Op: sim.Write, Offset: rng.Int64N(4096) * 8192, Length: 4096, Done: func(*sim.Request) {}}
			require.NoError(t, c.Submit(r))
			eng.RunUntil(eng.Now().Add(10 * time.Microsecond))
		}
		ws := writesBelow(rec)
		assert.NotEmpty(t, ws)
		assert.Less(t, peakOutstanding(ws), 8, "between the thresholds fewer than the maximum run at once")
		eng.Run()
		assert.InDelta(t, 0.5, float64(c.DirtyBytes())/(1<<20), 0.02, "destage stops at the low threshold")
	})
}

func TestDirtyMeanAndPeak(t *testing.T) {
	eng := sim.NewEngine(1)
	c, _, _ := recStack(t, eng, cache.Config{Size: 4 << 20, HitLatency: time.Nanosecond, CopyRate: 1 << 50},
		simtest.MemConfig{Capacity: 64 << 20, WriteLatency: 10 * time.Millisecond})
	submitAll(t, eng, c, &sim.Request{Op: sim.Write, Offset: 0, Length: 65536})
	eng.RunUntil(sim.Time(10 * time.Millisecond))
	submitAll(t, eng, c, &sim.Request{Op: sim.Flush}) // destage takes 10ms
	eng.RunUntil(sim.Time(40 * time.Millisecond))
	st := c.Stats()
	assert.Equal(t, int64(65536), st.DirtyPeak)
	assert.Zero(t, st.DirtyBytes)
	assert.InDelta(t, 65536.0/2, st.DirtyMean, 65536*0.001, "dirty for 20 of 40ms")
}

func TestDestageOrder(t *testing.T) {
	mem := simtest.MemConfig{Capacity: 64 << 20, WriteLatency: time.Millisecond, Serial: true}
	offsets := func(order cache.Order) []int64 {
		eng := sim.NewEngine(1)
		c, rec, _ := recStack(t, eng, cache.Config{Size: 1 << 20, Order: order, MaxOutstandingDestages: 1}, mem)
		for _, off := range []int64{5, 1, 9, 3, 7} {
			submitAll(t, eng, c, &sim.Request{Op: sim.Write, Offset: off << 20, Length: 4096})
		}
		// Rewrite 1: most recently written now, and WOW's bit is set.
		submitAll(t, eng, c, &sim.Request{Op: sim.Write, Offset: 1 << 20, Length: 4096})
		submitAll(t, eng, c, &sim.Request{Op: sim.Flush})
		var out []int64
		for _, w := range writesBelow(rec) {
			out = append(out, w.Offset>>20)
		}
		return out
	}
	assert.Equal(t, []int64{1, 3, 5, 7, 9}, offsets(cache.OrderLBA))
	assert.Equal(t, []int64{5, 9, 3, 7, 1}, offsets(cache.OrderLRW))
	// A flush is pressure: WOW ignores recency bits and sweeps by LBA.
	assert.Equal(t, []int64{1, 3, 5, 7, 9}, offsets(cache.OrderWOW))
}

// TestMaxDirty: dirty data stays within MaxDirty while the rest of the
// cache keeps clean data, and reads of it still hit.
func TestMaxDirty(t *testing.T) {
	eng := sim.NewEngine(1)
	c, _, _ := recStack(t, eng, cache.Config{Size: 4 << 20, MaxDirty: 256 << 10, MaxOutstandingDestages: 1, MaxDestageBytes: 16 << 10},
		simtest.MemConfig{Capacity: 64 << 20, WriteLatency: 5 * time.Millisecond, Serial: true})
	// 2 MiB of clean data, read once.
	var reads []*sim.Request
	for i := range int64(32) {
		reads = append(reads, &sim.Request{Op: sim.Read, Offset: 32<<20 + i*(64<<10), Length: 64 << 10})
	}
	submitAll(t, eng, c, reads...)
	rng := eng.Rand("test")
	var ws []*sim.Request
	for range 400 {
		ws = append(ws, &sim.Request{Op: sim.Write, Offset: rng.Int64N(16<<20/4096) * 4096, Length: 4096})
	}
	submitAll(t, eng, c, ws...)
	st := c.Stats()
	assert.LessOrEqual(t, st.DirtyPeak, int64(256<<10), "dirty data never exceeds MaxDirty")
	assert.Greater(t, st.DirtyPeak, int64(200<<10), "dirty data fills up to MaxDirty")
	assert.Positive(t, st.Stalls, "writes waited for destages at the dirty limit")
	hits := st.ReadHits
	again := make([]*sim.Request, len(reads))
	for i, r := range reads {
		again[i] = &sim.Request{Op: sim.Read, Offset: r.Offset, Length: r.Length}
	}
	submitAll(t, eng, c, again...)
	assert.Equal(t, hits+32, c.Stats().ReadHits, "the clean data outside the dirty limit stayed cached")

	assert.ErrorContains(t, cache.Config{Size: 1 << 20, MaxDirty: 2 << 20}.WithDefaults().Validate(), "MaxDirty must be in 0..Size")
	assert.ErrorContains(t, cache.Config{Size: 1 << 20, MaxDirty: 1024}.WithDefaults().Validate(), "MaxDirty 1024 bytes is smaller than Block")
	assert.Equal(t, int64(1<<20), cache.Config{Size: 1 << 20}.WithDefaults().MaxDirty)
}

func TestConfigValidate(t *testing.T) {
	err := cache.Config{
		Size: -1, Block: 0, Mode: 9, HighWater: 1.5, LowWater: 2, Interval: -1, Idle: -1, MaxDestageBytes: -4,
		MaxOutstandingDestages: -1, Align: cache.AlignStripe, ReadAhead: -1, HitLatency: -1, CopyRate: -1,
		Policy: 7, Order: 8, NVIgnoresFlush: true,
	}.Validate()
	require.Error(t, err)
	for _, want := range []string{"Size", "Block", "Mode", "HighWater", "LowWater", "Interval", "Idle",
		"MaxDestageBytes", "MaxOutstandingDestages", "Align stripe needs", "ReadAhead", "HitLatency", "CopyRate",
		"Policy", "Order", "NVIgnoresFlush"} {
		assert.Contains(t, err.Error(), want)
	}
	assert.NoError(t, cache.Config{}.WithDefaults().Validate())
	cfg := cache.Config{Align: cache.AlignStripe, StripeUnit: 64 << 10, DataMembers: 3}.WithDefaults()
	assert.Equal(t, int64(192<<10), cfg.FullStripe)
	assert.NoError(t, cfg.Validate())
	assert.Error(t, cache.Config{Align: cache.AlignStripe, StripeUnit: 64 << 10, DataMembers: 3, FullStripe: 1 << 20}.WithDefaults().Validate())

	eng := sim.NewEngine(1)
	dev, _ := simtest.NewMemDevice(eng, simtest.MemConfig{Capacity: 1 << 20, SectorSize: 4096})
	_, err = cache.New(eng, cache.Config{Block: 512, ReadAhead: 1000}, dev, "c", nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "Block 512")
	assert.Contains(t, err.Error(), "ReadAhead 1000")
	_, err = cache.New(nil, cache.Config{}, nil, "c", nil)
	assert.Error(t, err)
}

func TestParseNames(t *testing.T) {
	for _, s := range []string{"write-back", "write-through", "off"} {
		m, err := cache.ParseMode(s)
		require.NoError(t, err)
		assert.Equal(t, s, m.String())
	}
	for _, s := range []string{"wm", "interval", "idle", "linear"} {
		p, err := cache.ParsePolicy(s)
		require.NoError(t, err)
		assert.Equal(t, s, p.String())
	}
	for _, s := range []string{"lba", "lrw", "wow"} {
		o, err := cache.ParseOrder(s)
		require.NoError(t, err)
		assert.Equal(t, s, o.String())
	}
	a, err := cache.ParseAlign("STRIPE")
	require.NoError(t, err)
	assert.Equal(t, cache.AlignStripe, a)
	_, err = cache.ParseOrder("fifo")
	assert.ErrorContains(t, err, `unknown destage order "fifo"`)
	var m cache.Mode
	require.NoError(t, m.UnmarshalText([]byte("off")))
	b, err := m.MarshalText()
	require.NoError(t, err)
	assert.Equal(t, "off", string(b))
}

func TestRejects(t *testing.T) {
	eng := sim.NewEngine(1)
	c, _, _ := recStack(t, eng, cache.Config{}, simtest.MemConfig{Capacity: 1 << 20})
	err := c.Submit(&sim.Request{Op: sim.Read, Offset: 1 << 20, Length: 512, Done: func(*sim.Request) {}})
	assert.True(t, errors.Is(err, sim.ErrOutOfRange))
}

func TestObserver(t *testing.T) {
	eng := sim.NewEngine(1)
	dev, err := simtest.NewMemDevice(eng, simtest.MemConfig{Capacity: 64 << 20, WriteLatency: time.Millisecond})
	require.NoError(t, err)
	var log []string
	obs := &sim.Observer{
		Submitted: func(d string, r *sim.Request, now sim.Time) { log = append(log, d+" submitted "+r.String()) },
		Phase: func(d string, r *sim.Request, p sim.Phase, s, e sim.Time) {
			log = append(log, d+" "+p.String()+" "+r.String())
		},
		Completed: func(d string, r *sim.Request, now sim.Time) { log = append(log, d+" completed "+r.String()) },
	}
	c, err := cache.New(eng, cache.Config{Size: 8192}, dev, "vc", obs)
	require.NoError(t, err)
	submitNow(t, c, &sim.Request{Op: sim.Write, Offset: 0, Length: 8192})
	eng.RunUntil(sim.Time(20 * time.Microsecond)) // acknowledged; destage in flight
	submitNow(t, c, &sim.Request{Op: sim.Read, Offset: 0, Length: 4096})
	eng.RunUntil(sim.Time(40 * time.Microsecond))
	submitAll(t, eng, c, &sim.Request{Op: sim.Write, Offset: 8192, Length: 4096}) // waits for room
	assert.Equal(t, []string{
		"vc submitted write 8192@0", "vc cache-hit write 8192@0", "vc completed write 8192@0",
		"vc submitted read 4096@0", "vc cache-hit read 4096@0", "vc completed read 4096@0",
		"vc submitted write 4096@8192", "vc queue write 4096@8192", "vc cache-hit write 4096@8192", "vc completed write 4096@8192",
	}, log)
}

func TestSummaryJSON(t *testing.T) {
	eng := sim.NewEngine(1)
	c, _, _ := recStack(t, eng, cache.Config{Size: 64 << 10, MaxOutstandingDestages: 1},
		simtest.MemConfig{Capacity: 64 << 20, WriteLatency: time.Millisecond, Serial: true})
	submitAll(t, eng, c, seqWrites(64, 0, 4096, nil)...)
	b, err := json.Marshal(c.Stats().Summary())
	require.NoError(t, err)
	for _, k := range []string{"read_hit_ratio", "coalescing_factor", "full_stripe_destage_ratio", "dirty_peak_bytes", "stall_s", "stall_wait_sum_s", "filled_at_s", "coalesced_writes"} {
		assert.Contains(t, string(b), `"`+k+`":`)
	}
	b, err = json.Marshal(cache.Stats{FilledAt: sim.Never}.Summary())
	require.NoError(t, err)
	assert.NotContains(t, string(b), "filled_at_s")
}

// striped is a MemDevice that reports a stripe size, as a RAID array does.
type striped struct{ *simtest.MemDevice }

func (striped) FullStripe() int64 { return 192 << 10 }

func TestStripeFromDeviceBelow(t *testing.T) {
	eng := sim.NewEngine(1)
	dev, err := simtest.NewMemDevice(eng, simtest.MemConfig{Capacity: 64 << 20})
	require.NoError(t, err)
	c, err := cache.New(eng, cache.Config{Align: cache.AlignStripe}, striped{dev}, "c", nil)
	require.NoError(t, err)
	assert.Equal(t, int64(192<<10), c.Config().StripeBytes())
	_, err = cache.New(eng, cache.Config{Align: cache.AlignStripe}, dev, "c", nil)
	assert.ErrorContains(t, err, "Align stripe needs")
}
