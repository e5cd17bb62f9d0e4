package disk

import (
	"fmt"
	"github.com/raidsim/raidsim/internal/counters"
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

	g           geometry
	sk          seekModel
	rpm         int64
	ss          int64
	ssShift     uint
	capacity    int64 // bytes
	capSectors  int64
	readOv      int64   // ns
	writeOv     int64   // ns
	headSwitch  int64   // ns
	cylSwitch   int64   // ns
	busPerSec   float64 // ns per sector of read data
	busWrPerSec float64 // ns per sector of write data
	streamEnd   int64   // where the write stream continues: the end of the last write started, -1 after a read
	wcLimit     int64   // sectors of dirty data allowed
	raSectors   int64   // read-ahead amount in sectors
	maxMerge    int64   // largest dirty extent, sectors
	minRA       int64   // read-ahead sectors to read before serving another command
	maxAge      sim.Time
	phase       int64 // platter angle at t = 0 (see spindlePhase)
	lateUnits   int64 // waits longer than this many angle units count as none (see lateTolerance)
	ov          CommandOverheads
	prevWrite   bool     // the last command served was a write (or flush)
	armFree     sim.Time // when the arm finished its last job (Params.Preseek)
	halfRev     bool     // the next track piece is a positioned access's first (AccessAverageRotation)

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
	hMinRA   minRAHandler
	hDestage destageHandler
	hRA      raHandler
	hTrim    trimHandler

	// mediaHook, when set (by tests), sees every positioned media access
	// of a command or destage: its first sector, length, direction and
	// the span the data passes the head.
	mediaHook func(lba, n int64, write bool, start, end sim.Time)
}

type cmdHandler struct{ d *Drive }
type destageHandler struct{ d *Drive }
type raHandler struct{ d *Drive }
type minRAHandler struct{ d *Drive }

// trimHandler completes a trim: a disk has no use for a discard.
type trimHandler struct{ d *Drive }

func (h *trimHandler) HandleEvent(now sim.Time, arg any) {
	r := arg.(*sim.Request)
	r.Completed = now
	h.d.obs.OnCompleted(h.d.name, r, now)
	r.Done(r)
}

func (h *cmdHandler) HandleEvent(now sim.Time, _ any)     { h.d.onCmdDone(now) }
func (h *destageHandler) HandleEvent(now sim.Time, _ any) { h.d.onDestageDone(now) }
func (h *raHandler) HandleEvent(now sim.Time, _ any)      { h.d.onChunk(now) }
func (h *minRAHandler) HandleEvent(now sim.Time, _ any)   { h.d.kick(now) }

// New returns a drive with parameters p (defaults filled) on eng, named
// name in observer callbacks and errors. obs may be nil.
func New(eng *sim.Engine, p Params, name string, obs *sim.Observer) (*Drive, error) {
	m, err := NewModel(p)
	if err != nil {
		return nil, fmt.Errorf("disk %s: %w", name, err)
	}
	return m.NewDrive(eng, name, obs)
}

// Model is a drive model checked once: Params with its defaults filled,
// validated. Any number of drives can be built from one Model (the
// members of an array) without checking it again.
type Model struct {
	p Params
	// capSectors is the addressable size in sectors: Params.Capacity
	// when given, else what the zones hold.
	capSectors int64
}

// NewModel fills p's defaults and validates it, reporting every problem.
func NewModel(p Params) (*Model, error) {
	p.FillDefaults()
	if err := p.Validate(); err != nil {
		return nil, err
	}
	p.Zones = append([]Zone(nil), p.Zones...)
	p.SeekTable = append([]SeekPoint(nil), p.SeekTable...)
	m := &Model{p: p, capSectors: newGeometry(&p).sectors}
	if p.Capacity > 0 {
		m.capSectors = p.Capacity / int64(p.SectorSize)
	}
	return m, nil
}

// Params returns the model's parameters, defaults filled.
func (m *Model) Params() Params { return m.p }

// Capacity returns the addressable size of a drive of the model in
// bytes, as Drive.Capacity will.
func (m *Model) Capacity() int64 { return m.capSectors * int64(m.p.SectorSize) }

// SectorSize returns the model's sector size in bytes.
func (m *Model) SectorSize() int { return m.p.SectorSize }

// NewDrive makes a drive of the model on eng. Its platter is at angle 0 at
// t = 0 when the model's SpindleSync is set; otherwise at an angle drawn
// from the engine's random stream "<name>/spindle", so the members of an
// array turn out of phase as unsynchronized drives do. name labels errors
// and Observer calls; obs may be nil.
func (m *Model) NewDrive(eng *sim.Engine, name string, obs *sim.Observer) (*Drive, error) {
	if eng == nil {
		return nil, fmt.Errorf("disk %s: nil engine", name)
	}
	counters.DrivesBuilt.Add(1)
	p := m.p
	d := &Drive{eng: eng, p: p, name: name, obs: obs, cur: -1}
	d.p.RPM = spindleRPM(eng, name, &p)
	d.g = newGeometry(&d.p)
	d.sk = newSeekModel(&d.p, d.g.cylinders)
	d.rpm = int64(d.p.RPM)
	d.maxAge = sim.Time(p.MaxQueueAge)
	d.lateUnits = unitsPerRev - lateTolerance*d.rpm
	d.phase = spindlePhase(eng, name, p.SpindleSync)
	d.ss = int64(p.SectorSize)
	d.ssShift = uint(bits.TrailingZeros64(uint64(d.ss)))
	d.capSectors = m.capSectors
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
	d.busWrPerSec = d.busPerSec
	if p.WriteInterfaceRate > 0 {
		d.busWrPerSec = 1e9 * float64(d.ss) / p.WriteInterfaceRate
	}
	d.streamEnd = -1
	if !d.ov.Enabled {
		d.ov = CommandOverheads{}
	}
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
	if p.NoBufferCache {
		d.raSectors = 0 // no read-ahead: nothing would read it
	}
	d.maxMerge = max(segSectors, 1)
	if p.NoWriteMerge {
		d.maxMerge = 0
	}
	d.minRA = p.MinReadAheadBytes / d.ss
	d.ra.seg = -1
	d.dirty = newDirtySet(p.WriteCacheEntries)
	d.data.ss = d.ss
	d.nfree = p.QueueDepth
	for i := 0; i < p.QueueDepth; i++ {
		d.free[i] = uint8(p.QueueDepth - 1 - i)
	}
	d.host = make([]*sim.Request, 16)
	d.hCmd.d, d.hDestage.d, d.hRA.d, d.hMinRA.d, d.hTrim.d = d, d, d, d, d
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
	if r.Op == sim.Trim { // completes at once, keeping its data
		d.eng.Schedule(now, &d.hTrim, r)
		return nil
	}
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
