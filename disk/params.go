package disk

import (
	"errors"
	"fmt"
	"github.com/raidsim/raidsim/internal/counters"
	"time"
)

// Scheduler names the policy a drive uses to choose the next command
// from its tagged command queue. The zero value is SATF, which is what
// NCQ/TCQ firmware does.
type Scheduler uint8

const (
	// SATF (shortest access time first, also called SPTF) picks the
	// command with the smallest estimated seek plus rotational wait from
	// the head's position at the moment the command would start.
	SATF Scheduler = iota
	// FCFS serves commands strictly in arrival order.
	FCFS
	// SSTF picks the command with the shortest seek distance in
	// cylinders.
	SSTF
	// CLOOK sweeps in ascending LBA order and wraps to the lowest LBA
	// when nothing lies ahead of the head.
	CLOOK
	numSchedulers
)

// String returns "satf", "fcfs", "sstf" or "clook".
func (s Scheduler) String() string {
	switch s {
	case SATF:
		return "satf"
	case FCFS:
		return "fcfs"
	case SSTF:
		return "sstf"
	case CLOOK:
		return "clook"
	}
	return fmt.Sprintf("scheduler(%d)", uint8(s))
}

// MarshalText returns the scheduler's name, so configs can say "satf".
func (s Scheduler) MarshalText() ([]byte, error) {
	if s >= numSchedulers {
		return nil, fmt.Errorf("disk: unknown scheduler %d", uint8(s))
	}
	return []byte(s.String()), nil
}

// UnmarshalText parses a scheduler name (see ParseScheduler).
func (s *Scheduler) UnmarshalText(b []byte) error {
	v, err := ParseScheduler(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// ParseScheduler returns the scheduler called name ("fcfs", "sstf",
// "clook", "satf"; "sptf" is accepted for "satf").
func ParseScheduler(name string) (Scheduler, error) {
	switch name {
	case "satf", "sptf":
		return SATF, nil
	case "fcfs":
		return FCFS, nil
	case "sstf":
		return SSTF, nil
	case "clook", "c-look":
		return CLOOK, nil
	}
	return 0, fmt.Errorf("disk: unknown scheduler %q (known: clook, fcfs, satf, sstf)", name)
}

// ReadAheadPolicy says how far a drive reads past the end of a read
// while it has nothing else to do. The zero value is ReadAheadSegment.
type ReadAheadPolicy uint8

const (
	// ReadAheadSegment keeps reading until the segment holding the read
	// is full (Params.BufferSize / Params.Segments bytes beyond the last
	// byte the host asked for).
	ReadAheadSegment ReadAheadPolicy = iota
	// ReadAheadFixed reads Params.ReadAheadBytes past the last byte the
	// host asked for (capped at the segment size).
	ReadAheadFixed
	// ReadAheadOff disables read-ahead.
	ReadAheadOff
	// ReadAheadTrack reads to the end of the track holding the last
	// sector the host asked for (DiskSim's buffer continuous read 1).
	// A nonzero Params.ReadAheadBytes caps it.
	ReadAheadTrack
	// ReadAheadCylinder reads to the end of the cylinder holding the
	// last sector asked for (DiskSim's buffer continuous read 2), capped
	// by a nonzero Params.ReadAheadBytes.
	ReadAheadCylinder
	// ReadAheadNextTrack reads to the end of the track after the one
	// holding the last sector asked for, staying a track ahead of a
	// sequential stream (DiskSim's buffer continuous read 4), capped by
	// a nonzero Params.ReadAheadBytes.
	ReadAheadNextTrack
	numReadAhead
)

// String returns "segment", "fixed", "off", "track", "cylinder" or
// "next-track".
func (p ReadAheadPolicy) String() string {
	switch p {
	case ReadAheadSegment:
		return "segment"
	case ReadAheadFixed:
		return "fixed"
	case ReadAheadOff:
		return "off"
	case ReadAheadTrack:
		return "track"
	case ReadAheadCylinder:
		return "cylinder"
	case ReadAheadNextTrack:
		return "next-track"
	}
	return fmt.Sprintf("readahead(%d)", uint8(p))
}

// MarshalText returns the policy's name.
func (p ReadAheadPolicy) MarshalText() ([]byte, error) {
	if p >= numReadAhead {
		return nil, fmt.Errorf("disk: unknown read-ahead policy %d", uint8(p))
	}
	return []byte(p.String()), nil
}

// UnmarshalText parses a policy name (see String).
func (p *ReadAheadPolicy) UnmarshalText(b []byte) error {
	for v := ReadAheadPolicy(0); v < numReadAhead; v++ {
		if v.String() == string(b) {
			*p = v
			return nil
		}
	}
	return fmt.Errorf("disk: unknown read-ahead policy %q (known: cylinder, fixed, next-track, off, segment, track)", b)
}

// Zone is a band of adjacent cylinders recorded with the same number of
// sectors per track. Each zone carries its own skews, as DiskSim's layout
// model does, so measured zone tables can be loaded as they are.
type Zone struct {
	// FirstCylinder is the zone's first cylinder, counted from 0 at the
	// outer edge.
	FirstCylinder int
	// LastCylinder is the zone's last cylinder, inclusive.
	LastCylinder int
	// SectorsPerTrack is the number of sectors (of Params.SectorSize
	// bytes) on each track of the zone.
	SectorsPerTrack int
	// TrackSkew is the angular offset, in sectors, between the first
	// sector of a track and the first sector of the next track of the
	// same cylinder, so a head switch does not miss it.
	TrackSkew int
	// CylinderSkew is the angular offset, in sectors, between the first
	// sector of a cylinder's last track and the first sector of the next
	// cylinder's first track, so a one-cylinder seek does not miss it.
	CylinderSkew int

	// The fields below describe a measured layout (DiskSim's G1 zones);
	// their zero values give the plain layout above.

	// FirstBlockOffset is the angular position, in sectors, of the
	// zone's first sector slot (DiskSim's "Offset of first block");
	// skews accumulate from it.
	FirstBlockOffset int
	// ReservedSectors is the number of sector slots at the zone's front
	// that hold no LBA (DiskSim's "Empty space at zone front").
	ReservedSectors int
	// SpareSectors is the number of sector slots at the zone's end kept
	// as spares: they hold no LBA (DiskSim's sparing at the end of each
	// zone; spare tracks count spt sectors each). Slipped sectors push
	// LBAs into them.
	SpareSectors int
	// Slips lists, in increasing order, the zone-relative slot numbers
	// (0 = first slot of the zone's first track, in mapping order) of
	// defective sectors the mapping skips (track numbers under
	// Sparing.TrackUnits).
	Slips []int64
	// RegionSpares is the number of spare slots in each track, cylinder
	// or range of cylinders of the zone, as Params.Sparing.Region says
	// (DiskSim's "Number of spares" under the per-track, per-cylinder and
	// per-range sparing schemes).
	RegionSpares int
	// Remaps lists defective locations whose data lives in spare ones
	// (DiskSim's "defects"), in any order.
	Remaps []Remap
}

// Cylinders returns the number of cylinders in the zone.
func (z Zone) Cylinders() int { return z.LastCylinder - z.FirstCylinder + 1 }

// lbas returns the number of LBAs the zone holds with the given number of
// surfaces and sparing: its slots less the reserved, region spare and
// zone spare ones (slips use spares).
func (z Zone) lbas(surfaces int, sp *Sparing) int64 {
	n := int64(z.Cylinders())*int64(z.SectorsPerTrack)*int64(surfaces) - int64(z.ReservedSectors) - int64(z.SpareSectors)
	return max(n-z.regionSpareSlots(surfaces, sp), 0)
}

// Mapping is the order in which LBAs visit the tracks of a cylinder
// (DiskSim's G1 "LBN-to-PBN mapping scheme"). The zero value is
// conventional.
type Mapping uint8

const (
	// MapConventional fills surface 0 to the last surface of each
	// cylinder, then moves to the next cylinder (scheme 0).
	MapConventional Mapping = iota
	// MapSerpentine fills the first cylinder of each zone from surface 0
	// upwards, the next from the last surface downwards, and so on, so a
	// cylinder switch needs no head switch (scheme 1).
	MapSerpentine
	// MapSerpentineDisk is serpentine across the whole disk rather than
	// zone by zone: even cylinders (counted from cylinder 0) fill from
	// surface 0 up, odd ones from the last surface down (scheme 2).
	MapSerpentineDisk
	numMappings
)

// CommandOverheads are the controller's processing times by case, as
// DiskSim's disk model has them: they depend on whether the command hits
// the buffer (a read wholly or partly in the buffer; a write reported
// complete before it reaches the media) and on whether the previous
// command was a read or a write. The completion overheads are added
// before the completion is reported. When Enabled is false (the zero
// value) Params.ReadOverhead and WriteOverhead apply instead.
type CommandOverheads struct {
	Enabled bool
	// ReadHitAfterRead ... WriteMissAfterWrite: DiskSim's "Read hit
	// over. after read" and its seven siblings.
	ReadHitAfterRead, ReadHitAfterWrite     time.Duration
	ReadMissAfterRead, ReadMissAfterWrite   time.Duration
	WriteHitAfterRead, WriteHitAfterWrite   time.Duration
	WriteMissAfterRead, WriteMissAfterWrite time.Duration
	// ReadCompletion and WriteCompletion are DiskSim's "Read completion
	// overhead" and "Write completion overhead".
	ReadCompletion, WriteCompletion time.Duration

	// The fields below time the drive's use of the bus (see bus.go);
	// their zero values add nothing.

	// DataPreparation is spent after the drive has the bus and before
	// each data transfer, for reads and writes (DiskSim's "Data
	// preparation overhead").
	DataPreparation time.Duration
	// ReadDisconnectAfterRead and ReadDisconnectAfterWrite are spent when
	// a read that misses the buffer lets go of the bus to position the
	// arm, by the previous command's direction; WriteDisconnect when a
	// write lets go of it once its data are in the buffer. They overlap
	// the media access; the drive cannot reconnect before they end.
	ReadDisconnectAfterRead, ReadDisconnectAfterWrite, WriteDisconnect time.Duration
	// FirstReselect is spent reconnecting to the bus for the first time
	// after a disconnect (a read's data, a write's completion);
	// OtherReselect on later reconnections (a read whose transfer
	// outran the media and let go of the bus, a write after an extra
	// disconnect).
	FirstReselect, OtherReselect time.Duration
	// NeverDisconnect keeps the bus from arrival to completion: no
	// disconnect or reselect time is spent.
	NeverDisconnect bool
	// HoldBusForRead keeps the bus through a read's whole transfer even
	// if it outruns the media (DiskSim's "Hold bus entire read xfer").
	HoldBusForRead bool
	// DisconnectWriteIfSeek lets a write that misses the write cache
	// disconnect when its data are in while the arm is still seeking;
	// otherwise it disconnects only once the seek is over (DiskSim's
	// "Disconnect write if seek").
	DisconnectWriteIfSeek bool
	// MinimumSeekDelay is the least time, after its command overhead, a
	// write that does not continue the previous command waits before it
	// writes the media (DiskSim's "Minimum seek delay").
	MinimumSeekDelay time.Duration
	// Extra makes writes disconnect before their data cross the bus
	// (DiskSim's "Extra write disconnect").
	Extra ExtraWriteDisconnect
}

// ExtraWriteDisconnect is the behaviour of a drive that disconnects from
// the bus after a write command and before its data (DiskSim's "Extra
// write disconnect" and its five "Extradisc" overheads).
type ExtraWriteDisconnect struct {
	// Enabled turns the behaviour on; the zero value is off.
	Enabled bool
	// Command replaces the write overheads.
	Command time.Duration
	// Disconnect is spent letting go of the bus, overlapping the seek.
	Disconnect time.Duration
	// InterDisconnect runs from the disconnect to the attempt to
	// reconnect (then FirstReselect) for the data.
	InterDisconnect time.Duration
	// SecondDisconnect replaces WriteDisconnect after the data; the
	// completion then reconnects with OtherReselect.
	SecondDisconnect time.Duration
	// SeekDelta delays the arm after Command.
	SeekDelta time.Duration
}

// AccessTime says how media access times are computed (DiskSim's G1
// "Access time type"). The zero value models seeks and rotation.
type AccessTime uint8

const (
	// AccessExact models the seek and the platter's rotation
	// (trackSwitchPlusRotation).
	AccessExact AccessTime = iota
	// AccessAverageRotation models seeks but takes the rotational wait of
	// every positioned access as half a revolution, "the statistical mean
	// for random disk access" (averageRotation); the transfer then runs
	// sector after sector, with head and cylinder switches but no further
	// waits.
	AccessAverageRotation
	// AccessConstant takes Params.ConstantAccessTime for every media
	// access, positioning and transfer included; the arm is not modelled
	// (constant).
	AccessConstant
	numAccessTimes
)

// SeekPoint is one measured point of a seek curve.
type SeekPoint struct {
	// Distance is the seek distance in cylinders (at least 1).
	Distance int
	// Time is the seek time for that distance, settle included.
	Time time.Duration
}

// Params describes one drive model: geometry, mechanics, interface,
// buffer and command queue. It is plain data: print it, load it, sweep
// it. FillDefaults fills the zero-valued fields that have defaults, and
// Validate reports every problem at once.
type Params struct {
	// Name identifies the model (e.g. "deskstar-7k500").
	Name string

	// SectorSize is the logical and physical sector size in bytes: 512
	// (default) or 4096.
	SectorSize int
	// Capacity is the addressable size in bytes, a multiple of
	// SectorSize. Zero means the whole geometry; otherwise it must not
	// exceed it (drives hide the rest of their last cylinder).
	Capacity int64
	// RPM is the spindle speed in revolutions per minute. It is an
	// integer so rotation can be computed exactly in integer nanoseconds.
	RPM int
	// CylinderCount is the number of physical cylinders, whose full
	// stroke the seek curve spans. Zero means one past the last zone's
	// last cylinder; it may differ from that (DiskSim's "Number of
	// cylinders"): cylinders no zone covers hold no data.
	CylinderCount int
	// Sparing says how the zones set spare sectors aside (default: at
	// the end of each zone only).
	Sparing Sparing
	// RPMErrorPercent, when positive, varies the spindle speed from drive
	// to drive: each drive's is drawn once, uniformly within RPM plus or
	// minus this percent (rounded to a whole rpm), from the engine's
	// stream "<name>/rpm" (DiskSim's "Percent error in rpms").
	// Synchronized spindles (SpindleSync) turn at RPM exactly.
	RPMErrorPercent float64
	// Surfaces is the number of data surfaces (read/write heads).
	Surfaces int
	// Zones lists the recording zones from the outer edge (cylinder 0)
	// inwards; they must be contiguous.
	Zones []Zone

	// TrackToTrack is the read seek time for a one-cylinder seek.
	TrackToTrack time.Duration
	// AverageSeek is the read seek time averaged over all seeks between
	// uniformly random cylinders (the vendors' "weighted average").
	AverageSeek time.Duration
	// FullStroke is the read seek time across all cylinders.
	FullStroke time.Duration
	// SeekTable, when not empty, replaces the three figures above: seek
	// times for increasing distances, interpolated linearly between
	// points (DiskSim's extracted seek curves). Seeks shorter than the
	// first point take the first point's time; longer than the last, the
	// last point's time.
	SeekTable []SeekPoint
	// WriteSettle is the extra settle time a write adds to every seek and
	// head switch before it may write.
	WriteSettle time.Duration
	// HeadSwitch is the time to switch to another surface of the same
	// cylinder (servo settle included).
	HeadSwitch time.Duration
	// CylinderSwitch is the time to move to the next cylinder in the
	// middle of a sequential transfer. Zero means the one-cylinder seek
	// time (TrackToTrack, or the seek table at distance 1).
	CylinderSwitch time.Duration
	// SpindleSync locks the platter's rotation to a common reference:
	// every drive with it set is at angle 0 at t = 0, as the members of
	// an array whose spindles are synchronized (SCSI rotational position
	// locking, DiskSim's syncset). Off (the default), each drive starts
	// at its own random angle (see Model.NewDrive).
	SpindleSync bool
	// AccessTime chooses how media access times are computed (default:
	// seeks and rotation modelled).
	AccessTime AccessTime
	// ConstantAccessTime is every media access's time with AccessConstant.
	ConstantAccessTime time.Duration
	// Mapping is the track order of the layout (default conventional).
	Mapping Mapping
	// ZeroLatencyRead lets a read whose head lands inside its track's
	// requested sectors read them as they pass (read on arrival) and pick
	// up the ones before on the next pass, instead of waiting for the
	// first (DiskSim's "Immediate buffer read"). The host still receives
	// sectors in order.
	ZeroLatencyRead bool
	// ReadAnyFree keeps in the buffer the sectors of a read's first track
	// that pass under the head during its rotational wait, just before
	// the first requested sector (DiskSim's "Read any free blocks").
	ReadAnyFree bool
	// ZeroLatencyWrite does for writes (from the host or the write cache)
	// what ZeroLatencyRead does for reads (DiskSim's "Immediate buffer
	// write").
	ZeroLatencyWrite bool

	// ReadOverhead is the controller's processing time for a read
	// command, before the arm moves or the buffer is searched.
	ReadOverhead time.Duration
	// WriteOverhead is the same for writes and flushes. Zero means
	// ReadOverhead.
	WriteOverhead time.Duration
	// Overheads, when Enabled, replaces ReadOverhead and WriteOverhead
	// with per-case overheads (DiskSim's model).
	Overheads CommandOverheads
	// InterfaceRate is the host interface payload rate in bytes per
	// second (SATA 1.5 Gb/s = 150e6, 3 Gb/s = 300e6, 6 Gb/s = 600e6).
	// Default 300e6.
	InterfaceRate float64
	// WriteInterfaceRate is the rate for write data, in bytes per
	// second, when the bus carries them at another rate than read data
	// (DiskSim's bus "Write block transfer time"). Zero means
	// InterfaceRate.
	WriteInterfaceRate float64
	// ReadBusWatermarkOfSegment makes ReadBusWatermark a fraction of the
	// segment size (capped at the read) instead of the read (DiskSim's
	// "Set watermark by reqsize" = 0).
	ReadBusWatermarkOfSegment bool
	// ReadBusWatermark is the fraction (0..1) of a read from the media
	// that must be in the buffer before its data starts across the
	// interface (DiskSim's high water mark set by request size). Zero
	// starts with the first sector; 1 waits for the last.
	ReadBusWatermark float64

	// BufferSize is the drive's buffer (cache) memory in bytes.
	BufferSize int64
	// Segments is the number of read segments the buffer is divided
	// into (each holds one sequential run and its read-ahead).
	// Default 16; at most 64.
	Segments int
	// ReadAhead chooses the read-ahead policy (default: fill the segment).
	ReadAhead ReadAheadPolicy
	// ReadAheadBytes is the read-ahead amount in bytes for
	// ReadAheadFixed, and the cap (when not zero) of the track and
	// cylinder policies.
	ReadAheadBytes int64
	// ReadHitsOnWrites keeps the data of the latest write in the buffer,
	// in a segment of its own beside the Segments read segments, once it
	// is written, so reads of it hit (DiskSim's "Allow read hits on write
	// data"). The zero value keeps only dirty data readable.
	ReadHitsOnWrites bool
	// NoAlmostHits serves a read from the read-ahead under way only if
	// its first sector is already in the buffer; otherwise (a sector
	// still to come, DiskSim's "almost" hit, with "Allow almost read
	// hits" = 0) the read is a miss. The zero value streams both.
	NoAlmostHits bool
	// NoReadAheadOnHit stops a read served wholly from the buffer from
	// restarting or extending read-ahead (DiskSim's "Read-ahead on idle
	// hit" = 0). The zero value keeps reading ahead of a stream of hits.
	NoReadAheadOnHit bool
	// PartialHits reads from the media only the part of a read that is
	// not in a read segment when its first sectors are: the buffered
	// part crosses the bus at once (DiskSim's "Immed transfer partial
	// hit" = 1), or, with PartialHitWait, only if it reaches the read
	// watermark (= 0). The zero value reads all of such a read from the
	// media.
	PartialHits, PartialHitWait bool
	// NoBufferCache uses the buffer only to match the media and bus
	// speeds (DiskSim's "Enable caching in buffer" = 0): no read hits on
	// data earlier commands left and no read-ahead. Dirty data of the
	// write cache are still read from the buffer.
	NoBufferCache bool
	// ReadAheadKeepsRequest stops read-ahead before it would push the
	// latest read's own data out of its segment (DiskSim's "Read-ahead
	// over requested" = 0).
	ReadAheadKeepsRequest bool
	// MinReadAheadBytes is how much read-ahead, in bytes, must be read
	// after a read before the drive serves another command (DiskSim's
	// "Minimum read-ahead (blks)"). Zero lets commands stop it at once.
	MinReadAheadBytes int64
	// WriteHitStopsReadAhead stops read-ahead when a write goes into the
	// write cache (DiskSim's "Write hit stop prefetch"); otherwise a
	// write stops it only if it overlaps the segment or needs the arm.
	WriteHitStopsReadAhead bool

	// WriteCache enables immediate reporting: writes complete once in the
	// buffer and are destaged later. The zero value is off; every preset
	// turns it on, as drives ship.
	WriteCache bool
	// WriteCacheBytes is how much of the buffer dirty data may occupy, in
	// bytes. Default three quarters of BufferSize.
	WriteCacheBytes int64
	// WriteCacheEntries is the most separate dirty extents the cache
	// holds (adjacent writes merge into one extent). Default 32; at most
	// 1024. It bounds the destage scheduler's search.
	WriteCacheEntries int
	// WriteCacheAppendOnly limits the write cache to sequential write
	// streams (DiskSim's fast write level 1): a write goes into it only
	// if it starts where the previous command, a write, ended.
	WriteCacheAppendOnly bool
	// FlushBeforeOther destages all dirty data before the drive serves a
	// read, or a write that does not continue the write stream (DiskSim's
	// fast write levels 1 and 2: "before any such request is serviced by
	// the disk, all of the dirty write data must be flushed").
	FlushBeforeOther bool
	// NoWriteMerge keeps each write's dirty data apart: adjacent writes
	// do not merge into one extent (DiskSim's "Combine seq writes" = 0).
	NoWriteMerge bool

	// QueueDepth is the tagged command queue depth, 1..32 (NCQ: 32).
	// Default 32. Requests beyond it wait in a FIFO host queue.
	QueueDepth int
	// Scheduler chooses among queued commands. Default SATF.
	Scheduler Scheduler
	// Preseek lets the arm start towards the next command's data as soon
	// as its last job (a media transfer, or read-ahead) is over and the
	// command's overhead is spent, before the previous command has
	// completed over the bus (DiskSim's "Preseeking level" 2). The data
	// still pass the head only once the command is in service.
	Preseek bool
	// MaxQueueAge guards against starvation under SATF and SSTF: a
	// command that has waited this long in the tagged queue is served
	// next, oldest first. Default 500ms (inferred; firmware does not
	// publish its figure).
	MaxQueueAge time.Duration
}

// Limits on Params fields.
const (
	// MaxQueueDepth is the deepest tagged queue (NCQ's 32 tags).
	MaxQueueDepth = 32
	// MaxSegments is the most read segments a buffer may have.
	MaxSegments = 64
	// MaxWriteCacheEntries is the most dirty extents a write cache holds.
	MaxWriteCacheEntries = 1024
)

// FillDefaults sets every zero-valued field that has a default: sector
// size 512, interface rate 300e6 bytes/s, write overhead = read
// overhead, 16 segments, write cache size 3/4 of the buffer, 32 dirty
// extents, queue depth 32, maximum queue age 500ms. Scheduler and
// ReadAhead default by their zero values (SATF, fill the segment).
func (p *Params) FillDefaults() {
	if p.SectorSize == 0 {
		p.SectorSize = 512
	}
	if p.InterfaceRate == 0 {
		p.InterfaceRate = 300e6
	}
	if p.WriteOverhead == 0 {
		p.WriteOverhead = p.ReadOverhead
	}
	if p.Segments == 0 {
		p.Segments = 16
	}
	if p.WriteCacheBytes == 0 {
		p.WriteCacheBytes = p.BufferSize / 4 * 3
	}
	if p.WriteCacheEntries == 0 {
		p.WriteCacheEntries = 32
	}
	if p.QueueDepth == 0 {
		p.QueueDepth = MaxQueueDepth
	}
	if p.MaxQueueAge == 0 {
		p.MaxQueueAge = 500 * time.Millisecond
	}
}

// Sectors returns the number of sectors (LBAs) the zones hold: their
// slots less reserved and spare ones.
func (p *Params) Sectors() int64 {
	var n int64
	for _, z := range p.Zones {
		n += z.lbas(p.Surfaces, &p.Sparing)
	}
	return n
}

// Cylinders returns the number of cylinders: CylinderCount when set,
// else one past the last zone's last cylinder.
func (p *Params) Cylinders() int {
	if p.CylinderCount > 0 {
		return p.CylinderCount
	}
	return p.zonesEnd()
}

// zonesEnd returns one past the highest cylinder a zone covers.
func (p *Params) zonesEnd() int {
	n := 0
	for _, z := range p.Zones {
		n = max(n, z.LastCylinder+1)
	}
	return n
}

// Validate reports every impossible field of p (after FillDefaults on a
// copy) at once, joined with errors.Join. Each message names the field
// and its value, e.g. "disk: Params.RPM: must be positive, got 0".
func (p Params) Validate() error {
	counters.DriveModelsChecked.Add(1)
	p.FillDefaults()
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, fmt.Errorf("disk: Params.%s: "+format, append([]any{field}, args...)...))
	}
	p.checkMechanics(bad)
	zonesOK := p.checkZones(bad)
	p.checkOverheads(bad)
	p.checkCapacity(bad, zonesOK)
	p.checkSeek(bad)
	p.checkBuffer(bad)
	p.checkQueue(bad)
	return errors.Join(errs...)
}

// complain records one problem with a field; Validate's checks report
// through it.
type complain func(field, format string, args ...any)

// checkMechanics checks the sector size, spindle speed and surfaces.
func (p *Params) checkMechanics(bad complain) {
	if p.SectorSize != 512 && p.SectorSize != 4096 {
		bad("SectorSize", "must be 512 or 4096, got %d", p.SectorSize)
	}
	if p.RPM <= 0 {
		bad("RPM", "must be positive, got %d", p.RPM)
	} else if p.RPM > 100000 {
		bad("RPM", "must be at most 100000, got %d", p.RPM)
	}
	if !(p.RPMErrorPercent >= 0 && p.RPMErrorPercent < 50) {
		bad("RPMErrorPercent", "must be in 0..50, got %g", p.RPMErrorPercent)
	}
	if p.Surfaces <= 0 {
		bad("Surfaces", "must be positive, got %d", p.Surfaces)
	} else if p.Surfaces > 256 {
		bad("Surfaces", "must be at most 256, got %d", p.Surfaces)
	}
}

// checkZones checks the zone table and the mapping; it reports whether
// the zones' cylinders and tracks are sound enough to size the zones.
func (p *Params) checkZones(bad complain) (zonesOK bool) {
	if len(p.Zones) == 0 {
		bad("Zones", "must list at least one zone, got none")
	}
	next := 0
	zonesOK = true
	for i, z := range p.Zones {
		f := fmt.Sprintf("Zones[%d]", i)
		// Zones go outward in: a zone may leave cylinders unused before
		// it, or share its first cylinder with the previous zone's last
		// (DiskSim maps such tables as given).
		if lo := max(next-1, 0); z.FirstCylinder < lo {
			bad(f+".FirstCylinder", "must be at least %d (zones go inward, sharing at most one cylinder), got %d", lo, z.FirstCylinder)
			zonesOK = false
		}
		if z.LastCylinder < z.FirstCylinder {
			bad(f+".LastCylinder", "must be at least FirstCylinder (%d), got %d", z.FirstCylinder, z.LastCylinder)
			zonesOK = false
		} else if z.LastCylinder >= 1<<24 {
			bad(f+".LastCylinder", "must be below %d, got %d", 1<<24, z.LastCylinder)
			zonesOK = false
		}
		if z.SectorsPerTrack <= 0 || z.SectorsPerTrack > 1<<16 {
			bad(f+".SectorsPerTrack", "must be in 1..%d, got %d", 1<<16, z.SectorsPerTrack)
			zonesOK = false
		}
		if z.TrackSkew < 0 || (z.SectorsPerTrack > 0 && z.TrackSkew >= z.SectorsPerTrack) {
			bad(f+".TrackSkew", "must be in 0..SectorsPerTrack-1 (%d), got %d", z.SectorsPerTrack-1, z.TrackSkew)
		}
		if z.CylinderSkew < 0 || (z.SectorsPerTrack > 0 && z.CylinderSkew >= z.SectorsPerTrack) {
			bad(f+".CylinderSkew", "must be in 0..SectorsPerTrack-1 (%d), got %d", z.SectorsPerTrack-1, z.CylinderSkew)
		}
		if zonesOK && p.Surfaces > 0 {
			p.checkZoneLayout(bad, f, z)
		}
		next = z.LastCylinder + 1
	}
	if p.Mapping >= numMappings {
		bad("Mapping", "unknown mapping %d", uint8(p.Mapping))
	}
	if p.CylinderCount < 0 || p.CylinderCount >= 1<<24 {
		bad("CylinderCount", "must be in 0..%d, got %d", 1<<24-1, p.CylinderCount)
	}
	p.checkSparingParams(bad)
	return zonesOK
}

// checkZoneLayout checks zone z's layout within its slots: first block
// offset, reserved and spare sectors, slips.
func (p *Params) checkZoneLayout(bad complain, f string, z Zone) {
	slots := int64(z.Cylinders()) * int64(z.SectorsPerTrack) * int64(p.Surfaces)
	if p.Sparing.TrackUnits {
		slots /= int64(z.SectorsPerTrack) // slips count tracks
	}
	if z.FirstBlockOffset < 0 || z.FirstBlockOffset >= z.SectorsPerTrack {
		bad(f+".FirstBlockOffset", "must be in 0..SectorsPerTrack-1 (%d), got %d", z.SectorsPerTrack-1, z.FirstBlockOffset)
	}
	if z.ReservedSectors < 0 || z.SpareSectors < 0 || z.lbas(p.Surfaces, &p.Sparing) < 1 {
		bad(f+".ReservedSectors", "reserved (%d) and spare (%d, %d a region) sectors must be non-negative and leave some of the zone's %d slots", z.ReservedSectors, z.SpareSectors, z.RegionSpares, slots)
	}
	prev := int64(-1)
	slipsOK := true
	for j, s := range z.Slips {
		if s <= prev || s >= slots {
			bad(fmt.Sprintf("%s.Slips[%d]", f, j), "must be increasing and below the zone's %d slots, got %d", slots, s)
			slipsOK = false
			break
		}
		prev = s
	}
	spares := int64(z.SpareSectors)
	if p.Sparing.TrackUnits {
		spares /= int64(z.SectorsPerTrack)
	}
	if local := p.Sparing.Region != SpareNone && !p.Sparing.SlipToEnd && z.RegionSpares > 0; !local && int64(len(z.Slips)) > spares {
		bad(f+".Slips", "%d slips exceed the zone's %d spares", len(z.Slips), spares)
	}
	if slipsOK && (prev >= 0 || z.RegionSpares != 0 || len(z.Remaps) > 0) {
		p.checkSparing(bad, f, z)
	}
}

// checkSparingParams checks Params.Sparing.
func (p *Params) checkSparingParams(bad complain) {
	sp := &p.Sparing
	if sp.Region >= numSpareRegions {
		bad("Sparing.Region", "unknown region %d", uint8(sp.Region))
	}
	if sp.Region == SparePerRange && (sp.RangeCylinders < 1 || sp.RangeCylinders >= 1<<24) {
		bad("Sparing.RangeCylinders", "must be in 1..%d for spares per range, got %d", 1<<24-1, sp.RangeCylinders)
	}
	if sp.TrackUnits && sp.Region != SpareNone {
		bad("Sparing.TrackUnits", "spare tracks go at the end of each zone only (Region must be SpareNone), got region %d", uint8(sp.Region))
	}
}

// checkOverheads checks the bus watermark and the command overheads.
func (p *Params) checkOverheads(bad complain) {
	if !(p.ReadBusWatermark >= 0 && p.ReadBusWatermark <= 1) {
		bad("ReadBusWatermark", "must be in 0..1, got %g", p.ReadBusWatermark)
	}
	if o := p.Overheads; o.Enabled {
		x := o.Extra
		for i, v := range []time.Duration{o.ReadHitAfterRead, o.ReadHitAfterWrite, o.ReadMissAfterRead, o.ReadMissAfterWrite,
			o.WriteHitAfterRead, o.WriteHitAfterWrite, o.WriteMissAfterRead, o.WriteMissAfterWrite, o.ReadCompletion, o.WriteCompletion,
			o.DataPreparation, o.ReadDisconnectAfterRead, o.ReadDisconnectAfterWrite, o.WriteDisconnect, o.FirstReselect, o.OtherReselect,
			o.MinimumSeekDelay, x.Command, x.Disconnect, x.InterDisconnect, x.SecondDisconnect, x.SeekDelta} {
			if v < 0 || v > time.Second {
				bad("Overheads", "field %d must be in 0..1s, got %v", i, v)
			}
		}
	}
}

// checkCapacity checks the capacity against the sector size and, when
// the zones are sound, the geometry.
func (p *Params) checkCapacity(bad complain, zonesOK bool) {
	if p.Capacity < 0 {
		bad("Capacity", "must not be negative, got %d", p.Capacity)
	} else if p.SectorSize > 0 && p.Capacity%int64(p.SectorSize) != 0 {
		bad("Capacity", "must be a multiple of SectorSize (%d), got %d", p.SectorSize, p.Capacity)
	} else if zonesOK && p.Surfaces > 0 && len(p.Zones) > 0 && p.Capacity > p.Sectors()*int64(p.SectorSize) {
		bad("Capacity", "must not exceed the geometry's %d bytes, got %d", p.Sectors()*int64(p.SectorSize), p.Capacity)
	}
}

// checkSeek checks the seek curve's figures or table, the switch and
// overhead times, and the interface rate.
func (p *Params) checkSeek(bad complain) {
	if len(p.SeekTable) == 0 {
		if p.TrackToTrack <= 0 {
			bad("TrackToTrack", "must be positive, got %v", p.TrackToTrack)
		}
		if p.AverageSeek <= p.TrackToTrack {
			bad("AverageSeek", "must exceed TrackToTrack (%v), got %v", p.TrackToTrack, p.AverageSeek)
		}
		if p.FullStroke < p.AverageSeek {
			bad("FullStroke", "must be at least AverageSeek (%v), got %v", p.AverageSeek, p.FullStroke)
		}
	} else {
		prev := 0
		for i, pt := range p.SeekTable {
			if pt.Distance <= prev {
				bad(fmt.Sprintf("SeekTable[%d].Distance", i), "must be positive and increasing (previous %d), got %d", prev, pt.Distance)
			}
			if pt.Time < 0 {
				bad(fmt.Sprintf("SeekTable[%d].Time", i), "must not be negative, got %v", pt.Time)
			}
			prev = pt.Distance
		}
	}
	for _, f := range []struct {
		name string
		v    time.Duration
	}{
		{"HeadSwitch", p.HeadSwitch}, {"CylinderSwitch", p.CylinderSwitch},
		{"ReadOverhead", p.ReadOverhead}, {"WriteOverhead", p.WriteOverhead},
	} {
		if f.v < 0 {
			bad(f.name, "must not be negative, got %v", f.v)
		} else if f.v > time.Second {
			bad(f.name, "must be at most 1s, got %v", f.v)
		}
	}
	if p.AccessTime >= numAccessTimes {
		bad("AccessTime", "unknown access time type %d", uint8(p.AccessTime))
	} else if p.AccessTime == AccessConstant && (p.ConstantAccessTime <= 0 || p.ConstantAccessTime > time.Second) {
		bad("ConstantAccessTime", "must be in (0, 1s] with AccessConstant, got %v", p.ConstantAccessTime)
	}
	if !(p.InterfaceRate > 0) || p.InterfaceRate > 1e12 {
		bad("InterfaceRate", "must be in (0, 1e12] bytes/s, got %g", p.InterfaceRate)
	}
	if !(p.WriteInterfaceRate >= 0) || p.WriteInterfaceRate > 1e12 {
		bad("WriteInterfaceRate", "must be 0 or in (0, 1e12] bytes/s, got %g", p.WriteInterfaceRate)
	}
	// A negative write settle is allowed: settling for a write may be
	// quicker than the read settle the seek times include (DiskSim's
	// manual allows it); a seek still takes no less than zero.
	if p.WriteSettle < -time.Second || p.WriteSettle > time.Second {
		bad("WriteSettle", "must be in -1s..1s, got %v", p.WriteSettle)
	}
}

// checkBuffer checks the buffer, its segments, read-ahead and the write
// cache.
func (p *Params) checkBuffer(bad complain) {
	if p.BufferSize <= 0 {
		bad("BufferSize", "must be positive, got %d", p.BufferSize)
	}
	if p.Segments < 1 || p.Segments > MaxSegments {
		bad("Segments", "must be in 1..%d, got %d", MaxSegments, p.Segments)
	} else if p.BufferSize > 0 && p.BufferSize/int64(p.Segments) < int64(p.SectorSize) {
		bad("Segments", "leaves segments smaller than a sector (BufferSize %d), got %d", p.BufferSize, p.Segments)
	}
	if p.ReadAhead >= numReadAhead {
		bad("ReadAhead", "unknown policy %d", uint8(p.ReadAhead))
	}
	if p.ReadAheadBytes < 0 {
		bad("ReadAheadBytes", "must not be negative, got %d", p.ReadAheadBytes)
	}
	if p.MinReadAheadBytes < 0 || p.MinReadAheadBytes > p.BufferSize {
		bad("MinReadAheadBytes", "must be in 0..BufferSize (%d), got %d", p.BufferSize, p.MinReadAheadBytes)
	}
	if p.WriteCacheBytes < 0 || p.WriteCacheBytes > p.BufferSize {
		bad("WriteCacheBytes", "must be in 0..BufferSize (%d), got %d", p.BufferSize, p.WriteCacheBytes)
	}
	if p.WriteCacheEntries < 1 || p.WriteCacheEntries > MaxWriteCacheEntries {
		bad("WriteCacheEntries", "must be in 1..%d, got %d", MaxWriteCacheEntries, p.WriteCacheEntries)
	}
}

// checkQueue checks the tagged queue and its scheduler.
func (p *Params) checkQueue(bad complain) {
	if p.QueueDepth < 1 || p.QueueDepth > MaxQueueDepth {
		bad("QueueDepth", "must be in 1..%d, got %d", MaxQueueDepth, p.QueueDepth)
	}
	if p.MaxQueueAge < 0 {
		bad("MaxQueueAge", "must not be negative, got %v", p.MaxQueueAge)
	}
	if p.Scheduler >= numSchedulers {
		bad("Scheduler", "unknown scheduler %d", uint8(p.Scheduler))
	}
}
