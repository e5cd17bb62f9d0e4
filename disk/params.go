package disk

import (
	"errors"
	"fmt"
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
	numReadAhead
)

// String returns "segment", "fixed" or "off".
func (p ReadAheadPolicy) String() string {
	switch p {
	case ReadAheadSegment:
		return "segment"
	case ReadAheadFixed:
		return "fixed"
	case ReadAheadOff:
		return "off"
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

// UnmarshalText parses "segment", "fixed" or "off".
func (p *ReadAheadPolicy) UnmarshalText(b []byte) error {
	for v := ReadAheadPolicy(0); v < numReadAhead; v++ {
		if v.String() == string(b) {
			*p = v
			return nil
		}
	}
	return fmt.Errorf("disk: unknown read-ahead policy %q (known: fixed, off, segment)", b)
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
}

// Cylinders returns the number of cylinders in the zone.
func (z Zone) Cylinders() int { return z.LastCylinder - z.FirstCylinder + 1 }

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

	// ReadOverhead is the controller's processing time for a read
	// command, before the arm moves or the buffer is searched.
	ReadOverhead time.Duration
	// WriteOverhead is the same for writes and flushes. Zero means
	// ReadOverhead.
	WriteOverhead time.Duration
	// InterfaceRate is the host interface payload rate in bytes per
	// second (SATA 1.5 Gb/s = 150e6, 3 Gb/s = 300e6, 6 Gb/s = 600e6).
	// Default 300e6.
	InterfaceRate float64

	// BufferSize is the drive's buffer (cache) memory in bytes.
	BufferSize int64
	// Segments is the number of read segments the buffer is divided
	// into (each holds one sequential run and its read-ahead).
	// Default 16; at most 64.
	Segments int
	// ReadAhead chooses the read-ahead policy (default: fill the segment).
	ReadAhead ReadAheadPolicy
	// ReadAheadBytes is the read-ahead amount in bytes for ReadAheadFixed.
	ReadAheadBytes int64

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

	// QueueDepth is the tagged command queue depth, 1..32 (NCQ: 32).
	// Default 32. Requests beyond it wait in a FIFO host queue.
	QueueDepth int
	// Scheduler chooses among queued commands. Default SATF.
	Scheduler Scheduler
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

// Sectors returns the number of sectors the zones hold.
func (p *Params) Sectors() int64 {
	var n int64
	for _, z := range p.Zones {
		n += int64(z.Cylinders()) * int64(z.SectorsPerTrack) * int64(p.Surfaces)
	}
	return n
}

// Cylinders returns the number of cylinders (one past the last zone's
// last cylinder).
func (p *Params) Cylinders() int {
	if len(p.Zones) == 0 {
		return 0
	}
	return p.Zones[len(p.Zones)-1].LastCylinder + 1
}

// Validate reports every impossible field of p (after FillDefaults on a
// copy) at once, joined with errors.Join. Each message names the field
// and its value, e.g. "disk: Params.RPM: must be positive, got 0".
func (p Params) Validate() error {
	p.FillDefaults()
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, fmt.Errorf("disk: Params.%s: "+format, append([]any{field}, args...)...))
	}
	if p.SectorSize != 512 && p.SectorSize != 4096 {
		bad("SectorSize", "must be 512 or 4096, got %d", p.SectorSize)
	}
	if p.RPM <= 0 {
		bad("RPM", "must be positive, got %d", p.RPM)
	} else if p.RPM > 100000 {
		bad("RPM", "must be at most 100000, got %d", p.RPM)
	}
	if p.Surfaces <= 0 {
		bad("Surfaces", "must be positive, got %d", p.Surfaces)
	} else if p.Surfaces > 256 {
		bad("Surfaces", "must be at most 256, got %d", p.Surfaces)
	}
	if len(p.Zones) == 0 {
		bad("Zones", "must list at least one zone, got none")
	}
	next := 0
	zonesOK := true
	for i, z := range p.Zones {
		f := fmt.Sprintf("Zones[%d]", i)
		if z.FirstCylinder != next {
			bad(f+".FirstCylinder", "must be %d (zones are contiguous from cylinder 0), got %d", next, z.FirstCylinder)
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
		next = z.LastCylinder + 1
	}
	if p.Capacity < 0 {
		bad("Capacity", "must not be negative, got %d", p.Capacity)
	} else if p.SectorSize > 0 && p.Capacity%int64(p.SectorSize) != 0 {
		bad("Capacity", "must be a multiple of SectorSize (%d), got %d", p.SectorSize, p.Capacity)
	} else if zonesOK && p.Surfaces > 0 && len(p.Zones) > 0 && p.Capacity > p.Sectors()*int64(p.SectorSize) {
		bad("Capacity", "must not exceed the geometry's %d bytes, got %d", p.Sectors()*int64(p.SectorSize), p.Capacity)
	}
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
		{"WriteSettle", p.WriteSettle}, {"HeadSwitch", p.HeadSwitch}, {"CylinderSwitch", p.CylinderSwitch},
		{"ReadOverhead", p.ReadOverhead}, {"WriteOverhead", p.WriteOverhead},
	} {
		if f.v < 0 {
			bad(f.name, "must not be negative, got %v", f.v)
		} else if f.v > time.Second {
			bad(f.name, "must be at most 1s, got %v", f.v)
		}
	}
	if !(p.InterfaceRate > 0) || p.InterfaceRate > 1e12 {
		bad("InterfaceRate", "must be in (0, 1e12] bytes/s, got %g", p.InterfaceRate)
	}
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
	if p.WriteCacheBytes < 0 || p.WriteCacheBytes > p.BufferSize {
		bad("WriteCacheBytes", "must be in 0..BufferSize (%d), got %d", p.BufferSize, p.WriteCacheBytes)
	}
	if p.WriteCacheEntries < 1 || p.WriteCacheEntries > MaxWriteCacheEntries {
		bad("WriteCacheEntries", "must be in 1..%d, got %d", MaxWriteCacheEntries, p.WriteCacheEntries)
	}
	if p.QueueDepth < 1 || p.QueueDepth > MaxQueueDepth {
		bad("QueueDepth", "must be in 1..%d, got %d", MaxQueueDepth, p.QueueDepth)
	}
	if p.MaxQueueAge < 0 {
		bad("MaxQueueAge", "must not be negative, got %v", p.MaxQueueAge)
	}
	if p.Scheduler >= numSchedulers {
		bad("Scheduler", "unknown scheduler %d", uint8(p.Scheduler))
	}
	return errors.Join(errs...)
}
