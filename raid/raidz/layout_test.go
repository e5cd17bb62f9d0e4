package raidz

import (
	"testing"
)

// A 128 KiB record on four disks in RAIDZ1 at ashift 12, by hand: 32
// data sectors over 3 data columns, q = 10, r = 2, so columns of 11, 11
// and 10 sectors and an 11-sector parity column: 43 sectors, padded to a
// multiple of 2: 44 (the 44 KiB per disk of ZFS's resilver writes). The
// next record starts 44 sectors on: row 11, child 0.
func TestLayoutByHand(t *testing.T) {
	g := Geometry{Disks: 4, Parity: 1, Ashift: 12}
	if err := g.check(); err != nil {
		t.Fatal(err)
	}
	if got := g.AllocSize(128 << 10); got != 44<<12 {
		t.Fatalf("asize %d, want %d", got, 44<<12)
	}
	want := []Column{{0, 0, 11 << 12}, {1, 0, 11 << 12}, {2, 0, 11 << 12}, {3, 0, 10 << 12}}
	if got := g.Map(0, 128<<10); !equalCols(got, want) {
		t.Fatalf("map %v, want %v", got, want)
	}
	want = []Column{{0, 11 << 12, 11 << 12}, {1, 11 << 12, 11 << 12}, {2, 11 << 12, 11 << 12}, {3, 11 << 12, 10 << 12}}
	if got := g.Map(44<<12, 128<<10); !equalCols(got, want) {
		t.Fatalf("second record %v, want %v", got, want)
	}
	// A 4 KiB record at sector 3: parity on child 3, data wraps to child
	// 0 one row down; 2 sectors, already a multiple of 2.
	want = []Column{{3, 0, 4096}, {0, 4096, 4096}}
	if got := g.Map(3<<12, 4096); !equalCols(got, want) || g.AllocSize(4096) != 2<<12 {
		t.Fatalf("small record %v (asize %d), want %v (8192)", got, g.AllocSize(4096), want)
	}
	// Bit 20 of the offset set: RAIDZ1 swaps parity and first data column.
	off := int64(1 << 20) // sector 256: child 0, row 64
	got := g.Map(off, 8192)
	if got[0].Disk != 1 || got[1].Disk != 0 {
		t.Fatalf("at 1 MiB: %v, want parity on child 1 and data on child 0", got)
	}
	// RAIDZ2 on 6 disks, 5 sectors: 4 data columns, q = 1, r = 1: columns
	// of 2, 1, 1, 1 data sectors and two 2-sector parity columns: 9
	// sectors, padded to a multiple of 3: 9.
	g2 := Geometry{Disks: 6, Parity: 2, Ashift: 12}
	if got := g2.AllocSize(5 << 12); got != 9<<12 {
		t.Fatalf("raidz2 asize %d, want %d", got, 9<<12)
	}
	sizes := []int64{2, 2, 2, 1, 1, 1}
	for i, c := range g2.Map(0, 5<<12) {
		if c.Size != sizes[i]<<12 || c.Disk != i {
			t.Fatalf("raidz2 column %d: %+v, want %d sectors on child %d", i, c, sizes[i], i)
		}
	}
	for _, bad := range []Geometry{{3, 2, 12}, {4, 0, 12}, {5, 1, 8}} {
		if bad.check() == nil {
			t.Fatalf("%+v accepted", bad)
		}
	}
}

func equalCols(a, b []Column) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
