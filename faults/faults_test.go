package faults_test

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/faults"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
)

// wrap returns a faulty device over a MemDevice of capacity bytes that
// serves every request in lat.
func wrap(t testing.TB, seed uint64, capacity int64, lat time.Duration, cfg faults.Config) (*faults.Device, *simtest.MemDevice, *sim.Engine) {
	t.Helper()
	eng := sim.NewEngine(seed)
	mem, err := simtest.NewMemDevice(eng, simtest.MemConfig{Capacity: capacity, ReadLatency: lat, WriteLatency: lat, Serial: true})
	require.NoError(t, err)
	d, err := faults.New(eng, mem, cfg, "disk0")
	require.NoError(t, err)
	return d, mem, eng
}

// do submits one request and runs the engine until it completes.
func do(t testing.TB, eng *sim.Engine, d sim.Device, op sim.Op, off, n int64, data []byte) *sim.Request {
	t.Helper()
	r := &sim.Request{Op: op, Offset: off, Length: n, Data: data, Done: func(*sim.Request) {}}
	require.NoError(t, d.Submit(r))
	eng.Run()
	return r
}

func TestConformance(t *testing.T) {
	simtest.TestDevice(t, func(t *testing.T) (sim.Device, *sim.Engine) {
		d, _, eng := wrap(t, 1, 64<<20, 100*time.Microsecond, faults.Config{UREPerBit: 1e-9, SlowFraction: 0.1, SlowDelay: time.Millisecond})
		return d, eng
	}, simtest.WithData())
}

// TestUREBinomialBound: a per-bit rate of 1e-14 over full reads of a
// 1 TB drive (10^12 bytes, read in 10 GB requests) finds, over many
// seeds, the binomial count of new unreadable sectors: 8e12 bits x 1e-14
// = 0.08 a pass, within four standard deviations over 2000 passes.
func TestUREBinomialBound(t *testing.T) {
	const (
		tb     = int64(1e12)
		chunk  = int64(1e10)
		rate   = 1e-14
		passes = 2000
	)
	var found int64
	for seed := range uint64(passes) {
		d, _, eng := wrap(t, seed+1, tb, 0, faults.Config{UREPerBit: rate, ERC: faults.TLER})
		for off := int64(0); off < tb; off += chunk {
			r := &sim.Request{Op: sim.Read, Offset: off, Length: chunk, Done: func(*sim.Request) {}}
			require.NoError(t, d.Submit(r))
		}
		eng.Run()
		st := d.Stats()
		require.Equal(t, int64(100), st.Completed)
		require.Equal(t, st.UREs, int64(len(d.BadSectors())), "each URE is one unreadable sector")
		require.LessOrEqual(t, st.MediaErrors, st.UREs)
		found += st.UREs
	}
	n := float64(passes) * float64(tb) * 8
	mean, sd := n*rate, math.Sqrt(n*rate*(1-rate))
	t.Logf("%d unreadable sectors over %d full reads of 1 TB; binomial mean %.0f, sd %.1f", found, passes, mean, sd)
	assert.InDelta(t, mean, float64(found), 4*sd)
}

// TestUREDeterministicBySeed: the same seed finds the same sectors, a
// different one others.
func TestUREDeterministicBySeed(t *testing.T) {
	run := func(seed uint64) ([]int64, faults.Stats) {
		d, _, eng := wrap(t, seed, 1<<30, time.Millisecond, faults.Config{UREPerBit: 1e-8, SlowFraction: 0.2, SlowDelay: time.Second})
		for i := range int64(256) {
			do(t, eng, d, sim.Read, i*(4<<20), 4<<20, nil)
		}
		return d.BadSectors(), d.Stats()
	}
	b1, s1 := run(7)
	b2, s2 := run(7)
	b3, _ := run(8)
	require.NotEmpty(t, b1)
	assert.Equal(t, b1, b2)
	assert.Equal(t, s1, s2)
	assert.NotEqual(t, b1, b3)
}

// TestRecoveryDesktopVersusTLER: a read of an unreadable sector takes
// the drive's recovery: 2 minutes on a desktop drive, never more than
// the 7 s cap on a TLER drive; under Linux's 30 s command timer the
// desktop drive times out and the TLER drive reports the media error.
func TestRecoveryDesktopVersusTLER(t *testing.T) {
	const lat = 10 * time.Millisecond
	cases := []struct {
		name    string
		cfg     faults.Config
		want    time.Duration
		wantErr error
	}{
		{"desktop", faults.Config{BadSectors: []int64{100}}, lat + faults.DesktopRecovery, faults.ErrMedia},
		{"TLER", faults.Config{BadSectors: []int64{100}, ERC: faults.TLER}, lat + faults.TLER, faults.ErrMedia},
		{"desktop under Linux's timer", faults.Config{BadSectors: []int64{100}, Timeout: faults.LinuxTimeout}, faults.LinuxTimeout, faults.ErrTimeout},
		{"TLER under Linux's timer", faults.Config{BadSectors: []int64{100}, ERC: faults.TLER, Timeout: faults.LinuxTimeout}, lat + faults.TLER, faults.ErrMedia},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, _, eng := wrap(t, 1, 1<<30, lat, c.cfg)
			r := do(t, eng, d, sim.Read, 96*512, 8*512, nil)
			assert.ErrorIs(t, r.Err, c.wantErr)
			assert.Equal(t, c.want, r.Latency())
			var me *faults.MediaError
			if errors.As(r.Err, &me) {
				assert.Equal(t, int64(100), me.Sector)
			}
		})
	}
}

// TestTLERCapNeverExceeded: a TLER drive with many unreadable sectors,
// read at depth 8: no read's own recovery exceeds 7 s, and no request
// waits longer than its service, the recoveries before it and its own.
func TestTLERCapNeverExceeded(t *testing.T) {
	const lat = 5 * time.Millisecond
	d, _, eng := wrap(t, 3, 1<<30, lat, faults.Config{UREPerBit: 2e-7, ERC: faults.TLER})
	var worst time.Duration
	n, failed := 0, 0
	var done func(*sim.Request)
	next := int64(0)
	issue := func() {
		r := &sim.Request{Op: sim.Read, Offset: (next * 7919 % 8192) * (64 << 10), Length: 64 << 10, Done: done}
		next++
		require.NoError(t, d.Submit(r))
	}
	done = func(r *sim.Request) {
		n++
		var me *faults.MediaError
		if errors.As(r.Err, &me) {
			failed++
			assert.LessOrEqual(t, me.Recovery, faults.TLER)
		}
		worst = max(worst, r.Latency())
		if next < 2000 {
			issue()
		}
	}
	for range 8 {
		issue()
	}
	eng.Run()
	st := d.Stats()
	require.Equal(t, 2000, n)
	require.Positive(t, failed)
	assert.Equal(t, time.Duration(st.MediaErrors)*faults.TLER, st.Recovery, "each media error spends exactly the cap")
	// Serial service: a request waits at most for the 8 ahead of it and
	// their recoveries, then its own.
	assert.LessOrEqual(t, worst, 8*(lat+faults.TLER)+lat+faults.TLER)
	t.Logf("%d of 2000 reads failed; worst latency %v", failed, worst)
}

// TestWriteRepairsSector: a write makes an unreadable sector readable
// again, and the read returns what was written.
func TestWriteRepairsSector(t *testing.T) {
	d, _, eng := wrap(t, 1, 1<<20, time.Millisecond, faults.Config{BadSectors: []int64{3}, ERC: faults.TLER})
	buf := make([]byte, 4096)
	require.ErrorIs(t, do(t, eng, d, sim.Read, 0, 4096, buf).Err, faults.ErrMedia)
	want := make([]byte, 512)
	for i := range want {
		want[i] = byte(i)
	}
	require.NoError(t, do(t, eng, d, sim.Write, 3*512, 512, want).Err)
	assert.Equal(t, int64(1), d.Stats().Rewritten)
	assert.Empty(t, d.BadSectors())
	got := make([]byte, 512)
	require.NoError(t, do(t, eng, d, sim.Read, 3*512, 512, got).Err)
	assert.Equal(t, want, got)
}

// TestFailAtAndAfterIOs: a device fails at its time or after its
// count of completed requests; later requests get ErrFailed.
func TestFailAtAndAfterIOs(t *testing.T) {
	t.Run("at T", func(t *testing.T) {
		d, _, eng := wrap(t, 1, 1<<20, time.Millisecond, faults.Config{FailAt: time.Second})
		assert.NoError(t, do(t, eng, d, sim.Read, 0, 512, nil).Err)
		eng.RunUntil(sim.Time(2 * time.Second))
		r := do(t, eng, d, sim.Read, 0, 512, nil)
		assert.ErrorIs(t, r.Err, faults.ErrFailed)
		assert.Equal(t, sim.Time(time.Second), d.Stats().FailedAt)
	})
	t.Run("after N I/Os", func(t *testing.T) {
		d, _, eng := wrap(t, 1, 1<<20, time.Millisecond, faults.Config{FailAfterIOs: 3})
		var errs []error
		for range 5 {
			errs = append(errs, do(t, eng, d, sim.Write, 0, 512, nil).Err)
		}
		assert.NoError(t, errors.Join(errs[:3]...))
		assert.ErrorIs(t, errs[3], faults.ErrFailed)
		assert.ErrorIs(t, errs[4], faults.ErrFailed)
		assert.Equal(t, int64(2), d.Stats().FailedRequests)
	})
	t.Run("in flight when it fails", func(t *testing.T) {
		d, _, eng := wrap(t, 1, 1<<20, 2*time.Second, faults.Config{FailAt: time.Second})
		assert.ErrorIs(t, do(t, eng, d, sim.Read, 0, 512, nil).Err, faults.ErrFailed)
	})
}

// TestFailEndsEveryRequestAtOnce: a drive that dies completes its queued
// and in-flight commands with errors at that instant (here 8 reads
// queued on a serial device that takes 10 ms each, failed at 1 ms: they
// used to complete one by one up to 80 ms later), also those held
// behind an error recovery and those waiting in the write cache, and
// what the device below returns later never reaches their buffers.
func TestFailEndsEveryRequestAtOnce(t *testing.T) {
	for _, wc := range []bool{false, true} {
		d, mem, eng := wrap(t, 1, 1<<20, 10*time.Millisecond, faults.Config{FailAt: time.Millisecond, WriteCache: wc, BadSectors: []int64{1000}, ERC: faults.TLER})
		_, err := mem.WriteAt([]byte{7, 7, 7}, 0)
		require.NoError(t, err)
		var done []*sim.Request
		submit := func(op sim.Op, off int64) {
			r := &sim.Request{Op: op, Offset: off, Length: 512, Done: func(r *sim.Request) { done = append(done, r) }}
			if op != sim.Flush {
				r.Data = make([]byte, 512)
			} else {
				r.Offset, r.Length = 0, 0
			}
			require.NoError(t, d.Submit(r))
		}
		for i := range 8 {
			submit(sim.Read, int64(i)*4096)
		}
		submit(sim.Write, 8192)
		submit(sim.Flush, 0)
		eng.Run()
		require.Len(t, done, 10)
		for _, r := range done {
			if wc && r.Op == sim.Write {
				assert.NoError(t, r.Err, "a write the cache took was acknowledged before the failure")
				continue
			}
			assert.ErrorIs(t, r.Err, faults.ErrFailed, "%v", r)
			assert.Equal(t, sim.Time(time.Millisecond), r.Completed, "%v completes when the drive fails", r)
			if r.Op == sim.Read {
				assert.Equal(t, make([]byte, 512), r.Data, "%v: the device below filled a completed request's buffer", r)
			}
		}
	}
}

// TestTimedOutReadKeepsItsBuffer: once the host's timer has completed a
// read, the drive's late answer does not land in the buffer.
func TestTimedOutReadKeepsItsBuffer(t *testing.T) {
	d, mem, eng := wrap(t, 1, 1<<20, 50*time.Millisecond, faults.Config{Timeout: 10 * time.Millisecond})
	_, err := mem.WriteAt([]byte{7, 7, 7}, 0)
	require.NoError(t, err)
	r := do(t, eng, d, sim.Read, 0, 512, make([]byte, 512))
	require.ErrorIs(t, r.Err, faults.ErrTimeout)
	assert.Equal(t, make([]byte, 512), r.Data)
}

// TestCachedWriteHeldBehindRecoveryLands: a write that arrives at a
// drive with a write cache while it is busy recovering an unreadable
// sector (or a slow one) reaches the medium once the drive is free; it
// used to be acknowledged from the cache and then dropped at the
// release as if the host had given up on it, the data lost with no
// power lost (found by the fault campaign, internal/campaign seed 19).
func TestCachedWriteHeldBehindRecoveryLands(t *testing.T) {
	for _, slow := range []bool{false, true} {
		cfg := faults.Config{WriteCache: true, BadSectors: []int64{100}, ERC: faults.TLER}
		if slow {
			cfg = faults.Config{WriteCache: true, SlowFraction: 1, SlowDelay: time.Second}
		}
		d, mem, eng := wrap(t, 1, 1<<20, time.Millisecond, cfg)
		r := &sim.Request{Op: sim.Read, Offset: 100 * 512, Length: 512, Done: func(*sim.Request) {}}
		require.NoError(t, d.Submit(r))
		eng.RunUntil(sim.Time(2 * time.Millisecond)) // the drive is recovering now
		w := do(t, eng, d, sim.Write, 0, 512, []byte{9: 9, 511: 0})
		require.NoError(t, w.Err)
		got := make([]byte, 512)
		_, err := mem.ReadAt(got, 0)
		require.NoError(t, err)
		assert.Equal(t, byte(9), got[9], "slow %v: the acknowledged write is on the medium", slow)
		assert.Empty(t, d.Unpersisted())
	}
}

// TestRecoveringDriveAcksNoWrite: a drive in deep recovery answers no
// command, so even with its write cache on a write waits for the
// recovery, and the host's timer fails it (which is how md comes to
// fail such a drive); it used to be acknowledged at once from the cache
// (found by the fault campaign's soak, seed 1016703).
func TestRecoveringDriveAcksNoWrite(t *testing.T) {
	d, _, eng := wrap(t, 1, 1<<20, time.Millisecond, faults.Config{WriteCache: true, BadSectors: []int64{100}, Timeout: faults.LinuxTimeout})
	r := &sim.Request{Op: sim.Read, Offset: 100 * 512, Length: 512, Done: func(*sim.Request) {}}
	require.NoError(t, d.Submit(r))
	eng.RunUntil(sim.Time(2 * time.Millisecond)) // recovering now, for 2 minutes
	start := eng.Now()
	w := do(t, eng, d, sim.Write, 0, 512, make([]byte, 512))
	assert.ErrorIs(t, w.Err, faults.ErrTimeout)
	assert.Equal(t, start.Add(faults.LinuxTimeout), w.Completed)
}

// TestRulesCompose: predicates combine; the first matching rule decides.
func TestRulesCompose(t *testing.T) {
	errInjected := errors.New("injected")
	cfg := faults.Config{Rules: []faults.Rule{
		{When: faults.And(faults.OnOp(sim.Write), faults.InRange(1<<20, 2<<20)), Err: errInjected},
		{When: faults.And(faults.OnOp(sim.Read), faults.Not(faults.AfterIOs(2))), Delay: time.Second},
		{When: faults.Or(faults.After(time.Hour), faults.Randomly(0)), Err: errInjected},
	}}
	d, _, eng := wrap(t, 1, 4<<20, time.Millisecond, cfg)
	assert.Equal(t, time.Second+time.Millisecond, do(t, eng, d, sim.Read, 0, 512, nil).Latency(), "first read delayed")
	assert.ErrorIs(t, do(t, eng, d, sim.Write, 1<<20, 512, nil).Err, errInjected)
	assert.Equal(t, time.Millisecond, do(t, eng, d, sim.Read, 0, 512, nil).Latency(), "third request: rule 2 no longer matches")
	assert.NoError(t, do(t, eng, d, sim.Write, 0, 512, nil).Err)
	eng.RunUntil(sim.Time(2 * time.Hour))
	assert.ErrorIs(t, do(t, eng, d, sim.Read, 0, 512, nil).Err, errInjected)
	st := d.Stats()
	assert.Equal(t, int64(2), st.RuleErrors)
	assert.Equal(t, int64(1), st.Slowed)
}

// TestConfigErrors: Validate names every bad field at once.
func TestConfigErrors(t *testing.T) {
	cfg := faults.Config{UREPerBit: 2, SlowFraction: math.NaN(), ERC: -time.Second, FailAfterIOs: -1,
		BadSectors: []int64{1 << 40}, Rules: []faults.Rule{{}}}
	err := cfg.Validate(2048)
	require.Error(t, err)
	for _, want := range []string{
		"faults: Config.UREPerBit: 2 is not a probability (0..1)",
		"faults: Config.SlowFraction: NaN is not a probability (0..1)",
		"faults: Config.ERC: -1s is outside",
		"faults: Config.FailAfterIOs: -1 is negative",
		"faults: Config.BadSectors[0]: 1099511627776 is not a sector of the device (0..2047)",
		"faults: Config.Rules[0].When: missing predicate",
	} {
		assert.Contains(t, err.Error(), want)
	}
}

func TestConformanceWriteCache(t *testing.T) {
	simtest.TestDevice(t, func(t *testing.T) (sim.Device, *sim.Engine) {
		d, _, eng := wrap(t, 1, 64<<20, 100*time.Microsecond, faults.Config{WriteCache: true})
		return d, eng
	}, simtest.WithData())
}

// TestWriteCacheUnpersisted: a cached write is acknowledged at once and
// listed as unpersisted until it reaches the device below (whose bytes
// change only then); a flush waits for it; a FUA write is not cached.
func TestWriteCacheUnpersisted(t *testing.T) {
	d, mem, eng := wrap(t, 1, 1<<20, 10*time.Millisecond, faults.Config{WriteCache: true})
	data := []byte("0123456789abcdef0123456789abcdef")
	buf := make([]byte, 512)
	copy(buf, data)
	var acked, flushed sim.Time
	w := &sim.Request{Op: sim.Write, Offset: 4096, Length: 512, Data: buf, Done: func(r *sim.Request) { acked = r.Completed }}
	require.NoError(t, d.Submit(w))
	f := &sim.Request{Op: sim.Flush, Done: func(r *sim.Request) { flushed = r.Completed }}
	require.NoError(t, d.Submit(f))
	clear(buf) // the host reuses its buffer once acknowledged
	eng.RunUntil(sim.Time(time.Millisecond))
	assert.Equal(t, sim.Time(0), acked, "acknowledged at once")
	assert.Equal(t, []faults.Extent{{Offset: 4096, Length: 512}}, d.Unpersisted())
	got := make([]byte, 32)
	_, err := mem.ReadAt(got, 4096)
	require.NoError(t, err)
	assert.Equal(t, make([]byte, 32), got, "not on the device below yet")
	eng.Run()
	assert.Empty(t, d.Unpersisted())
	_, err = mem.ReadAt(got, 4096)
	require.NoError(t, err)
	assert.Equal(t, data, got, "the cached copy reached the device, not the reused buffer")
	assert.Equal(t, sim.Time(10*time.Millisecond), flushed, "the flush waited for the cached write")
	r := &sim.Request{Op: sim.Write, Offset: 0, Length: 512, FUA: true, Done: func(*sim.Request) {}}
	require.NoError(t, d.Submit(r))
	eng.Run()
	assert.Equal(t, 10*time.Millisecond, r.Latency(), "FUA goes through")
}

// TestSteadyStateAllocs: once warm, the wrapper allocates nothing per
// request: 10 000 requests allocate as much as 1 000.
func TestSteadyStateAllocs(t *testing.T) {
	allocs := func(n int) float64 {
		return testing.AllocsPerRun(3, func() {
			d, _, eng := wrap(t, 1, 1<<30, 100*time.Microsecond, faults.Config{UREPerBit: 1e-15, ERC: faults.TLER, Timeout: faults.LinuxTimeout, SlowFraction: 0.01, SlowDelay: time.Millisecond})
			left := n
			done := func(r *sim.Request) {
				if left--; left > 0 {
					r.Offset = (r.Offset + 7*4096) % (1 << 30)
					if err := d.Submit(r); err != nil {
						t.Fatal(err)
					}
				}
			}
			if err := d.Submit(&sim.Request{Op: sim.Read, Length: 4096, Done: done}); err != nil {
				t.Fatal(err)
			}
			eng.Run()
		})
	}
	small, large := allocs(1000), allocs(10000)
	assert.Equal(t, small, large, "allocations per run of 1 000 and of 10 000 requests")
}
