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
	// CoalescedWrites is the number of absorbed host writes the destage
	// writes so far have carried below. A destage carries the writes
	// whose data it takes out of the dirty data, and with them the
	// writes those overwrote while dirty; a write whose data is split
	// between destages counts in each for the share of its bytes each
	// took, hence the fraction. Writes still dirty are not counted, nor
	// are those superseded by a write sent around the cache (FUA,
	// write-through) or lost in a crash.
	CoalescedWrites float64
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
	// Stalls counts writes that found no room (memory full, or dirty
	// data at MaxDirty) and waited.
	Stalls int64
	// StallTime is the virtual time during which at least one write was
	// waiting for room: the union of the waits, so 32 writes waiting
	// together for 1 ms count 1 ms. StallWaitSum is the sum of every
	// write's own wait (32 ms for those 32), the stall share of the
	// host's write latency. Both run to the current virtual time, writes
	// still waiting included.
	StallTime, StallWaitSum time.Duration
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
	// DeviceReads and DeviceWrites count the requests a cache on a
	// device (NewOnDevice) sent it, DeviceReadBytes and DeviceWriteBytes
	// their bytes (journal writes included); JournalWrites counts the
	// journal writes.
	DeviceReads, DeviceReadBytes, DeviceWrites, DeviceWriteBytes, JournalWrites int64
	// BypassedReads and BypassedWrites count host requests past
	// Config.SequentialCutoff.
	BypassedReads, BypassedWrites int64
}

// ReadHitRatio returns the fraction of reads served wholly from cache
// memory, or 0 before any read.
func (s Stats) ReadHitRatio() float64 { return ratio(s.ReadHits, s.Reads) }

// ByteHitRatio returns the fraction of read bytes served from cache
// memory, or 0 before any read.
func (s Stats) ByteHitRatio() float64 { return ratio(s.ReadHitBytes, s.ReadBytes) }

// CoalescingFactor returns the host writes each destage write carried
// below on average, CoalescedWrites / Destages, or 0 before any destage:
// 256 for a stream of 4 KiB writes destaged in 1 MiB writes, 1000 for
// 1000 overwrites of one block destaged once, 0.25 for a 1 MiB write
// destaged in four. Writes still dirty do not raise it.
func (s Stats) CoalescingFactor() float64 {
	if s.Destages == 0 {
		return 0
	}
	return s.CoalescedWrites / float64(s.Destages)
}

// FullStripeFraction returns the fraction of destages that were whole
// stripes, or 0 before any destage.
func (s Stats) FullStripeFraction() float64 { return ratio(s.FullStripeDestages, s.Destages) }

// StallSeconds returns StallTime in seconds.
func (s Stats) StallSeconds() float64 { return s.StallTime.Seconds() }

// StallWaitSumSeconds returns StallWaitSum in seconds.
func (s Stats) StallWaitSumSeconds() float64 { return s.StallWaitSum.Seconds() }

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
	c.obs.OnLevel(c.name, DirtyLevel, a.cur, now)
}

// DirtyLevel names the cache's dirty bytes (those being destaged
// included) in sim.Observer.Level calls.
const DirtyLevel = "dirty bytes"

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
	if len(c.stalled) > 0 {
		s.StallTime += now.Sub(c.stallFrom)
		for _, h := range c.stalled {
			s.StallWaitSum += now.Sub(max(h.stallStart, c.statsFrom))
		}
	}
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
	// CoalescingFactor is Stats.CoalescingFactor: host writes carried
	// below per destage write, writes still dirty not counted.
	CoalescingFactor float64 `json:"coalescing_factor"`
	// FullStripeDestageRatio is the share of destages that were whole
	// stripes, 0..1.
	FullStripeDestageRatio float64 `json:"full_stripe_destage_ratio"`
	// DirtyPeakBytes and DirtyMeanBytes are the peak and time-weighted
	// mean of acknowledged bytes only in cache memory.
	DirtyPeakBytes int64   `json:"dirty_peak_bytes"`
	DirtyMeanBytes float64 `json:"dirty_mean_bytes"`
	// Stalls counts writes that waited for room. StallSeconds is the
	// virtual time, in seconds, during which at least one write waited
	// (Stats.StallTime); StallWaitSumSeconds the sum of every write's
	// wait, in seconds (Stats.StallWaitSum).
	Stalls              int64   `json:"stalls"`
	StallSeconds        float64 `json:"stall_s"`
	StallWaitSumSeconds float64 `json:"stall_wait_sum_s"`
	// FilledAtSeconds is when a write first found the cache full, in
	// seconds of virtual time, or nil if none has.
	FilledAtSeconds *float64 `json:"filled_at_s,omitempty"`
	// WritesAbsorbed counts host writes acknowledged from cache memory;
	// Destages counts destage writes; CoalescedWrites is the absorbed
	// writes the destages carried (Stats.CoalescedWrites), so
	// CoalescingFactor is CoalescedWrites / Destages.
	WritesAbsorbed  int64   `json:"writes_absorbed"`
	Destages        int64   `json:"destages"`
	CoalescedWrites float64 `json:"coalesced_writes"`
	// Replacement names the replacement policy of clean data when it is
	// not lru, whose hit ratios ReadHitRatio and ByteHitRatio are.
	Replacement string `json:"replacement,omitempty"`
	// The cache device of a cache on one (an SSD tier): the reads and
	// writes the cache sent it and their bytes, journal writes included,
	// and the journal writes.
	DeviceReads      int64 `json:"device_reads,omitempty"`
	DeviceReadBytes  int64 `json:"device_read_bytes,omitempty"`
	DeviceWrites     int64 `json:"device_writes,omitempty"`
	DeviceWriteBytes int64 `json:"device_write_bytes,omitempty"`
	JournalWrites    int64 `json:"journal_writes,omitempty"`
	// BypassedRequests counts host reads and writes past the sequential
	// cutoff.
	BypassedRequests int64 `json:"bypassed_requests,omitempty"`
}

// Summary returns the report figures of s.
func (s Stats) Summary() Summary {
	out := Summary{
		ReadHitRatio:           s.ReadHitRatio(),
		ByteHitRatio:           s.ByteHitRatio(),
		CoalescingFactor:       s.CoalescingFactor(),
		FullStripeDestageRatio: s.FullStripeFraction(),
		DirtyPeakBytes:         s.DirtyPeak,
		DirtyMeanBytes:         s.DirtyMean,
		Stalls:                 s.Stalls,
		StallSeconds:           s.StallSeconds(),
		StallWaitSumSeconds:    s.StallWaitSumSeconds(),
		WritesAbsorbed:         s.WritesAbsorbed,
		Destages:               s.Destages,
		CoalescedWrites:        s.CoalescedWrites,
		DeviceReads:            s.DeviceReads,
		DeviceReadBytes:        s.DeviceReadBytes,
		DeviceWrites:           s.DeviceWrites,
		DeviceWriteBytes:       s.DeviceWriteBytes,
		JournalWrites:          s.JournalWrites,
		BypassedRequests:       s.BypassedReads + s.BypassedWrites,
	}
	if s.FilledAt != sim.Never {
		v := s.FilledAt.Seconds()
		out.FilledAtSeconds = &v
	}
	return out
}

// FullAt returns when the cache first had to make room (evict clean
// data, or hold a write back): the end of a warm-up that waits for the
// cache to fill. It is sim.Never until then; ResetStats does not clear
// it.
func (c *Cache) FullAt() sim.Time { return c.fullAt }

// ResetStats starts the statistics again from now, as after a warm-up:
// counts, ratios, stalls and the dirty-byte mean and peak cover only
// what follows. The cache's contents are kept.
func (c *Cache) ResetStats() {
	now := c.eng.Now()
	var dirty float64
	c.dirty.ascend(func(e *extent) bool { dirty += e.writes; return true })
	// Writes absorbed before now and still dirty count as dropped, so
	// that dirty + destaged + dropped is still what was absorbed.
	c.droppedWrites = -dirty
	c.st = Stats{FilledAt: sim.Never, HighWaterAt: sim.Never}
	c.statsFrom = now
	if len(c.stalled) > 0 {
		c.stallFrom = now
	}
	c.dacc = dirtyAcc{cur: c.dacc.cur, peak: c.dacc.cur, since: now, start: now}
}
