package cache

import (
	"time"

	"github.com/raidsim/raidsim/sim"
)

// Stats counts what a Cache has done. Byte counts are bytes, times are
// virtual.
type Stats struct {
	// Reads, Writes and Flushes count host requests by operation.
	Reads, Writes, Flushes int64
	// ReadBytes and WriteBytes sum the host requests' lengths.
	ReadBytes, WriteBytes int64
	// ReadHits counts reads served wholly from cache memory;
	// ReadPartialHits those served partly from memory and partly from
	// below.
	ReadHits, ReadPartialHits int64
	// ReadHitBytes is the bytes of reads served from cache memory.
	ReadHitBytes int64
	// BelowReads and BelowReadBytes count the reads sent below for
	// misses, read-ahead included; ReadAheadBytes is the read-ahead part.
	BelowReads, BelowReadBytes, ReadAheadBytes int64
	// WritesAbsorbed counts host writes acknowledged from cache memory
	// (write-back); WriteArounds those sent below before acknowledging
	// (write-through, FUA, larger than the cache, or mode Off).
	WritesAbsorbed, WriteArounds int64
	// OverwrittenBytes is the bytes of absorbed writes that landed on
	// dirty data, which therefore never had to be destaged.
	OverwrittenBytes int64
	// Destages, DestageBytes and FullStripeDestages count destage writes,
	// their bytes, and those that were whole stripes (stripe-aligned
	// offset and length; zero without a stripe geometry).
	Destages, DestageBytes, FullStripeDestages int64
	// DestageErrors counts destages the device below failed; their data
	// is lost and counted in LostBytes.
	DestageErrors int64
	// BelowFlushes counts flushes sent below.
	BelowFlushes int64
	// Evictions and EvictedBytes count clean extents dropped for room.
	Evictions, EvictedBytes int64
	// Stalls counts writes that found no room and waited; StallTime is
	// their total wait.
	Stalls    int64
	StallTime time.Duration
	// FilledAt is when a write first found the cache full and had to
	// wait (sim.Never if none has); HighWaterAt is when dirty data first
	// reached the high water mark.
	FilledAt, HighWaterAt sim.Time
	// DirtyBytes is the acknowledged data now only in cache memory (dirty
	// or being destaged): what a crash of a volatile cache would lose (a
	// range rewritten while its destage is in flight counts twice).
	// DirtyPeak is its maximum and DirtyMean its time-weighted mean since
	// the cache was made.
	DirtyBytes, DirtyPeak int64
	DirtyMean             float64
	// CleanBytes is the clean data held for reads.
	CleanBytes int64
	// Crashes counts Crash calls; LostBytes the acknowledged bytes they
	// (and failed destages) lost.
	Crashes, LostBytes int64
}

// ReadHitRatio returns the fraction of reads served wholly from cache
// memory, or 0 before any read.
func (s Stats) ReadHitRatio() float64 { return ratio(s.ReadHits, s.Reads) }

// ByteHitRatio returns the fraction of read bytes served from cache
// memory, or 0 before any read.
func (s Stats) ByteHitRatio() float64 { return ratio(s.ReadHitBytes, s.ReadBytes) }

// CoalescingFactor returns absorbed host writes per destage write, or 0
// before any destage.
func (s Stats) CoalescingFactor() float64 { return ratio(s.WritesAbsorbed, s.Destages) }

// FullStripeFraction returns the fraction of destages that were whole
// stripes, or 0 before any destage.
func (s Stats) FullStripeFraction() float64 { return ratio(s.FullStripeDestages, s.Destages) }

// StallSeconds returns StallTime in seconds.
func (s Stats) StallSeconds() float64 { return s.StallTime.Seconds() }

func ratio(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// dirtyAcc integrates dirty bytes over virtual time.
type dirtyAcc struct {
	cur, peak int64
	area      float64 // byte-nanoseconds
	since     sim.Time
	start     sim.Time
}

// noteDirty records the dirty bytes after a change.
func (c *Cache) noteDirty() {
	now := c.eng.Now()
	a := &c.dacc
	a.area += float64(a.cur) * float64(now-a.since)
	a.since = now
	a.cur = c.dirty.bytes + c.destBytes
	a.peak = max(a.peak, a.cur)
}

// Stats returns the counts so far; the dirty-byte mean runs to the
// current virtual time.
func (c *Cache) Stats() Stats {
	s := c.st
	now := c.eng.Now()
	a := c.dacc
	s.DirtyBytes, s.DirtyPeak = a.cur, a.peak
	if now > a.start {
		s.DirtyMean = (a.area + float64(a.cur)*float64(now-a.since)) / float64(now-a.start)
	}
	s.CleanBytes = c.clean.bytes
	return s
}

// DirtyBytes returns the acknowledged bytes now only in cache memory:
// dirty data plus data whose destage is in flight (a range rewritten
// while its destage is in flight counts twice).
func (c *Cache) DirtyBytes() int64 { return c.dirty.bytes + c.destBytes }

// Summary is the cache's part of a run report, with the JSON names the
// raidsim report uses.
type Summary struct {
	// ReadHitRatio is Stats.ReadHitRatio; ByteHitRatio Stats.ByteHitRatio.
	ReadHitRatio float64 `json:"read_hit_ratio"`
	ByteHitRatio float64 `json:"byte_hit_ratio"`
	// CoalescingFactor is absorbed host writes per destage write.
	CoalescingFactor float64 `json:"coalescing_factor"`
	// FullStripeDestageFraction is the fraction of destages that were
	// whole stripes.
	FullStripeDestageFraction float64 `json:"full_stripe_destage_fraction"`
	// DirtyPeakBytes and DirtyMeanBytes are the peak and time-weighted
	// mean of acknowledged bytes only in cache memory.
	DirtyPeakBytes int64   `json:"dirty_peak_bytes"`
	DirtyMeanBytes float64 `json:"dirty_mean_bytes"`
	// Stalls and StallSeconds count writes that waited for room and
	// their total wait in seconds.
	Stalls       int64   `json:"stalls"`
	StallSeconds float64 `json:"stall_seconds"`
	// FilledAtSeconds is when a write first found the cache full, in
	// seconds of virtual time, or nil if none has.
	FilledAtSeconds *float64 `json:"filled_at_seconds,omitempty"`
	// WritesAbsorbed and Destages are the counts behind CoalescingFactor.
	WritesAbsorbed int64 `json:"writes_absorbed"`
	Destages       int64 `json:"destages"`
}

// Summary returns the report figures of s.
func (s Stats) Summary() Summary {
	out := Summary{
		ReadHitRatio:              s.ReadHitRatio(),
		ByteHitRatio:              s.ByteHitRatio(),
		CoalescingFactor:          s.CoalescingFactor(),
		FullStripeDestageFraction: s.FullStripeFraction(),
		DirtyPeakBytes:            s.DirtyPeak,
		DirtyMeanBytes:            s.DirtyMean,
		Stalls:                    s.Stalls,
		StallSeconds:              s.StallSeconds(),
		WritesAbsorbed:            s.WritesAbsorbed,
		Destages:                  s.Destages,
	}
	if s.FilledAt != sim.Never {
		v := s.FilledAt.Seconds()
		out.FilledAtSeconds = &v
	}
	return out
}
