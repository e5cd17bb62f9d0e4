package disksim

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/sim"
)

// g1Models are the hand-written layouts in testdata/g1: every sparing
// scheme, the disk-wide serpentine mapping, a zone table with a gap,
// a shared cylinder and a cylinder count off by one, and the access time
// types averageRotation and constant.
var g1Models = []string{
	"sparing0", "sparing1", "sparing2", "sparing3", "sparing4", "sparing5", "sparing6",
	"sparing7", "sparing8", "sparing9", "sparing10", "mapping2", "zonegaps", "accessavg", "accessconst",
}

// g1Files returns the tiny drive's files with model (a file in
// testdata/g1, without ".model") as its layout and specs as its
// diskspecs, keyed as LoadWith asks for them.
func g1Files(t testing.TB, model, specs string) map[string]string {
	t.Helper()
	m := map[string]string{}
	ents, err := os.ReadDir("testdata/g1")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("testdata/g1", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		m["testdata/g1/"+e.Name()] = string(b)
	}
	s := m["testdata/g1/"+specs]
	m["testdata/g1/tiny.diskspecs"] = strings.Replace(s, "source sparing9.model", "source "+model+".model", 1)
	return m
}

// loadG1 loads the tiny drive with the given layout and diskspecs.
func loadG1(t testing.TB, model, specs string) (disk.Params, Report, map[string]string) {
	t.Helper()
	files := g1Files(t, model, specs)
	p, rep, err := LoadWith("testdata/g1/tiny.parv", memFS(files))
	if err != nil {
		t.Fatalf("%s with %s: %v", model, specs, err)
	}
	return p, rep, files
}

// TestG1Mapping maps every LBA of each hand-written layout as the naive
// reference (naiveG1) does, and checks the capacity.
func TestG1Mapping(t *testing.T) {
	for _, name := range g1Models {
		t.Run(name, func(t *testing.T) {
			p, _, files := loadG1(t, name, "tiny.diskspecs")
			want := naiveG1(t, files["testdata/g1/"+name+".model"])
			d, err := disk.New(sim.NewEngine(1), p, "d", nil)
			if err != nil {
				t.Fatal(err)
			}
			n := d.Capacity() / 512
			if n != int64(len(want)) {
				t.Fatalf("capacity %d sectors, the reference maps %d", n, len(want))
			}
			for lba := int64(0); lba < n; lba++ {
				got, err := d.LocateSector(lba)
				if err != nil || got != want[lba] {
					t.Fatalf("LBA %d: %+v %v, want %+v", lba, got, err, want[lba])
				}
			}
		})
	}
}

// TestG1Conformance runs the sim.Device conformance suite on the tiny
// drive with every hand-written layout and every diskspecs variant.
func TestG1Conformance(t *testing.T) {
	type load struct{ model, specs string }
	var loads []load
	for _, m := range g1Models {
		loads = append(loads, load{m, "tiny.diskspecs"})
	}
	for _, s := range []string{"tiny-fw1.diskspecs", "tiny-nocache.diskspecs"} {
		loads = append(loads, load{"sparing3", s}, load{"sparing1", s})
	}
	for _, l := range loads {
		t.Run(l.model+"/"+l.specs, func(t *testing.T) {
			p, _, _ := loadG1(t, l.model, l.specs)
			conform(t, p)
		})
	}
}

// naiveG1 maps every LBA of the layout in the model file src by the
// words of DiskSim's manual, with lists and no arithmetic shortcuts. A
// zone's sector slots are listed cylinder by cylinder, each cylinder's
// tracks in the mapping's order (serpentine schemes reverse odd
// cylinders: counted in the zone for 1, from cylinder 0 for 2). Then, by
// sparing scheme: which slots are spares, which slips skip; the zone's
// "Empty space at zone front" drops its first data slots; "defects"
// pairs move a data slot's LBA to a spare.
func naiveG1(t *testing.T, src string) []disk.Location {
	t.Helper()
	f, err := Parse("m.model", memFS(map[string]string{"m.model": src}))
	if err != nil {
		t.Fatal(err)
	}
	dm := f.Blocks[0]
	num := func(b *Block, key string) int64 {
		p, ok := b.Get(key)
		if !ok {
			t.Fatalf("%s lacks %s", b.Type, key)
		}
		v, err := p.Value.Int()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	list := func(b *Block, key string) []int64 {
		p, _ := b.Get(key)
		var out []int64
		for _, v := range p.Value.List {
			n, _ := v.Int()
			out = append(out, n)
		}
		return out
	}
	heads := num(dm, "Number of data surfaces")
	lp, _ := dm.Get("Layout Model")
	lay := lp.Value.Block
	mapping, scheme, rangeSize := num(lay, "LBN-to-PBN mapping scheme"), num(lay, "Sparing scheme used"), num(lay, "Rangesize for sparing")
	zp, _ := lay.Get("Zones")
	var all []disk.Location // scheme 7: the whole disk's data slots
	var out []disk.Location
	totalSpares := int64(0)
	for zi, zv := range zp.Value.List {
		zb := zv.Block
		first, last, spt := num(zb, "First cylinder number"), num(zb, "Last cylinder number"), num(zb, "Blocks per track")
		k, empty := num(zb, "Number of spares"), num(zb, "Empty space at zone front")
		slips, defects := list(zb, "slips"), list(zb, "defects")
		totalSpares += k
		slots := naiveSlots(zi, first, last, heads, spt, mapping)
		data := naiveZoneData(scheme, rangeSize, k, spt, heads*spt, int64(len(slots)), slips)
		data = data[empty:]
		var locs []disk.Location
		for _, s := range data {
			locs = append(locs, slots[s])
		}
		// Defects: the LBA whose slot is the defect lives at the spare
		// (tracks under scheme 1: the same sector of the spare track).
		for j := 0; j+1 < len(defects); j += 2 {
			for i, s := range data {
				if scheme == 1 && s/spt == defects[j] {
					locs[i] = slots[defects[j+1]*spt+s%spt]
				} else if scheme != 1 && s == defects[j] {
					locs[i] = slots[defects[j+1]]
				}
			}
		}
		if scheme == 7 {
			all = append(all, locs...)
			continue
		}
		out = append(out, locs...)
	}
	if scheme == 7 {
		// The disk's spares are its last slots; slips pushed LBAs into them.
		out = all[:int64(len(all))-(totalSpares-countSlips(zp.Value.List, list))]
	}
	return out
}

// naiveSlots lists the sector slots of zone zi (cylinders first..last)
// in the order mapping scheme mapping visits them.
func naiveSlots(zi int, first, last, heads, spt, mapping int64) []disk.Location {
	var slots []disk.Location
	for c := first; c <= last; c++ {
		for i := int64(0); i < heads; i++ {
			h := i
			if (mapping == 1 && (c-first)%2 == 1) || (mapping == 2 && c%2 == 1) {
				h = heads - 1 - i
			}
			for s := int64(0); s < spt; s++ {
				slots = append(slots, disk.Location{Zone: zi, Cylinder: int(c), Head: int(h), Sector: int(s)})
			}
		}
	}
	return slots
}

// countSlips counts the slips of every zone.
func countSlips(zones []Value, list func(*Block, string) []int64) int64 {
	var n int64
	for _, z := range zones {
		n += int64(len(list(z.Block, "slips")))
	}
	return n
}

// naiveZoneData returns, in LBA order, the slot indices of a zone of n
// slots (perCyl a cylinder, spt a track) that hold data under sparing
// scheme with k spares and the given slips (tracks under scheme 1).
func naiveZoneData(scheme, rangeSize, k, spt, perCyl, n int64, slips []int64) []int64 {
	slipped := map[int64]bool{}
	for _, s := range slips {
		slipped[s] = true
	}
	var out []int64
	notSlipped := func(from, to int64) []int64 {
		var l []int64
		for s := from; s < to; s++ {
			if !slipped[s] {
				l = append(l, s)
			}
		}
		return l
	}
	region := map[int64]int64{2: perCyl, 3: spt, 4: perCyl, 5: perCyl, 6: perCyl, 8: rangeSize * perCyl}[scheme]
	front := scheme == 5 || scheme == 6
	switch scheme {
	case 0, 7:
		return notSlipped(0, n)
	case 1: // whole tracks: the last k spare, slipped tracks use them
		tracks := notSlipped(0, n/spt)
		for _, tr := range tracks[:n/spt-k] {
			for s := tr * spt; s < (tr+1)*spt; s++ {
				out = append(out, s)
			}
		}
		return out
	case 9: // the zone's last k slots are spares; slips use them
		return notSlipped(0, n)[:n-k]
	case 10: // ... slips do not: they push LBAs out of the zone
		return notSlipped(0, n)[:n-k-int64(len(slips))]
	case 2, 3, 5, 8: // each region holds len-k LBAs in its slots not slipped
		for b := int64(0); b < n; b += region {
			l := notSlipped(b, min(b+region, n))
			need := min(b+region, n) - b - k
			if front {
				out = append(out, l[int64(len(l))-need:]...)
			} else {
				out = append(out, l[:need]...)
			}
		}
		return out
	case 4, 6: // each region's first or last k slots are spares; slips skip
		for s := int64(0); s < n; s++ {
			w := s % region
			if slipped[s] || (front && w < k) || (!front && w >= region-k) {
				continue
			}
			out = append(out, s)
		}
		return out
	}
	panic("unknown scheme")
}
