package lifelog

import (
	"slices"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// Other labels time in a Breakdown that no phase claims: a drive's
// completion overhead, an array's parity computation, hand-offs.
const Other = "other"

// Labels are the labels a Breakdown uses, in the order a request meets
// them: the sim.Phase names, then Other.
var Labels = []string{
	sim.PhaseQueue.String(), sim.PhaseOverhead.String(), sim.PhaseSeek.String(), sim.PhaseRotate.String(),
	sim.PhaseMedia.String(), sim.PhaseBus.String(), sim.PhaseCacheHit.String(), Other,
}

// Segment is one piece of a Breakdown: time Life spent in Label on
// Device.
type Segment struct {
	Life   *Life
	Device string
	Label  string
	// Start and End bound it in virtual time.
	Start, End sim.Time
}

// Len returns the segment's duration.
func (s Segment) Len() time.Duration { return s.End.Sub(s.Start) }

// Breakdown returns the critical path of a completed life as segments
// that tile [Submitted, Completed] in time order, so their lengths add
// up to the latency: from the completion backwards, the child that
// finished last (recursively), then what it waited for; time outside
// every child goes to l's own phases, or Other. It returns nil for a
// life not done.
func (l *Life) Breakdown() []Segment {
	if !l.Done {
		return nil
	}
	return l.breakdown(l.Submitted, l.Completed)
}

func (l *Life) breakdown(from, to sim.Time) []Segment {
	var pieces [][]Segment // built backwards
	t := to
	for t > from {
		var best *Life
		for _, c := range l.Children {
			if !c.Done || c.Completed > t || c.Submitted >= t || c.Submitted < from {
				continue
			}
			if best == nil || c.Completed > best.Completed || (c.Completed == best.Completed && c.Submitted < best.Submitted) {
				best = c
			}
		}
		if best == nil {
			pieces = append(pieces, l.own(from, t))
			break
		}
		pieces = append(pieces, l.own(best.Completed, t), best.breakdown(best.Submitted, best.Completed))
		t = best.Submitted
	}
	var out []Segment
	for i := len(pieces) - 1; i >= 0; i-- {
		out = append(out, pieces[i]...)
	}
	return out
}

// own tiles [a, b) with l's own phases, earliest first, clipped so they
// do not overlap; the gaps are Other.
func (l *Life) own(a, b sim.Time) []Segment {
	if b <= a {
		return nil
	}
	dev := ""
	if len(l.Layers) > 0 {
		dev = l.Layers[0]
	}
	ps := slices.Clone(l.Phases)
	slices.SortStableFunc(ps, func(x, y Span) int { return int(x.Start - y.Start) })
	var out []Segment
	cur := a
	for _, p := range ps {
		s, e := max(p.Start, cur), min(p.End, b)
		if e <= s {
			continue
		}
		if s > cur {
			out = append(out, Segment{Life: l, Device: dev, Label: Other, Start: cur, End: s})
		}
		out = append(out, Segment{Life: l, Device: p.Device, Label: p.Phase.String(), Start: s, End: e})
		cur = e
	}
	if cur < b {
		out = append(out, Segment{Life: l, Device: dev, Label: Other, Start: cur, End: b})
	}
	return out
}

// Totals sums segments by label, in the order of Labels.
func Totals(segs []Segment) [8]time.Duration {
	var t [8]time.Duration
	for _, s := range segs {
		t[labelIndex(s.Label)] += s.Len()
	}
	return t
}

func labelIndex(label string) int {
	for i, x := range Labels {
		if x == label {
			return i
		}
	}
	return len(Labels) - 1
}
