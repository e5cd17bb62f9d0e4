package spec

import (
	"cmp"
	"fmt"
	"math"

	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/trace"
)

// maxRunYears is sim.MaxInputTime in years, for messages.
var maxRunYears = sim.MaxInputTime.Seconds() / (365.25 * 86400)

// checkPacedLength refuses a synthetic job whose pacing (rate,
// rate_iops, thinktime) alone makes it last past sim.MaxInputTime: its
// requests could not be scheduled in virtual time. The bound is a lower
// one (the smallest block size, the mix's expected shares), so a job
// refused here could never have run.
func checkPacedLength(p *problems, path string, w trace.Workload, capacity int64) {
	if p.under(path) || w.Pacing.ThinkTime == 0 && !w.Pacing.Rated() {
		return
	}
	w = w.WithDefaults()
	bs := w.BS
	for _, e := range w.BSSplit {
		bs = min(cmp.Or(bs, e.Size), e.Size)
	}
	n := float64(w.NumIOs)
	if w.NumIOs == 0 && bs > 0 {
		n = float64(cmp.Or(w.Size, capacity-w.Offset) / bs)
	}
	pc := w.Pacing
	if pc.ThinkTime > 0 {
		stalls := math.Floor(n / float64(max(pc.ThinkTimeBlocks, 1)))
		if t := stalls * pc.ThinkTime.Seconds(); t >= sim.MaxInputTime.Seconds() {
			p.add(path+".thinktime", "%v after every %d of %.0f requests is %s of stalls, past the longest run (%.0f years): give fewer ios or a shorter thinktime",
				pc.ThinkTime, max(pc.ThinkTimeBlocks, 1), n, years(t), maxRunYears)
		}
	}
	share := directionShares(w)
	for d, key := range []string{"read", "write", "trim"} {
		reqs := n * share[d]
		if reqs == 0 {
			continue
		}
		var t float64
		field := ".rate"
		switch {
		case pc.Rate[d] > 0:
			t = reqs * float64(bs) / float64(pc.Rate[d])
		case pc.RateIOPS[d] > 0:
			t, field = reqs/float64(pc.RateIOPS[d]), ".rate_iops"
		}
		if t >= sim.MaxInputTime.Seconds() {
			p.add(path+field, "%.0f %ss of at least %d bytes at this rate take %s, past the longest run (%.0f years): give fewer ios, a smaller size or a higher rate",
				reqs, key, bs, years(t), maxRunYears)
		}
	}
}

// directionShares returns the expected shares of w's requests that are
// reads, writes and trims.
func directionShares(w trace.Workload) [3]float64 {
	switch w.RW {
	case trace.RWWrite, trace.RWRandWrite:
		return [3]float64{0, 1, 0}
	case trace.RWTrim, trace.RWRandTrim:
		return [3]float64{0, 0, 1}
	case trace.RWReadWrite, trace.RWRandRW:
		r := float64(w.RWMixRead) / 100
		return [3]float64{r, 1 - r, 0}
	}
	return [3]float64{1, 0, 0}
}

// years formats s seconds as years.
func years(s float64) string {
	return fmt.Sprintf("%.3g years", s/(365.25*86400))
}
