package host

import (
	"math"
	"math/bits"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// Kind is a kind of CPU work, for Stats.CPU.
type Kind uint8

const (
	// KindSyscall is the file layer: system call, file system, page
	// cache lookup (Params.SyscallCost).
	KindSyscall Kind = iota
	// KindCopy is copying between a program and the page cache
	// (Params.CopyRate).
	KindCopy
	// KindNetwork is the protocol server and TCP stack of a NAS
	// (Link.CPUPerRequest, Link.CPUPerKiB).
	KindNetwork
	// KindDriver is the drive driver, per command (Params.CommandCost,
	// Params.DriverPerKiB).
	KindDriver
	// KindParity is software RAID parity (Params.XORRate).
	KindParity
	// KindStripeCache is software RAID's stripe cache
	// (Params.StripeCachePerPage).
	KindStripeCache
	// KindVolumeCache is a host-memory volume cache's lookup and copy
	// (Params.VolumeCacheLookup, Params.VolumeCacheCopyRate).
	KindVolumeCache
	// NumKinds is the number of kinds.
	NumKinds
)

var kindNames = [NumKinds]string{"syscall", "copy", "network", "driver", "parity", "stripe_cache", "volume_cache"}

// String returns the kind's snake_case name, as in the JSON report.
func (k Kind) String() string {
	if k < NumKinds {
		return kindNames[k]
	}
	return "kind?"
}

// cost is the core time of one piece of work, split by kind.
type cost [NumKinds]time.Duration

// total returns the sum over kinds.
func (c *cost) total() time.Duration {
	var t time.Duration
	for _, d := range c {
		t = satAdd(t, d)
	}
	return t
}

// cpu is a set of identical cores serving work first come, first
// served: a piece of work whose cost is known on arrival takes the core
// that frees first, so the queue needs no data structure beyond each
// core's free time.
type cpu struct {
	free []sim.Time    // when each core is next idle
	busy cost          // core time served, by kind
	wait time.Duration // time work waited for a core
	jobs int64         // pieces of work served
}

func newCPU(cores int) *cpu { return &cpu{free: make([]sim.Time, cores)} }

// run queues work of cost c arriving at now and returns when a core
// starts it and when it ends.
func (u *cpu) run(now sim.Time, c *cost) (start, end sim.Time) {
	d := c.total()
	for k, v := range c {
		u.busy[k] += v
	}
	if d == 0 {
		return now, now
	}
	best := 0
	for i := 1; i < len(u.free); i++ {
		if u.free[i] < u.free[best] {
			best = i
		}
	}
	start = max(now, u.free[best])
	u.wait += start.Sub(now)
	u.jobs++
	u.free[best] = addTime(start, d)
	return start, u.free[best]
}

// perRate returns the time n bytes take at rate bytes per second, zero
// when rate is zero (free), rounded up to whole nanoseconds.
func perRate(n, rate int64) time.Duration {
	if rate <= 0 || n <= 0 {
		return 0
	}
	hi, lo := bits.Mul64(uint64(n), uint64(time.Second))
	lo, c := bits.Add64(lo, uint64(rate-1), 0)
	hi += c
	if hi >= uint64(rate) {
		return time.Duration(math.MaxInt64) // beyond any run
	}
	q, _ := bits.Div64(hi, lo, uint64(rate))
	return time.Duration(min(q, math.MaxInt64))
}

// perKiB returns n bytes' share of a per-KiB cost.
func perKiB(n int64, c time.Duration) time.Duration {
	if c <= 0 || n <= 0 {
		return 0
	}
	hi, lo := bits.Mul64(uint64(n), uint64(c))
	if hi >= 1024 {
		return time.Duration(math.MaxInt64)
	}
	q, _ := bits.Div64(hi, lo, 1024)
	return time.Duration(min(q, math.MaxInt64))
}

// satAdd returns a+b for non-negative spans, at most math.MaxInt64.
func satAdd(a, b time.Duration) time.Duration {
	if s := a + b; s >= a {
		return s
	}
	return math.MaxInt64
}

// dataLen returns the bytes r moves: its Length, or zero for a Flush
// (whose Offset and Length mean nothing).
func dataLen(r *sim.Request) int64 {
	if r.Op == sim.Flush {
		return 0
	}
	return r.Length
}

// addTime returns t+d, saturating at sim.Never.
func addTime(t sim.Time, d time.Duration) sim.Time {
	if int64(d) > int64(sim.Never)-int64(t) {
		return sim.Never
	}
	return t.Add(d)
}
