package disksim

import (
	"fmt"
	"time"

	"github.com/raidsim/raidsim/disk"
)

// ctrl is what a disksim_disk block says about the drive's controller,
// as read, before it becomes Params.
type ctrl struct {
	db                                    *Block
	model                                 *Block
	perReq, scale                         float64
	ov                                    [22]float64
	segs, segSize, writeSegs, sepWrite    int64
	bcr, maxRA                            int64
	highWM                                float64
	wmByReq                               int64
	fastWrite, caching, preseek           int64
	minRA                                 int64
	bulk                                  float64
	sawSched, sawModel, sawSegs, sawSegSz bool
}

// The disksim_disk keys by how they are read.
var (
	// ovKeys index ctrl.ov: the overheads and delays, ms, all scaled by
	// the time scale for overheads (the per-request overhead adds to the
	// first eight).
	ovKeys = map[string]int{
		"read hit over. after read": 0, "read hit over. after write": 1,
		"read miss over. after read": 2, "read miss over. after write": 3,
		"write hit over. after read": 4, "write hit over. after write": 5,
		"write miss over. after read": 6, "write miss over. after write": 7,
		"read completion overhead": 8, "write completion overhead": 9,
		"data preparation overhead": 10, "first reselect overhead": 11, "other reselect overhead": 12,
		"read disconnect afterread": 13, "read disconnect afterwrite": 14, "write disconnect overhead": 15,
		"extradisc command overhead": 16, "extradisc disconnect overhead": 17, "extradisc inter-disconnect delay": 18,
		"extradisc 2nd disconnect overhead": 19, "extradisc seek delta": 20, "minimum seek delay": 21,
	}
	// oneAtATime keys would serve a second command while one is in
	// service; the drive serves one at a time, so only 0 is honoured.
	oneAtATime = map[string]bool{
		"allow sneaky full read hits": true, "allow sneaky partial read hits": true,
		"allow sneaky intermediate read hits": true, "allow write prebuffering": true,
	}
	// ignoredKeys are listed in the Report with the reason.
	ignoredKeys = map[string]string{
		"print stats":                "statistics",
		"hold bus entire write xfer": "a write's data cross the bus whole before its media write",
		"avg sectors per cylinder":   "not used by the disk itself",
		"calc sector by sector":      "timing is exact",
		"low (write) water mark":     "a write's data cross the bus whole before its media write",
		"stop prefetch in sector":    "read-ahead stops at sector granularity",
		"read directly to buffer":    "no separate sector buffer",
	}
	// floatKeys and intKeys are numbers kept in ctrl.
	floatKeys = map[string]func(c *ctrl) *float64{
		"per-request overhead time": func(c *ctrl) *float64 { return &c.perReq },
		"time scale for overheads":  func(c *ctrl) *float64 { return &c.scale },
		"bulk sector transfer time": func(c *ctrl) *float64 { return &c.bulk },
		"high (read) water mark":    func(c *ctrl) *float64 { return &c.highWM },
	}
	intKeys = map[string]func(c *ctrl) *int64{
		"maximum number of write segments": func(c *ctrl) *int64 { return &c.writeSegs },
		"use separate write segment":       func(c *ctrl) *int64 { return &c.sepWrite },
		"set watermark by reqsize":         func(c *ctrl) *int64 { return &c.wmByReq },
		"enable caching in buffer":         func(c *ctrl) *int64 { return &c.caching },
		"buffer continuous read":           func(c *ctrl) *int64 { return &c.bcr },
		"maximum read-ahead (blks)":        func(c *ctrl) *int64 { return &c.maxRA },
		"fast write level":                 func(c *ctrl) *int64 { return &c.fastWrite },
		"preseeking level":                 func(c *ctrl) *int64 { return &c.preseek },
		"minimum read-ahead (blks)":        func(c *ctrl) *int64 { return &c.minRA },
	}
	// flagKeys are 0/1 switches that set a Params field.
	flagKeys = map[string]func(p *disk.Params, on bool){
		"read-ahead on idle hit":        func(p *disk.Params, on bool) { p.NoReadAheadOnHit = !on },
		"allow read hits on write data": func(p *disk.Params, on bool) { p.ReadHitsOnWrites = on },
		"allow almost read hits":        func(p *disk.Params, on bool) { p.NoAlmostHits = !on },
		"read any free blocks":          func(p *disk.Params, on bool) { p.ReadAnyFree = on },
		"immediate buffer read":         func(p *disk.Params, on bool) { p.ZeroLatencyRead = on },
		"immediate buffer write":        func(p *disk.Params, on bool) { p.ZeroLatencyWrite = on },
		"hold bus entire read xfer":     func(p *disk.Params, on bool) { p.Overheads.HoldBusForRead = on },
		"never disconnect":              func(p *disk.Params, on bool) { p.Overheads.NeverDisconnect = on },
		"disconnect write if seek":      func(p *disk.Params, on bool) { p.Overheads.DisconnectWriteIfSeek = on },
		"extra write disconnect":        func(p *disk.Params, on bool) { p.Overheads.Extra.Enabled = on },
		"read-ahead over requested":     func(p *disk.Params, on bool) { p.ReadAheadKeepsRequest = !on },
		"combine seq writes":            func(p *disk.Params, on bool) { p.NoWriteMerge = !on },
		"write hit stop prefetch":       func(p *disk.Params, on bool) { p.WriteHitStopsReadAhead = on },
		"immed transfer partial hit":    func(p *disk.Params, on bool) { p.PartialHits, p.PartialHitWait = true, !on },
	}
)

// diskParam reads key k of the disksim_disk block into c or p; it
// returns false for an unknown key.
func (l *loader) diskParam(c *ctrl, p *disk.Params, k string, pr Param) (bool, error) {
	v := pr.Value
	if i, ok := ovKeys[k]; ok {
		f, err := v.Float()
		c.ov[i] = f
		return true, err
	}
	if oneAtATime[k] {
		n, err := v.Int()
		if err == nil && n != 0 {
			err = errAt(pr.Pos, "%s = %d: cannot honour (the drive serves one command at a time: a queued command waits for the one in service); only 0 is supported", pr.Key, n)
		}
		return true, err
	}
	if why, ok := ignoredKeys[k]; ok {
		l.ignore(c.db.Type, pr.Key, why)
		return true, nil
	}
	if f, ok := floatKeys[k]; ok {
		x, err := v.Float()
		*f(c) = x
		return true, err
	}
	if f, ok := intKeys[k]; ok {
		n, err := v.Int()
		*f(c) = n
		return true, err
	}
	if set, ok := flagKeys[k]; ok {
		n, err := v.Int()
		set(p, n != 0)
		return true, err
	}
	var err error
	switch k {
	case "model":
		if v.Kind != BlockValue {
			return true, errAt(v.Pos, "Model: want a dm_disk block")
		}
		c.model, c.sawModel = v.Block, true
	case "scheduler":
		c.sawSched = true
		err = l.scheduler(v, p)
	case "max queue length":
		var n int64
		n, err = v.Int()
		if err == nil && n < 1 {
			err = errAt(v.Pos, "Max queue length: must be at least 1, got %d", n)
		}
		p.QueueDepth = int(min(n, disk.MaxQueueDepth))
		if n > disk.MaxQueueDepth {
			l.ignore(c.db.Type, pr.Key, fmt.Sprintf("queue depth capped at %d", disk.MaxQueueDepth))
		}
	case "number of buffer segments":
		c.segs, err = v.Int()
		c.sawSegs = true
	case "segment size (in blks)":
		c.segSize, err = v.Int()
		c.sawSegSz = true
	default:
		return false, nil
	}
	return true, err
}

// apply turns what c read into p's controller, interface and buffer
// fields; blockTime is the slowest transfer time (ms per block) of the
// buses and controllers on the way to the disk.
func (c *ctrl) apply(p *disk.Params, blockTime pathTimes) error {
	if err := c.required(p); err != nil {
		return err
	}
	if err := c.overheads(p); err != nil {
		return err
	}
	if err := c.iface(p, blockTime); err != nil {
		return err
	}
	if err := c.buffer(p); err != nil {
		return err
	}
	if err := c.readAhead(p); err != nil {
		return err
	}
	return c.writeCache(p)
}

// required checks that the keys without a default were given.
func (c *ctrl) required(p *disk.Params) error {
	db := c.db
	switch {
	case !c.sawModel:
		return errAt(db.Pos, "%s %s: no Model", db.Type, db.Name)
	case !c.sawSched:
		return errAt(db.Pos, "%s %s: no Scheduler", db.Type, db.Name)
	case !c.sawSegs || !c.sawSegSz:
		return errAt(db.Pos, "%s %s: Number of buffer segments and Segment size (in blks) are required", db.Type, db.Name)
	}
	if p.QueueDepth == 0 {
		p.QueueDepth = 1
	}
	return nil
}

// overheads sets the command overheads and bus delays (ms), scaled;
// the per-request overhead adds to the eight command overheads.
func (c *ctrl) overheads(p *disk.Params) error {
	if c.scale < 0 || c.perReq < 0 {
		return errAt(c.db.Pos, "%s %s: negative overhead scale or per-request overhead", c.db.Type, c.db.Name)
	}
	for k, i := range ovKeys {
		if c.ov[i] < 0 || c.ov[i] > 1000 {
			return errAt(c.db.Pos, "%s %s: %s = %g: must be in 0..1000 ms", c.db.Type, c.db.Name, k, c.ov[i])
		}
	}
	d := func(i int) time.Duration {
		x := c.ov[i]
		if i < 8 {
			x += c.perReq
		}
		return ms(x * c.scale)
	}
	o := &p.Overheads
	o.Enabled = true
	o.ReadHitAfterRead, o.ReadHitAfterWrite, o.ReadMissAfterRead, o.ReadMissAfterWrite = d(0), d(1), d(2), d(3)
	o.WriteHitAfterRead, o.WriteHitAfterWrite, o.WriteMissAfterRead, o.WriteMissAfterWrite = d(4), d(5), d(6), d(7)
	o.ReadCompletion, o.WriteCompletion = d(8), d(9)
	o.DataPreparation, o.FirstReselect, o.OtherReselect = d(10), d(11), d(12)
	o.ReadDisconnectAfterRead, o.ReadDisconnectAfterWrite, o.WriteDisconnect = d(13), d(14), d(15)
	x := &o.Extra
	x.Command, x.Disconnect, x.InterDisconnect, x.SecondDisconnect, x.SeekDelta = d(16), d(17), d(18), d(19), d(20)
	o.MinimumSeekDelay = d(21)
	switch c.preseek {
	case 0, 1:
		// Level 1 lets the arm move once the completion message is
		// prepared: here that is when the command completes (its
		// completion overhead spent), as with level 0.
	case 2:
		// As soon as the last sector (and any read-ahead) is accessed.
		p.Preseek = true
	default:
		return errAt(c.db.Pos, "%s %s: Preseeking level = %d: unknown (0, 1 and 2)", c.db.Type, c.db.Name, c.preseek)
	}
	return nil
}

// iface sets the interface rates for read and write data: the slowest of
// the disk, the buses and controllers, by direction.
func (c *ctrl) iface(p *disk.Params, bt pathTimes) error {
	rd, wr := max(c.bulk, bt.read), max(c.bulk, bt.write)
	if rd < 0 || wr < 0 || rd > 1e3 || wr > 1e3 {
		return errAt(c.db.Pos, "block transfer times must be in 0..1000 ms, got %g (read) and %g (write)", rd, wr)
	}
	rate := func(bt float64) float64 {
		if bt == 0 {
			return 1e12 // DiskSim: transfers take no time
		}
		return 512 / (bt / 1e3)
	}
	p.InterfaceRate = rate(rd)
	if wr != rd {
		p.WriteInterfaceRate = rate(wr)
	}
	return nil
}

// buffer sets the read segments and the bus watermark.
func (c *ctrl) buffer(p *disk.Params) error {
	db := c.db
	if c.segs < 1 || c.segSize < 1 {
		return errAt(db.Pos, "%s %s: buffer segments (%d) and segment size (%d) must be positive", db.Type, db.Name, c.segs, c.segSize)
	}
	// The manual: "whether or not on-board buffer segments are used for
	// data caching as well as for speed-matching": a yes/no flag, any
	// value but 0 meaning yes.
	p.NoBufferCache = c.caching == 0
	readSegs := c.segs
	if c.sepWrite != 0 && c.segs > 1 {
		readSegs = c.segs - 1
	}
	if readSegs > disk.MaxSegments {
		return errAt(db.Pos, "%s %s: %d read segments: more than %d", db.Type, db.Name, readSegs, disk.MaxSegments)
	}
	p.Segments = int(readSegs)
	p.BufferSize = readSegs * c.segSize * 512
	p.ReadBusWatermarkOfSegment = c.wmByReq == 0
	if c.highWM < 0 || c.highWM > 1 {
		return errAt(db.Pos, "%s %s: High (read) water mark %g: must be in 0..1", db.Type, db.Name, c.highWM)
	}
	p.ReadBusWatermark = c.highWM
	return nil
}

// readAhead sets the read-ahead scheme ("buffer continuous read") and
// its maximum.
func (c *ctrl) readAhead(p *disk.Params) error {
	db := c.db
	maxRA := c.maxRA
	switch c.bcr {
	case 0:
		p.ReadAhead = disk.ReadAheadOff
	case 1:
		p.ReadAhead = disk.ReadAheadTrack
	case 2:
		p.ReadAhead = disk.ReadAheadCylinder
	case 3:
		p.ReadAhead = disk.ReadAheadFixed
		maxRA = min(maxRA, c.segSize)
	case 4:
		p.ReadAhead = disk.ReadAheadNextTrack
	default:
		return errAt(db.Pos, "%s %s: Buffer continuous read = %d: unknown", db.Type, db.Name, c.bcr)
	}
	if maxRA < 0 || maxRA >= 1<<40 {
		return errAt(db.Pos, "%s %s: Maximum read-ahead (blks) = %d: must be in 0..2^40", db.Type, db.Name, maxRA)
	}
	if c.minRA < 0 || c.minRA > c.segSize {
		return errAt(db.Pos, "%s %s: Minimum read-ahead (blks) = %d: must be in 0..the segment size (%d)", db.Type, db.Name, c.minRA, c.segSize)
	}
	p.MinReadAheadBytes = min(c.minRA, maxRA) * 512
	if maxRA == 0 {
		p.ReadAhead = disk.ReadAheadOff
	}
	p.ReadAheadBytes = maxRA * 512
	return nil
}

// writeCache sets the write cache from the fast write level: 0 none; 1
// write-back "for contiguous sequential write request streams" only (a
// write is written back if it "appends to the current segment of dirty
// data": here, if it starts where the previous command, a write, ended;
// the first write of a stream goes to the media); 2
// for such streams "even if they are intermixed with read or
// non-appending write requests, although before any such request is
// serviced by the disk, all of the dirty write data must be flushed".
func (c *ctrl) writeCache(p *disk.Params) error {
	db := c.db
	switch c.fastWrite {
	case 0:
		return nil
	case 1, 2:
	default:
		return errAt(db.Pos, "%s %s: Fast write level = %d: unknown (0, 1 and 2)", db.Type, db.Name, c.fastWrite)
	}
	if c.writeSegs < 1 {
		return errAt(db.Pos, "%s %s: Fast write level %d with %d write segments", db.Type, db.Name, c.fastWrite, c.writeSegs)
	}
	p.WriteCache = true
	p.WriteCacheEntries = int(min(c.writeSegs, disk.MaxWriteCacheEntries))
	p.WriteCacheBytes = min(c.writeSegs*c.segSize*512, p.BufferSize)
	p.WriteCacheAppendOnly = c.fastWrite == 1
	p.FlushBeforeOther = true
	return nil
}
