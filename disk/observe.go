package disk

import (
	"time"

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
		Seek: time.Duration(c.tSeek - c.tOver), StartAngle: deg(c.tRot), TargetAngle: deg(c.tMedia0)})
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
