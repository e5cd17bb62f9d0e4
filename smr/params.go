package smr

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/raidsim/raidsim/disk"
)

// Recording is how a drive lays its tracks down.
type Recording uint8

const (
	// CMR is conventional magnetic recording: tracks side by side, each
	// rewritable in place. The drive is its platter, nothing more.
	CMR Recording = iota
	// SMR is drive-managed shingled magnetic recording: overlapping
	// tracks grouped in bands, a media cache of conventional tracks and
	// a shingle translation layer that hides both from the host.
	SMR
)

// String returns "CMR" or "SMR".
func (r Recording) String() string {
	switch r {
	case CMR:
		return "CMR"
	case SMR:
		return "SMR"
	}
	return fmt.Sprintf("recording(%d)", uint8(r))
}

// Params describe a drive: the platter it is built on and, for SMR,
// its shingled bands, media cache and cleaning. Plain data: fill it (or
// take a preset) and call NewModel.
type Params struct {
	// Name identifies the model.
	Name string
	// Recording is CMR or SMR.
	Recording Recording
	// Capacity is the host-visible size in bytes, a multiple of
	// Platter.SectorSize.
	Capacity int64
	// Platter is the physical drive's data-sheet figures (package disk's
	// mechanics: zones, seek, rotation, buffer, write cache, queue).
	// Its Name and Capacity are set by the model: the platter holds
	// Capacity plus, for SMR, the media cache and the guard regions.
	Platter disk.Spec

	// BandBytes is the size of a shingled band in bytes (a multiple of
	// the sector size): the unit the drive rewrites in place.
	BandBytes int64
	// GuardBytes is the unwritten guard region after each band, in
	// bytes, so rewriting a band does not disturb the next one.
	GuardBytes int64
	// MediaCacheBytes is the persistent media cache: conventionally
	// recorded tracks at the outer diameter that absorb writes as a
	// circular log, in bytes.
	MediaCacheBytes int64
	// MediaCacheExtents is the most extents (separately mapped LBA
	// ranges) the indirection map holds: the cache is full when either
	// its bytes or its map run out.
	MediaCacheExtents int
	// CleanIdleDelay is how long the drive must be idle (no host
	// request outstanding) before it starts cleaning bands; once
	// started it cleans band after band while it stays idle.
	CleanIdleDelay time.Duration
	// AppendAtWritePointer lets a write that starts exactly where a
	// band's valid data ends (its write pointer) go straight to the
	// band: shingling forward destroys nothing that is still needed.
	// Off, only writes covering whole bands bypass the media cache.
	AppendAtWritePointer bool
}

// defaultSeriesPoints is how many points a drive's time series keeps
// before it halves its resolution.
const defaultSeriesPoints = 512

// Validate reports every problem with p, joined.
func (p Params) Validate() error {
	var errs []error
	add := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("smr: %s: "+format, append([]any{p.Name}, args...)...))
	}
	ss := int64(p.Platter.SectorSize)
	if ss == 0 {
		ss = 512
	}
	if ss != 512 && ss != 4096 {
		add("Platter.SectorSize must be 512 or 4096, got %d bytes", ss)
		ss = 512
	}
	if p.Capacity <= 0 || p.Capacity%ss != 0 {
		add("Capacity must be a positive multiple of the %d-byte sector, got %d bytes", ss, p.Capacity)
	}
	switch p.Recording {
	case CMR:
		if p.BandBytes != 0 || p.GuardBytes != 0 || p.MediaCacheBytes != 0 || p.MediaCacheExtents != 0 {
			add("a CMR drive has no bands, guard regions or media cache")
		}
	case SMR:
		p.validateSMR(add, ss)
	default:
		add("Recording: unknown recording %d", uint8(p.Recording))
	}
	return errors.Join(errs...)
}

func (p Params) validateSMR(add func(string, ...any), ss int64) {
	if p.BandBytes <= 0 || p.BandBytes%ss != 0 {
		add("BandBytes must be a positive multiple of the %d-byte sector, got %d", ss, p.BandBytes)
	} else if p.BandBytes > 1<<30 {
		add("BandBytes must be at most 1 GiB, got %d", p.BandBytes)
	}
	if p.GuardBytes < 0 || p.GuardBytes%ss != 0 {
		add("GuardBytes must be a non-negative multiple of the %d-byte sector, got %d", ss, p.GuardBytes)
	}
	if p.MediaCacheBytes%ss != 0 || p.BandBytes > 0 && p.MediaCacheBytes < 2*p.BandBytes {
		add("MediaCacheBytes must be a multiple of the sector holding at least two bands (%d bytes), got %d", 2*p.BandBytes, p.MediaCacheBytes)
	}
	if p.MediaCacheExtents < 8 || p.MediaCacheExtents > 1<<26 {
		add("MediaCacheExtents must be between 8 and %d, got %d", 1<<26, p.MediaCacheExtents)
	}
	if p.CleanIdleDelay < 0 {
		add("CleanIdleDelay must not be negative, got %v", p.CleanIdleDelay)
	}
	if p.Capacity > 0 && p.BandBytes > 0 && p.Capacity/p.BandBytes > 1<<26 {
		add("Capacity %d bytes makes more than %d bands of %d bytes", p.Capacity, 1<<26, p.BandBytes)
	}
}

// Bands returns the number of shingled bands (zero for CMR); the last
// may be shorter than BandBytes.
func (p Params) Bands() int64 {
	if p.Recording != SMR || p.BandBytes <= 0 {
		return 0
	}
	return (p.Capacity + p.BandBytes - 1) / p.BandBytes
}

// PlatterCapacity is the bytes the platter holds: Capacity plus, for
// SMR, the media cache and a guard region after every band.
func (p Params) PlatterCapacity() int64 {
	if p.Recording != SMR {
		return p.Capacity
	}
	return p.MediaCacheBytes + p.Capacity + p.Bands()*p.GuardBytes
}

// bandStart returns the platter offset of band b: the media cache comes
// first, at the outer diameter, then the bands each followed by its
// guard region.
func (p Params) bandStart(b int64) int64 {
	return p.MediaCacheBytes + b*(p.BandBytes+p.GuardBytes)
}

// bandLen returns the size of band b in bytes.
func (p Params) bandLen(b int64) int64 {
	return min(p.BandBytes, p.Capacity-b*p.BandBytes)
}

// platterSpec is the disk.Spec of the platter: p.Platter named and
// sized for the whole surface.
func (p Params) platterSpec() disk.Spec {
	s := p.Platter
	s.Name = p.Name + "/platter"
	s.Capacity = p.PlatterCapacity()
	return s
}

// ParseRecording reads "cmr" or "smr".
func ParseRecording(s string) (Recording, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "cmr":
		return CMR, nil
	case "smr":
		return SMR, nil
	}
	return 0, fmt.Errorf("smr: unknown recording %q (want cmr or smr)", s)
}
