package disk

import (
	"cmp"
	"slices"
	"time"

	"github.com/raidsim/raidsim/drive"
	"github.com/raidsim/raidsim/sim"
)

// emitPosition tells the observer, if it listens, how media command c
// was positioned: cylinders moved, seek time, the platter's angle when
// the head was ready and when the first sector came round.
func (d *Drive) emitPosition(c *cmd) {
	if !d.obs.WantsPosition() {
		return
	}
	deg := func(t sim.Time) float64 { return float64(d.angle(t)) * 360 / float64(unitsPerRev) }
	d.obs.Position(d.name, c.r, sim.Position{Cylinder: d.g.locate(c.lba).cyl, Distance: c.seekDist,
		Seek: time.Duration(max(c.tSeek, c.tOver) - c.tOver), StartAngle: deg(c.tRot), TargetAngle: deg(c.tMedia0)})
}

// WriteCacheLevel names a drive's write-cache fill (dirty bytes, those
// being written to the media included) in sim.Observer.Level calls.
const WriteCacheLevel = "write cache bytes"

// noteWriteCache tells the observer, if it listens, the write cache's
// fill.
func (d *Drive) noteWriteCache(now sim.Time) {
	if d.obs == nil || d.obs.Level == nil {
		return
	}
	n := d.dirty.sectors
	if d.destageActive {
		n += d.destaging.n
	}
	d.obs.Level(d.name, WriteCacheLevel, n*d.ss, now)
}

// DirtyExtent is a range of a drive's write cache not yet on the
// platters, in bytes from the start of the drive.
type DirtyExtent = drive.Extent

// DirtyExtents returns the data the write cache has acknowledged and not
// yet written to the platters (being written included): the first limit
// ranges in offset order, touching ones merged, and how many there are.
func (d *Drive) DirtyExtents(limit int) (first []DirtyExtent, count int) {
	var all []DirtyExtent
	add := func(e extent) {
		if e.n > 0 {
			all = append(all, DirtyExtent{Offset: e.lba * d.ss, Length: e.n * d.ss})
		}
	}
	for _, e := range d.dirty.ext {
		add(e)
	}
	if d.destageActive {
		add(d.destaging)
	}
	slices.SortFunc(all, func(a, b DirtyExtent) int { return cmp.Compare(a.Offset, b.Offset) })
	out := all[:0]
	for _, e := range all {
		if k := len(out) - 1; k >= 0 && out[k].Offset+out[k].Length >= e.Offset {
			out[k].Length = max(out[k].Length, e.Offset+e.Length-out[k].Offset)
			continue
		}
		out = append(out, e)
	}
	return out[:min(limit, len(out))], len(out)
}
