package ssd

import (
	"strings"
	"testing"

	"github.com/raidsim/raidsim/sim"
)

// TestValidateNamesField: each bad parameter gives an error naming its
// field (and New returns it, never panicking).
func TestValidateNamesField(t *testing.T) {
	cases := []struct {
		field string
		mod   func(*Params)
	}{
		{"Channels", func(p *Params) { p.Channels = 0 }},
		{"WaysPerChannel", func(p *Params) { p.WaysPerChannel = -1 }},
		{"PlanesPerDie", func(p *Params) { p.PlanesPerDie = 5000 }},
		{"PageSize", func(p *Params) { p.PageSize = 4000 }},
		{"PageSize", func(p *Params) { p.PageSize = 0 }},
		{"MapUnit", func(p *Params) { p.MapUnit = 1000 }},
		{"OverProvisioning", func(p *Params) { p.OverProvisioning = 0.95 }},
		{"OverProvisioning", func(p *Params) { p.OverProvisioning = -0.1 }},
		{"OverProvisioning", func(p *Params) { p.OverProvisioning = 0 }},
		{"Capacity", func(p *Params) { p.Capacity = 0 }},
		{"Capacity", func(p *Params) { p.Capacity = 1001 }},
		{"SectorSize", func(p *Params) { p.SectorSize = 1024 }},
		{"QueueDepth", func(p *Params) { p.QueueDepth = 64 }},
		{"LinkRate", func(p *Params) { p.LinkRate = 0 }},
		{"ChannelRate", func(p *Params) { p.ChannelRate = -1 }},
		{"ReadTime", func(p *Params) { p.ReadTime = 0 }},
		{"EraseTime", func(p *Params) { p.EraseTime = -1 }},
		{"WriteCost", func(p *Params) { p.WriteCost = -1 }},
		{"WriteBuffer", func(p *Params) { p.WriteBuffer = -5 }},
		{"PagesPerBlock", func(p *Params) { p.PagesPerBlock = 0 }},
		{"GCLowBlocks", func(p *Params) { p.GCLowBlocks = -1 }},
		{"SLCCache", func(p *Params) { p.SLCCache = 2e12 }},
		{"SLCProgramTime", func(p *Params) { p.SLCCache = 1e9; p.SLCProgramTime = 0 }},
		{"Interface", func(p *Params) { p.Interface = 7 }},
		{"GC", func(p *Params) { p.GC = 9 }},
	}
	for _, c := range cases {
		p := IntelX25MG2()
		c.mod(&p)
		_, err := New(sim.NewEngine(1), p, "x", nil)
		if err == nil || !strings.Contains(err.Error(), "Params."+c.field) {
			t.Errorf("%s: error %v does not name the field", c.field, err)
		}
	}
	// Every problem at once.
	p := IntelX25MG2()
	p.Channels, p.ReadTime, p.LinkRate = 0, 0, 0
	err := p.Validate()
	for _, f := range []string{"Channels", "ReadTime", "LinkRate"} {
		if err == nil || !strings.Contains(err.Error(), f) {
			t.Errorf("joined error %v lacks %s", err, f)
		}
	}
}

func TestPresetsValid(t *testing.T) {
	for _, n := range PresetNames() {
		p, err := Preset(n)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Validate(); err != nil {
			t.Errorf("%s: %v", n, err)
		}
		if p.Name != n {
			t.Errorf("preset %s names itself %s", n, p.Name)
		}
	}
	if _, err := Preset("nope"); err == nil {
		t.Error("unknown preset accepted")
	}
}

// FuzzParams builds drives from arbitrary parameters: a bad one is an
// error, a good one serves a few requests; none panics.
func FuzzParams(f *testing.F) {
	f.Add(int64(4e9), 10, 2, 2, 1, 4096, 128, 0.07, int64(1<<20), int64(0), 4096)
	f.Add(int64(1<<20), 1, 1, 1, 1, 512, 1, 0.9, int64(0), int64(1<<19), 512)
	f.Fuzz(func(t *testing.T, capacity int64, ch, ways, dies, planes, page, ppb int, op float64, buf, slc int64, unit int) {
		p := Params{Capacity: capacity, LinkRate: 1e9, Channels: ch, WaysPerChannel: ways, DiesPerChip: dies,
			PlanesPerDie: planes, PageSize: page, PagesPerBlock: ppb, OverProvisioning: op, WriteBuffer: buf,
			SLCCache: slc, SLCProgramTime: 100, MapUnit: unit, ReadTime: 1000, ProgramTime: 5000, EraseTime: 9000, ChannelRate: 1e8}
		if p.Capacity > 1<<34 || int64(p.Channels)*int64(p.WaysPerChannel)*int64(p.DiesPerChip) > 64 {
			return // keep each case small; Validate's bounds are tested above
		}
		eng := sim.NewEngine(1)
		d, err := New(eng, p, "f", nil)
		if err != nil {
			return
		}
		for i, op := range []sim.Op{sim.Write, sim.Read, sim.Trim, sim.Flush, sim.Write} {
			r := &sim.Request{Op: op, Offset: 0, Length: int64(d.SectorSize()) * int64(i+1), Done: func(*sim.Request) {}}
			if op == sim.Flush {
				r.Length = 0
			}
			if r.Length > d.Capacity() {
				continue
			}
			if err := d.Submit(r); err != nil {
				t.Fatal(err)
			}
		}
		eng.Run()
	})
}
