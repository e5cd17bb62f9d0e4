package disksim

import (
	"testing"

	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/sim"
)

// TestLoadDeskstar loads testdata/deskstar7k500.parv, a full DiskSim 4.0
// model written by hand from the manuals' tables and unlike the two
// validated ones in most options, and checks where its figures landed.
func TestLoadDeskstar(t *testing.T) {
	p, rep, err := Load("testdata/deskstar7k500.parv")
	if err != nil {
		t.Fatal(err)
	}
	if p.Capacity != 976773168*512 || p.Sectors() != 976773168 || len(p.Zones) != 30 || p.Cylinders() != 106413 {
		t.Errorf("capacity %d, layout %d sectors, %d zones, %d cylinders", p.Capacity/512, p.Sectors(), len(p.Zones), p.Cylinders())
	}
	if p.Scheduler != disk.SATF || p.QueueDepth != 32 || p.Segments != 16 || p.BufferSize != 16<<20 ||
		p.ReadAhead != disk.ReadAheadCylinder || !p.WriteCache || !p.WriteCacheAppendOnly || !p.FlushBeforeOther ||
		!p.Overheads.NeverDisconnect || !p.ReadBusWatermarkOfSegment || p.Mapping != disk.MapConventional ||
		p.SeekTable != nil || p.AverageSeek != 8500000 || p.WriteInterfaceRate != 0 || !p.ZeroLatencyRead {
		t.Errorf("params %+v", p)
	}
	if len(rep.Ignored) == 0 || len(rep.Files) != 3 {
		t.Errorf("report %+v", rep)
	}
	d, err := disk.New(sim.NewEngine(1), p, "d", nil)
	if err != nil {
		t.Fatal(err)
	}
	// Spares at the end of the disk (scheme 7): zone 3's slip pushes the
	// LBAs after it on into zone 4, whose first LBA is one less than the
	// slots before it; the last zone keeps 812 - 1 spare slots, less the
	// 2 its own slips take, at its end: its last LBA is in slot N - 810
	// of its N.
	var before int64
	for _, z := range p.Zones[:4] {
		before += int64(z.Cylinders()) * int64(z.SectorsPerTrack) * 10
	}
	z := p.Zones[29]
	s := int64(z.Cylinders())*594*10 - 810
	for _, tc := range []struct {
		lba  int64
		want disk.Location
	}{
		{before - 1, disk.Location{Zone: 4, Cylinder: p.Zones[4].FirstCylinder}},
		{976773167, disk.Location{Zone: 29, Cylinder: z.FirstCylinder + int(s/5940), Head: int(s % 5940 / 594), Sector: int(s % 594)}},
	} {
		if got, err := d.LocateSector(tc.lba); err != nil || got != tc.want {
			t.Errorf("LBA %d at %+v %v, want %+v", tc.lba, got, err, tc.want)
		}
	}
	conform(t, p)
}
