package faults

import (
	"math/rand/v2"
	"slices"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// Ctx is what a Predicate sees besides the request: the device's state
// when the request arrives.
type Ctx struct {
	// Now is the current virtual time, and Since the time since New.
	Now   sim.Time
	Since time.Duration
	// IOs is the number of requests submitted before this one.
	IOs int64
	// Rand is the device's fault stream; predicates that draw from it
	// stay deterministic by seed.
	Rand *rand.Rand
}

// Predicate decides whether a rule applies to a request. It must not
// keep r.
type Predicate func(c *Ctx, r *sim.Request) bool

// Rule is a fault applied to the requests its predicate matches: Err,
// when set, completes the request with Err (wrapped with the request)
// after Delay without serving it; otherwise the request is served and
// its response is Delay late. The first matching rule of a Config
// decides.
type Rule struct {
	When  Predicate
	Err   error
	Delay time.Duration
}

// OnOp matches requests of the given operations.
func OnOp(ops ...sim.Op) Predicate {
	return func(_ *Ctx, r *sim.Request) bool { return slices.Contains(ops, r.Op) }
}

// InRange matches reads and writes touching bytes [lo, hi).
func InRange(lo, hi int64) Predicate {
	return func(_ *Ctx, r *sim.Request) bool { return r.Op != sim.Flush && r.Offset < hi && r.End() > lo }
}

// After matches requests submitted d or longer after New.
func After(d time.Duration) Predicate {
	return func(c *Ctx, _ *sim.Request) bool { return c.Since >= d }
}

// AfterIOs matches requests once n have been submitted before them.
func AfterIOs(n int64) Predicate {
	return func(c *Ctx, _ *sim.Request) bool { return c.IOs >= n }
}

// Randomly matches each request with probability p, drawn from the
// device's fault stream.
func Randomly(p float64) Predicate {
	return func(c *Ctx, _ *sim.Request) bool { return c.Rand.Float64() < p }
}

// And matches when every predicate does (evaluated in order, stopping
// at the first that does not).
func And(ps ...Predicate) Predicate {
	return func(c *Ctx, r *sim.Request) bool {
		for _, p := range ps {
			if !p(c, r) {
				return false
			}
		}
		return true
	}
}

// Or matches when any predicate does (evaluated in order, stopping at
// the first that does).
func Or(ps ...Predicate) Predicate {
	return func(c *Ctx, r *sim.Request) bool {
		for _, p := range ps {
			if p(c, r) {
				return true
			}
		}
		return false
	}
}

// Not matches when p does not.
func Not(p Predicate) Predicate {
	return func(c *Ctx, r *sim.Request) bool { return !p(c, r) }
}
