package host

import (
	"math"

	"github.com/raidsim/raidsim/cache"
)

// PageCacheConfig returns the cache.Config that models p's page cache,
// as Linux's works:
//
//   - Size is PageCacheSize, in 4 KiB pages, clean data evicted least
//     recently used first; reads of a sequential stream read ahead
//     PageCache.ReadAhead.
//   - Dirty data may take DirtyLimit (dirty_ratio of the cache); a
//     writer that would go past it waits for writeback: Linux's
//     balance_dirty_pages throttling, simplified to a hard limit (Linux
//     since 3.2 pauses writers progressively from halfway between the
//     background and dirty limits; both hold the dirty data near the
//     limit and the writer at the writeback rate).
//   - The flusher writes dirty data back when it is DirtyExpire old, at
//     its next wake-up on the WritebackInterval grid (the Interval
//     policy with Wakeup), and at once while dirty data is above
//     dirty_background_ratio (HighWater, as a fraction of the dirty
//     limit), until it falls just below it; writes go down in file
//     offset order, at most MaxWriteback each, MaxInFlight at once, not
//     aligned to RAID stripes.
//   - Copying costs no cache time: the host charges it to a core
//     (Params.CopyRate).
//   - fsync is a Flush: every dirty page goes down, then the drives are
//     flushed.
func (p Params) PageCacheConfig() cache.Config {
	size := p.PageCacheSize()
	c := p.PageCache
	hw := c.DirtyBackgroundRatio / c.DirtyRatio
	return cache.Config{
		Size:                   size,
		Block:                  PageSize,
		Mode:                   cache.WriteBack,
		ReadAhead:              c.ReadAhead,
		HitLatency:             1,             // the host charges the copy's time on a core
		CopyRate:               math.MaxInt64, // idem
		Policy:                 cache.Interval,
		MaxDirty:               max(p.DirtyLimit(), PageSize),
		HighWater:              hw,
		LowWater:               hw * 0.95, // "just below": hysteresis of 5% (inferred) keeps writeback from going a page at a time
		Interval:               c.DirtyExpire,
		Wakeup:                 c.WritebackInterval,
		Order:                  cache.OrderLBA,
		MaxDestageBytes:        c.MaxWriteback,
		MaxOutstandingDestages: c.MaxInFlight,
	}
}
