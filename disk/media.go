package disk

import "github.com/raidsim/raidsim/sim"

// Media access: positioning the arm and timing transfers track by track.

// access computes c's media transfer: the arm leaves its position at t,
// data may pass the head no earlier than ready. It fills c's timeline and
// moves the arm.
func (d *Drive) access(c *cmd, t sim.Time, write bool, ready sim.Time) {
	lba, n := c.lba+c.skip, c.n-c.skip // a partial hit reads the rest
	if d.p.AccessTime == AccessConstant {
		c.seekDist, c.tSeek, c.tRot, c.free = 0, t, max(t, ready), 0
		c.tMedia0, c.tMedia1 = c.tRot, c.tRot+sim.Time(d.p.ConstantAccessTime)
		d.accessed(c, lba, n, write)
		return
	}
	p := d.g.locate(lba)
	dist := p.cyl - d.armCyl
	if dist < 0 {
		dist = -dist
	}
	var s int64
	if dist > 0 {
		s = d.sk.ns(dist, write)
		d.st.Seeks++
		d.st.SeekCylinders += dist
	} else if p.head != d.armHead {
		s = d.headSwitch // settle included; writes add none
	}
	c.seekDist = dist
	c.tSeek = t + sim.Time(s)
	c.tRot = max(c.tSeek, ready)
	d.halfRev = d.p.AccessTime == AccessAverageRotation
	c.tMedia0, c.tMedia1 = d.transfer(c.tRot, lba, p, n, (!write && d.p.ZeroLatencyRead) || (write && d.p.ZeroLatencyWrite))
	c.free = 0
	if !write && d.p.ReadAnyFree && c.tMedia0 > c.tRot && c.skip == 0 {
		c.free = min(p.sector, d.g.zones[p.zone].sectorsIn(int64(c.tMedia0-c.tRot)))
	}
	d.accessed(c, lba, n, write)
}

// accessed records c's media access of n sectors from lba.
func (d *Drive) accessed(c *cmd, lba, n int64, write bool) {
	d.lastLBA = lba + n
	d.armFree = c.tMedia1
	if d.mediaHook != nil {
		d.mediaHook(lba, n, write, c.tMedia0, c.tMedia1)
	}
}

// transfer moves n sectors starting at lba (at p), the head being on p's
// track at time at; it returns when the first sector starts and the last
// ends, and leaves the arm on the last track. Each track's piece is timed
// from the platter's angle when the head gets there, so rounding never
// accumulates. zl reads each track's piece on arrival (zero latency).
func (d *Drive) transfer(at sim.Time, lba int64, p pos, n int64, zl bool) (first, last sim.Time) {
	t := at
	for i := 0; ; i++ {
		z := &d.g.zones[p.zone]
		m := min(n, d.g.trackLBAs(lba, p))
		k := d.g.slotSpan(lba, p, m)
		s, e := d.track(t, z, p.cyl, p.head, p.sector, k, zl)
		if i == 0 {
			first = s
		}
		t = e
		n -= m
		lba += m
		if n <= 0 || lba >= d.g.sectors {
			break
		}
		np := d.g.locate(lba)
		var sw int64
		switch dc := np.cyl - p.cyl; {
		case dc == 0:
			sw = d.headSwitch
		case dc == 1 || dc == -1:
			sw = d.cylSwitch
		default:
			sw = d.sk.ns(max(dc, -dc), false)
		}
		p = np
		t += sim.Time(sw)
	}
	d.armCyl, d.armHead = p.cyl, p.head
	return first, t
}

// track times k sector slots from slot sector of track (cyl, head), the head
// arriving at time at: it waits for the first sector (none if it is there
// or passed less than lateTolerance ago) and returns when the first
// sector starts and the last ends. With zl, a head landing inside the
// slots reads those ahead of it at once and the rest on the next pass, so
// the piece ends one revolution after the partly passed sector.
func (d *Drive) track(at sim.Time, z *zoneInfo, cyl, head, sector, k int64, zl bool) (start, end sim.Time) {
	if d.p.AccessTime != AccessExact {
		// No rotational position: half a revolution's wait when the
		// access is positioned (averageRotation), none as it goes on.
		start = at
		if d.halfRev {
			start += sim.Time(revNs(d.rpm) / 2)
			d.halfRev = false
		}
		return start, start + sim.Time(z.xferNs(k))
	}
	off := (sector + z.trkSkew(cyl, head, d.g.heads)) % z.spt
	a0 := off * unitsPerRev / z.spt
	span := (off+k)*unitsPerRev/z.spt - a0 // angle units the k sectors cover
	w := a0 - d.angle(at)
	if w < 0 {
		w += unitsPerRev
	}
	if w > d.lateUnits {
		w -= unitsPerRev // just late: the sector is passing now
	}
	start = at
	if w > 0 {
		start += sim.Time((w + d.rpm - 1) / d.rpm)
	}
	if into := unitsPerRev - w; zl && w > 0 && into < span {
		// The head is into units past the first slot's start: slot j is
		// under it; it and those before come round again.
		j := (a0 + into) * z.spt / unitsPerRev
		b := (j+1)*unitsPerRev/z.spt - a0 // end of slot j, from a0
		if j-off+1 < k {
			return start, at + sim.Time((b-into+unitsPerRev+d.rpm-1)/d.rpm)
		}
	}
	end = at + sim.Time((w+span+d.rpm-1)/d.rpm)
	return start, end
}
