package exact

import (
	"errors"
	"fmt"
	"math"
	"math/big"
)

// Model is a DiskSim 4.0 disk and the path from the host to it, with
// every value as DiskSim's loader stores it (package disk/disksim reads
// the files into one). Times are in milliseconds unless a field says
// picoseconds.
type Model struct {
	// Layout is the dm_layout_g1.
	Layout Layout
	// Mech is the dm_mech_g1.
	Mech Mech
	// Disk is the disksim_disk block's controller and buffer.
	Disk Disk
	// Queue is the disk's scheduler; DriverQueue the driver's.
	Queue, DriverQueue Queue
	// DriverQueueing is the driver's "Use queueing in subsystem".
	DriverQueueing bool
	// DriverConstTime is the driver's "Constant access time", ms: 0
	// simulates the subsystem; a positive time completes every request
	// that long after the driver schedules it, the subsystem untouched
	// (iodriver_schedule). Negative values take times from the trace:
	// -2 the queue times (the subsystem simulated), any other the access
	// times, -3 both; validate traces carry 0 for both, and Run refuses
	// them with ASCII traces, which carry none.
	DriverConstTime float64
	// Bus is the bus the disk sits on.
	Bus Bus
	// Controller, when not nil, sits between the driver's bus (TopBus)
	// and Bus.
	Controller *Controller
	// TopBus is the driver's bus when a controller sits below it.
	TopBus Bus
}

// Layout is a dm_layout_g1.
type Layout struct {
	// Mapping is the LBN-to-PBN mapping scheme, 0-2.
	Mapping int
	// Sparing is the sparing scheme, 1-10 (DiskSim rejects 0).
	Sparing int
	// RangeSize is the "Rangesize for sparing", cylinders.
	RangeSize int
	// Surfaces and Cylinders are the dm_disk's "Number of data surfaces"
	// and "Number of cylinders".
	Surfaces, Cylinders int
	// Zones are the zones in file order.
	Zones []Zone
}

// Zone is a dm_layout_g1_zone as loaded. Angles are in 2^-32 of a
// revolution, converted as the source converts them: skews and offsets
// given in sectors are truncated to whole sectors first.
type Zone struct {
	FirstCyl, LastCyl, BlocksPerTrack int
	EmptySpace, Spares                int
	FirstBlockAngle, TrackSkew        uint32
	CylSkew                           uint32
	// Slips and the defect pairs, in file order.
	Slips, Defects, Remaps []int
}

// Mech is a dm_mech_g1 as loaded.
type Mech struct {
	// SeekType is 0 constant, 1 linear, 2 curve, 3 hpl, 4 hplplus10, 5
	// extracted (mech_g1.h disk_seek_t).
	SeekType int
	// SeekTime, Single, Average and Full are the "Constant seek time",
	// "Single cylinder seek time", "Average seek time" and "Full strobe
	// seek time" as DiskSim stores them: the millisecond figure truncated
	// into a picosecond field. Single is replaced by the sixth HPL value
	// when that is not -1.
	SeekTime, Single, Average, Full int64
	// WriteSettle and HeadSwitch are in picoseconds.
	WriteSettle, HeadSwitch int64
	// HPLV1 is V1 of the HPL equation (cylinders); HPL[1..5] are V2..V6
	// in picoseconds (V6 -1 when not given); HPL[0] is never loaded by
	// DiskSim and compared with the seek distance by its hpl seek type:
	// DiskSim 4.0's value there is 0.
	HPLV1 int
	HPL   [6]int64
	// First10 are the first ten seek times, picoseconds.
	First10 [10]int64
	// CurveDist and CurveTime are the extracted seek curve (ps). With
	// no curve (no "Full seek curve" given) the extracted seek type
	// seeks in no time, as dm_mech_g1_seek_extracted's loop over an
	// empty curve leaves its result at 0.
	CurveDist []int
	CurveTime []int64
	// CurveBeforeDist and CurveBeforeTime are what the source reads
	// before the curve's first entry (see dm_mech_g1_seek_extracted).
	CurveBeforeDist int
	CurveBeforeTime int64
	// RPM is the rotation speed.
	RPM int
}

// Disk is a disksim_disk's controller and buffer as DiskSim keeps them
// after its post-load adjustments (disk_postpass_perdisk): times in ms.
type Disk struct {
	Overhead, TimeScale, BlockTime                            float64
	HoldBusRead, HoldBusWrite                                 bool
	AlmostReadHits                                            bool
	SneakyFullHits, SneakyPartialHits, SneakyIntermediateHits bool
	ReadHitsOnWrites, WritePrebuffering                       bool
	Preseek                                                   int
	NeverDisconnect                                           bool
	MaxQueue                                                  int
	WriteHitStopsReadAhead, ReadDirect, ImmedTransferPartial  bool
	ReadAnyFree                                               bool
	Segments, WriteSegments                                   int
	SeparateWriteSegment                                      bool
	SegmentSize                                               int
	LowWater, HighWater                                       float64
	WaterByRequest, Caching                                   bool
	ContRead, MinReadAhead, MaxReadAhead                      int
	// KeepRequestData is 1 - "Read-ahead over requested" for 0 and 1,
	// and -1 for -1, as the post-load pass leaves it.
	KeepRequestData    int
	ReadAheadOnIdleHit bool
	FastWrite          int
	CombineWrites      bool
	StopInSector       bool
	DisconnectInSeek   bool
	ImmedRead          bool
	ImmedWrite         bool

	ReadHitAfterRead, ReadHitAfterWrite     float64
	ReadMissAfterRead, ReadMissAfterWrite   float64
	WriteHitAfterRead, WriteHitAfterWrite   float64
	WriteMissAfterRead, WriteMissAfterWrite float64
	ReadCompletion, WriteCompletion         float64
	DataPreparation                         float64
	FirstReselect, OtherReselect            float64
	ReadDisconnectAfterRead                 float64
	ReadDisconnectAfterWrite                float64
	WriteDisconnect                         float64

	ExtraWriteDisconnect                                bool
	ExtraCommand, ExtraDisconnect, ExtraInterDisconnect float64
	ExtraDisconnect2, ExtraSeekDelta, MinimumSeekDelay  float64
}

// Queue is a disksim_ioqueue: its scheduling policy (those
// SimulatedPolicy accepts are simulated exactly) and whether FCFS is
// absolute.
type Queue struct {
	Policy       int
	AbsoluteFCFS bool
	// CylMap is the cylinder mapping strategy, 0-6: the cylinder
	// policies (5, 6, 7, 18) order by it as DiskSim 4.0 maps (0 and 5:
	// every block on cylinder 0, surface 0; 1-4: every block where LBN
	// CylMap lies, see layout.cylState), the others order nothing by
	// it; strategy 6 (average sectors per cylinder) divides by a
	// per-queue count DiskSim 4.0 never sets
	// (ioqueue_get_cylinder_mapping), so the first request to enter the
	// queue stops DiskSim.
	CylMap int
	// TimeoutPolicy ("Timeout scheduling"), PriorityFactor ("Priority
	// scheduling") and AgeFactor ("Timeout time/weight") are what
	// PRI_VSCAN_LBN (19) reads: the distance it measures (3: upwards,
	// wrapping; 2: turning back costs the block count; else plain), the
	// percent of the block count a read gains, and the weight of a
	// request's age (see policypri.go).
	TimeoutPolicy, PriorityFactor, AgeFactor int
	// PriorityScheme is "Scheduling priority scheme": 0 (ALLEQUAL) or
	// 1 (TWOQUEUE: requests flagged time-critical or time-limited go
	// to a second subqueue, ordered by "Priority scheduling", served
	// first). DiskSim's trace readers flag a request so only for the
	// ASCII flags SYNCHRONOUS and ASYNCHRONOUS; a Request carries a
	// read flag alone, so under 1 every request joins the base queue,
	// as under 0. Any other value makes DiskSim exit at the first
	// request the queue takes (ioqueue_add_new_request: "Unknown
	// priority scheme"), and the run stops there.
	PriorityScheme int
	// SeqScheme is "Sequential stream scheme", a set of bits: 1 and 2
	// concatenate adjacent waiting reads and writes into one request
	// of at most ConcatMax blocks ("Maximum concat size"; 0: none); 4,
	// 8 and 16 make the LBN policies that look both ways (2, 4, 17)
	// pass over a request continuing the one before it (reads, writes,
	// either; a read continues it up to SeqDiff blocks after its end,
	// "Sequential stream diff maximum"). On the disk's queue
	// concatenation stops the run: ioqueue_set_starttime asserts that
	// the queue does not concatenate, and a concatenation handed to
	// the disk carries a diskreq pointer from a recycled event
	// (ErrUndefined).
	SeqScheme, ConcatMax, SeqDiff int
	// Overlaps is "Overlapping request scheme": other than 0, a
	// completed request also completes the waiting requests for the
	// same blocks (reads only, when it reads) that arrived by now (1)
	// or by its start (other values) (ioqueue_physical_access_done).
	// Exact mode simulates it on the driver's queue; on the disk's
	// (which a driver computing every time never reaches) Check
	// refuses it.
	Overlaps int
	// ReadDelay and WriteDelay are the "Read initiation delay" and
	// "Write initiation delay", ms: the positional policies (8-16,
	// 20-27) add them to every read's or write's price, and the aged
	// ones (11-16, 20, 21) weigh a request's age by AgeFactor.
	ReadDelay, WriteDelay float64
}

// Bus is a disksim_bus.
type Bus struct {
	// Interleaved is type 2; type 1 is exclusively owned.
	Interleaved bool
	// ArbTime, ReadBlock and WriteBlock are the arbitration time and the
	// block transfer times, ms.
	ArbTime, ReadBlock, WriteBlock float64
	// FIFO is arbitration type 2; type 1 grants a waiting bus to the
	// highest slot (the disk, below its controller's slot 0).
	FIFO bool
	// OtherArbitration is an arbitration type other than 1 and 2: DiskSim
	// loads it and exits when it must choose between waiters
	// (bus_arbitrate_for_ownership).
	OtherArbitration bool
}

// Controller is a disksim_ctlr: type 1 (pass-through), 2 (53C700) or
// 3 (smart).
type Controller struct {
	// Type is 1 (pass-through: every message passed on after 1 ms
	// scaled), 2 (53C700-based: one connection at a time, each
	// message after 0.5 ms scaled, data moved by the controller) or 3
	// (smart: its own queue and cache, see Smart).
	Type int
	// TimeScale is "Scale for delays", multiplying the controller's
	// overheads.
	TimeScale float64
	// BlockTime is "Bulk sector transfer time", ms a block: a 53C700
	// or smart controller moves the disk's data at the slower of it
	// and the disk's block time, a smart one the host's at it.
	BlockTime float64
	// Smart holds what only a smart controller (type 3) reads; nil
	// for the others.
	Smart *SmartController
}

// Check reports what of m DiskSim's loader rejects or the simulator
// cannot run, every problem at once.
func (m *Model) Check() error {
	var errs []error
	bad := func(f string, a ...any) { errs = append(errs, fmt.Errorf("exact: "+f, a...)) }
	l := &m.Layout
	if l.Sparing < 1 || l.Sparing > 10 {
		bad("sparing scheme %d: DiskSim 4.0 rejects it (dm_layout_g1_compute_blksinband knows 1-10)", l.Sparing)
	}
	if l.Mapping < 0 || l.Mapping > 2 {
		bad("mapping scheme %d: unknown", l.Mapping)
	}
	if l.Surfaces < 1 {
		bad("%d surfaces", l.Surfaces)
	}
	if len(l.Zones) == 0 {
		bad("no zones")
	}
	if l.Sparing == sectPerRange && l.RangeSize < 1 {
		bad("range size %d for sparing scheme 8", l.RangeSize)
	}
	for i, z := range l.Zones {
		if z.BlocksPerTrack < 1 || z.LastCyl < z.FirstCyl || z.FirstCyl < 0 {
			bad("zone %d: cylinders %d-%d, %d blocks per track", i, z.FirstCyl, z.LastCyl, z.BlocksPerTrack)
		}
		if len(z.Defects) != len(z.Remaps) {
			bad("zone %d: defects and remaps differ in number", i)
		}
		if l.Sparing == trackSparing && len(z.Slips)+len(z.Defects) > z.Spares {
			bad("zone %d: %d slips and %d defects outnumber its %d spare tracks: DiskSim 4.0 asserts (dm_layout_g1_initialize)", i, len(z.Slips), len(z.Defects), z.Spares)
		}
	}
	if math.IsNaN(m.DriverConstTime) {
		bad("driver: Constant access time = %g", m.DriverConstTime)
	}
	if m.Mech.RPM < 1 {
		bad("rotation speed %d rpm", m.Mech.RPM)
	}
	for _, q := range []struct {
		who string
		Queue
	}{{"disk", m.Queue}, {"driver", m.DriverQueue}} {
		if why := PolicyRefusal(q.Policy); why != "" {
			bad("%s queue: Scheduling policy = %d: %s", q.who, q.Policy, why)
		}
		if !ValidCylinderMapping(q.CylMap) {
			bad("%s queue: Cylinder mapping strategy = %d: DiskSim 4.0 exits on it when it hands a request out (ioqueue_get_cylinder_mapping knows 0-6)", q.who, q.CylMap)
		}
	}
	if c := m.Controller; c != nil && c.Smart != nil && (c.Smart.Queue.SeqScheme != 0 || c.Smart.Queue.Overlaps != 0) {
		bad("smart controller queue: Sequential stream scheme = %d, Overlapping request scheme = %d: exact mode simulates 0 only there", c.Smart.Queue.SeqScheme, c.Smart.Queue.Overlaps)
	}
	if m.Queue.Overlaps != 0 && m.DriverConstTime == 0 {
		bad("disk queue: Overlapping request scheme = %d: exact mode simulates it on the driver's queue only (the disk takes no notice of the requests its queue completes with another, disk_request_complete, and DiskSim then asserts or loses them)", m.Queue.Overlaps)
	}
	d := &m.Disk
	if d.Segments < 1 || d.SegmentSize < 1 || d.WriteSegments < 1 || d.WriteSegments > d.Segments {
		bad("buffer: %d segments of %d blocks, %d write segments: DiskSim rejects it", d.Segments, d.SegmentSize, d.WriteSegments)
	}
	if d.SeparateWriteSegment && d.Segments <= 1 {
		bad("a separate write segment needs two segments or more: DiskSim rejects it")
	}
	if c := m.Controller; c != nil {
		switch {
		case c.Type == ctlrSmart:
			errs = append(errs, c.Smart.check()...)
		case c.Type != ctlrPassThru && c.Type != ctlr53C700:
			bad("controller type %d: exact mode simulates 1 (pass-through), 2 (53C700-based) and 3 (smart)", c.Type)
		}
	}
	return errors.Join(errs...)
}

// newSim builds a simulator in DiskSim's initial state.
func newSim(m *Model) (*Sim, error) {
	if err := m.Check(); err != nil {
		return nil, err
	}
	lay, err := newLayout(&m.Layout)
	if err != nil {
		return nil, err
	}
	s := &Sim{m: m, lay: lay, p: m.Disk}
	s.mech = newMech(&m.Mech, lay)
	s.diskBus = &bus{id: 1, interleaved: m.Bus.Interleaved, fifo: m.Bus.FIFO, otherArb: m.Bus.OtherArbitration, arbTime: m.Bus.ArbTime, readBlk: m.Bus.ReadBlock, writeBlk: m.Bus.WriteBlock}
	if m.Controller != nil {
		c := *m.Controller
		s.ctlr = &ctlr{typ: c.Type, timeScale: c.TimeScale, blkTime: c.BlockTime, inBusOwned: -1, outBusOwned: -1, state: c700Free}
		s.c700 = c.Type == ctlr53C700
		if c.Type == ctlrSmart && c.Smart != nil {
			s.smart = newSmart(c.Smart, s.newQueue(&c.Smart.Queue, ""))
		}
		s.topBus = &bus{id: 0, interleaved: m.TopBus.Interleaved, fifo: m.TopBus.FIFO, otherArb: m.TopBus.OtherArbitration, arbTime: m.TopBus.ArbTime, readBlk: m.TopBus.ReadBlock, writeBlk: m.TopBus.WriteBlock}
	} else {
		s.diskBus.id = 0
	}
	s.drvQueue = s.newQueue(&m.DriverQueue, "")
	dk := &s.d
	dk.queue = s.newQueue(&m.Queue, "the disk's queue hands out a concatenation, whose diskreq pointer (ioreq_hold_diskreq) is left from the event's earlier use (ioqueue_show_next_request_from_subqueue, disk_get_effectivehda)")
	dk.queue.enabled = s.enabled
	dk.outState = diskIdle
	dk.lastFlags = flagRead
	dk.busOwned = -1
	// disk_initialize builds the segment list by prepending; the
	// dedicated write segment is the list's head.
	for i := 0; i < m.Disk.Segments; i++ {
		seg := &segment{outState: outIdle, state: segEmpty, size: m.Disk.SegmentSize, next: dk.segs}
		if dk.segs != nil {
			dk.segs.prev = seg
		}
		dk.segs = seg
	}
	if m.Disk.SeparateWriteSegment {
		dk.writeSeg = dk.segs
	}
	return s, nil
}

// newLayout builds the layout's bands as layout_g1_load.c does.
func newLayout(m *Layout) (*layout, error) {
	l := &layout{scheme: m.Sparing, rangeSize: m.RangeSize, mapping: m.Mapping, surfaces: m.Surfaces, cylinders: m.Cylinders}
	for i, z := range m.Zones {
		b := band{startCyl: z.FirstCyl, endCyl: z.LastCyl, bpt: z.BlocksPerTrack, deadSpace: z.EmptySpace,
			firstAngle: z.FirstBlockAngle, trackSkew: z.TrackSkew, cylSkew: z.CylSkew, spares: z.Spares,
			slips: z.Slips, defects: z.Defects, remaps: z.Remaps, num: i}
		b.sectorWidth = uint32((int64(1) << 32) / int64(b.bpt))
		b.trkSpace = uint32((int64(1) << 32) % int64(b.bpt))
		n, ok := l.bandBlocks(&b)
		if !ok {
			return nil, fmt.Errorf("exact: sparing scheme %d: %w (unknown sparing scheme)", l.scheme, ErrDiskSimAbort)
		}
		b.blocks = n
		l.bands = append(l.bands, b)
	}
	l.firstLBN = make([]int, len(l.bands))
	total := 0
	for i := range l.bands {
		l.firstLBN[i] = total
		total += l.bands[i].blocks
	}
	l.sectors = total
	if total <= 0 {
		return nil, fmt.Errorf("exact: the layout maps %d blocks", total)
	}
	return l, nil
}

// newMech builds the mechanics.
// newQueue builds the ioqueue that q describes (ioqueue_initialize) on
// s's layout: its policy's state, its schemes, and the positional
// policies' estimates asked of s's disk. undefinedConcat, for the
// disk's queue, says why DiskSim's result is undefined once it hands
// out a concatenation.
func (s *Sim) newQueue(q *Queue, undefinedConcat string) *ioqueue {
	return &ioqueue{sched: q.Policy, absoluteFCFS: q.AbsoluteFCFS, divZero: q.CylMap == 6, badPriScheme: badPriScheme(q.PriorityScheme),
		seqStream: q.seqStream(s.alloc, undefinedConcat),
		lbnState:  lbnState{dir: dirAsc, numBlocks: s.lay.sectors}, cylState: s.lay.cylState(q.CylMap), priState: q.priState(&s.now),
		posState: s.posState(*q)}
}

func newMech(m *Mech, l *layout) *mech {
	return &mech{seekType: m.SeekType, seekTime: m.SeekTime, one: m.Single, avg: m.Average, full: m.Full,
		writeDelta: m.WriteSettle, hplV1: m.HPLV1, hpl: m.HPL, first10: m.First10,
		xDist: m.CurveDist, xTime: m.CurveTime, xBeforeDist: m.CurveBeforeDist, xBeforeTime: m.CurveBeforeTime, headSwitch: m.HeadSwitch,
		period: periodPs(m.RPM), lay: l}
}

// periodPs returns the time of one revolution at rpm, in picoseconds,
// as dm_mech_g1_loadparams computes it: dm_time_dtoi(1000.0 / (rpm /
// 60.0)) with both quotients left in x87 registers (64-bit mantissas)
// and the argument rounded to a double. In doubles the inner quotient
// rounds first, and at 8,000 rpm, say, the period comes out a
// picosecond short (7,499,999,999 ps; DiskSim has 7,500,000,000).
func periodPs(rpm int) int64 {
	perSec := new(big.Float).SetPrec(64).SetInt64(int64(rpm))
	perSec.Quo(perSec, big.NewFloat(60))
	ms := new(big.Float).SetPrec(64).SetInt64(1000)
	ms.Quo(ms, perSec)
	f, _ := ms.Float64()
	return msToPs(f)
}

// Sectors returns the number of LBNs the layout maps (dm_sectors after
// DiskSim's count of the zones).
func (m *Model) Sectors() (int, error) {
	l, err := newLayout(&m.Layout)
	if err != nil {
		return 0, err
	}
	return l.sectors, nil
}

// SmartController is what a smart controller (type 3,
// disksim_ctlrsmart.c) reads besides the common parameters.
type SmartController struct {
	// MaxOutstanding is "Maximum queue length" + 1: the requests a
	// driver queueing in the subsystem keeps on the controller.
	MaxOutstanding int
	// PendingCount is "Max per-disk pending count": the accesses the
	// controller keeps on the disk (0: none ever goes down).
	PendingCount int
	// Queue is the controller's "Scheduler" for the disk.
	Queue Queue
	// Cache is its "Cache".
	Cache CacheMem
}

// CacheMem is a disksim_cachemem's parameters (disksim_cachemem.c);
// with a size of 0 only the request size and flushing change what
// exact mode simulates.
type CacheMem struct {
	// Size is "Cache size", blocks (0: no space).
	Size int
	// LineSize is "Line size", BitGranularity "Bit granularity" and
	// LockGranularity "Lock granularity", blocks: the unit of
	// allocation and replacement, of a valid bit and of a lock.
	LineSize, BitGranularity, LockGranularity int
	// SharedReadLocks is "Shared read locks" (otherwise a read lock is
	// a write lock).
	SharedReadLocks bool
	// WriteScheme is "Write scheme": 1 a write completes when the disk
	// has it, 2 as soon as the cache has it (written through at once),
	// 3 write-back.
	WriteScheme int
	// ReadPrefetch and WritePrefetch are "Read prefetch type" and
	// "Write prefetch type": a fill extended to the line's front (1),
	// rest (2) or both (3).
	ReadPrefetch, WritePrefetch int
	// LineByLine is "Line-by-line fetches"; MaxGather "Max gather",
	// lines (0: no maximum).
	LineByLine bool
	MaxGather  int
	// SLRUListGiven is whether an "SLRU segments" list was given
	// (cachemem_setup_segs then zeroes each segment's maximum).
	SLRUListGiven bool
	// MaxRequestSize is "Max request size", blocks (0: no maximum):
	// the driver sends larger requests down in parts of this size, one
	// after another (iodriver_schedule, iodriver_access_complete).
	MaxRequestSize int
	// FlushPolicy is "Flush policy" (0 on demand, 1 periodic, every
	// FlushPeriod ms); FlushIdleDelay is "Flush idle delay", ms (-1:
	// no idle flushing). With no space a flush walks the cache's
	// empty LRU list and DiskSim follows a null pointer, unless the
	// replacement policy is segmented LRU (Replacement 2) with no SLRU
	// segments given, when a flush walks nothing: Run stops at the
	// first periodic flush, or at the first idle flush (when the
	// controller's queue has stayed empty that long after a
	// completion), with ErrDiskSimAbort; exact mode refuses a period of
	// 0 under segmented LRU (DiskSim re-arms its timer at time 0 for
	// ever).
	FlushPolicy    int
	FlushPeriod    float64
	FlushIdleDelay float64
	// Replacement is "Replacement policy" (1 FIFO, 2 segmented LRU, 3
	// random, 4 LIFO); SLRUSegments the number of "SLRU segments".
	Replacement, SLRUSegments int
	// FlushMaxLineCluster is "Flush max line cluster", lines: how far
	// a write-back flush reaches into neighbouring dirty lines.
	FlushMaxLineCluster int
	// AllocateNonDirty is "Allocation policy" 1: a replacement passes
	// over dirty lines (starting their flushes) to a clean one.
	AllocateNonDirty bool
}

// flushesNothing reports whether a flush of the empty cache walks no
// segment: segmented LRU with none given (cache_periodic_flush and
// cache_idletime_detected loop over numsegs segments).
func (k *CacheMem) flushesNothing() bool { return k.Replacement == 2 && k.SLRUSegments == 0 }

// check reports what of c exact mode does not simulate.
func (c *SmartController) check() []error {
	if c == nil {
		return []error{errors.New("exact: controller type 3 without its smart controller parameters")}
	}
	var errs []error
	bad := func(f string, a ...any) { errs = append(errs, fmt.Errorf("exact: smart controller: "+f, a...)) }
	if why := PolicyRefusal(c.Queue.Policy); why != "" {
		bad("queue: Scheduling policy = %d: %s", c.Queue.Policy, why)
	}
	if !ValidCylinderMapping(c.Queue.CylMap) {
		bad("queue: Cylinder mapping strategy = %d: DiskSim 4.0 exits on it when it hands a request out (ioqueue_get_cylinder_mapping knows 0-6)", c.Queue.CylMap)
	}
	if c.PendingCount < 0 || c.MaxOutstanding < 1 {
		bad("Max per-disk pending count = %d, Maximum queue length = %d: DiskSim rejects it", c.PendingCount, c.MaxOutstanding-1)
	}
	k := &c.Cache
	if k.Size != 0 {
		errs = append(errs, k.checkSpace()...)
	}
	if k.FlushPolicy != 0 && k.flushesNothing() && k.FlushPeriod == 0 {
		bad("cache: Flush policy = %d with Flush period = 0 under segmented LRU with no SLRU segments: DiskSim re-arms its flush timer at time 0 for ever (cache_periodic_flush) and never gets past it", k.FlushPolicy)
	}
	return errs
}
