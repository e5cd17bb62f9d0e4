package disk

import "github.com/raidsim/raidsim/sim"

// The interface: when a command's data cross the bus, and the time the
// drive spends letting go of the bus and taking it back (DiskSim's
// disconnect, reselect and data preparation overheads). With the
// overheads disabled every figure here is zero and a transfer starts as
// soon as its data (or, for a write, the bus) are ready.

// busNs returns the interface transfer time of n sectors of read data.
func (d *Drive) busNs(n int64) int64 { return int64(float64(n)*d.busPerSec + 0.999) }

// busWrNs returns the interface transfer time of n sectors of write data.
func (d *Drive) busWrNs(n int64) int64 { return int64(float64(n)*d.busWrPerSec + 0.999) }

// readMissDone times the bus transfer of read miss c, whose media
// transfer is known: its data start across the bus once the watermark's
// share is in the buffer and the drive, having let go of the bus to
// position the arm, has reconnected; it completes no earlier than the
// last sector is read. A transfer that outruns the media lets go of the
// bus again (unless it holds it) and reconnects for the rest once the
// media is done.
func (d *Drive) readMissDone(c *cmd, bus int64) {
	o := &d.ov
	busStart := c.tMedia0
	if f := d.watermark(c); f > 0 {
		busStart += sim.Time(f * float64(c.tMedia1-c.tMedia0))
	}
	disconnects := o.Enabled && !o.NeverDisconnect
	if c.skip > 0 && (!d.p.PartialHitWait || float64(c.skip) >= d.watermark(c)*float64(c.n)) {
		// A partial hit sends what the buffer holds at once; the rest
		// follows from the media.
		busStart = c.tOver
	} else if disconnects {
		disc := o.ReadDisconnectAfterRead
		if d.prevWrite {
			disc = o.ReadDisconnectAfterWrite
		}
		busStart = max(busStart, c.tOver+sim.Time(disc)) + sim.Time(o.FirstReselect)
	}
	busStart += sim.Time(o.DataPreparation)
	end := busStart + sim.Time(bus)
	c.tDone = max(c.tMedia1, end)
	if disconnects && !o.HoldBusForRead && end < c.tMedia1 {
		c.tDone = c.tMedia1 + sim.Time(o.OtherReselect)
	}
	c.tBus0 = c.tDone - sim.Time(bus)
}

// watermark returns the share of read c that must be in the buffer
// before its data start across the bus.
func (d *Drive) watermark(c *cmd) float64 {
	wm := d.p.ReadBusWatermark
	if d.p.ReadBusWatermarkOfSegment && wm > 0 {
		return min(wm*float64(d.rc.size)/float64(c.n), 1)
	}
	return wm
}

// writeDataAt returns when the data of write c, its command overhead
// over at c.tOver, may start across the bus (the bus being free), and
// when its arm may start moving.
func (d *Drive) writeDataAt(c *cmd, busFree sim.Time) (data, arm sim.Time) {
	o := &d.ov
	data, arm = c.tOver, c.tOver
	if x := &o.Extra; x.Enabled {
		// Disconnected before the data: reconnect after the delay.
		data = c.tOver + sim.Time(x.Disconnect+x.InterDisconnect+o.FirstReselect)
		arm = c.tOver + sim.Time(x.SeekDelta)
	}
	return max(data, busFree) + sim.Time(o.DataPreparation), arm
}

// writeMediaDone times write c's media access and completion: the
// data cross the bus from tBus0, the media write waits for them (and,
// for a write that does not continue the arm's last transfer, for the
// minimum seek delay), and a drive that let go of the bus once the
// data were in reconnects to report completion.
func (d *Drive) writeMediaDone(c *cmd, arm sim.Time, bus sim.Time) {
	o := &d.ov
	in := c.tBus0 + bus
	ready := in
	if o.MinimumSeekDelay > 0 && c.lba != d.lastLBA {
		ready = max(ready, c.tOver+sim.Time(o.MinimumSeekDelay))
	}
	d.access(c, arm, true, ready)
	c.tDone = c.tMedia1
	if !o.Enabled || o.NeverDisconnect || (!o.DisconnectWriteIfSeek && c.tSeek > in) {
		return
	}
	disc, re := o.WriteDisconnect, o.FirstReselect
	if o.Extra.Enabled {
		disc, re = o.Extra.SecondDisconnect, o.OtherReselect
	}
	c.tDone = max(c.tMedia1, in+sim.Time(disc)) + sim.Time(re)
}
