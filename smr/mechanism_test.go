package smr

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/sim"
)

// small is a small SMR drive, quick to fill: 2 GiB in 4 MiB bands, a
// 64 MiB media cache holding 256 extents.
func small() Params {
	return Params{Name: "small", Recording: SMR, Capacity: 2 << 30,
		Platter: disk.Spec{RPM: 7200, Heads: 2, Zones: 4, OuterSustained: 100 * mb, InnerSustained: 60 * mb,
			TrackToTrack: 1 * ms, AverageSeek: 8 * ms, FullStroke: 16 * ms, ReadOverhead: 200 * us, WriteOverhead: 200 * us,
			BufferSize: 16 * mib, WriteCache: true},
		BandBytes: 4 * mib, GuardBytes: 1 * mib, MediaCacheBytes: 64 * mib, MediaCacheExtents: 256,
		CleanIdleDelay: 100 * ms, AppendAtWritePointer: true}
}

func newSmall(t *testing.T, p Params) (*Drive, *sim.Engine) {
	t.Helper()
	m, err := NewModel(p)
	if err != nil {
		t.Fatal(err)
	}
	eng := sim.NewEngine(1)
	d, err := m.NewDrive(eng, "smr0", nil)
	if err != nil {
		t.Fatal(err)
	}
	return d, eng
}

// do submits one request and runs the engine until it completes,
// returning its latency.
func do(t *testing.T, eng *sim.Engine, dev sim.Device, op sim.Op, off, n int64) time.Duration {
	t.Helper()
	done := false
	r := &sim.Request{Op: op, Offset: off, Length: n, Done: func(*sim.Request) { done = true }}
	if err := dev.Submit(r); err != nil {
		t.Fatal(err)
	}
	for !done && eng.Step() {
	}
	if !done {
		t.Fatalf("%v never completed", r)
	}
	return r.Latency()
}

// A random write on a new drive costs one write of its length at the
// media cache's head (platter offset 0, the outer diameter): exactly
// what the platter alone takes for that write, nothing more.
func TestCacheAbsorbedWriteCostsACacheWrite(t *testing.T) {
	p := small()
	d, eng := newSmall(t, p)
	lba := int64(1234) * 4096 // not at its band's write pointer
	got := do(t, eng, d, sim.Write, lba, 4096)
	st, ps := d.Stats(), d.Platter().Stats()
	if st.CacheWrites != 1 || st.DirectWrites != 0 || ps.Writes != 1 || ps.WriteBytes != 4096 {
		t.Fatalf("cache writes %d, direct %d, platter writes %d of %d bytes; want 1, 0, 1 of 4096",
			st.CacheWrites, st.DirectWrites, ps.Writes, ps.WriteBytes)
	}
	if e := d.log.overlapping(lba, 4096); len(e) != 1 || e[0].phys != 0 {
		t.Fatalf("map %+v, want one extent at platter offset 0", e)
	}
	// Hand computation: the same write on the bare platter at offset 0.
	m, _ := NewModel(p)
	eng2 := sim.NewEngine(1)
	plat, err := m.Platter().NewDrive(eng2, "smr0/platter", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := do(t, eng2, plat, sim.Write, 0, 4096)
	if got != want {
		t.Fatalf("cached write took %v, the platter's write at the cache head %v", got, want)
	}
}

// A write of a whole aligned band goes straight to the band, even over a
// band holding data, and never touches the media cache.
func TestFullBandWriteSkipsTheCache(t *testing.T) {
	for _, appendWP := range []bool{false, true} {
		p := small()
		p.AppendAtWritePointer = appendWP
		d, eng := newSmall(t, p)
		d.FillBands()
		do(t, eng, d, sim.Write, 5*p.BandBytes+4096, 4096) // one cached extent in band 5
		do(t, eng, d, sim.Write, 5*p.BandBytes, p.BandBytes)
		st := d.Stats()
		if st.DirectWrites != 1 || st.DirectWriteBytes != p.BandBytes || st.CacheWrites != 1 || st.Extents != 0 {
			t.Fatalf("append=%v: direct %d (%d bytes), cache writes %d, extents %d; want 1 (%d), 1, 0",
				appendWP, st.DirectWrites, st.DirectWriteBytes, st.CacheWrites, st.Extents, p.BandBytes)
		}
		if st.CacheUsedBytes != 0 {
			t.Fatalf("append=%v: the band's cached extent is still in the log (%d bytes)", appendWP, st.CacheUsedBytes)
		}
	}
}

// On a new drive, a sequential stream goes straight to the bands (each
// write starts at its band's write pointer); the same stream out of order
// goes to the media cache.
func TestWritePointerAppends(t *testing.T) {
	p := small()
	d, eng := newSmall(t, p)
	for i := range int64(16) {
		do(t, eng, d, sim.Write, i*64<<10, 64<<10)
	}
	if st := d.Stats(); st.DirectWrites != 16 || st.CacheWrites != 0 {
		t.Fatalf("sequential: direct %d, cache %d; want 16, 0", st.DirectWrites, st.CacheWrites)
	}
	d, eng = newSmall(t, p)
	for _, i := range []int64{1, 0, 3, 2} {
		do(t, eng, d, sim.Write, i*64<<10, 64<<10)
	}
	// 1 goes ahead of the pointer (cache), 0 is at it (direct: the
	// pointer moves to 64 KiB), 3 is ahead (cache), and so is 2: the
	// pointer is still at 64 KiB, 1's data being in the cache.
	if st := d.Stats(); st.DirectWrites != 1 || st.CacheWrites != 3 {
		t.Fatalf("out of order: direct %d, cache %d; want 1, 3", st.DirectWrites, st.CacheWrites)
	}
}

// Cleaning a band whose data is all valid costs reading the band and its
// cached fragment and rewriting the band: the same platter requests timed
// alone, and at least the media time of twice the band.
func TestBandCleanCostsReadPlusWrite(t *testing.T) {
	p := small()
	d, eng := newSmall(t, p)
	d.FillBands()
	b := int64(100)
	lat := do(t, eng, d, sim.Write, b*p.BandBytes+8192, 4096)
	eng.Run() // idle: the drive cleans band b
	st := d.Stats()
	if st.BandCleans != 1 || st.IdleCleans != 1 {
		t.Fatalf("cleans %d (idle %d), want 1 idle", st.BandCleans, st.IdleCleans)
	}
	if st.CleanReadBytes != p.BandBytes+4096 || st.CleanWriteBytes != p.BandBytes {
		t.Fatalf("clean read %d, wrote %d bytes; want %d and %d", st.CleanReadBytes, st.CleanWriteBytes, p.BandBytes+4096, p.BandBytes)
	}
	if st.Extents != 0 || st.CacheUsedBytes != 0 {
		t.Fatalf("after the clean: %d extents, %d bytes in the log; want none", st.Extents, st.CacheUsedBytes)
	}
	// The same requests on the bare platter, issued as cleaning issues
	// them: both reads at once, then the write.
	m, _ := NewModel(p)
	eng2 := sim.NewEngine(1)
	plat, _ := m.Platter().NewDrive(eng2, "smr0/platter", nil)
	do(t, eng2, plat, sim.Write, 0, 4096)                  // the cached write, at the same instants
	eng2.RunUntil(sim.Time(0).Add(lat + p.CleanIdleDelay)) // when the idle timer fires
	start := eng2.Now()
	pending := 2
	next := func(*sim.Request) { pending-- }
	for _, r := range []*sim.Request{
		{Op: sim.Read, Offset: p.bandStart(b), Length: p.BandBytes, Done: next},
		{Op: sim.Read, Offset: 0, Length: 4096, Done: next},
	} {
		if err := plat.Submit(r); err != nil {
			t.Fatal(err)
		}
	}
	for pending > 0 && eng2.Step() {
	}
	w := &sim.Request{Op: sim.Write, Offset: p.bandStart(b), Length: p.BandBytes, FUA: true, Done: func(*sim.Request) {}}
	if err := plat.Submit(w); err != nil {
		t.Fatal(err)
	}
	for w.Completed == 0 && eng2.Step() {
	}
	want := eng2.Now().Sub(start)
	if st.CleanTime != want {
		t.Fatalf("clean took %v, its platter requests alone %v", st.CleanTime, want)
	}
	if media := time.Duration(float64(2*p.BandBytes) / p.Platter.OuterSustained * 1e9); st.CleanTime < media {
		t.Fatalf("clean took %v, less than reading and writing %d bytes at the outer rate (%v)", st.CleanTime, p.BandBytes, media)
	}
}

// TRIM of a cached range drops its mapping and, once the log's tail
// passes its entry, its space.
func TestTrimFreesCacheSpace(t *testing.T) {
	p := small()
	d, eng := newSmall(t, p)
	d.FillBands()
	a, b := 10*p.BandBytes+4096, 20*p.BandBytes+4096
	do(t, eng, d, sim.Write, a, 8192)
	do(t, eng, d, sim.Write, b, 4096)
	if st := d.Stats(); st.CacheUsedBytes != 12288 || st.Extents != 2 {
		t.Fatalf("before: %d bytes, %d extents; want 12288, 2", st.CacheUsedBytes, st.Extents)
	}
	do(t, eng, d, sim.Trim, b, 4096) // the head entry: mapping gone, space held behind a
	if st := d.Stats(); st.CacheUsedBytes != 12288 || st.Extents != 1 || st.TrimmedCacheBytes != 4096 {
		t.Fatalf("after trimming b: %d bytes, %d extents, %d trimmed; want 12288, 1, 4096", st.CacheUsedBytes, st.Extents, st.TrimmedCacheBytes)
	}
	do(t, eng, d, sim.Trim, a, 8192) // the tail entry: the log empties
	if st := d.Stats(); st.CacheUsedBytes != 0 || st.Extents != 0 {
		t.Fatalf("after trimming a: %d bytes, %d extents; want 0, 0", st.CacheUsedBytes, st.Extents)
	}
	eng.Run()
	if st := d.Stats(); st.BandCleans != 0 {
		t.Fatalf("%d bands cleaned after everything cached was trimmed, want 0", st.BandCleans)
	}
}

// randomWrites writes n random 4 KiB blocks at queue depth 1 and
// returns the writes per second.
func randomWrites(t *testing.T, eng *sim.Engine, d *Drive, rng *rand.Rand, n int) float64 {
	t.Helper()
	start := eng.Now()
	for range n {
		do(t, eng, d, sim.Write, rng.Int64N(d.p.Capacity/4096)*4096, 4096)
	}
	return float64(n) / eng.Now().Sub(start).Seconds()
}

// Sustained random writes run at the cache's speed until its map is
// full, then at one band clean per write; after an idle period long
// enough to clean every band the cache restores the first speed.
func TestRandomWritesDropWhenFullAndRecoverWhenIdle(t *testing.T) {
	p := small()
	d, eng := newSmall(t, p)
	d.FillBands()
	rng := rand.New(rand.NewPCG(7, 7))
	fresh := randomWrites(t, eng, d, rng, 200)
	full := 0
	for d.log.fits(4096, 2) {
		randomWrites(t, eng, d, rng, 1)
		full++
	}
	t0 := eng.Now()
	after := randomWrites(t, eng, d, rng, 100)
	// Each write into the full cache waits for the band of the log's
	// tail to be cleaned (a clean frees every extent of its band: with
	// 256 extents over 512 bands some hold two, so at least half the
	// writes need a clean of their own).
	cleans := d.Stats().ForegroundCleans
	if cleans < 50 {
		t.Fatalf("%d foreground cleans for 100 writes into a full cache, want 50 or more", cleans)
	}
	// Hand computation: a clean reads and rewrites a 4 MiB band, at
	// least 2 x 4 MiB at the outer 100 MB/s.
	minClean := time.Duration(2 * float64(p.BandBytes) / p.Platter.OuterSustained * 1e9)
	if took := eng.Now().Sub(t0); took < time.Duration(cleans)*minClean {
		t.Fatalf("100 writes with %d cleans took %v, less than %d band reads and rewrites (%v)", cleans, took, cleans, time.Duration(cleans)*minClean)
	}
	if fresh < 20*after {
		t.Fatalf("random writes: %.0f/s into the empty cache, %.1f/s into the full one; want a drop of 20x or more", fresh, after)
	}
	// Idle: 256 extents, one band each, about 0.1 s a band.
	eng.RunUntil(eng.Now().Add(60 * time.Second))
	if st := d.Stats(); st.Extents != 0 || st.IdleCleans == 0 {
		t.Fatalf("after 60 s idle: %d extents left, %d idle cleans", st.Extents, st.IdleCleans)
	}
	again := randomWrites(t, eng, d, rng, 200)
	if again < fresh/2 {
		t.Fatalf("after idle cleaning: %.0f writes/s, want near the fresh %.0f", again, fresh)
	}
	t.Logf("random 4 KiB writes/s: empty cache %.0f, full %.1f, after idle cleaning %.0f (%d writes filled the map)", fresh, after, again, full)
}

// A read of data scattered over the media cache and the band costs a
// platter read per fragment.
func TestFragmentedReadSeeksPerFragment(t *testing.T) {
	p := small()
	d, eng := newSmall(t, p)
	d.FillBands()
	base := 30 * p.BandBytes
	for _, k := range []int64{1, 3, 5} {
		do(t, eng, d, sim.Write, base+k*4096, 4096)
	}
	before := d.Platter().Stats().Reads
	do(t, eng, d, sim.Read, base, 7*4096)
	// band [0,1) cache 1, band 2, cache 3, band 4, cache 5, band 6: the
	// three cached blocks were appended one after another, but band
	// pieces sit between them, so nothing merges: 7 platter reads.
	if got := d.Platter().Stats().Reads - before; got != 7 {
		t.Fatalf("%d platter reads for a read over 3 cached fragments, want 7", got)
	}
	if st := d.Stats(); st.CacheReadPieces != 3 {
		t.Fatalf("%d cache read pieces, want 3", st.CacheReadPieces)
	}
}
