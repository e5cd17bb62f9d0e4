package raidz

import (
	"errors"
	"fmt"

	"github.com/raidsim/raidsim/sim"
)

// DefaultRecordSize is ZFS's default recordsize, 128 KiB.
const DefaultRecordSize = 128 << 10

// DefaultAshift is the sector shift of 4 KiB-sector drives (ashift=12).
const DefaultAshift = 12

// ErrNoSpace reports a write that found no free space on the vdev.
var ErrNoSpace = errors.New("raidz: no space left on the vdev")

// Config describes a RAIDZ array: plain data, defaults filled by New.
type Config struct {
	// Parity is 1, 2 or 3 (RAIDZ1, RAIDZ2, RAIDZ3).
	Parity int
	// Ashift is the log2 of the allocation sector (default 12: 4 KiB).
	Ashift uint
	// RecordSize is the largest record in bytes (default 128 KiB), a
	// power of two from the sector to 16 MiB. The volume is cut into
	// slots of RecordSize; each slot's record is as long as its data
	// written so far (a smaller record for a slot written only in part,
	// as a small file's record is), rounded up to the sector.
	RecordSize int64
	// ScanBatch is how many records a resilver or scrub gathers, in
	// logical order, before issuing them sorted by vdev offset, as
	// OpenZFS's sorted scan does within its memory limit
	// (zfs_scan_mem_lim_fact); zero sorts everything in one batch, -1
	// issues in logical order (the legacy scan).
	ScanBatch int
	// ScanInFlight is the most records a resilver or scrub has in
	// flight (default 16).
	ScanInFlight int
	// Data makes resilver and scrub move and check real bytes, for
	// members that keep them (simtest.MemDevice).
	Data bool
}

// WithDefaults fills the zero fields.
func (c Config) WithDefaults() Config {
	if c.Ashift == 0 {
		c.Ashift = DefaultAshift
	}
	if c.RecordSize == 0 {
		c.RecordSize = DefaultRecordSize
	}
	if c.ScanInFlight == 0 {
		c.ScanInFlight = 16
	}
	return c
}

// Validate reports every problem with c (defaults filled first).
func (c Config) Validate(disks int) error {
	c = c.WithDefaults()
	var errs []error
	if err := (Geometry{Disks: disks, Parity: c.Parity, Ashift: c.Ashift}).check(); err != nil {
		errs = append(errs, err)
	}
	if c.RecordSize < 1<<c.Ashift || c.RecordSize > 16<<20 || c.RecordSize&(c.RecordSize-1) != 0 {
		errs = append(errs, fmt.Errorf("raidz: recordsize must be a power of two from the %d-byte sector to 16 MiB, got %d", 1<<c.Ashift, c.RecordSize))
	}
	if c.ScanBatch < -1 {
		errs = append(errs, fmt.Errorf("raidz: ScanBatch must be -1, 0 or positive, got %d", c.ScanBatch))
	}
	if c.ScanInFlight < 1 || c.ScanInFlight > 4096 {
		errs = append(errs, fmt.Errorf("raidz: ScanInFlight must be 1..4096, got %d", c.ScanInFlight))
	}
	return errors.Join(errs...)
}

// record is one slot's record: psize bytes at vdev byte offset off, or
// none when psize is zero. stale marks a record whose column on a
// replaced child the resilver has not written yet.
type record struct {
	off, psize int64
	stale      bool
}

// Array is a RAIDZ vdev serving a volume (a zvol) of records: a
// sim.Device. Writes are copy-on-write: a record is written whole at a
// newly allocated place (its old data read first when the write covers
// it in part) and its old place freed; reads read a record's data
// columns whole (ZFS checks a record's checksum), reconstructing those on
// failed children from parity.
type Array struct {
	eng     *sim.Engine
	name    string
	cfg     Config
	g       Geometry
	members []sim.Device
	failed  []bool
	failAt  []sim.Time
	ss      int64 // member sector size
	child   int64 // bytes of each member used
	slots   slotTable
	alloc   *allocator
	unit    int64 // allocation unit in bytes: Parity+1 sectors

	locks map[int64]*slotLock
	kids  []*sim.Request
	hDone func(*sim.Request)
	hZero zeroHandler

	ct      counters
	created sim.Time
	scan    *scan
	last    *scan // the last resilver or scrub, finished
}

type counters struct {
	reads, writes, flushes, trims, errors int64
	readBytes, writeBytes                 int64
	rmwReads, degradedReads               int64
	reconstructed                         int64
}

// New makes a RAIDZ array of members with cfg on eng. The volume's
// capacity is as many full records as fit in 31/32 of the vdev (ZFS
// keeps 1/32 as slop space), so copy-on-write always finds room.
func New(eng *sim.Engine, cfg Config, members []sim.Device, name string) (*Array, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(len(members)); err != nil {
		return nil, err
	}
	ss, child := int64(0), int64(-1)
	for i, m := range members {
		if m == nil {
			return nil, fmt.Errorf("raidz: member %d is nil", i)
		}
		if ss == 0 {
			ss = int64(m.SectorSize())
		} else if int64(m.SectorSize()) != ss {
			return nil, fmt.Errorf("raidz: members have different sector sizes")
		}
		if c := m.Capacity(); child < 0 || c < child {
			child = c
		}
	}
	sector := int64(1) << cfg.Ashift
	if sector%ss != 0 {
		return nil, fmt.Errorf("raidz: ashift %d (%d bytes) is not a multiple of the members' %d-byte sector", cfg.Ashift, sector, ss)
	}
	g := Geometry{Disks: len(members), Parity: cfg.Parity, Ashift: cfg.Ashift}
	child = child / sector * sector
	unit := int64(cfg.Parity+1) * sector
	vdev := child * int64(len(members)) / unit * unit
	full := g.AllocSize(cfg.RecordSize)
	slots := vdev / 32 * 31 / full
	if slots < 1 {
		return nil, fmt.Errorf("raidz: members of %d bytes hold no %d-byte record", child, cfg.RecordSize)
	}
	if slots > 1<<30 {
		return nil, fmt.Errorf("raidz: %d records of %d bytes are too many to track; raise recordsize", slots, cfg.RecordSize)
	}
	a := &Array{eng: eng, name: name, cfg: cfg, g: g, members: append([]sim.Device(nil), members...),
		failed: make([]bool, len(members)), failAt: make([]sim.Time, len(members)), ss: ss, child: child,
		slots: slotTable{n: slots, pages: make([][]record, (slots+slotPage-1)/slotPage)}, alloc: newAllocator(vdev / unit), unit: unit,
		locks: map[int64]*slotLock{}, created: eng.Now()}
	a.hDone = a.childDone
	a.hZero.a = a
	return a, nil
}

// Name returns the array's name.
func (a *Array) Name() string { return a.name }

// Capacity returns the volume's size in bytes.
func (a *Array) Capacity() int64 { return a.slots.n * a.cfg.RecordSize }

// SectorSize returns the members' sector size in bytes.
func (a *Array) SectorSize() int { return int(a.ss) }

// Config returns the configuration, defaults filled.
func (a *Array) Config() Config { return a.cfg }

// Geometry returns the vdev's shape.
func (a *Array) Geometry() Geometry { return a.g }

// Members returns the current member devices (a spare in a replaced
// member's slot).
func (a *Array) Members() []sim.Device { return append([]sim.Device(nil), a.members...) }

// Record returns slot's record: its vdev offset and size in bytes, and
// false when the slot holds none.
func (a *Array) Record(slot int64) (off, psize int64, ok bool) {
	r := a.slots.get(slot)
	return r.off, r.psize, r.psize > 0
}

// Columns returns where slot's record lies on the members.
func (a *Array) Columns(slot int64) []Column {
	r := a.slots.get(slot)
	if r.psize == 0 {
		return nil
	}
	return a.g.Map(r.off, r.psize)
}

// AllocatedBytes is the vdev space records take, parity and padding
// included.
func (a *Array) AllocatedBytes() int64 { return (a.alloc.units - a.alloc.free) * a.unit }

// Fail fails member m now: its reads and writes stop, and records are
// served from the others while enough remain.
func (a *Array) Fail(m int) error {
	if m < 0 || m >= len(a.members) {
		return fmt.Errorf("raidz: %s: no member %d", a.name, m)
	}
	if !a.failed[m] {
		a.failed[m], a.failAt[m] = true, a.eng.Now()
	}
	return nil
}

type failEvent struct {
	a *Array
	m int
}

func (f *failEvent) HandleEvent(sim.Time, any) { _ = f.a.Fail(f.m) }

// FailAt fails member m at virtual time t.
func (a *Array) FailAt(t sim.Time, m int) error {
	if m < 0 || m >= len(a.members) {
		return fmt.Errorf("raidz: %s: no member %d", a.name, m)
	}
	a.eng.Schedule(max(t, a.eng.Now()), &failEvent{a, m}, nil)
	return nil
}

// Failed lists the failed members not yet resilvered.
func (a *Array) Failed() []int {
	var out []int
	for i, f := range a.failed {
		if f {
			out = append(out, i)
		}
	}
	return out
}

// usable reports whether column c of record r can be read now.
func (a *Array) usable(r record, c Column) bool {
	if !a.failed[c.Disk] {
		return true
	}
	s := a.scan
	return s != nil && s.resilver && s.member == c.Disk && !r.stale
}

// Submit queues r (see sim.Device).
func (a *Array) Submit(r *sim.Request) error {
	if err := sim.CheckRequest(r, a.Capacity(), int(a.ss)); err != nil {
		return fmt.Errorf("raidz: %s: %w", a.name, err)
	}
	r.Issued, r.Err = a.eng.Now(), nil
	h := &hostOp{r: r}
	switch r.Op {
	case sim.Flush:
		a.ct.flushes++
		t := a.newTask(func(err error) { h.finish(a, err) })
		for m, d := range a.members {
			if !a.failed[m] || a.scan != nil && a.scan.resilver && a.scan.member == m {
				a.io(t, d, sim.Flush, 0, 0, nil)
			}
		}
		a.armTask(t)
		return nil
	case sim.Read:
		a.ct.reads++
		a.ct.readBytes += r.Length
	case sim.Write:
		a.ct.writes++
		a.ct.writeBytes += r.Length
	case sim.Trim:
		a.ct.trims++
	}
	rs := a.cfg.RecordSize
	for off := r.Offset; off < r.End(); {
		slot := off / rs
		lo := off - slot*rs
		n := min(r.End()-off, rs-lo)
		h.pending++
		a.lock(slot, &slotOp{a: a, h: h, slot: slot, lo: lo, n: n, at: off - r.Offset})
		off += n
	}
	return nil
}

// hostOp is a host request waiting for its slot operations.
type hostOp struct {
	r       *sim.Request
	pending int
	err     error
}

func (h *hostOp) finish(a *Array, err error) {
	if err != nil && h.err == nil {
		h.err = err
	}
	if h.pending > 0 {
		h.pending--
		if h.pending > 0 {
			return
		}
	}
	r := h.r
	r.Err = h.err
	if r.Err != nil {
		a.ct.errors++
	}
	r.Completed = a.eng.Now()
	r.Done(r)
}

var _ sim.Device = (*Array)(nil)

// Fill allocates the records of a fraction of the volume's slots at
// once, with no I/O and no time passing, as a pool filled before the run
// would hold them: the slots are streams contiguous files written
// side by side, each file's next record allocated in turn, so records of
// different files interleave on the vdev as concurrent writers' do. A
// resilver's logical walk (file by file) then jumps about the vdev. It
// holds no bytes: an error with Config.Data. Call it before any request.
func (a *Array) Fill(fraction float64, streams int) error {
	switch {
	case a.cfg.Data:
		return fmt.Errorf("raidz: %s: Fill writes no bytes; it is for runs without Config.Data", a.name)
	case fraction < 0 || fraction > 1:
		return fmt.Errorf("raidz: %s: fill fraction must be 0..1, got %g", a.name, fraction)
	case streams < 1 || streams > 1<<20:
		return fmt.Errorf("raidz: %s: fill streams must be 1..%d, got %d", a.name, 1<<20, streams)
	}
	n := int64(fraction * float64(a.slots.n))
	per := (n + int64(streams) - 1) / int64(streams)
	asize := a.g.AllocSize(a.cfg.RecordSize) / a.unit
	for i := int64(0); i < per; i++ {
		for s := int64(0); s < int64(streams); s++ {
			slot := s*per + i
			if slot >= n || a.slots.get(slot).psize > 0 {
				continue
			}
			u, ok := a.alloc.alloc(asize)
			if !ok {
				return fmt.Errorf("raidz: %s: fill: %w", a.name, ErrNoSpace)
			}
			a.slots.set(slot, record{off: u * a.unit, psize: a.cfg.RecordSize})
		}
	}
	return nil
}
