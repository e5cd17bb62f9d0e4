package disk

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// TestAllocs: in steady state a request costs no allocation, at QD1 and
// at QD32 with SATF, for reads and cached writes.
func TestAllocs(t *testing.T) {
	for _, tc := range []struct {
		op sim.Op
		qd int
	}{{sim.Read, 1}, {sim.Read, 32}, {sim.Write, 1}, {sim.Write, 32}} {
		d, eng := presetDrive(t, "deskstar-7k500", nil)
		l := newLoop(t, d, eng, tc.op, 4096, tc.qd, false)
		l.total = 1 << 60
		for i := range l.reqs {
			l.submit(&l.reqs[i])
		}
		for l.done < 3000 {
			eng.Step()
		}
		allocs := testing.AllocsPerRun(2000, func() {
			target := l.done + 1
			for l.done < target {
				eng.Step()
			}
		})
		if allocs != 0 {
			t.Errorf("%v qd=%d: %.2f allocations per request, want 0", tc.op, tc.qd, allocs)
		}
	}
}

// TestValidate: every impossible field is reported, all at once, by name.
func TestValidate(t *testing.T) {
	base, err := Preset("deskstar-7k500")
	if err != nil {
		t.Fatal(err)
	}
	if err := base.Validate(); err != nil {
		t.Fatalf("preset does not validate: %v", err)
	}
	cases := []struct {
		field string
		edit  func(p *Params)
	}{
		{"SectorSize", func(p *Params) { p.SectorSize = 520 }},
		{"RPM", func(p *Params) { p.RPM = 0 }},
		{"RPM", func(p *Params) { p.RPM = -7200 }},
		{"Surfaces", func(p *Params) { p.Surfaces = 0 }},
		{"Zones", func(p *Params) { p.Zones = nil }},
		{"Zones[0].FirstCylinder", func(p *Params) { p.Zones = append([]Zone(nil), p.Zones...); p.Zones[0].FirstCylinder = -1 }},
		{"Zones[3].FirstCylinder", func(p *Params) {
			p.Zones = append([]Zone(nil), p.Zones...)
			p.Zones[3].FirstCylinder = p.Zones[2].LastCylinder - 1 // two cylinders shared
		}},
		{"Zones[1].LastCylinder", func(p *Params) {
			p.Zones = append([]Zone(nil), p.Zones...)
			p.Zones[1].LastCylinder = p.Zones[1].FirstCylinder - 1
		}},
		{"Zones[2].SectorsPerTrack", func(p *Params) { p.Zones = append([]Zone(nil), p.Zones...); p.Zones[2].SectorsPerTrack = 0 }},
		{"Zones[0].TrackSkew", func(p *Params) { p.Zones = append([]Zone(nil), p.Zones...); p.Zones[0].TrackSkew = -1 }},
		{"Zones[0].CylinderSkew", func(p *Params) { p.Zones = append([]Zone(nil), p.Zones...); p.Zones[0].CylinderSkew = 1 << 20 }},
		{"Capacity", func(p *Params) { p.Capacity = -512 }},
		{"Capacity", func(p *Params) { p.Capacity = 1000 }},
		{"Capacity", func(p *Params) { p.Capacity = p.Sectors()*512 + 512 }},
		{"TrackToTrack", func(p *Params) { p.TrackToTrack = 0 }},
		{"AverageSeek", func(p *Params) { p.AverageSeek = p.TrackToTrack }},
		{"FullStroke", func(p *Params) { p.FullStroke = p.AverageSeek - 1 }},
		{"SeekTable[1].Distance", func(p *Params) { p.SeekTable = []SeekPoint{{1, time.Millisecond}, {1, time.Millisecond}} }},
		{"SeekTable[0].Time", func(p *Params) { p.SeekTable = []SeekPoint{{1, -time.Millisecond}} }},
		{"WriteSettle", func(p *Params) { p.WriteSettle = -2 * time.Second }},
		{"HeadSwitch", func(p *Params) { p.HeadSwitch = -1 }},
		{"CylinderSwitch", func(p *Params) { p.CylinderSwitch = 2 * time.Second }},
		{"ReadOverhead", func(p *Params) { p.ReadOverhead = -1 }},
		{"WriteOverhead", func(p *Params) { p.WriteOverhead = -1 }},
		{"InterfaceRate", func(p *Params) { p.InterfaceRate = -1 }},
		{"BufferSize", func(p *Params) { p.BufferSize = 0; p.WriteCacheBytes = 0 }},
		{"Segments", func(p *Params) { p.Segments = 65 }},
		{"Segments", func(p *Params) { p.Segments = -1 }},
		{"ReadAhead", func(p *Params) { p.ReadAhead = 9 }},
		{"ReadAheadBytes", func(p *Params) { p.ReadAheadBytes = -1 }},
		{"WriteCacheBytes", func(p *Params) { p.WriteCacheBytes = p.BufferSize + 1 }},
		{"WriteCacheEntries", func(p *Params) { p.WriteCacheEntries = -3 }},
		{"QueueDepth", func(p *Params) { p.QueueDepth = 33 }},
		{"QueueDepth", func(p *Params) { p.QueueDepth = -1 }},
		{"Scheduler", func(p *Params) { p.Scheduler = 42 }},
		{"MaxQueueAge", func(p *Params) { p.MaxQueueAge = -time.Second }},
	}
	for _, tc := range cases {
		p := base
		tc.edit(&p)
		err := p.Validate()
		if err == nil || !strings.Contains(err.Error(), "disk: Params."+tc.field+":") {
			t.Errorf("%s: Validate() = %v, want an error naming the field", tc.field, err)
		}
		eng := sim.NewEngine(1)
		if d, err := New(eng, p, "bad", nil); err == nil || d != nil {
			t.Errorf("%s: New accepted invalid params", tc.field)
		}
	}
	// Several problems are reported together.
	p := base
	p.RPM, p.Surfaces, p.QueueDepth = 0, 0, 99
	err = p.Validate()
	for _, f := range []string{"RPM: must be positive, got 0", "Surfaces", "QueueDepth"} {
		if err == nil || !strings.Contains(err.Error(), f) {
			t.Errorf("joined error %v lacks %q", err, f)
		}
	}
	if _, err := New(nil, base, "x", nil); err == nil {
		t.Error("New accepted a nil engine")
	}
}

// TestSubmitRejects: requests that can never be served are rejected by
// Submit with errors wrapping sim's sentinels; Done is never called.
func TestSubmitRejects(t *testing.T) {
	d, eng := presetDrive(t, "deskstar-7k500", nil)
	called := 0
	done := func(*sim.Request) { called++ }
	c := d.Capacity()
	for _, tc := range []struct {
		r    sim.Request
		want error
	}{
		{sim.Request{Op: sim.Read, Offset: 100, Length: 4096, Done: done}, sim.ErrMisaligned},
		{sim.Request{Op: sim.Write, Offset: 4096, Length: 1000, Done: done}, sim.ErrMisaligned},
		{sim.Request{Op: sim.Read, Offset: 0, Length: 0, Done: done}, sim.ErrZeroLength},
		{sim.Request{Op: sim.Read, Offset: 0, Length: -512, Done: done}, sim.ErrZeroLength},
		{sim.Request{Op: sim.Read, Offset: c, Length: 512, Done: done}, sim.ErrOutOfRange},
		{sim.Request{Op: sim.Write, Offset: c - 512, Length: 1024, Done: done}, sim.ErrOutOfRange},
		{sim.Request{Op: sim.Read, Offset: -512, Length: 512, Done: done}, sim.ErrOutOfRange},
		{sim.Request{Op: sim.Read, Offset: 0, Length: 512}, sim.ErrNoDone},
		{sim.Request{Op: 7, Offset: 0, Length: 512, Done: done}, sim.ErrBadOp},
		{sim.Request{Op: sim.Write, Offset: 0, Length: 1024, Data: make([]byte, 512), Done: done}, sim.ErrDataLength},
	} {
		r := tc.r
		err := d.Submit(&r)
		if !errors.Is(err, tc.want) {
			t.Errorf("Submit(%v) = %v, want %v", &r, err, tc.want)
		}
	}
	eng.Run()
	if called != 0 {
		t.Errorf("Done called %d times for rejected requests", called)
	}
	if _, err := d.Locate(c); !errors.Is(err, sim.ErrOutOfRange) {
		t.Errorf("Locate(capacity) = %v", err)
	}
}

// TestPresets: every preset validates, derives the spec's sustained
// rates within 3%, and unknown names list the known ones.
func TestPresets(t *testing.T) {
	names := PresetNames()
	if len(names) < 7 {
		t.Fatalf("presets: %v", names)
	}
	for _, want := range []string{"deskstar-7k160", "deskstar-7k500", "deskstar-7k1000", "travelstar-7k500", "wd-1600ajs", "cheetah-15k5", "ultrastar-hc310"} {
		if _, err := Preset(want); err != nil {
			t.Errorf("Preset(%q): %v", want, err)
		}
	}
	for i, n := range names {
		if i > 0 && names[i-1] >= n {
			t.Errorf("PresetNames not sorted: %v", names)
		}
		p, err := Preset(n)
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		if err := p.Validate(); err != nil {
			t.Errorf("%s: %v", n, err)
		}
		if !p.WriteCache || p.QueueDepth != 32 || p.Scheduler != SATF {
			t.Errorf("%s: ships with write cache %v, queue depth %d, %v", n, p.WriteCache, p.QueueDepth, p.Scheduler)
		}
		s, _ := PresetSpec(n)
		f, err := ComputeFigures(p)
		if err != nil {
			t.Fatal(err)
		}
		if f.Capacity != s.Capacity {
			t.Errorf("%s: capacity %d, spec %d", n, f.Capacity, s.Capacity)
		}
		for _, c := range []struct {
			what      string
			got, want float64
		}{
			{"outer sustained", f.OuterSustained, s.OuterSustained},
			{"inner sustained", f.InnerSustained, s.InnerSustained},
			{"outer instantaneous", f.OuterInstant, s.OuterInstant},
			{"inner instantaneous", f.InnerInstant, s.InnerInstant},
		} {
			if c.want > 0 && (c.got/c.want > 1.03 || c.got/c.want < 0.97) {
				t.Errorf("%s: %s %.2f MB/s, spec %.2f", n, c.what, c.got/1e6, c.want/1e6)
			}
		}
		if f.OuterInstant < f.OuterSustained || f.InnerInstant < f.InnerSustained || f.OuterSustained < 1.5*f.InnerSustained {
			t.Errorf("%s: implausible rates %+v", n, f)
		}
	}
	_, err := Preset("nope")
	if err == nil {
		t.Fatal(`Preset("nope") succeeded`)
	}
	for _, n := range names {
		if !strings.Contains(err.Error(), n) {
			t.Errorf("error %q does not list %q", err, n)
		}
	}
}

// TestSpecErrors: a spec missing its essentials is rejected field by field.
func TestSpecErrors(t *testing.T) {
	_, err := Spec{Name: "x"}.Params()
	for _, f := range []string{"Spec.Capacity", "Spec.RPM", "Spec.Heads", "Spec.OuterSustained", "Spec.TrackToTrack"} {
		if err == nil || !strings.Contains(err.Error(), f) {
			t.Errorf("error %v lacks %s", err, f)
		}
	}
}

// TestGeometry: LBAs walk tracks, surfaces, cylinders and zones in
// order, and skews accumulate.
func TestGeometry(t *testing.T) {
	p := Params{
		Name: "toy", RPM: 6000, Surfaces: 2, Capacity: 0,
		Zones: []Zone{
			{FirstCylinder: 0, LastCylinder: 1, SectorsPerTrack: 10, TrackSkew: 2, CylinderSkew: 3},
			{FirstCylinder: 2, LastCylinder: 4, SectorsPerTrack: 8, TrackSkew: 1, CylinderSkew: 2},
		},
		TrackToTrack: time.Millisecond, AverageSeek: 3 * time.Millisecond, FullStroke: 5 * time.Millisecond,
		BufferSize: 1 << 20,
	}
	d, err := New(sim.NewEngine(1), p, "toy", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := d.Capacity(), int64((2*2*10+3*2*8)*512); got != want {
		t.Fatalf("capacity %d, want %d", got, want)
	}
	for _, tc := range []struct {
		lba  int64
		want Location
	}{
		{0, Location{0, 0, 0, 0}}, {9, Location{0, 0, 0, 9}}, {10, Location{0, 0, 1, 0}},
		{20, Location{0, 1, 0, 0}}, {39, Location{0, 1, 1, 9}}, {40, Location{1, 2, 0, 0}},
		{48, Location{1, 2, 1, 0}}, {56, Location{1, 3, 0, 0}}, {87, Location{1, 4, 1, 7}},
	} {
		got, err := d.Locate(tc.lba * 512)
		if err != nil || got != tc.want {
			t.Errorf("Locate(lba %d) = %+v, %v; want %+v", tc.lba, got, err, tc.want)
		}
	}
	z := &d.g.zones[0]
	// track (0,1): one track skew; (1,0): track skew + cylinder skew; (1,1): 2 track + 1 cylinder.
	for _, tc := range []struct{ cyl, head, want int64 }{{0, 0, 0}, {0, 1, 2}, {1, 0, 5}, {1, 1, 7}} {
		if got := z.skew(tc.cyl, tc.head); got != tc.want {
			t.Errorf("skew(%d,%d) = %d, want %d", tc.cyl, tc.head, got, tc.want)
		}
	}
	if l, err := d.LocateSector(48); err != nil || l != (Location{1, 2, 1, 0}) {
		t.Errorf("LocateSector(48) = %+v, %v", l, err)
	}
	if _, err := d.LocateSector(88); !errors.Is(err, sim.ErrOutOfRange) {
		t.Errorf("LocateSector(88) = %v", err)
	}
	if d.Revolution() != 10*time.Millisecond {
		t.Errorf("revolution %v", d.Revolution())
	}
}

// TestTextNames: schedulers and read-ahead policies round-trip as text.
func TestTextNames(t *testing.T) {
	for s := Scheduler(0); s < numSchedulers; s++ {
		b, err := s.MarshalText()
		var back Scheduler
		if err != nil || back.UnmarshalText(b) != nil || back != s {
			t.Errorf("scheduler %v: %q %v -> %v", s, b, err, back)
		}
	}
	var s Scheduler
	if err := s.UnmarshalText([]byte("elevator")); err == nil || !strings.Contains(err.Error(), "clook") {
		t.Errorf("bad scheduler name: %v", err)
	}
	for p := ReadAheadPolicy(0); p < numReadAhead; p++ {
		b, err := p.MarshalText()
		var back ReadAheadPolicy
		if err != nil || back.UnmarshalText(b) != nil || back != p {
			t.Errorf("policy %v: %q %v -> %v", p, b, err, back)
		}
	}
	if _, err := Scheduler(9).MarshalText(); err == nil {
		t.Error("scheduler 9 marshalled")
	}
}
