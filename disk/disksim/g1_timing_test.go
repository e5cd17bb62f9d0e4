package disksim

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/sim"
)

// tinyRig is a tiny drive from testdata/g1 (spindle at angle 0 at t = 0,
// so rotation can be worked by hand: 6000 rpm, 10 ms a revolution, 1 ms
// a sector on zone 0's 10-sector tracks) and its engine.
type tinyRig struct {
	t   *testing.T
	eng *sim.Engine
	d   *disk.Drive
}

func newTinyRig(t *testing.T, model, specs string, edit func(*disk.Params)) *tinyRig {
	t.Helper()
	p, _, _ := loadG1(t, model, specs)
	p.SpindleSync = true
	if edit != nil {
		edit(&p)
	}
	eng := sim.NewEngine(1)
	d, err := disk.New(eng, p, "tiny", nil)
	if err != nil {
		t.Fatal(err)
	}
	return &tinyRig{t, eng, d}
}

// do submits one request now and runs until it completes; it returns
// the latency in ms.
func (r *tinyRig) do(op sim.Op, lba, n int64) float64 {
	r.t.Helper()
	var lat time.Duration
	done := false
	q := &sim.Request{Op: op, Offset: lba * 512, Length: n * 512, Done: func(q *sim.Request) { lat, done = q.Latency(), true }}
	if err := r.d.Submit(q); err != nil {
		r.t.Fatal(err)
	}
	for !done && r.eng.Step() {
	}
	if !done {
		r.t.Fatalf("%v %d+%d never completed", op, lba, n)
	}
	return float64(lat) / 1e6
}

// near checks a latency against a hand computation (ms).
func near(t *testing.T, what string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 1e-5 {
		t.Errorf("%s: %.6f ms, want %.6f ms", what, got, want)
	}
}

// TestG1BusTiming works the tiny drive's bus timing by hand (figures from
// testdata/g1/tiny.diskspecs, every overhead doubled by the time scale,
// the per-request 0.01 ms added to the command overheads; the bus takes
// 0.02 ms a block for reads, 0.04 ms for writes).
func TestG1BusTiming(t *testing.T) {
	r := newTinyRig(t, "sparing0", "tiny.diskspecs", nil)
	// Read miss, LBA 0 (slot 3: three reserved) x 4: overhead (0.07 +
	// 0.01) x 2 = 0.16; sector 3 comes round at 3 ms, the 4 sectors by 7.
	// The high water mark is 0.1 of the 40-block segment: all 4 blocks.
	// The drive let go of the bus (0.036) and reselects (0.032), prepares
	// the data (0.03), sends 4 x 0.02, then completes (0.026).
	near(t, "read miss", r.do(sim.Read, 0, 4), 7+0.032+0.03+0.08+0.026)
	// The same read hits, but waits for the minimum read-ahead (4 blocks:
	// LBAs 4-6 end track 0 at 10 ms; LBA 7 is the first sector of track 1,
	// 2 sectors of skew, after the head switch: 12 to 13 ms); then data
	// preparation, 4 blocks, completion.
	near(t, "read hit after the minimum read-ahead", r.do(sim.Read, 0, 4), 13+0.03+0.08+0.026-7.168)
	// A write goes to the write cache: (0.09 + 0.01) x 2, preparation, 4
	// blocks at 0.04 ms, completion 0.028.
	near(t, "cached write", r.do(sim.Write, 50, 4), 0.2+0.03+0.16+0.028)
	// Fast write level 2: the drive destages at once, idle; a read hit
	// waits for the dirty data to reach the media before it is served.
	if lat := r.do(sim.Read, 0, 4); lat < 1 || r.d.Stats().Destages != 1 {
		t.Errorf("a read hit behind a destage took %.3f ms (%d destages): want it to wait for the flush", lat, r.d.Stats().Destages)
	}
	// Without the flush (not a DiskSim level) the hit goes first.
	r = newTinyRig(t, "sparing0", "tiny.diskspecs", func(p *disk.Params) { p.FlushBeforeOther = false })
	r.do(sim.Read, 0, 4)
	r.do(sim.Read, 0, 4)
	r.do(sim.Write, 50, 4)
	near(t, "read hit beside a destage", r.do(sim.Read, 0, 4), (0.06+0.01)*2+0.03+0.08+0.026)
}

// TestG1Stall: a read whose transfer outruns the media lets go of the bus
// and reconnects (other reselect, 0.034) once the last sector is in.
func TestG1Stall(t *testing.T) {
	r := newTinyRig(t, "sparing0", "tiny.diskspecs", nil)
	// LBAs 0-6 are slots 3-9 (3 to 10 ms); the watermark, 0.1 x 40 of 7
	// blocks, is reached at 3 + 4/7 x 7 = 7 ms; the bus would be done by
	// 7.202: the drive disconnects and comes back at 10 + 0.034.
	near(t, "stalled read", r.do(sim.Read, 0, 7), 10+0.034+0.026)
	// With the bus held for the whole read (tiny-fw1), no reselection.
	r = newTinyRig(t, "sparing0", "tiny-fw1.diskspecs", nil)
	near(t, "held bus", r.do(sim.Read, 0, 7), 10+0.026)
}

// TestG1FastWriteLevel1: level 1 caches only the next piece of a write
// stream; the extra write disconnect times its bus use.
func TestG1FastWriteLevel1(t *testing.T) {
	r := newTinyRig(t, "sparing0", "tiny-fw1.diskspecs", nil)
	if lat := r.do(sim.Write, 100, 4); lat < 1 || r.d.Stats().WriteCacheHits != 0 {
		t.Errorf("the first write of a stream: %.3f ms, %d cache hits; want it written through", lat, r.d.Stats().WriteCacheHits)
	}
	// Appending: extradisc command 0.4, disconnect 0.06, the delay before
	// reconnecting 0.8, first reselect 0.032, preparation 0.03, 4 blocks
	// at 0.04, completion 0.028.
	near(t, "appending write", r.do(sim.Write, 104, 4), 0.4+0.06+0.8+0.032+0.03+0.16+0.028)
	if lat := r.do(sim.Write, 10, 2); lat < 1 || r.d.Stats().WriteCacheHits != 1 || r.d.Stats().Destages != 1 {
		t.Errorf("a write off the stream: %.3f ms, %d cache hits, %d destages; want a flush, then written through",
			lat, r.d.Stats().WriteCacheHits, r.d.Stats().Destages)
	}
}

// TestG1NoCache: with "Enable caching in buffer = 0" a repeated read
// misses; the drive never disconnects, so a read whose transfer outruns
// the media ends with its last sector (watermark 0.1 of the request).
func TestG1NoCache(t *testing.T) {
	r := newTinyRig(t, "sparing0", "tiny-nocache.diskspecs", nil)
	near(t, "first read", r.do(sim.Read, 0, 4), 7+0.026)
	// Next pass of sector 3: 13 ms; the read was issued at 7.026.
	near(t, "the same read again", r.do(sim.Read, 0, 4), 17+0.026-7.026)
	if r.d.Stats().ReadHits != 0 {
		t.Errorf("%d read hits without buffer caching", r.d.Stats().ReadHits)
	}
}

// TestG1MinimumSeekDelay: a write that does not continue the last
// transfer may not reach the media before the minimum seek delay.
func TestG1MinimumSeekDelay(t *testing.T) {
	for _, tc := range []struct {
		delay time.Duration
		want  float64
	}{
		// LBA 1 is slot 4 (4 to 5 ms); overhead 0.24, data in by 0.31.
		{0, 5 + 0.028},
		{4200 * time.Microsecond, 15 + 0.028}, // ready at 4.44 ms: next revolution
	} {
		r := newTinyRig(t, "sparing0", "tiny-nocache.diskspecs", func(p *disk.Params) { p.Overheads.MinimumSeekDelay = tc.delay })
		near(t, "write with minimum seek delay "+tc.delay.String(), r.do(sim.Write, 1, 1), tc.want)
	}
}

// TestG1SparingTiming times transfers over slipped and remapped
// locations by hand.
func TestG1SparingTiming(t *testing.T) {
	// Scheme 3: track 0 holds LBAs 0-8 in slots 0-9 but the slipped 3:
	// read from the next pass of slot 0 (10 ms) to the end of slot 9
	// (20 ms); the bus outruns the media (watermark 0.1 x 40 of 9 blocks
	// at 14.44 ms): reconnect at 20 + 0.034.
	r := newTinyRig(t, "sparing3", "tiny.diskspecs", nil)
	near(t, "a track with a slip", r.do(sim.Read, 0, 9), 20+0.034+0.026)
	// Scheme 1: LBA 20 is on track 3, remapped to spare track 7
	// (cylinder 3, surface 0 of the serpentine cylinder): a 1.5 ms seek,
	// sector 0 at 0.5+0.2+... = (3 x 5 + 2) mod 10 = 7 sectors of skew:
	// 7 to 8 ms; bus after reselect and preparation.
	r = newTinyRig(t, "sparing1", "tiny.diskspecs", nil)
	near(t, "a remapped track", r.do(sim.Read, 20, 1), 8+0.032+0.03+0.02+0.026)
}

// TestG1NegativeSettle: zonegaps.model's write settle is -0.05 ms.
func TestG1NegativeSettle(t *testing.T) {
	r := newTinyRig(t, "zonegaps", "tiny.diskspecs", nil)
	// Linear seek through (1, 1 ms), (3, 2 ms), (9, 3 ms): 2 cylinders
	// take 1.5 ms; a write settles 0.05 ms sooner.
	if rd, wr := r.d.SeekTime(2, false), r.d.SeekTime(2, true); rd != 1500*time.Microsecond || wr != 1450*time.Microsecond {
		t.Errorf("seek of 2: %v read, %v write; want 1.5ms, 1.45ms", rd, wr)
	}
	if r.d.Cylinders() != 10 {
		t.Errorf("%d cylinders, want the model's 10", r.d.Cylinders())
	}
}

// TestG1Preseek: with preseeking level 2 (tiny-nocache.diskspecs) the arm
// heads for the next queued read as soon as the previous one's last
// sector is read, while its completion (here 0.5 ms) is still under way.
func TestG1Preseek(t *testing.T) {
	for _, tc := range []struct {
		preseek bool
		want    float64
	}{
		// Read A, LBAs 0-3: slots 3-6, 3 to 7 ms, completes at 7.5. Read
		// B, LBA 20: cylinder 1 (reversed), sector 3, 5 sectors of skew:
		// it comes round at 8 ms. Preseeking, the one-cylinder seek (1 ms)
		// starts at 7 and catches it: 8 to 9 ms, + 0.5. Otherwise the
		// seek starts at 7.5, misses it, and waits for 18 ms.
		{true, 9.5},
		{false, 19.5},
	} {
		r := newTinyRig(t, "sparing0", "tiny-nocache.diskspecs", func(p *disk.Params) {
			p.Preseek = tc.preseek
			p.Overheads.ReadCompletion = 500 * time.Microsecond
		})
		var latB float64
		for _, lba := range []int64{0, 20} {
			q := &sim.Request{Op: sim.Read, Offset: lba * 512, Length: 512 * (4 - 3*lba/20), Done: func(q *sim.Request) {
				if q.Offset > 0 {
					latB = float64(q.Latency()) / 1e6
				}
			}}
			if err := r.d.Submit(q); err != nil {
				t.Fatal(err)
			}
		}
		r.eng.Run()
		near(t, fmt.Sprintf("second read, preseek %v", tc.preseek), latB, tc.want)
	}
}

// TestG1RPMError: sparing4.model's spindle speed varies by up to 0.5%:
// each drive draws its own from its named stream, the same every run,
// unless spindles are synchronized.
func TestG1RPMError(t *testing.T) {
	p, _, _ := loadG1(t, "sparing4", "tiny.diskspecs")
	if p.RPMErrorPercent != 0.5 {
		t.Fatalf("RPMErrorPercent %g", p.RPMErrorPercent)
	}
	rpm := func(p disk.Params, name string) int {
		d, err := disk.New(sim.NewEngine(3), p, name, nil)
		if err != nil {
			t.Fatal(err)
		}
		return d.Params().RPM
	}
	seen := map[int]bool{}
	for i := 0; i < 8; i++ {
		name := fmt.Sprintf("d%d", i)
		r := rpm(p, name)
		if r < 5970 || r > 6030 || r != rpm(p, name) {
			t.Errorf("%s: %d rpm (again %d), want 6000 +- 30, the same each time", name, r, rpm(p, name))
		}
		seen[r] = true
	}
	if len(seen) < 4 {
		t.Errorf("8 drives turn at only %d speeds", len(seen))
	}
	p.SpindleSync = true
	if r := rpm(p, "d0"); r != 6000 {
		t.Errorf("synchronized: %d rpm", r)
	}
}

// TestG1PartialHit: a read whose first blocks are in the buffer reads
// only the rest from the media; with "Immed transfer partial hit = 1"
// (tiny-fw1.diskspecs) the buffered blocks cross the bus at once.
func TestG1PartialHit(t *testing.T) {
	for _, tc := range []struct {
		partial bool
		want    float64
	}{
		// Read A, LBAs 0-3 (slots 3-6), completes at 7.168 ms as in
		// TestG1BusTiming. Read B, LBAs 2-5: overhead to 7.328; LBAs 2-3
		// are buffered and go at once; LBAs 4-5 (slots 7-8) pass at 17 to
		// 19 ms; the bus is held: complete at 19 + 0.026.
		{true, 19.026 - 7.168},
		// Read wholly from the media: slots 5-8, 15 to 19 ms; the bus
		// waits for all 4 blocks, after the reselect and preparation.
		{false, 19 + 0.032 + 0.03 + 0.08 + 0.026 - 7.168},
	} {
		r := newTinyRig(t, "sparing0", "tiny-fw1.diskspecs", func(p *disk.Params) {
			p.ReadAhead = disk.ReadAheadOff
			p.PartialHits = tc.partial
		})
		near(t, "read A", r.do(sim.Read, 0, 4), 7.168)
		near(t, fmt.Sprintf("read B, partial hits %v", tc.partial), r.do(sim.Read, 2, 4), tc.want)
	}
}

// TestG1AccessTimeTypes: averageRotation waits half a revolution (5 ms)
// when positioned; constant takes 2.5 ms for the whole media access.
// Read LBAs 0-3 after the 0.16 ms overhead, then the bus as in
// TestG1BusTiming (reselect, preparation, 4 blocks, completion).
func TestG1AccessTimeTypes(t *testing.T) {
	bus := 0.032 + 0.03 + 0.08 + 0.026
	r := newTinyRig(t, "accessavg", "tiny.diskspecs", nil)
	near(t, "averageRotation", r.do(sim.Read, 0, 4), 0.16+5+4+bus)
	r = newTinyRig(t, "accessconst", "tiny.diskspecs", nil)
	near(t, "constant", r.do(sim.Read, 0, 4), 0.16+2.5+bus)
}
