package cache_test

import (
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/cache"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
)

var (
	propSeed  = flag.Uint64("cache.seed", 0, "run the cache property test with this seed only")
	propSeeds = flag.Int("cache.seeds", 0, "run the cache property test with this many seeds (default 40, 20 with -short, 200 under the build tag long)")
)

// propConfig draws a cache configuration from rng.
func propConfig(rng *rand.Rand) cache.Config {
	modes := []cache.Mode{cache.WriteBack, cache.WriteBack, cache.WriteBack, cache.WriteBack, cache.WriteBack, cache.WriteThrough, cache.Off, cache.WriteAround}
	cfg := cache.Config{
		Mode:                   modes[rng.IntN(len(modes))],
		Size:                   int64(16+rng.IntN(256)) << 10,
		Order:                  cache.Order(rng.IntN(3)),
		Policy:                 cache.Policy(rng.IntN(4)),
		MaxDestageBytes:        int64(4+rng.IntN(64)) << 10,
		MaxOutstandingDestages: 1 + rng.IntN(8),
		Interval:               time.Duration(1+rng.IntN(3)) * time.Millisecond,
		Idle:                   time.Duration(1+rng.IntN(500)) * time.Microsecond,
		NoReadCache:            rng.IntN(4) == 0,
		NonVolatile:            rng.IntN(4) == 0,
	}
	if rng.IntN(2) == 0 {
		cfg.HighWater, cfg.LowWater = 0.9, 0.8
	}
	if rng.IntN(2) == 0 {
		cfg.ReadAhead = int64(1+rng.IntN(16)) * 4096
	}
	if rng.IntN(2) == 0 {
		cfg.Align, cfg.StripeUnit, cfg.DataMembers = cache.AlignStripe, 8<<10, 1+rng.IntN(4)
	}
	if rng.IntN(3) == 0 {
		cfg.Block = 512
	}
	if rng.IntN(3) == 0 {
		cfg.MaxDirty = max(cfg.Size/int64(2+rng.IntN(6)), 4096)
	}
	if rng.IntN(2) == 0 {
		cfg.Replacement = cache.Replacement(rng.IntN(len(cache.Replacements())))
	}
	return cfg
}

// propRun drives one random run against a cache over a MemDevice with
// random service times and checks the data it sees.
type propRun struct {
	t        *testing.T
	seed     uint64
	rng      *rand.Rand
	eng      *sim.Engine
	c        *cache.Cache
	dev      *simtest.MemDevice
	cfg      cache.Config
	size     int64
	model    []byte // last acknowledged write of every byte
	out      map[*sim.Request]*op
	flushes  []*flushCheck
	failures []string
	reads    int
	checked  int
}

type op struct {
	r       *sim.Request
	checked bool // a read that no write overlapped during its life
	seq     int
}

type flushCheck struct {
	snap []byte
	skip []bool // sectors a write not acknowledged before the flush touched
}

const propSector = 512

func (p *propRun) fail(format string, args ...any) {
	if len(p.failures) < 5 {
		p.failures = append(p.failures, fmt.Sprintf(format, args...))
	}
}

func overlaps(a, b *sim.Request) bool { return a.Offset < b.End() && b.Offset < a.End() }

func (p *propRun) submit(r *sim.Request) {
	o := &op{r: r, seq: len(p.out)}
	switch r.Op {
	case sim.Read:
		o.checked = true
		for q := range p.out {
			if q.Op == sim.Write && overlaps(q, r) {
				o.checked = false
			}
		}
	case sim.Write:
		for q, qo := range p.out {
			if q.Op == sim.Read && overlaps(q, r) {
				qo.checked = false
			}
		}
		for _, f := range p.flushes {
			for s := r.Offset / propSector; s < r.End()/propSector; s++ {
				f.skip[s] = true
			}
		}
	case sim.Flush:
		f := &flushCheck{snap: bytes.Clone(p.model), skip: make([]bool, p.size/propSector)}
		for q := range p.out {
			if q.Op == sim.Write {
				for s := q.Offset / propSector; s < q.End()/propSector; s++ {
					f.skip[s] = true
				}
			}
		}
		p.flushes = append(p.flushes, f)
		r.Ctx = f
	}
	p.out[r] = o
	r.Done = p.done
	if watched(r) {
		b := -1
		if r.Op == sim.Write {
			b = int(r.Data[watch-r.Offset])
		}
		logf(p.eng, "host submit %v byte=%#x", r, b)
	}
	if err := p.c.Submit(r); err != nil {
		p.fail("%v: rejected: %v", r, err)
		delete(p.out, r)
	}
}

func (p *propRun) done(r *sim.Request) {
	o := p.out[r]
	delete(p.out, r)
	if watched(r) {
		b := -1
		if r.Op != sim.Flush {
			b = int(r.Data[watch-r.Offset])
		}
		logf(p.eng, "host done %v byte=%#x", r, b)
	}
	if r.Err != nil {
		p.fail("%v: failed: %v", r, r.Err)
		return
	}
	switch r.Op {
	case sim.Write:
		copy(p.model[r.Offset:], r.Data)
	case sim.Read:
		p.reads++
		if o.checked {
			p.checked++
			if i := firstDiff(r.Data, p.model[r.Offset:r.End()]); i >= 0 {
				p.fail("at %v: %v returned %#02x at byte %d, want %#02x (the last acknowledged write)",
					p.eng.Now(), r, r.Data[i], r.Offset+int64(i), p.model[r.Offset+int64(i)])
			}
		}
	case sim.Flush:
		f := r.Ctx.(*flushCheck)
		for i, g := range p.flushes {
			if g == f {
				p.flushes = append(p.flushes[:i], p.flushes[i+1:]...)
				break
			}
		}
		if p.cfg.NVIgnoresFlush {
			return
		}
		got := make([]byte, p.size)
		_, _ = p.dev.ReadAt(got, 0)
		for s := int64(0); s < p.size/propSector; s++ {
			a, b := s*propSector, (s+1)*propSector
			if !f.skip[s] && !bytes.Equal(got[a:b], f.snap[a:b]) {
				p.fail("at %v: flush completed but sector at %d on the device differs from what was acknowledged before the flush", p.eng.Now(), a)
				break
			}
		}
	}
}

func firstDiff(a, b []byte) int {
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}

func (p *propRun) randRequest() *sim.Request {
	rng := p.rng
	n := int64(1+rng.IntN(32)) * propSector
	if rng.IntN(8) == 0 {
		n = int64(1+rng.IntN(16)) * 4096
	}
	n = min(n, p.size)
	off := rng.Int64N((p.size-n)/propSector+1) * propSector
	if rng.IntN(3) == 0 { // sequential-ish runs
		off = off / (64 << 10) * (64 << 10)
	}
	r := &sim.Request{Offset: off, Length: n, Data: make([]byte, n)}
	switch x := rng.IntN(20); {
	case x < 1:
		r = &sim.Request{Op: sim.Flush}
	case x < 9:
		r.Op = sim.Read
	default:
		r.Op = sim.Write
		r.FUA = rng.IntN(10) == 0
		for i := 0; i < len(r.Data); i += 8 {
			binary.LittleEndian.PutUint64(r.Data[i:], rng.Uint64())
		}
	}
	return r
}

func runProperty(t *testing.T, seed uint64) {
	p := newPropRun(t, seed)
	total := 200 + p.rng.IntN(600)
	depth := 1 + p.rng.IntN(16)
	crashAt := -1
	if p.rng.IntN(2) == 0 {
		crashAt = p.rng.IntN(total)
	}
	p.drive(total, depth, crashAt)
	if crashAt < 0 || p.cfg.NonVolatile {
		p.finish()
	}
	require.Empty(t, p.failures, p.report())
	checkedReads += p.checked
	addTotals(p.c.Stats())
}

// newPropRun draws a configuration and device latencies from seed and
// makes the cache over a MemDevice.
func newPropRun(t *testing.T, seed uint64) *propRun {
	rng := rand.New(rand.NewPCG(seed, 99))
	eng := sim.NewEngine(seed)
	cfg := propConfig(rng)
	if cfg.NonVolatile && rng.IntN(2) == 0 {
		cfg.NVIgnoresFlush = true
	}
	size := int64(512 << 10)
	dev, err := simtest.NewMemDevice(eng, simtest.MemConfig{Capacity: size})
	require.NoError(t, err)
	var below sim.Device = dev
	if watch >= 0 {
		below = &logDev{Device: dev, eng: eng}
	}
	c, err := cache.New(eng, cfg, below, "cache", nil)
	require.NoError(t, err)
	lat := eng.Rand("latency")
	slow := time.Duration(1+rng.IntN(2000)) * time.Microsecond
	dev.SetLatency(func(r *sim.Request) time.Duration { return time.Duration(lat.Int64N(int64(slow))) })
	return &propRun{t: t, seed: seed, rng: rng, eng: eng, c: c, dev: dev, cfg: c.Config(), size: size,
		model: make([]byte, size), out: map[*sim.Request]*op{}}
}

// report says how to reproduce the run and what failed.
func (p *propRun) report() string {
	return fmt.Sprintf("seed %d (reproduce with go test ./cache -run TestProperty -cache.seed=%d; CACHE_WATCH=<offset> logs the traffic at one byte)\nconfig %+v\n%v",
		p.seed, p.seed, p.cfg, p.failures)
}

// drive submits total random requests, at most depth outstanding,
// checking the invariants after each, and crashes the cache after
// request crashAt (if not negative); a volatile cache stops there.
func (p *propRun) drive(total, depth, crashAt int) {
	for i := 0; i < total; i++ {
		for len(p.out) >= depth {
			if !p.eng.Step() {
				p.t.Fatalf("engine idle with %d requests outstanding: %s", len(p.out), p.report())
			}
		}
		p.submit(p.randRequest())
		if p.rng.IntN(3) > 0 {
			p.eng.RunUntil(p.eng.Now().Add(time.Duration(p.rng.IntN(300)) * time.Microsecond))
		}
		p.checkInvariants("after request %d at %v", i, p.eng.Now())
		if i == crashAt {
			p.crash()
			p.checkInvariants("after the crash at %v", p.eng.Now())
			if !p.cfg.NonVolatile {
				break
			}
		}
		if len(p.failures) > 0 {
			p.t.Fatal(p.report())
		}
	}
}

// checkInvariants records a failure, placed by the format and args, if
// the cache's invariants are broken.
func (p *propRun) checkInvariants(format string, args ...any) {
	if err := p.c.CheckInvariants(); err != nil {
		p.fail("%s: %v", fmt.Sprintf(format, args...), err)
	}
}

// finish runs what is outstanding, then checks that everything
// acknowledged reads back and that a final flush makes the device equal
// to the model.
func (p *propRun) finish() {
	p.eng.Run()
	require.Empty(p.t, p.out, "requests never completed: %s", p.report())
	p.submit(&sim.Request{Op: sim.Read, Offset: 0, Length: p.size, Data: make([]byte, p.size)})
	p.submit(&sim.Request{Op: sim.Flush})
	p.eng.Run()
	p.checkInvariants("at the end")
	if !p.cfg.NVIgnoresFlush {
		got := make([]byte, p.size)
		_, _ = p.dev.ReadAt(got, 0)
		if i := firstDiff(got, p.model); i >= 0 {
			p.fail("after the final flush the device differs at byte %d", i)
		}
		require.Zero(p.t, p.c.DirtyBytes(), p.report())
	}
}

// addTotals adds a run's counts to propTotals.
func addTotals(st cache.Stats) {
	propTotals.Stalls += st.Stalls
	propTotals.Destages += st.Destages
	propTotals.WriteArounds += st.WriteArounds
	propTotals.ReadHits += st.ReadHits
	propTotals.ReadPartialHits += st.ReadPartialHits
	propTotals.Reads += st.Reads
	propTotals.OverwrittenBytes += st.OverwrittenBytes
	propTotals.Crashes += st.Crashes
	propTotals.LostBytes += st.LostBytes
	propTotals.FullStripeDestages += st.FullStripeDestages
	propTotals.ReadAheadBytes += st.ReadAheadBytes
	propTotals.Evictions += st.Evictions
}

var propTotals cache.Stats

// checkedReads counts the reads TestProperty compared with its model.
var checkedReads int

// crash checks Crash: the device plus the lost extents is the
// acknowledged state.
func (p *propRun) crash() {
	dirty := p.c.DirtyBytes()
	lost := p.c.Crash()
	if p.cfg.NonVolatile {
		if lost != nil {
			p.fail("a non-volatile cache lost %v", lost)
		}
		return
	}
	var n int64
	in := make([]bool, p.size)
	for _, x := range lost {
		n += x.Length
		for i := x.Offset; i < x.End(); i++ {
			in[i] = true
		}
	}
	// DirtyBytes counts a range rewritten while its destage is in flight
	// twice; the lost extents are the union.
	if n > dirty || (dirty > 0 && n == 0) {
		p.fail("Crash reported %d bytes lost, DirtyBytes said %d", n, dirty)
	}
	got := make([]byte, p.size)
	_, _ = p.dev.ReadAt(got, 0)
	for i := range got {
		if !in[i] && got[i] != p.model[i] {
			p.fail("after Crash byte %d on the device is %#02x, acknowledged %#02x, and it is not in the lost extents %v", i, got[i], p.model[i], lost)
			return
		}
	}
	if p.c.DirtyBytes() != 0 {
		p.fail("DirtyBytes %d after Crash", p.c.DirtyBytes())
	}
	// The lost extents are exactly those holding data the device lacks
	// or may lack: every lost extent was acknowledged data, so a lost
	// byte that equals the device could still be lost; no check there.
}

// TestProperty runs the property test (random writes, reads, flushes
// and crashes against a model of the bytes) on seeds 1 to 40 (20 with
// -short); TestPropertyLong (build tag long) runs 200.
func TestProperty(t *testing.T) {
	if *propSeed != 0 {
		runProperty(t, *propSeed)
		return
	}
	n := 40
	if testing.Short() {
		n = 20
	}
	checkProperty(t, n)
}

// checkProperty runs the property test on seeds 1 to n (or as many as
// -cache.seeds says).
func checkProperty(t *testing.T, n int) {
	if *propSeeds > 0 {
		n = *propSeeds
	}
	for seed := uint64(1); seed <= uint64(n); seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { runProperty(t, seed) })
		if t.Failed() {
			return
		}
	}
	require.Positive(t, checkedReads, "no read was checked")
	x := propTotals
	t.Logf("checked %d of %d reads (%d hits, %d partial); %d destages (%d full-stripe), %d write-arounds, %d stalls, %d bytes overwritten, %d evictions, %d read-ahead bytes, %d crashes losing %d bytes",
		checkedReads, x.Reads, x.ReadHits, x.ReadPartialHits, x.Destages, x.FullStripeDestages, x.WriteArounds, x.Stalls, x.OverwrittenBytes, x.Evictions, x.ReadAheadBytes, x.Crashes, x.LostBytes)
}

// TestPickShortcutsChangeNothing runs the property test's random runs
// twice, with the destage choice's shortcuts and with every candidate
// considered, and requires the same counts and the same end time: the
// shortcuts only skip work whose outcome is known. Seeds 1 to 15 (10
// with -short); TestPickShortcutsChangeNothingLong (build tag long)
// runs 100.
func TestPickShortcutsChangeNothing(t *testing.T) {
	n := 15
	if testing.Short() {
		n = 10
	}
	checkPickShortcuts(t, n)
}

// checkPickShortcuts compares the runs with and without the shortcuts
// on seeds 1 to n.
func checkPickShortcuts(t *testing.T, n int) {
	for seed := uint64(1); seed <= uint64(n); seed++ {
		var got [2]cache.Stats
		var end [2]sim.Time
		for i, exhaustive := range []bool{false, true} {
			p := newPropRun(t, seed)
			cache.SetExhaustivePick(p.c, exhaustive)
			p.drive(200+p.rng.IntN(600), 1+p.rng.IntN(16), -1)
			p.eng.Run()
			require.Empty(t, p.failures, p.report())
			got[i], end[i] = p.c.Stats(), p.eng.Now()
		}
		require.Equal(t, got[1], got[0], "seed %d: stats with and without the shortcuts", seed)
		require.Equal(t, end[1], end[0], "seed %d: end time with and without the shortcuts", seed)
	}
}
