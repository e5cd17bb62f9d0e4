package disk

import (
	"strings"
	"testing"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// measuredToy is a one-zone drive with every measured-layout feature:
// 2 surfaces, 3 cylinders of 10 sectors a track, 6000 rpm (10 ms a
// revolution, 1 ms a sector).
func measuredToy() Params {
	return Params{
		Name: "toy", RPM: 6000, Surfaces: 2,
		Zones: []Zone{{FirstCylinder: 0, LastCylinder: 2, SectorsPerTrack: 10, TrackSkew: 2, CylinderSkew: 4,
			FirstBlockOffset: 3, ReservedSectors: 5, SpareSectors: 6, Slips: []int64{12, 13}}},
		Mapping:    MapSerpentine,
		SeekTable:  []SeekPoint{{1, time.Millisecond}, {2, 2 * time.Millisecond}},
		BufferSize: 64 << 10, QueueDepth: 1, Scheduler: FCFS, InterfaceRate: 1e12,
	}
}

// TestMeasuredLayout checks the mapping with reserved, spare and slipped
// sectors, the serpentine track order and the skews, worked by hand.
func TestMeasuredLayout(t *testing.T) {
	p := measuredToy()
	if got := p.Sectors(); got != 60-5-6 {
		t.Fatalf("Sectors = %d, want 49", got)
	}
	d, err := New(sim.NewEngine(1), p, "toy", nil)
	if err != nil {
		t.Fatal(err)
	}
	if d.Capacity() != 49*512 {
		t.Fatalf("capacity %d", d.Capacity())
	}
	for _, tc := range []struct {
		lba  int64
		want Location
	}{
		{0, Location{0, 0, 0, 5}},  // slot 5: the first 5 are reserved
		{4, Location{0, 0, 0, 9}},  // slot 9
		{5, Location{0, 0, 1, 0}},  // slot 10: track 1 is surface 1
		{6, Location{0, 0, 1, 1}},  // slot 11
		{7, Location{0, 0, 1, 4}},  // slots 12 and 13 are slipped
		{12, Location{0, 0, 1, 9}}, // slot 19
		{13, Location{0, 1, 1, 0}}, // slot 20: cylinder 1 runs from surface 1 down
		{23, Location{0, 1, 0, 0}}, // slot 30
		{33, Location{0, 2, 0, 0}}, // slot 40: cylinder 2 runs up again
		{48, Location{0, 2, 1, 5}}, // slot 55, the last LBA; slots 56-59 are spares (with the two slips)
	} {
		got, err := d.LocateSector(tc.lba)
		if err != nil || got != tc.want {
			t.Errorf("LocateSector(%d) = %+v, %v; want %+v", tc.lba, got, err, tc.want)
		}
	}
	z := &d.g.zones[0]
	// Offset 3, +2 a track crossing, +4 a cylinder crossing.
	for trk, want := range []int64{3, 5, 9, 1, 5, 7} {
		cyl, head := z.cylHead(int64(trk), 2)
		if got := z.trkSkew(cyl, head, 2); got != want {
			t.Errorf("trkSkew(track %d: cylinder %d, head %d) = %d, want %d", trk, cyl, head, got, want)
		}
	}
	if got := d.g.trackLBAs(5, d.g.locate(5)); got != 8 {
		t.Errorf("LBAs left on track 1 from LBA 5: %d, want 8 (10 slots, 2 slipped)", got)
	}
}

// TestSlipsCostTime: a transfer over slipped slots takes their time too.
func TestSlipsCostTime(t *testing.T) {
	eng := sim.NewEngine(1)
	d, err := New(eng, measuredToy(), "toy", nil)
	if err != nil {
		t.Fatal(err)
	}
	var span time.Duration
	d.mediaHook = func(lba, n int64, _ bool, start, end sim.Time) { span = end.Sub(start) }
	r := &sim.Request{Op: sim.Read, Offset: 6 * 512, Length: 2 * 512, Done: func(*sim.Request) {}}
	if err := d.Submit(r); err != nil {
		t.Fatal(err)
	}
	eng.Run()
	// Slots 11, (12), (13), 14: four sector times of 1 ms.
	if span < 4*time.Millisecond-10 || span > 4*time.Millisecond+10 {
		t.Errorf("media span %v, want 4ms", span)
	}
}

// TestZeroLatencyTrack checks read-on-arrival timing on one track worked
// by hand: slots of 1 ms from angle 0, the head arriving at 2.5 ms.
func TestZeroLatencyTrack(t *testing.T) {
	p := measuredToy()
	p.SpindleSync = true // angle 0 at t = 0, as worked by hand
	p.Zones = []Zone{{FirstCylinder: 0, LastCylinder: 2, SectorsPerTrack: 10}}
	p.Mapping = MapConventional
	d, err := New(sim.NewEngine(1), p, "toy", nil)
	if err != nil {
		t.Fatal(err)
	}
	z := &d.g.zones[0]
	at := sim.Time(2500 * time.Microsecond)
	ms := func(x float64) sim.Time { return sim.Time(x * 1e6) }
	for _, tc := range []struct {
		k          int64
		zl         bool
		start, end sim.Time
		why        string
	}{
		{10, false, ms(10), ms(20), "wait for slot 0, read the track"},
		{10, true, ms(10), ms(13), "read slots 3-9, then 0-2 on the next pass"},
		{5, false, ms(10), ms(15), "wait, read slots 0-4"},
		{5, true, ms(10), ms(13), "slots 3-4 now, 0-2 next pass"},
		{2, true, ms(10), ms(12), "the head is past slots 0-1: no gain"},
		{3, true, ms(10), ms(13), "slot 2 is under the head: it ends the next pass"},
	} {
		s, e := d.track(at, z, 0, 0, 0, tc.k, tc.zl)
		if s != tc.start || e < tc.end-2 || e > tc.end+2 {
			t.Errorf("k=%d zl=%v (%s): %v..%v, want %v..%v", tc.k, tc.zl, tc.why, s, e, tc.start, tc.end)
		}
	}
}

// TestCommandOverheads checks the per-case overheads, the completion
// overhead and the read watermark on a drive whose bus takes 0.1 ms a
// sector.
func TestCommandOverheads(t *testing.T) {
	us := time.Microsecond
	p := measuredToy()
	p.InterfaceRate = 512 / 100e-6
	p.Overheads = CommandOverheads{Enabled: true,
		ReadHitAfterRead: 11 * us, ReadHitAfterWrite: 12 * us, ReadMissAfterRead: 13 * us, ReadMissAfterWrite: 14 * us,
		WriteHitAfterRead: 15 * us, WriteHitAfterWrite: 16 * us, WriteMissAfterRead: 17 * us, WriteMissAfterWrite: 18 * us,
		ReadCompletion: 7 * us, WriteCompletion: 5 * us}
	p.ReadBusWatermark = 1
	p.ReadAhead = ReadAheadOff
	eng := sim.NewEngine(1)
	d, err := New(eng, p, "toy", nil)
	if err != nil {
		t.Fatal(err)
	}
	var mediaEnd sim.Time
	d.mediaHook = func(_, _ int64, _ bool, _, end sim.Time) { mediaEnd = end }
	do := func(op sim.Op, lba, n int64) time.Duration {
		t.Helper()
		var lat time.Duration
		r := &sim.Request{Op: op, Offset: lba * 512, Length: n * 512, Done: func(r *sim.Request) { lat = r.Latency() }}
		if err := d.Submit(r); err != nil {
			t.Fatal(err)
		}
		eng.Run()
		eng.RunUntil(eng.Now() + sim.Time(time.Second))
		return lat
	}
	bus := func(n int64) time.Duration { return time.Duration(n) * 100 * us }
	// A read miss (after nothing: counts as after a read) with the
	// watermark at 1: the bus starts when the last sector is in.
	start := eng.Now()
	lat := do(sim.Read, 0, 4)
	if want := mediaEnd.Sub(start) + bus(4) + 7*us; lat < want-2 || lat > want+2 {
		t.Errorf("read miss: %v, want media end + bus + completion = %v", lat, want)
	}
	// The same read hits: overhead, bus, completion.
	if lat, want := do(sim.Read, 0, 4), 11*us+bus(4)+7*us; lat < want-2 || lat > want+2 {
		t.Errorf("read hit after read: %v, want %v", lat, want)
	}
	// A write (no write cache: a miss) after a read.
	start = eng.Now()
	lat = do(sim.Write, 20, 2)
	if lat < mediaEnd.Sub(start)+5*us-2 || lat > mediaEnd.Sub(start)+5*us+2 {
		t.Errorf("write: %v, want media end + completion %v", lat, mediaEnd.Sub(start)+5*us)
	}
	if d.readOverhead(true) != int64(12*us) || d.readOverhead(false) != int64(14*us) ||
		d.writeOverhead(true) != int64(16*us) || d.writeOverhead(false) != int64(18*us) {
		t.Errorf("after a write: overheads %d %d %d %d", d.readOverhead(true), d.readOverhead(false), d.writeOverhead(true), d.writeOverhead(false))
	}
	d.prevWrite = false
	if d.writeOverhead(true) != int64(15*us) || d.writeOverhead(false) != int64(17*us) || d.readOverhead(false) != int64(13*us) {
		t.Error("after a read: wrong overheads")
	}
}

// TestTrackReadAhead checks where the track, cylinder and next-track
// policies stop, with and without a cap.
func TestTrackReadAhead(t *testing.T) {
	for _, tc := range []struct {
		policy ReadAheadPolicy
		capB   int64
		end    int64
		want   int64
	}{
		{ReadAheadTrack, 0, 3, 10},
		{ReadAheadTrack, 0, 10, 10},
		{ReadAheadTrack, 0, 11, 20},
		{ReadAheadCylinder, 0, 3, 20},
		{ReadAheadCylinder, 0, 13, 20},
		{ReadAheadNextTrack, 0, 3, 20},
		{ReadAheadNextTrack, 0, 13, 30},
		{ReadAheadNextTrack, 4 * 512, 3, 7},
		{ReadAheadNextTrack, 0, 59, 60},
		{ReadAheadFixed, 4 * 512, 3, 7},
	} {
		p := measuredToy()
		p.Zones = []Zone{{FirstCylinder: 0, LastCylinder: 2, SectorsPerTrack: 10}}
		p.Mapping = MapConventional
		p.ReadAhead, p.ReadAheadBytes = tc.policy, tc.capB
		p.Segments = 1 // 128-sector segments: no cap from the segment
		d, err := New(sim.NewEngine(1), p, "toy", nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := d.raLimit(tc.end); got != tc.want {
			t.Errorf("%v cap %d: read-ahead after a read ending at %d stops at %d, want %d", tc.policy, tc.capB, tc.end, got, tc.want)
		}
	}
}

// TestReadAnyFree: sectors passing during a read's rotational wait are
// kept, so a read of the sectors just before it hits the buffer.
func TestReadAnyFree(t *testing.T) {
	for _, free := range []bool{false, true} {
		p := measuredToy()
		p.Zones = []Zone{{FirstCylinder: 0, LastCylinder: 2, SectorsPerTrack: 10}}
		p.Mapping = MapConventional
		p.ReadAhead = ReadAheadOff
		p.ReadAnyFree = free
		eng := sim.NewEngine(1)
		d, err := New(eng, p, "toy", nil)
		if err != nil {
			t.Fatal(err)
		}
		read := func(lba int64) {
			r := &sim.Request{Op: sim.Read, Offset: lba * 512, Length: 512, Done: func(*sim.Request) {}}
			if err := d.Submit(r); err != nil {
				t.Fatal(err)
			}
			eng.Run()
		}
		// At t=0 the head is at angle 0 of track 0: reading sector 8 waits
		// 8 ms while sectors 0-7 pass.
		read(8)
		read(5)
		if hits := d.Stats().ReadHits; (hits == 1) != free {
			t.Errorf("ReadAnyFree=%v: %d hits", free, hits)
		}
	}
}

func TestLayoutValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		mod  func(p *Params)
		want string
	}{
		{"slips order", func(p *Params) { p.Zones[0].Slips = []int64{13, 12} }, "Zones[0].Slips[1]"},
		{"slips range", func(p *Params) { p.Zones[0].Slips = []int64{60} }, "Zones[0].Slips[0]"},
		{"slips count", func(p *Params) { p.Zones[0].SpareSectors = 1 }, "2 slips exceed"},
		{"reserved", func(p *Params) { p.Zones[0].ReservedSectors = 60 }, "Zones[0].ReservedSectors"},
		{"offset", func(p *Params) { p.Zones[0].FirstBlockOffset = 10 }, "Zones[0].FirstBlockOffset"},
		{"mapping", func(p *Params) { p.Mapping = 7 }, "Mapping"},
		{"watermark", func(p *Params) { p.ReadBusWatermark = 1.5 }, "ReadBusWatermark"},
		{"overheads", func(p *Params) { p.Overheads = CommandOverheads{Enabled: true, ReadCompletion: -1} }, "Overheads"},
	} {
		p := measuredToy()
		p.Zones = append([]Zone(nil), p.Zones...)
		tc.mod(&p)
		if err := p.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want it to mention %q", tc.name, err, tc.want)
		}
	}
	if err := measuredToy().Validate(); err != nil {
		t.Errorf("toy: %v", err)
	}
}

// TestReadHitsOnWrites: with the flag, the latest write's data serves a
// read after it has reached the media.
func TestReadHitsOnWrites(t *testing.T) {
	for _, keep := range []bool{false, true} {
		p := measuredToy()
		p.ReadAhead = ReadAheadOff
		p.ReadHitsOnWrites = keep
		eng := sim.NewEngine(1)
		d, err := New(eng, p, "toy", nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, op := range []sim.Op{sim.Write, sim.Read} {
			r := &sim.Request{Op: op, Offset: 20 * 512, Length: 2 * 512, Done: func(*sim.Request) {}}
			if err := d.Submit(r); err != nil {
				t.Fatal(err)
			}
			eng.Run()
		}
		if st := d.Stats(); (st.ReadHits == 1) != keep || st.MediaWrites != 1 {
			t.Errorf("ReadHitsOnWrites=%v: %d read hits, %d media writes", keep, st.ReadHits, st.MediaWrites)
		}
	}
}

// TestNoAlmostHits: a read of sectors read-ahead has not reached yet
// streams from it, unless NoAlmostHits makes it a miss.
func TestNoAlmostHits(t *testing.T) {
	for _, no := range []bool{false, true} {
		p := measuredToy()
		p.Zones = []Zone{{FirstCylinder: 0, LastCylinder: 2, SectorsPerTrack: 10}}
		p.Mapping = MapConventional
		p.ReadAhead, p.ReadAheadBytes = ReadAheadFixed, 8*512
		p.NoAlmostHits = no
		eng := sim.NewEngine(1)
		d, err := New(eng, p, "toy", nil)
		if err != nil {
			t.Fatal(err)
		}
		second := &sim.Request{Op: sim.Read, Offset: 5 * 512, Length: 512, Done: func(*sim.Request) {}}
		first := &sim.Request{Op: sim.Read, Offset: 0, Length: 512, Done: func(*sim.Request) {
			if err := d.Submit(second); err != nil {
				t.Error(err)
			}
		}}
		if err := d.Submit(first); err != nil {
			t.Fatal(err)
		}
		eng.Run()
		if st := d.Stats(); (st.ReadHits == 0) != no || (st.MediaReads == 2) != no {
			t.Errorf("NoAlmostHits=%v: %d hits, %d media reads", no, st.ReadHits, st.MediaReads)
		}
	}
}
