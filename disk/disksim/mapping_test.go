package disksim

import (
	"path/filepath"
	"testing"

	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/sim"
)

// TestMappingReference compares the drive's LBA-to-physical mapping with
// a naive walk over every sector slot of every zone, in the G1 layout's
// order: tracks of a cylinder by surface (reversed on odd cylinders of a
// zone for the serpentine scheme), reserved slots at the zone's front and
// slipped slots skipped, spares at the end left over. The mini drive is
// checked at every LBA; the shared drives at every 61st LBA and around
// every slip and zone boundary.
func TestMappingReference(t *testing.T) {
	files := []string{"testdata/mini.parv", "atlas10k.parv", "hp_c3323a.parv"}
	for i, f := range files {
		if i > 0 {
			f = sharedModelPath(t, f)
		}
		p, _, err := Load(f)
		if err != nil {
			t.Fatal(err)
		}
		d, err := disk.New(sim.NewEngine(1), p, "d", nil)
		if err != nil {
			t.Fatal(err)
		}
		capSectors := d.Capacity() / 512
		var lba int64
		checked := 0
		for zi, z := range p.Zones {
			spt := int64(z.SectorsPerTrack)
			heads := int64(p.Surfaces)
			slots := int64(z.Cylinders()) * heads * spt
			lbas := slots - int64(z.ReservedSectors) - int64(z.SpareSectors)
			slip := map[int64]bool{}
			near := map[int64]bool{}
			for _, s := range z.Slips {
				slip[s] = true
			}
			var n int64
			for s := int64(z.ReservedSectors); s < slots && n < lbas && lba < capSectors; s++ {
				if slip[s] {
					near[lba-1], near[lba], near[lba+1] = true, true, true
					continue
				}
				if lba%61 == 0 || n < 3 || n >= lbas-3 || near[lba] || i == 0 {
					trk := s / spt
					c := trk / heads
					h := trk % heads
					if p.Mapping == disk.MapSerpentine && c%2 == 1 {
						h = heads - 1 - h
					}
					want := disk.Location{Zone: zi, Cylinder: z.FirstCylinder + int(c), Head: int(h), Sector: int(s % spt)}
					got, err := d.LocateSector(lba)
					if err != nil || got != want {
						t.Fatalf("%s: LBA %d (zone %d slot %d): %+v %v, want %+v", filepath.Base(f), lba, zi, s, got, err, want)
					}
					checked++
				}
				n++
				lba++
			}
		}
		if lba != capSectors {
			t.Errorf("%s: the walk mapped %d LBAs, capacity %d", filepath.Base(f), lba, capSectors)
		}
		t.Logf("%s: %d LBAs checked", filepath.Base(f), checked)
	}
}
