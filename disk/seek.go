package disk

import (
	"math"
	"sort"
	"time"
)

// seekModel evaluates seek times in nanoseconds. Either the three-point
// curve (Lee's equation) or a table is used.
type seekModel struct {
	a, b, c  float64 // ns; seek(x) = a*sqrt(x-1) + b*(x-1) + c for x >= 1
	table    []SeekPoint
	settle   int64 // extra ns for writes
	fallback string
}

// newSeekModel fits the seek curve of p over cylinders cylinders.
//
// With three figures (min = TrackToTrack, avg = AverageSeek, max =
// FullStroke) and N cylinders it uses Lee's equation:
//
//	seek(x) = a*sqrt(x-1) + b*(x-1) + c,  seek(0) = 0
//	a = (-10 min + 15 avg - 5 max) / (3 sqrt N)
//	b = (7 min - 15 avg + 8 max) / (3 N)
//	c = min
//
// whose mean over uniformly random start and end cylinders is avg and
// which passes through min at x = 1 and max at x = N+1 (full stroke).
// When the figures make a negative (avg too close to min, or max too
// large: the curve would dip) the square-root term is dropped and the
// curve becomes linear through min and max; when b is negative (avg too
// large for a concave curve) the linear term is dropped and the curve is
// min + a*sqrt(x-1) through min and max. In both fallbacks the mean no
// longer equals avg; the fallback field records which one applied.
func newSeekModel(p *Params, cylinders int64) seekModel {
	m := seekModel{settle: int64(p.WriteSettle)}
	if len(p.SeekTable) > 0 {
		m.table = append([]SeekPoint(nil), p.SeekTable...)
		sort.Slice(m.table, func(i, j int) bool { return m.table[i].Distance < m.table[j].Distance })
		return m
	}
	mn, avg, mx := float64(p.TrackToTrack), float64(p.AverageSeek), float64(p.FullStroke)
	n := float64(cylinders)
	if n < 1 {
		n = 1
	}
	m.a = (-10*mn + 15*avg - 5*mx) / (3 * math.Sqrt(n))
	m.b = (7*mn - 15*avg + 8*mx) / (3 * n)
	m.c = mn
	switch {
	case m.a < 0:
		m.a = 0
		m.b = (mx - mn) / n
		m.fallback = "linear"
	case m.b < 0:
		m.b = 0
		m.a = (mx - mn) / math.Sqrt(n)
		m.fallback = "sqrt"
	}
	return m
}

// fit names the curve in use.
func (m *seekModel) fit() string {
	switch {
	case m.table != nil:
		return "table"
	case m.fallback != "":
		return m.fallback
	}
	return "lee"
}

// ns returns the seek time in nanoseconds for a seek of dist cylinders
// (dist >= 0), including write settle when write is set and dist > 0.
func (m *seekModel) ns(dist int64, write bool) int64 {
	if dist <= 0 {
		return 0
	}
	var t int64
	if m.table == nil {
		x := float64(dist - 1)
		t = int64(m.a*math.Sqrt(x) + m.b*x + m.c)
	} else {
		t = m.tableNs(dist)
	}
	if write {
		t = max(t+m.settle, 0) // a negative settle shortens the seek
	}
	return t
}

func (m *seekModel) tableNs(dist int64) int64 {
	tb := m.table
	if dist <= int64(tb[0].Distance) {
		return int64(tb[0].Time)
	}
	last := tb[len(tb)-1]
	if dist >= int64(last.Distance) {
		return int64(last.Time)
	}
	lo, hi := 0, len(tb)-1 // tb[lo].Distance < dist <= tb[hi].Distance
	for hi-lo > 1 {
		mid := (lo + hi) >> 1
		if int64(tb[mid].Distance) < dist {
			lo = mid
		} else {
			hi = mid
		}
	}
	p0, p1 := tb[lo], tb[hi]
	return int64(p0.Time) + (int64(p1.Time)-int64(p0.Time))*(dist-int64(p0.Distance))/int64(p1.Distance-p0.Distance)
}

// mean returns the mean seek time over uniformly random, independent
// start and end cylinders among n (zero-length seeks included).
func (m *seekModel) mean(n int64) time.Duration {
	if n <= 1 {
		return 0
	}
	nf := float64(n)
	var sum float64
	for d := int64(1); d < n; d++ {
		// P(distance = d) = 2 (n - d) / n^2
		sum += 2 * float64(n-d) / (nf * nf) * float64(m.ns(d, false))
	}
	return time.Duration(sum)
}
