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
	ov                                    [10]float64
	segs, segSize, writeSegs, sepWrite    int64
	bcr, maxRA                            int64
	highWM                                float64
	wmByReq                               int64
	fastWrite, caching                    int64
	bulk                                  float64
	sawSched, sawModel, sawSegs, sawSegSz bool
}

// The disksim_disk keys by how they are read.
var (
	// ovKeys index ctrl.ov: the eight overheads and two completions, ms.
	ovKeys = map[string]int{
		"read hit over. after read": 0, "read hit over. after write": 1,
		"read miss over. after read": 2, "read miss over. after write": 3,
		"write hit over. after read": 4, "write hit over. after write": 5,
		"write miss over. after read": 6, "write miss over. after write": 7,
		"read completion overhead": 8, "write completion overhead": 9,
	}
	// mustZero keys name features the model lacks, so only 0 is honoured.
	mustZero = map[string]string{
		"preseeking level":           "preseeking is not modelled",
		"data preparation overhead":  "not modelled",
		"first reselect overhead":    "not modelled",
		"other reselect overhead":    "not modelled",
		"read disconnect afterread":  "not modelled",
		"read disconnect afterwrite": "not modelled",
		"write disconnect overhead":  "not modelled",
		"extra write disconnect":     "not modelled",
		"minimum seek delay":         "not modelled",
		"minimum read-ahead (blks)":  "a minimum read-ahead is not modelled",
	}
	// ignoredKeys are listed in the Report with the reason.
	ignoredKeys = map[string]string{
		"print stats":                         "statistics",
		"hold bus entire read xfer":           "one device per bus: no contention",
		"hold bus entire write xfer":          "one device per bus: no contention",
		"never disconnect":                    "one device per bus: no contention",
		"avg sectors per cylinder":            "not used by the disk itself",
		"calc sector by sector":               "timing is exact",
		"allow sneaky full read hits":         "no hits overtake the command in service",
		"allow sneaky partial read hits":      "no hits overtake the command in service",
		"allow sneaky intermediate read hits": "no hits overtake the command in service",
		"allow write prebuffering":            "no prebuffering of queued writes",
		"low (write) water mark":              "writes are buffered whole",
		"read-ahead over requested":           "read-ahead may reuse the whole segment",
		"combine seq writes":                  "adjacent dirty data always merges",
		"stop prefetch in sector":             "read-ahead stops at sector granularity",
		"disconnect write if seek":            "bus disconnection is not modelled",
		"write hit stop prefetch":             "a write stops read-ahead only if it overlaps it or needs the arm",
		"read directly to buffer":             "no separate sector buffer",
		"immed transfer partial hit":          "partial hits are read from the media",
		"extradisc command overhead":          "extra write disconnect is 0",
		"extradisc disconnect overhead":       "extra write disconnect is 0",
		"extradisc inter-disconnect delay":    "extra write disconnect is 0",
		"extradisc 2nd disconnect overhead":   "extra write disconnect is 0",
		"extradisc seek delta":                "extra write disconnect is 0",
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
	}
	// flagKeys are 0/1 switches that set a Params field.
	flagKeys = map[string]func(p *disk.Params, on bool){
		"read-ahead on idle hit":        func(p *disk.Params, on bool) { p.NoReadAheadOnHit = !on },
		"allow read hits on write data": func(p *disk.Params, on bool) { p.ReadHitsOnWrites = on },
		"allow almost read hits":        func(p *disk.Params, on bool) { p.NoAlmostHits = !on },
		"read any free blocks":          func(p *disk.Params, on bool) { p.ReadAnyFree = on },
		"immediate buffer read":         func(p *disk.Params, on bool) { p.ZeroLatencyRead = on },
		"immediate buffer write":        func(p *disk.Params, on bool) { p.ZeroLatencyWrite = on },
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
	if why, ok := mustZero[k]; ok {
		f, err := v.Float()
		if err == nil && f != 0 {
			err = errAt(pr.Pos, "%s = %s: cannot honour (%s); only 0 is supported", pr.Key, v.Word, why)
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
func (c *ctrl) apply(p *disk.Params, blockTime float64) error {
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

// overheads sets the command overheads (ms), scaled; the per-request
// overhead adds to each.
func (c *ctrl) overheads(p *disk.Params) error {
	if c.scale < 0 || c.perReq < 0 {
		return errAt(c.db.Pos, "%s %s: negative overhead scale or per-request overhead", c.db.Type, c.db.Name)
	}
	d := func(i int) time.Duration {
		x := c.ov[i]
		if i < 8 {
			x += c.perReq
		}
		return ms(x * c.scale)
	}
	p.Overheads = disk.CommandOverheads{Enabled: true,
		ReadHitAfterRead: d(0), ReadHitAfterWrite: d(1), ReadMissAfterRead: d(2), ReadMissAfterWrite: d(3),
		WriteHitAfterRead: d(4), WriteHitAfterWrite: d(5), WriteMissAfterRead: d(6), WriteMissAfterWrite: d(7),
		ReadCompletion: d(8), WriteCompletion: d(9)}
	return nil
}

// iface sets the interface rate: the slowest of the disk, the buses and
// controllers.
func (c *ctrl) iface(p *disk.Params, blockTime float64) error {
	bt := max(c.bulk, blockTime)
	if bt < 0 {
		return errAt(c.db.Pos, "negative block transfer time")
	}
	if bt == 0 {
		p.InterfaceRate = 1e12 // DiskSim: transfers take no time
	} else {
		p.InterfaceRate = 512 / (bt / 1e3)
	}
	return nil
}

// buffer sets the read segments and the bus watermark.
func (c *ctrl) buffer(p *disk.Params) error {
	db := c.db
	if c.segs < 1 || c.segSize < 1 {
		return errAt(db.Pos, "%s %s: buffer segments (%d) and segment size (%d) must be positive", db.Type, db.Name, c.segs, c.segSize)
	}
	if c.caching != 1 {
		return errAt(db.Pos, "%s %s: Enable caching in buffer = %d: cannot honour (the buffer always caches)", db.Type, db.Name, c.caching)
	}
	readSegs := c.segs
	if c.sepWrite != 0 && c.segs > 1 {
		readSegs = c.segs - 1
	}
	if readSegs > disk.MaxSegments {
		return errAt(db.Pos, "%s %s: %d read segments: more than %d", db.Type, db.Name, readSegs, disk.MaxSegments)
	}
	p.Segments = int(readSegs)
	p.BufferSize = readSegs * c.segSize * 512
	if c.wmByReq == 0 {
		return errAt(db.Pos, "%s %s: Set watermark by reqsize = 0: cannot honour (watermarks are fractions of the request)", db.Type, db.Name)
	}
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
	if maxRA < 0 {
		return errAt(db.Pos, "%s %s: Maximum read-ahead (blks) = %d: negative", db.Type, db.Name, maxRA)
	}
	if maxRA == 0 {
		p.ReadAhead = disk.ReadAheadOff
	}
	p.ReadAheadBytes = maxRA * 512
	return nil
}

// writeCache sets the write cache from the fast write level.
func (c *ctrl) writeCache(p *disk.Params) error {
	db := c.db
	switch c.fastWrite {
	case 0:
	case 2:
		if c.writeSegs < 1 {
			return errAt(db.Pos, "%s %s: Fast write level 2 with %d write segments", db.Type, db.Name, c.writeSegs)
		}
		p.WriteCache = true
		p.WriteCacheEntries = int(min(c.writeSegs, disk.MaxWriteCacheEntries))
		p.WriteCacheBytes = min(c.writeSegs*c.segSize*512, p.BufferSize)
	default:
		return errAt(db.Pos, "%s %s: Fast write level = %d: cannot honour (0 and 2 are supported)", db.Type, db.Name, c.fastWrite)
	}
	return nil
}
