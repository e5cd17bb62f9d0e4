package disk

import "github.com/raidsim/raidsim/sim"

// Command service: choosing what to do next and timing a command from
// dispatch to completion.

// kick starts whatever can start now: the next command, a flush's
// completion, background destaging.
func (d *Drive) kick(now sim.Time) {
	if d.cur < 0 && d.qlen > 0 && !d.minReadAheadWait(now) {
		if !d.destageActive && !d.forcedLast && len(d.dirty.ext) > 0 && d.writeWaitsForRoom() && !d.starving(now) {
			// A queued write needs cache room: destage before serving
			// anything else, so reads queue behind the drive's own
			// write-back (as on real drives) and the write cannot be
			// starved by a steady stream of reads. A command that has
			// waited Params.MaxQueueAge still goes first, so a steady
			// stream of writes cannot starve the reads either, and under
			// a steady stream of both the arm alternates between a
			// destage and a queued command.
			d.stopPrefetch(now)
			d.startDestage(now)
			d.forcedLast = true
		}
		if i := d.pick(now); i >= 0 {
			d.start(now, d.removeAt(i))
		}
	}
	if d.cur >= 0 {
		c := &d.slots[d.cur]
		if c.kind == kFlush && !c.doneKnown && len(d.dirty.ext) == 0 && !d.destageActive {
			c.tDone = max(now, c.tOver)
			c.doneKnown = true
			d.eng.Schedule(c.tDone, &d.hCmd, nil)
		}
	}
	d.background(now)
}

// starving reports whether the oldest queued command has waited
// Params.MaxQueueAge and can be served now (pick's starvation guard).
func (d *Drive) starving(now sim.Time) bool {
	c := &d.slots[d.order[0]]
	return !c.flush && now-c.tQueue >= d.maxAge && !d.blockedWrite(c)
}

// start begins serving the command in slot.
//
// Command overhead runs when the command reaches the drive: for a command
// that waited in the tagged queue it overlapped the service of earlier
// commands (NCQ decodes commands as they arrive), so only what is left of
// it delays service. Likewise the data of a write-through command may
// cross the bus while earlier commands use the media, as soon as the bus
// is free.
func (d *Drive) start(now sim.Time, slot uint8) {
	d.cur = int(slot)
	c := &d.slots[slot]
	c.tStart = now
	switch {
	case c.flush:
		c.kind = kFlush
		c.tOver = max(now, c.tQueue+sim.Time(d.writeOv))
		return // kick schedules completion once the cache is clean
	case !c.write:
		d.streamEnd = -1
		hit := d.queuedHit(c, now) // bufferHit, from what it remembers
		ov := d.readOv
		if d.ov.Enabled {
			ov = d.readOverhead(hit || d.canStream(c, now))
		}
		c.tOver = max(now, c.tQueue+sim.Time(ov))
		bus := d.busNs(c.n)
		if hit {
			c.kind = kReadHit
			c.tBus0 = c.tOver + sim.Time(d.ov.DataPreparation)
			c.tDone = c.tBus0 + sim.Time(bus)
			d.scheduleDone(c)
			return
		}
		if d.streamHit(c, now, bus) {
			return
		}
		d.stopPrefetch(now)
		c.kind = kReadMedia
		if d.p.PartialHits && !d.p.NoBufferCache {
			c.skip = d.rc.prefix(c.lba, c.n)
		}
		d.armCmd, d.forcedLast = true, false
		d.access(c, d.preseekFrom(c, ov, c.tOver), false, c.tOver)
		d.readMissDone(c, bus)
		d.scheduleDone(c)
	default:
		cached := d.cacheable(c) && d.fits(c.n)
		d.streamEnd = c.lba + c.n
		c.tOver = max(now, c.tQueue+sim.Time(d.writeOverhead(cached)))
		bus := sim.Time(d.busWrNs(c.n))
		if d.ra.seg >= 0 && d.rc.invalidate(c.lba, c.n, d.ra.seg) {
			d.stopPrefetch(now)
			d.ra.seg = -1
		}
		if cached {
			if d.p.WriteHitStopsReadAhead {
				d.stopPrefetch(now)
			}
			c.kind = kWriteCached
			c.tBus0, _ = d.writeDataAt(c, c.tOver)
			c.tDone = c.tBus0 + bus
			d.scheduleDone(c)
			return
		}
		d.stopPrefetch(now)
		c.kind = kWriteMedia
		d.armCmd, d.forcedLast = true, false
		// The data may cross the bus while earlier commands use the media.
		early := *c
		early.tOver = c.tQueue + sim.Time(d.writeOverhead(false))
		c.tBus0, _ = d.writeDataAt(&early, d.busFree)
		_, arm := d.writeDataAt(c, d.busFree)
		arm = d.preseekFrom(c, int64(arm-c.tOver)+d.writeOverhead(false), arm)
		d.busFree = c.tBus0 + bus
		d.writeMediaDone(c, arm, bus)
		d.scheduleDone(c)
	}
}

// preseekFrom returns when the arm may start moving for command c, due
// to start at `at` and ov ns after c's arrival: with Params.Preseek, as
// soon as the arm finished its last job and ov has passed, if earlier.
func (d *Drive) preseekFrom(c *cmd, ov int64, at sim.Time) sim.Time {
	if !d.p.Preseek {
		return at
	}
	return min(at, max(d.armFree, c.tQueue+sim.Time(ov)))
}

// readOverhead returns the processing time of a read that hits the
// buffer (hit) or not.
func (d *Drive) readOverhead(hit bool) int64 {
	o := &d.ov
	if !o.Enabled {
		return d.readOv
	}
	switch {
	case hit && d.prevWrite:
		return int64(o.ReadHitAfterWrite)
	case hit:
		return int64(o.ReadHitAfterRead)
	case d.prevWrite:
		return int64(o.ReadMissAfterWrite)
	}
	return int64(o.ReadMissAfterRead)
}

// writeOverhead returns the processing time of a write reported complete
// before it reaches the media (hit) or after.
func (d *Drive) writeOverhead(hit bool) int64 {
	o := &d.ov
	if !o.Enabled {
		return d.writeOv
	}
	switch {
	case o.Extra.Enabled:
		return int64(o.Extra.Command)
	case hit && d.prevWrite:
		return int64(o.WriteHitAfterWrite)
	case hit:
		return int64(o.WriteHitAfterRead)
	case d.prevWrite:
		return int64(o.WriteMissAfterWrite)
	}
	return int64(o.WriteMissAfterRead)
}

func (d *Drive) scheduleDone(c *cmd) {
	c.doneKnown = true
	if d.ov.Enabled && c.kind != kFlush {
		if c.write {
			c.tDone += sim.Time(d.ov.WriteCompletion)
		} else {
			c.tDone += sim.Time(d.ov.ReadCompletion)
		}
	}
	if c.kind != kWriteMedia && c.kind != kFlush {
		d.busFree = c.tDone
	}
	d.eng.Schedule(c.tDone, &d.hCmd, nil)
}
