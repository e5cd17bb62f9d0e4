package raidz

import "fmt"

// Geometry is a RAIDZ vdev's shape: Disks children, Parity of them per
// row holding parity (1, 2 or 3), sectors of 2^Ashift bytes.
type Geometry struct {
	Disks, Parity int
	Ashift        uint
}

// Column is one child's part of a record: Size bytes at Offset on child
// Disk. A record's first Parity columns hold its parity (P, Q, R), the
// rest its data in order.
type Column struct {
	Disk         int
	Offset, Size int64
}

// sector is the allocation unit in bytes.
func (g Geometry) sector() int64 { return 1 << g.Ashift }

func (g Geometry) check() error {
	switch {
	case g.Parity < 1 || g.Parity > 3:
		return fmt.Errorf("raidz: parity must be 1, 2 or 3, got %d", g.Parity)
	case g.Disks < g.Parity+2 || g.Disks > 255:
		return fmt.Errorf("raidz: RAIDZ%d needs %d to 255 disks, got %d", g.Parity, g.Parity+2, g.Disks)
	case g.Ashift < 9 || g.Ashift > 16:
		return fmt.Errorf("raidz: ashift must be 9 to 16, got %d", g.Ashift)
	}
	return nil
}

// AllocSize is the vdev space a record of psize bytes takes, in bytes,
// as vdev_raidz_asize computes it: its data sectors, Parity sectors per
// row of Disks-Parity data sectors (a partial last row included), then
// padding to a multiple of Parity+1 sectors, so that no free gap too
// small for the smallest record (one data sector and its parity) is
// ever left.
func (g Geometry) AllocSize(psize int64) int64 {
	s := (psize + g.sector() - 1) >> g.Ashift
	nd := int64(g.Disks - g.Parity)
	tot := s + int64(g.Parity)*((s+nd-1)/nd)
	return roundUp(tot, int64(g.Parity+1)) << g.Ashift
}

// Map lays out a record of psize bytes (a multiple of the sector) at
// vdev byte offset off (a multiple of the sector) as vdev_raidz_map_alloc
// does: the vdev's sectors run across the children row by row, so the
// record's first sector is on child (off/sector) mod Disks; its s data
// sectors are dealt over Disks-Parity data columns, the first r = s mod
// (Disks-Parity) columns getting one sector more, and each parity column
// is as long as the longest data column. Columns that wrap past the last
// child continue one row down on child 0. Columns of no sectors (a
// record narrower than the vdev) are left out. With one parity column,
// records at offsets with bit 20 set swap the parity and the first data
// column's places, as ZFS does to spread RAIDZ1's parity.
func (g Geometry) Map(off, psize int64) []Column {
	b := off >> g.Ashift
	s := psize >> g.Ashift
	dcols := int64(g.Disks)
	np := int64(g.Parity)
	f := b % dcols
	o := (b / dcols) << g.Ashift
	q := s / (dcols - np)
	r := s - q*(dcols-np)
	bc := int64(0)
	if r != 0 {
		bc = r + np
	}
	acols := dcols
	if q == 0 {
		acols = bc
	}
	cols := make([]Column, 0, acols)
	for c := int64(0); c < acols; c++ {
		col, coff := f+c, o
		if col >= dcols {
			col -= dcols
			coff += g.sector()
		}
		size := q
		if c < bc {
			size = q + 1
		}
		cols = append(cols, Column{Disk: int(col), Offset: coff, Size: size << g.Ashift})
	}
	if g.Parity == 1 && off&(1<<20) != 0 && len(cols) > 1 {
		cols[0].Disk, cols[1].Disk = cols[1].Disk, cols[0].Disk
		cols[0].Offset, cols[1].Offset = cols[1].Offset, cols[0].Offset
	}
	return cols
}

func roundUp(x, m int64) int64 { return (x + m - 1) / m * m }
