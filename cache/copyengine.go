package cache

import (
	"math"
	"math/bits"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// copyEngine is the cache memory's one copy engine: the controller's (or
// the host's) memory bandwidth, Config.CopyRate bytes per second, shared
// by every hit and absorbed write. Copies are served one after another
// in the order they are asked for, so however many requests are in
// flight the bytes copied never exceed CopyRate.
type copyEngine struct {
	free sim.Time // when the last copy queued ends
}

// copyTime returns the time to copy n bytes at rate bytes/s, rounded up
// to a whole nanosecond (so a run of copies never beats the rate),
// saturating at the largest duration.
func copyTime(n, rate int64) time.Duration {
	if rate <= 0 || n <= 0 {
		return 0
	}
	hi, lo := bits.Mul64(uint64(n), uint64(time.Second))
	if hi >= uint64(rate) {
		return math.MaxInt64
	}
	q, rem := bits.Div64(hi, lo, uint64(rate))
	if rem != 0 {
		q++
	}
	return time.Duration(min(q, math.MaxInt64))
}

// service queues a copy of n bytes on the copy engine and returns how
// long from now until the request is served: the wait for the engine,
// the copy, then Config.HitLatency (the controller's per-request
// overhead, which does not hold the engine). A cache on a tier device
// copies nothing in memory: only HitLatency.
func (c *Cache) service(n int64) time.Duration {
	if c.tier != nil { // the tier device's transfers take their own time
		return c.hitTime(n)
	}
	now := c.eng.Now()
	start := max(now, c.copier.free)
	end := start.Add(copyTime(n, c.cfg.CopyRate))
	if end < start { // saturate
		end = sim.Never
	}
	c.copier.free = end
	d := end.Sub(now)
	return min(d, sim.Never.Sub(now)-c.cfg.HitLatency) + c.cfg.HitLatency
}
