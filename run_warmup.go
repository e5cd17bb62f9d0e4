package raidsim

import (
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/spec"
)

// WarmupReport says what a run's warm-up left out of the report: the
// first requests, whose latencies, rates and cache figures the report's
// phases, total and cache section do not count (the drives' figures
// cover the whole run).
type WarmupReport struct {
	// Until is "requests" (a number of them) or "cache_full" (until the
	// volume cache first had to make room).
	Until string `json:"until"`
	// ExcludedRequests counts the completions left out.
	ExcludedRequests int64 `json:"excluded_requests"`
	// EndS is when the warm-up ended, in seconds of the run; Ended is
	// false if it never did (everything was left out).
	EndS  float64 `json:"end_s"`
	Ended bool    `json:"ended"`
}

// warmup tracks a run's warm-up (spec.Plan.WarmupIOs, WarmupFull).
type warmup struct {
	on, full, ended bool
	left            int64    // requests still to leave out
	excluded        int64    // requests left out
	end             sim.Time // when it ended
}

func (w *warmup) start(pl *spec.Plan) {
	w.on, w.full, w.left = pl.WarmupIOs > 0 || pl.WarmupFull, pl.WarmupFull, pl.WarmupIOs
}

// exclude reports whether the completion q belongs to the warm-up, and
// ends the warm-up (resetting the cache's statistics) when the last of
// it completes or the cache has filled.
func (w *warmup) exclude(s *Stack, q *sim.Request) bool {
	if !w.on {
		return false
	}
	if w.full && s.Cache != nil && s.Cache.FullAt() != sim.Never {
		w.finish(s, q.Completed)
		return false
	}
	w.excluded++
	if !w.full {
		if w.left--; w.left == 0 {
			w.finish(s, q.Completed)
		}
	}
	return true
}

func (w *warmup) finish(s *Stack, at sim.Time) {
	w.on, w.ended, w.end = false, true, at
	if s.Cache != nil {
		s.Cache.ResetStats()
	}
}

// report returns the report's warm-up section, or nil without one;
// start is the run's start.
func (w *warmup) report(start sim.Time) *WarmupReport {
	if w.excluded == 0 && !w.ended && !w.full {
		return nil
	}
	r := &WarmupReport{Until: "requests", ExcludedRequests: w.excluded, Ended: w.ended}
	if w.full {
		r.Until = "cache_full"
	}
	if w.ended {
		r.EndS = w.end.Seconds()
	}
	return r
}
