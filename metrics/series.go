package metrics

import (
	"fmt"
	"strconv"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// Point is one interval of a Series: the requests that completed in
// [Start, Start+Interval).
type Point struct {
	// Start is the virtual time the interval begins.
	Start sim.Time
	// IOs is the number of requests that completed in the interval.
	IOs int64
	// Bytes is their total size in bytes.
	Bytes int64
	// LatencySum is the sum of their latencies; LatencySum/IOs is the
	// mean.
	LatencySum time.Duration
	// MaxLatency is the largest of their latencies, 0 with no requests.
	MaxLatency time.Duration
}

// Series counts completed requests per fixed interval of virtual time,
// for throughput and latency over time (warm-up, a cache filling, a
// rebuild). Unlike Histogram its memory grows: one Point per interval up
// to the latest completion.
//
// The zero value is ready to use with one-second intervals. Set Interval
// before the first Add and do not change it afterwards. A Series is not
// safe for concurrent use.
type Series struct {
	// Interval is the width of each point in virtual time; zero means
	// one second.
	Interval time.Duration
	points   []Point
}

func (s *Series) interval() time.Duration {
	if s.Interval <= 0 {
		return time.Second
	}
	return s.Interval
}

// Add counts one request that completed at the virtual time at, moved
// bytes bytes and took latency. Times before zero count in the first
// interval. Add allocates only when at falls in an interval later than
// any seen so far.
func (s *Series) Add(at sim.Time, bytes int64, latency time.Duration) {
	iv := s.interval()
	i := int(max(at, 0) / sim.Time(iv))
	for len(s.points) <= i {
		s.points = append(s.points, Point{Start: sim.Time(len(s.points)) * sim.Time(iv)})
	}
	p := &s.points[i]
	p.IOs++
	p.Bytes += bytes
	p.LatencySum += latency
	p.MaxLatency = max(p.MaxLatency, latency)
}

// Observe counts a completed request at its Completed time, with its
// Length and Latency. Flushes count like any other request; give a Series
// only the ops it should show.
func (s *Series) Observe(r *sim.Request) { s.Add(r.Completed, r.Length, r.Latency()) }

// Points returns the intervals from time zero to the latest completion,
// empty ones included. The slice aliases s: do not modify it.
func (s *Series) Points() []Point { return s.points }

// Merge adds the counts of other, interval by interval. It panics if the
// intervals differ. A nil other is ignored.
func (s *Series) Merge(other *Series) {
	if other == nil {
		return
	}
	if s.interval() != other.interval() {
		panic(fmt.Sprintf("metrics: merging series with intervals %v and %v", s.interval(), other.interval()))
	}
	for i, p := range other.points {
		if p.IOs == 0 && i >= len(s.points) {
			continue
		}
		for len(s.points) <= i {
			s.points = append(s.points, Point{Start: sim.Time(len(s.points)) * sim.Time(s.interval())})
		}
		q := &s.points[i]
		q.IOs += p.IOs
		q.Bytes += p.Bytes
		q.LatencySum += p.LatencySum
		q.MaxLatency = max(q.MaxLatency, p.MaxLatency)
	}
}

// Reset empties s, keeping its interval and storage.
func (s *Series) Reset() { s.points = s.points[:0] }

// Table returns one row per interval: its start in seconds, IOs, IOPS,
// MB/s (10^6 bytes per second) and mean and max latency in ms. Rates are
// over the whole interval, so the last, partial one reads low.
func (s *Series) Table() Table {
	sec := s.interval().Seconds()
	// Enough decimals to show every interval start exactly: 1 for 100ms.
	dec := 0
	for unit := time.Second; dec < 9 && s.interval()%unit != 0; unit /= 10 {
		dec++
	}
	t := Table{Header: []string{"t s", "IOs", "IOPS", "MB/s", "mean ms", "max ms"}}
	for _, p := range s.points {
		mean := 0.0
		if p.IOs > 0 {
			mean = float64(p.LatencySum) / (float64(p.IOs) * 1e6)
		}
		t.AddRow(
			FormatFixed(p.Start.Seconds(), dec),
			strconv.FormatInt(p.IOs, 10),
			FormatFixed(float64(p.IOs)/sec, 1),
			FormatFixed(float64(p.Bytes)/(sec*1e6), 2),
			FormatSig(mean, 4),
			FormatSig(ms(p.MaxLatency), 4),
		)
	}
	return t
}

// Level tracks a quantity that changes at instants of virtual time (a
// queue length, dirty bytes in a cache, a busy flag) and reports its
// peak and its time-weighted mean. The zero value is at level 0 from time
// zero. A Level is not safe for concurrent use.
type Level struct {
	value, peak int64
	since       sim.Time // time of the last change
	area        float64  // integral of value over [0, since], value·ns
}

// Set changes the level to v at virtual time now. now must not be before
// the previous change; if it is, the change counts as happening at the
// previous change.
func (l *Level) Set(now sim.Time, v int64) {
	if now > l.since {
		// The conversion rounds the product, so no platform fuses the
		// multiply and add: means stay identical across architectures.
		l.area += float64(float64(l.value) * float64(now-l.since))
		l.since = now
	}
	l.value = v
	l.peak = max(l.peak, v)
}

// Add changes the level by delta at virtual time now, as Set does.
func (l *Level) Add(now sim.Time, delta int64) { l.Set(now, l.value+delta) }

// Value returns the current level.
func (l *Level) Value() int64 { return l.value }

// Peak returns the highest level reached (at least 0, the starting level).
func (l *Level) Peak() int64 { return l.peak }

// Mean returns the time-weighted mean level over [0, now], or the current
// level when now is 0. For a 0/1 busy flag it is the utilization. now
// before the last change counts as the last change.
func (l *Level) Mean(now sim.Time) float64 {
	end := max(now, l.since)
	if end <= 0 {
		return float64(l.value)
	}
	area := l.area + float64(float64(l.value)*float64(end-l.since))
	return area / float64(end)
}
