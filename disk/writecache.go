package disk

import "github.com/raidsim/raidsim/sim"

// Write cache: which writes it absorbs, and destaging dirty data to the
// platters in the background.

// writeWaitsForRoom reports whether a queued write waits for write-cache
// room: any such write under the reordering schedulers, the oldest
// command under FCFS (whose later commands wait for it anyway).
func (d *Drive) writeWaitsForRoom() bool {
	if d.p.Scheduler == FCFS {
		return d.blockedWrite(&d.slots[d.order[0]])
	}
	for j := 0; j < d.qlen; j++ {
		if c := &d.slots[d.order[j]]; !c.flush && d.blockedWrite(c) {
			return true
		}
	}
	return false
}

// background starts a destage when the arm is free and dirty data should
// go to the platters: a flush or a write waiting for space forces it;
// otherwise it runs when no queued command needs the arm and read-ahead is
// not streaming with the cache less than half full.
func (d *Drive) background(now sim.Time) {
	if d.destageActive || len(d.dirty.ext) == 0 || d.armCmd {
		return
	}
	forced := false
	if d.cur >= 0 {
		switch d.slots[d.cur].kind {
		case kReadStream:
			return
		case kFlush:
			forced = true
		}
	}
	if !forced {
		armWanted := false
		for j := 0; j < d.qlen; j++ {
			c := &d.slots[d.order[j]]
			if c.flush {
				continue
			}
			if d.blockedWrite(c) {
				forced = true
				break
			}
			if !d.noArm(c, now, false) {
				armWanted = true
			}
		}
		if !forced {
			if armWanted {
				return
			}
			if d.ra.active && 2*d.dirty.sectors < d.wcLimit {
				return
			}
		}
	}
	d.stopPrefetch(now)
	d.startDestage(now)
}

// startDestage writes the dirty extent with the shortest access time.
func (d *Drive) startDestage(now sim.Time) {
	a0 := d.angle(now)
	best, bc := 0, int64(1<<62)
	for i := range d.dirty.ext {
		e := &d.dirty.ext[i]
		if c := d.estimate(e.cyl, e.head, e.angle, true, a0); c < bc {
			best, bc = i, c
		}
	}
	e := d.dirty.take(best)
	d.destaging = e
	d.destageActive = true
	var tmp cmd
	tmp.lba, tmp.n = e.lba, e.n
	d.access(&tmp, now, true, now)
	d.st.Destages++
	d.st.DestagedBytes += e.n * d.ss
	d.eng.Schedule(tmp.tMedia1, &d.hDestage, nil)
}

func (d *Drive) onDestageDone(now sim.Time) {
	d.accrue(now)
	d.destageActive = false
	d.noteWriteCache(now)
	d.kick(now)
}

// cacheable reports whether c is a write the write cache may absorb:
// with WriteCacheAppendOnly, only the next piece of a write stream.
func (d *Drive) cacheable(c *cmd) bool {
	return c.write && d.p.WriteCache && !c.fua && c.n <= d.wcLimit && (!d.p.WriteCacheAppendOnly || d.appends(c))
}

// appends reports whether write c continues the write stream: it starts
// where the last command, a write, ended.
func (d *Drive) appends(c *cmd) bool { return c.write && c.lba == d.streamEnd }

// waitsFlush reports whether c must wait for the dirty data to reach the
// media (Params.FlushBeforeOther): it is not the next piece of the write
// stream and dirty data remain.
func (d *Drive) waitsFlush(c *cmd) bool {
	return d.p.FlushBeforeOther && !c.flush && (len(d.dirty.ext) > 0 || d.destageActive) && !d.appends(c)
}

// fits reports whether the write cache has room for n more sectors now.
func (d *Drive) fits(n int64) bool {
	return len(d.dirty.ext) < d.dirty.cap && d.dirty.sectors+n <= d.wcLimit
}

// blockedWrite reports whether c waits for the write cache: a cacheable
// write waiting for space, or a command waiting for a flush (waitsFlush).
func (d *Drive) blockedWrite(c *cmd) bool {
	return (d.cacheable(c) && !d.fits(c.n)) || d.waitsFlush(c)
}
