package disk

import "github.com/raidsim/raidsim/sim"

// Completion: what a finished command leaves in the buffer and write
// cache, the counters, and the observer's phases.

// onCmdDone finishes the command in service.
func (d *Drive) onCmdDone(now sim.Time) {
	d.accrue(now)
	slot := d.cur
	c := &d.slots[slot]
	r := c.r
	d.settle(c, now)
	d.prevWrite = c.write || c.flush
	d.count(c)
	if d.obs != nil {
		d.emitPhases(c)
	}
	d.cur = -1
	d.free[d.nfree] = uint8(slot)
	d.nfree++
	for d.nfree > 0 && d.hostCount > 0 {
		d.enqueue(d.hostPop(), now)
	}
	d.outstanding--
	r.Completed = now
	// The drive chooses its next job before the host hears of this
	// completion: a command the host sends in reply arrives after the
	// completion's round trip, when the arm is already committed.
	d.kick(now)
	d.obs.OnCompleted(d.name, r, now)
	r.Done(r)
}

// settle leaves in the buffer and write cache what finished command c
// brought, by how it was served, and starts read-ahead after a media read.
func (d *Drive) settle(c *cmd, now sim.Time) {
	switch c.kind {
	case kReadMedia:
		d.armCmd = false
		i := d.rc.slot(c.lba)
		s := &d.rc.segs[i]
		if s.end != c.lba || s.end == s.start {
			d.rc.setStart(i, c.lba)
		}
		if c.free > 0 && s.start == c.lba {
			d.rc.setStart(i, c.lba-min(c.free, d.rc.size-min(c.n, d.rc.size)))
		}
		d.rc.extend(i, c.lba+c.n)
		d.rc.touch(i)
		d.st.MediaReads++
		d.ra.keepFrom = c.lba
		d.startPrefetch(i, c.tMedia1, now)
	case kReadHit, kReadStream:
		d.st.ReadHits++
		if i := d.rc.find(c.lba, c.n, d.ra.seg, d.frontAt(now)); i >= 0 {
			d.rc.touch(i)
			if i == d.ra.seg && !d.p.NoReadAheadOnHit {
				d.ra.keepFrom = c.lba
				d.ra.limit = max(d.ra.limit, d.raLimit(c.lba+c.n))
				if !d.ra.active && !d.armCmd && !d.destageActive && d.ra.front < d.ra.limit {
					d.ra.active = true
					d.planChunk(now, now)
				}
			}
		}
	case kWriteCached:
		d.rc.wrote(c.lba, c.n)
		d.dirty.insert(&d.g, c.lba, c.n, d.maxMerge)
		d.noteWriteCache(now)
		d.st.WriteCacheHits++
		if db := d.dirty.sectors + d.destaging.n; d.destageActive && db > d.dirtyPeak {
			d.dirtyPeak = db
		} else if d.dirty.sectors > d.dirtyPeak {
			d.dirtyPeak = d.dirty.sectors
		}
	case kWriteMedia:
		d.armCmd = false
		d.rc.wrote(c.lba, c.n)
		d.dirty.remove(&d.g, c.lba, c.n)
		d.st.MediaWrites++
	}
}

// count adds finished command c to the counters and moves its data.
func (d *Drive) count(c *cmd) {
	r := c.r
	switch {
	case c.flush:
		d.st.Flushes++
	case c.write:
		d.st.Writes++
		d.st.WriteBytes += c.n * d.ss
		if r.Data != nil {
			d.data.write(r, c.lba)
		}
	default:
		d.st.Reads++
		d.st.ReadBytes += c.n * d.ss
		if r.Data != nil {
			d.data.read(r, c.lba)
		}
	}
}

func (d *Drive) emitPhases(c *cmd) {
	o, r, n := d.obs, c.r, d.name
	o.OnPhase(n, r, sim.PhaseQueue, c.tQueue, c.tStart)
	o.OnPhase(n, r, sim.PhaseOverhead, c.tStart, c.tOver)
	if c.kind == kReadMedia || c.kind == kWriteMedia {
		d.emitPosition(c)
	}
	switch c.kind {
	case kReadMedia:
		o.OnPhase(n, r, sim.PhaseSeek, c.tOver, max(c.tSeek, c.tOver))
		o.OnPhase(n, r, sim.PhaseRotate, c.tRot, c.tMedia0)
		o.OnPhase(n, r, sim.PhaseMedia, c.tMedia0, c.tMedia1)
		o.OnPhase(n, r, sim.PhaseBus, c.tBus0, c.tDone)
	case kWriteMedia:
		o.OnPhase(n, r, sim.PhaseBus, c.tBus0, c.tBus0+sim.Time(d.busWrNs(c.n)))
		o.OnPhase(n, r, sim.PhaseSeek, c.tOver, max(c.tSeek, c.tOver))
		o.OnPhase(n, r, sim.PhaseRotate, c.tRot, c.tMedia0)
		o.OnPhase(n, r, sim.PhaseMedia, c.tMedia0, c.tMedia1)
	case kFlush:
		o.OnPhase(n, r, sim.PhaseMedia, c.tOver, c.tDone)
	default:
		o.OnPhase(n, r, sim.PhaseCacheHit, c.tOver, c.tDone)
	}
}
