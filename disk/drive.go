package disk

import (
	"fmt"
	"math/bits"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// Drive is a simulated disk drive: a sim.Device on one sim.Engine. Create
// it with New. A Drive is not safe for concurrent use; like the Engine it
// belongs to one goroutine.
type Drive struct {
	eng  *sim.Engine
	p    Params
	name string
	obs  *sim.Observer

	g          geometry
	sk         seekModel
	rpm        int64
	ss         int64
	ssShift    uint
	capacity   int64 // bytes
	capSectors int64
	readOv     int64 // ns
	writeOv    int64 // ns
	headSwitch int64 // ns
	cylSwitch  int64 // ns
	busPerSec  float64
	wcLimit    int64 // sectors of dirty data allowed
	raSectors  int64 // read-ahead amount in sectors
	maxMerge   int64 // largest dirty extent, sectors
	maxAge     sim.Time
	lateUnits  int64 // waits longer than this many angle units count as none (see lateTolerance)
	ov         CommandOverheads
	prevWrite  bool // the last command served was a write (or flush)

	// Tagged command queue: slots, free tags, arrival order.
	slots   [MaxQueueDepth]cmd
	free    [MaxQueueDepth]uint8
	nfree   int
	order   [MaxQueueDepth]uint8
	qlen    int
	nFlushQ int
	cur     int // slot in service, -1 when the controller is idle

	// Host FIFO for requests beyond the queue depth (a ring, grown by
	// doubling and reused).
	host      []*sim.Request
	hostHead  int
	hostCount int

	// Arm.
	armCyl, armHead int64
	armCmd          bool // a command's media access owns the arm
	forcedLast      bool // the arm's last job was a destage forced ahead of queued commands
	lastLBA         int64

	// Read buffer and read-ahead.
	rc readCache
	ra prefetch

	// Write cache.
	dirty         dirtySet
	destaging     extent
	destageActive bool
	dirtyPeak     int64    // sectors
	busFree       sim.Time // when the interface is next free

	data store

	// Accounting.
	created     sim.Time
	st          Stats
	lastAcc     sim.Time
	outstanding int
	busyArea    int64   // ns with a command in service or a destage writing
	queueArea   float64 // integral of outstanding over time, request-ns
	taggedArea  int64   // integral of tags in use over time, command-ns
	hostArea    int64   // integral of hostCount over time, request-ns

	hCmd     cmdHandler
	hDestage destageHandler
	hRA      raHandler

	// mediaHook, when set (by tests), sees every positioned media access
	// of a command or destage: its first sector, length, direction and
	// the span the data passes the head.
	mediaHook func(lba, n int64, write bool, start, end sim.Time)
}

// prefetch is the read-ahead in progress: one chunk (the rest of a track)
// at a time, each ending with an event.
type prefetch struct {
	seg    int  // segment being filled, -1 none
	active bool // a chunk is under way: the arm belongs to read-ahead
	front  int64
	limit  int64
	// The current chunk: sectors [cLBA, cLBA+cN) pass under the head from
	// cStart to cEnd.
	cLBA, cN     int64
	cZone        int
	cStart, cEnd sim.Time
}

type cmdHandler struct{ d *Drive }
type destageHandler struct{ d *Drive }
type raHandler struct{ d *Drive }

func (h *cmdHandler) HandleEvent(now sim.Time, _ any)     { h.d.onCmdDone(now) }
func (h *destageHandler) HandleEvent(now sim.Time, _ any) { h.d.onDestageDone(now) }
func (h *raHandler) HandleEvent(now sim.Time, _ any)      { h.d.onChunk(now) }

// New returns a drive with parameters p (defaults filled) on eng, named
// name in observer callbacks and errors. obs may be nil.
func New(eng *sim.Engine, p Params, name string, obs *sim.Observer) (*Drive, error) {
	if eng == nil {
		return nil, fmt.Errorf("disk %s: nil engine", name)
	}
	p.FillDefaults()
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("disk %s: %w", name, err)
	}
	p.Zones = append([]Zone(nil), p.Zones...)
	p.SeekTable = append([]SeekPoint(nil), p.SeekTable...)
	d := &Drive{eng: eng, p: p, name: name, obs: obs, cur: -1}
	d.g = newGeometry(&d.p)
	d.sk = newSeekModel(&d.p, d.g.cylinders)
	d.rpm = int64(p.RPM)
	d.maxAge = sim.Time(p.MaxQueueAge)
	d.lateUnits = unitsPerRev - lateTolerance*d.rpm
	d.ss = int64(p.SectorSize)
	d.ssShift = uint(bits.TrailingZeros64(uint64(d.ss)))
	d.capSectors = d.g.sectors
	if p.Capacity > 0 {
		d.capSectors = p.Capacity / d.ss
	}
	d.capacity = d.capSectors * d.ss
	d.ov = p.Overheads
	d.readOv = int64(p.ReadOverhead)
	d.writeOv = int64(p.WriteOverhead)
	d.headSwitch = int64(p.HeadSwitch)
	d.cylSwitch = int64(p.CylinderSwitch)
	if d.cylSwitch == 0 {
		d.cylSwitch = d.sk.ns(1, false)
	}
	d.busPerSec = 1e9 * float64(d.ss) / p.InterfaceRate
	d.wcLimit = p.WriteCacheBytes / d.ss
	segSectors := p.BufferSize / int64(p.Segments) / d.ss
	nseg := p.Segments
	if p.ReadHitsOnWrites {
		nseg++
	}
	d.rc = readCache{segs: make([]segment, nseg), nread: p.Segments, size: segSectors}
	switch p.ReadAhead {
	case ReadAheadSegment:
		d.raSectors = segSectors
	case ReadAheadFixed:
		d.raSectors = min(p.ReadAheadBytes/d.ss, segSectors)
	case ReadAheadTrack, ReadAheadCylinder, ReadAheadNextTrack:
		d.raSectors = segSectors
		if p.ReadAheadBytes > 0 {
			d.raSectors = min(p.ReadAheadBytes/d.ss, segSectors)
		}
	}
	d.maxMerge = max(segSectors, 1)
	d.ra.seg = -1
	d.dirty = newDirtySet(p.WriteCacheEntries)
	d.data.ss = d.ss
	d.nfree = p.QueueDepth
	for i := 0; i < p.QueueDepth; i++ {
		d.free[i] = uint8(p.QueueDepth - 1 - i)
	}
	d.host = make([]*sim.Request, 16)
	d.hCmd.d, d.hDestage.d, d.hRA.d = d, d, d
	d.lastAcc = eng.Now()
	d.created = eng.Now()
	return d, nil
}

// Name returns the drive's name.
func (d *Drive) Name() string { return d.name }

// Params returns the drive's parameters, defaults filled.
func (d *Drive) Params() Params { return d.p }

// Capacity returns the addressable size in bytes.
func (d *Drive) Capacity() int64 { return d.capacity }

// SectorSize returns the sector size in bytes.
func (d *Drive) SectorSize() int { return int(d.ss) }

// Revolution returns the time of one platter revolution.
func (d *Drive) Revolution() time.Duration { return time.Duration(revNs(d.rpm)) }

// SeekTime returns the seek time for a seek of distance cylinders, with
// the write settle added for writes. Distance 0 takes no time.
func (d *Drive) SeekTime(distance int, write bool) time.Duration {
	return time.Duration(d.sk.ns(int64(distance), write))
}

// Cylinders returns the number of cylinders.
func (d *Drive) Cylinders() int { return int(d.g.cylinders) }

// Locate returns the physical location of the sector holding byte
// offset off.
func (d *Drive) Locate(off int64) (Location, error) {
	if off < 0 || off >= d.capacity {
		return Location{}, fmt.Errorf("disk %s: offset %d: %w (capacity %d bytes)", d.name, off, sim.ErrOutOfRange, d.capacity)
	}
	p := d.g.locate(off >> d.ssShift)
	return Location{Zone: p.zone, Cylinder: int(p.cyl), Head: int(p.head), Sector: int(p.sector)}, nil
}

// LocateSector returns the physical location of sector lba (in units of
// SectorSize).
func (d *Drive) LocateSector(lba int64) (Location, error) {
	if lba < 0 || lba >= d.capSectors {
		return Location{}, fmt.Errorf("disk %s: sector %d: %w (%d sectors)", d.name, lba, sim.ErrOutOfRange, d.capSectors)
	}
	return d.Locate(lba << d.ssShift)
}

// DirtyBytes returns the bytes of acknowledged writes held only in the
// drive's volatile write cache: what a power loss at this instant loses.
func (d *Drive) DirtyBytes() int64 {
	n := d.dirty.sectors
	if d.destageActive {
		n += d.destaging.n
	}
	return n * d.ss
}

// Submit queues r (see sim.Device). Problems visible now are returned
// and Done is not called; otherwise Done is called once from the event
// loop.
func (d *Drive) Submit(r *sim.Request) error {
	if err := sim.CheckRequest(r, d.capacity, int(d.ss)); err != nil {
		return fmt.Errorf("disk %s: %w", d.name, err)
	}
	now := d.eng.Now()
	d.accrue(now)
	r.Issued = now
	r.Completed = 0
	r.Err = nil
	d.obs.OnSubmitted(d.name, r, now)
	d.outstanding++
	if d.nfree > 0 && d.hostCount == 0 {
		d.enqueue(r, now)
	} else {
		d.hostPush(r)
	}
	d.kick(now)
	return nil
}

func (d *Drive) hostPush(r *sim.Request) {
	if d.hostCount == len(d.host) {
		n := make([]*sim.Request, 2*len(d.host))
		for i := 0; i < d.hostCount; i++ {
			n[i] = d.host[(d.hostHead+i)%len(d.host)]
		}
		d.host, d.hostHead = n, 0
	}
	d.host[(d.hostHead+d.hostCount)%len(d.host)] = r
	d.hostCount++
}

func (d *Drive) hostPop() *sim.Request {
	r := d.host[d.hostHead]
	d.host[d.hostHead] = nil
	d.hostHead = (d.hostHead + 1) % len(d.host)
	d.hostCount--
	return r
}

// accrue integrates busy time and queue length up to now.
func (d *Drive) accrue(now sim.Time) {
	dt := int64(now - d.lastAcc)
	if dt <= 0 {
		return
	}
	if d.cur >= 0 || d.destageActive {
		d.busyArea += dt
	}
	d.queueArea += float64(dt) * float64(d.outstanding)
	d.taggedArea += dt * int64(d.p.QueueDepth-d.nfree)
	d.hostArea += dt * int64(d.hostCount)
	d.lastAcc = now
}

// busNs returns the interface transfer time of n sectors.
func (d *Drive) busNs(n int64) int64 { return int64(float64(n)*d.busPerSec + 0.999) }

// kick starts whatever can start now: the next command, a flush's
// completion, background destaging.
func (d *Drive) kick(now sim.Time) {
	if d.cur < 0 && d.qlen > 0 {
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
		hit := d.bufferHit(c.lba, c.n, now)
		ov := d.readOv
		if d.ov.Enabled {
			ov = d.readOverhead(hit || d.canStream(c, now))
		}
		c.tOver = max(now, c.tQueue+sim.Time(ov))
		bus := d.busNs(c.n)
		if hit {
			c.kind = kReadHit
			c.tBus0 = c.tOver
			c.tDone = c.tOver + sim.Time(bus)
			d.scheduleDone(c)
			return
		}
		if d.streamHit(c, now, bus) {
			return
		}
		d.stopPrefetch(now)
		c.kind = kReadMedia
		d.armCmd, d.forcedLast = true, false
		d.access(c, c.tOver, false, c.tOver)
		busStart := c.tMedia0
		if wm := d.p.ReadBusWatermark; wm > 0 {
			busStart += sim.Time(wm * float64(c.tMedia1-c.tMedia0))
		}
		c.tDone = max(c.tMedia1, busStart+sim.Time(bus))
		c.tBus0 = c.tDone - sim.Time(bus)
		d.scheduleDone(c)
	default:
		cached := d.cacheable(c) && d.fits(c.n)
		c.tOver = max(now, c.tQueue+sim.Time(d.writeOverhead(cached)))
		bus := sim.Time(d.busNs(c.n))
		if d.ra.seg >= 0 && d.rc.invalidate(c.lba, c.n, d.ra.seg) {
			d.stopPrefetch(now)
			d.ra.seg = -1
		}
		if cached {
			c.kind = kWriteCached
			c.tBus0 = c.tOver
			c.tDone = c.tOver + bus
			d.scheduleDone(c)
			return
		}
		d.stopPrefetch(now)
		c.kind = kWriteMedia
		d.armCmd, d.forcedLast = true, false
		c.tBus0 = max(c.tQueue+sim.Time(d.writeOverhead(false)), d.busFree)
		d.busFree = c.tBus0 + bus
		d.access(c, c.tOver, true, c.tBus0+bus)
		c.tDone = c.tMedia1
		d.scheduleDone(c)
	}
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

// bufferHit reports whether [lba, lba+n) is wholly in the buffer: in a
// read segment (including what read-ahead has read so far), in dirty
// data, or in the extent being destaged.
func (d *Drive) bufferHit(lba, n int64, now sim.Time) bool {
	if d.rc.find(lba, n, d.ra.seg, d.frontAt(now)) >= 0 {
		return true
	}
	if len(d.dirty.ext) > 0 && d.dirty.covers(lba, n) {
		return true
	}
	if d.destageActive && d.destaging.lba <= lba && lba+n <= d.destaging.lba+d.destaging.n {
		return true
	}
	return false
}

// frontAt returns the LBA up to which read-ahead has read at now.
func (d *Drive) frontAt(now sim.Time) int64 {
	if !d.ra.active {
		return d.ra.front
	}
	if now <= d.ra.cStart {
		return d.ra.cLBA
	}
	k := d.g.zones[d.ra.cZone].sectorsIn(int64(now - d.ra.cStart))
	return d.ra.cLBA + min(k, d.ra.cN)
}

// streamHit serves c from the read-ahead under way if c starts in the
// segment being filled and read-ahead will reach its end: the command
// completes when its last sector arrives (and the bus has carried it).
func (d *Drive) streamHit(c *cmd, now sim.Time, bus int64) bool {
	if !d.canStream(c, now) {
		return false
	}
	c.kind = kReadStream
	c.tBus0 = c.tOver
	d.ra.limit = max(d.ra.limit, d.raLimit(c.lba+c.n))
	d.resolveStream(c, now, bus)
	return true
}

// canStream reports whether c starts in the segment being filled by
// read-ahead, which will reach its end (with Params.NoAlmostHits, whether
// its first sector has been read already). A read longer than a segment
// streams too: the segment passes data on to the host as it arrives, the
// bus being faster than the media, so it never has to hold the whole
// read.
func (d *Drive) canStream(c *cmd, now sim.Time) bool {
	if !d.ra.active || d.ra.seg < 0 {
		return false
	}
	s := &d.rc.segs[d.ra.seg]
	if d.p.NoAlmostHits && c.lba >= d.frontAt(now) {
		return false
	}
	return c.lba >= s.start && c.lba <= d.ra.cLBA+d.ra.cN
}

// raLimit returns the LBA read-ahead stops at after a read ending at end.
func (d *Drive) raLimit(end int64) int64 {
	lim := end + d.raSectors
	switch d.p.ReadAhead {
	case ReadAheadTrack, ReadAheadCylinder, ReadAheadNextTrack:
		if end <= 0 || end > d.capSectors {
			break
		}
		last := end - 1
		p := d.g.locate(last)
		t := last + d.g.trackLBAs(last, p)
		switch d.p.ReadAhead {
		case ReadAheadNextTrack:
			if t < d.g.sectors {
				t += d.g.trackLBAs(t, d.g.locate(t))
			}
		case ReadAheadCylinder:
			for t < d.g.sectors {
				q := d.g.locate(t)
				if q.cyl != p.cyl {
					break
				}
				t += d.g.trackLBAs(t, q)
			}
		}
		lim = min(t, lim)
	}
	return min(lim, d.capSectors)
}

// resolveStream schedules a streaming read's completion once the chunk
// holding its last sector is planned.
func (d *Drive) resolveStream(c *cmd, now sim.Time, bus int64) {
	end := c.lba + c.n
	if end > d.ra.cLBA+d.ra.cN {
		return
	}
	arr := d.ra.cStart + sim.Time(d.g.zones[d.ra.cZone].xferNs(end-d.ra.cLBA))
	if end <= d.ra.cLBA {
		arr = now
	}
	c.tDone = max(arr, c.tBus0+sim.Time(bus), now)
	d.scheduleDone(c)
}

// access computes c's media transfer: the arm leaves its position at t,
// data may pass the head no earlier than ready. It fills c's timeline and
// moves the arm.
func (d *Drive) access(c *cmd, t sim.Time, write bool, ready sim.Time) {
	p := d.g.locate(c.lba)
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
	c.tMedia0, c.tMedia1 = d.transfer(c.tRot, c.lba, p, c.n, (!write && d.p.ZeroLatencyRead) || (write && d.p.ZeroLatencyWrite))
	c.free = 0
	if !write && d.p.ReadAnyFree && c.tMedia0 > c.tRot {
		c.free = min(p.sector, d.g.zones[p.zone].sectorsIn(int64(c.tMedia0-c.tRot)))
	}
	d.lastLBA = c.lba + c.n
	if d.mediaHook != nil {
		d.mediaHook(c.lba, c.n, write, c.tMedia0, c.tMedia1)
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
		k := m
		if z.slips != nil {
			k = z.phys(lba-z.firstLBA+m-1) - (p.trk*z.spt + p.sector) + 1
		}
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
	off := (sector + z.trkSkew(cyl, head, d.g.heads)) % z.spt
	a0 := off * unitsPerRev / z.spt
	span := (off+k)*unitsPerRev/z.spt - a0 // angle units the k sectors cover
	w := a0 - angleAt(at, d.rpm)
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

// onCmdDone finishes the command in service.
func (d *Drive) onCmdDone(now sim.Time) {
	d.accrue(now)
	slot := d.cur
	c := &d.slots[slot]
	r := c.r
	switch c.kind {
	case kReadMedia:
		d.armCmd = false
		i := d.rc.slot(c.lba)
		s := &d.rc.segs[i]
		if s.end != c.lba || s.end == s.start {
			s.start = c.lba
		}
		if c.free > 0 && s.start == c.lba {
			s.start = c.lba - min(c.free, d.rc.size-min(c.n, d.rc.size))
		}
		d.rc.extend(i, c.lba+c.n)
		d.rc.touch(i)
		d.st.MediaReads++
		d.startPrefetch(i, c.tMedia1, now)
	case kReadHit, kReadStream:
		d.st.ReadHits++
		if i := d.rc.find(c.lba, c.n, d.ra.seg, d.frontAt(now)); i >= 0 {
			d.rc.touch(i)
			if i == d.ra.seg && !d.p.NoReadAheadOnHit {
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
	d.prevWrite = c.write || c.flush
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

func (d *Drive) emitPhases(c *cmd) {
	o, r, n := d.obs, c.r, d.name
	o.OnPhase(n, r, sim.PhaseQueue, c.tQueue, c.tStart)
	o.OnPhase(n, r, sim.PhaseOverhead, c.tStart, c.tOver)
	switch c.kind {
	case kReadMedia:
		o.OnPhase(n, r, sim.PhaseSeek, c.tOver, c.tSeek)
		o.OnPhase(n, r, sim.PhaseRotate, c.tRot, c.tMedia0)
		o.OnPhase(n, r, sim.PhaseMedia, c.tMedia0, c.tMedia1)
		o.OnPhase(n, r, sim.PhaseBus, c.tBus0, c.tDone)
	case kWriteMedia:
		o.OnPhase(n, r, sim.PhaseBus, c.tBus0, c.tBus0+sim.Time(d.busNs(c.n)))
		o.OnPhase(n, r, sim.PhaseSeek, c.tOver, c.tSeek)
		o.OnPhase(n, r, sim.PhaseRotate, c.tRot, c.tMedia0)
		o.OnPhase(n, r, sim.PhaseMedia, c.tMedia0, c.tMedia1)
	case kFlush:
		o.OnPhase(n, r, sim.PhaseMedia, c.tOver, c.tDone)
	default:
		o.OnPhase(n, r, sim.PhaseCacheHit, c.tOver, c.tDone)
	}
}

// startPrefetch begins read-ahead into segment seg from its end, the head
// having finished the read at from (<= now).
func (d *Drive) startPrefetch(seg int, from, now sim.Time) {
	d.ra.seg = seg
	d.ra.active = false
	s := &d.rc.segs[seg]
	d.ra.front = s.end
	d.ra.limit = d.raLimit(s.end)
	if d.ra.front >= d.ra.limit {
		return
	}
	d.ra.active = true
	d.planChunk(from, now)
}

// planChunk plans the next read-ahead chunk from the arm's position at
// time t, catching up with now if t is in the past, and schedules its end.
func (d *Drive) planChunk(t, now sim.Time) {
	for {
		f := d.ra.front
		p := d.g.locate(f)
		var sw int64
		if p.cyl != d.armCyl {
			dist := p.cyl - d.armCyl
			if dist < 0 {
				dist = -dist
			}
			if dist == 1 {
				sw = d.cylSwitch
			} else {
				sw = d.sk.ns(dist, false)
			}
		} else if p.head != d.armHead {
			sw = d.headSwitch
		}
		k := min(d.ra.limit-f, d.g.trackLBAs(f, p))
		first, last := d.transfer(t+sim.Time(sw), f, p, k, false)
		d.ra.cLBA, d.ra.cN, d.ra.cZone = f, k, p.zone
		d.ra.cStart, d.ra.cEnd = first, last
		if last >= now {
			d.eng.Schedule(last, &d.hRA, nil)
			if d.cur >= 0 {
				if c := &d.slots[d.cur]; c.kind == kReadStream && !c.doneKnown {
					d.resolveStream(c, now, d.busNs(c.n))
				}
			}
			return
		}
		// Chunk already over: account it and plan the next.
		if !d.finishChunk() {
			return
		}
		t = last
	}
}

// finishChunk records the current chunk as read; it reports whether
// read-ahead goes on.
func (d *Drive) finishChunk() bool {
	d.ra.front = d.ra.cLBA + d.ra.cN
	d.rc.extend(d.ra.seg, d.ra.front)
	d.st.ReadAheadBytes += d.ra.cN * d.ss
	d.ra.cN = 0
	if d.ra.front >= d.ra.limit {
		d.ra.active = false
		return false
	}
	return true
}

// onChunk handles the end of a read-ahead chunk. Stale events (from a
// read-ahead stopped since) are recognised by their time.
func (d *Drive) onChunk(now sim.Time) {
	if !d.ra.active || now != d.ra.cEnd || d.ra.cN == 0 {
		return
	}
	d.accrue(now)
	if d.finishChunk() {
		d.planChunk(now, now)
	}
	d.kick(now)
}

// stopPrefetch ends read-ahead at now, keeping what it has read.
func (d *Drive) stopPrefetch(now sim.Time) {
	if !d.ra.active {
		return
	}
	f := d.frontAt(now)
	d.st.ReadAheadBytes += (f - d.ra.cLBA) * d.ss
	d.ra.front = f
	d.rc.extend(d.ra.seg, f)
	d.ra.active = false
	d.ra.cN = 0
}

// startDestage writes the dirty extent with the shortest access time.
func (d *Drive) startDestage(now sim.Time) {
	a0 := angleAt(now, d.rpm)
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
	d.kick(now)
}
