package tracestats

import (
	"time"

	"github.com/raidsim/raidsim/metrics"
	"github.com/raidsim/raidsim/mrc"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/trace"
)

// sizeBuckets is the number of size buckets: 512 B, 1 KiB, ... 16 MiB,
// and one for larger requests.
const sizeBuckets = 16

// burstWindows are the window lengths of Stats.Burstiness.
var burstWindows = [...]time.Duration{time.Second, time.Minute}

// collector is the first pass's state: fixed-size but for the device
// table, bounded by MaxDevices.
type collector struct {
	records  int64
	started  bool
	first    sim.Time // time of the first record read: the origin of bins
	earliest sim.Time
	latest   sim.Time
	late     int64
	maxLate  time.Duration
	ops      [4]OpCount // read, write, trim, flush
	sizes    [sizeBuckets + 1][3]int64
	seq      [2]int64 // sequential reads, writes
	devices  map[int]*int64
	capped   bool
	gaps     metrics.Histogram
	measured metrics.OpStats
	bursts   [len(burstWindows)]burstRing
	hll      hll
	accesses int64
	timeline binner
	heat     heatGrid
}

func newCollector() *collector {
	c := &collector{devices: map[int]*int64{}}
	for i, w := range burstWindows {
		c.bursts[i].width = w
	}
	c.timeline = binner{width: time.Millisecond, bins: make([]timeBin, 0, timelineBins)}
	c.heat = newHeatGrid()
	return c
}

// opIndex is the slot of op in collector.ops, or -1.
func opIndex(op sim.Op) int {
	switch op {
	case sim.Read:
		return 0
	case sim.Write:
		return 1
	case sim.Trim:
		return 2
	case sim.Flush:
		return 3
	}
	return -1
}

// add counts one record.
func (c *collector) add(r *trace.Record) {
	c.records++
	c.addTime(r.Time)
	i := opIndex(r.Op)
	if i < 0 {
		return
	}
	c.ops[i].Count++
	if r.Op == sim.Flush {
		return
	}
	c.ops[i].Bytes += r.Length
	c.sizes[sizeBucket(r.Length)][i]++
	if r.Measured > 0 {
		c.measured.Add(r.Length, r.Measured)
	}
	at := r.Time.Sub(c.first)
	c.timeline.add(at, r.Length)
	c.heat.add(at, r.Offset)
	if r.Op == sim.Trim {
		return
	}
	c.sequential(r, i)
	mrc.Blocks(*r, func(b int64) {
		c.accesses++
		c.hll.add(b)
	})
}

// addTime counts a record's time: span, disorder, gaps and bursts.
func (c *collector) addTime(t sim.Time) {
	if !c.started {
		c.started, c.first, c.earliest, c.latest = true, t, t, t
	} else {
		c.earliest = min(c.earliest, t)
		if t < c.latest {
			c.late++
			c.maxLate = max(c.maxLate, c.latest.Sub(t))
			c.gaps.Record(0)
		} else {
			c.gaps.Record(t.Sub(c.latest))
			c.latest = t
		}
	}
	at := t.Sub(c.first)
	for i := range c.bursts {
		c.bursts[i].add(at)
	}
}

// sequential counts r (a read or a write, op index i) as sequential when
// it starts where its device's previous request ended.
func (c *collector) sequential(r *trace.Record, i int) {
	end, ok := c.devices[r.Device]
	if !ok {
		if len(c.devices) >= MaxDevices {
			c.capped = true
			return
		}
		end = new(int64)
		*end = -1
		c.devices[r.Device] = end
	}
	if r.Offset == *end {
		c.seq[i]++
	}
	*end = r.End()
}

// sizeBucket returns the bucket of a request of n bytes.
func sizeBucket(n int64) int {
	for k := range sizeBuckets {
		if n <= 512<<k {
			return k
		}
	}
	return sizeBuckets
}

// finish returns the first pass's figures.
func (c *collector) finish() *Stats {
	st := &Stats{Records: c.records, Devices: len(c.devices), DevicesCapped: c.capped,
		Late: c.late, MaxLateS: seconds(c.maxLate)}
	if c.started {
		st.SpanS = seconds(c.latest.Sub(c.earliest))
	}
	counts := []*OpCount{&st.Ops.Read, &st.Ops.Write, &st.Ops.Trim, &st.Ops.Flush}
	for i, oc := range counts {
		*oc = c.ops[i]
		if c.records > 0 {
			oc.Fraction = float64(oc.Count) / float64(c.records)
		}
	}
	for k := range c.sizes {
		b := SizeBucket{Reads: c.sizes[k][0], Writes: c.sizes[k][1], Trims: c.sizes[k][2]}
		if k < sizeBuckets {
			b.UpTo = 512 << k
		}
		st.Sizes = append(st.Sizes, b)
	}
	st.Sequential = Sequential{All: ratio(c.seq[0]+c.seq[1], c.ops[0].Count+c.ops[1].Count),
		Read: ratio(c.seq[0], c.ops[0].Count), Write: ratio(c.seq[1], c.ops[1].Count)}
	st.InterArrival = distribution(&c.gaps)
	st.gaps = c.gaps
	span := c.latest.Sub(c.first)
	for i := range c.bursts {
		st.Burstiness = append(st.Burstiness, c.bursts[i].finish(span, c.records))
	}
	if c.measured.IOs() > 0 {
		l := c.measured.Summarize(time.Second).LatencyMS
		st.Measured = &l
	}
	st.Timeline = c.timeline.points()
	st.HotSpots = c.heat.result()
	return st
}

// ratio is a/b, or 0 when b is 0.
func ratio(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// distribution summarizes a histogram of durations.
func distribution(h *metrics.Histogram) Distribution {
	d := Distribution{Count: h.Count(), MeanS: h.MeanSeconds(), P50S: seconds(h.Quantile(0.5)),
		P90S: seconds(h.Quantile(0.9)), P99S: seconds(h.Quantile(0.99)), MaxS: seconds(h.Max())}
	if d.MeanS > 0 {
		d.CV = h.StdDev() / 1e9 / d.MeanS
	}
	return d
}
