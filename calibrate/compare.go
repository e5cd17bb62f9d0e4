package calibrate

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/raidsim/raidsim/metrics"
)

// Quantiles are the percentiles Compare reports, as fractions.
var Quantiles = []float64{0.5, 0.9, 0.99}

// Stats are a sample of service times reduced to a few numbers, in
// milliseconds.
type Stats struct {
	Mean float64 `json:"mean_ms"`
	P50  float64 `json:"p50_ms"`
	P90  float64 `json:"p90_ms"`
	P99  float64 `json:"p99_ms"`
}

// Class is the requests of one kind (read or write, buffer hit or media
// access, sequential or random) and how their simulated service times
// compare with the measured ones.
type Class struct {
	// Name describes the class in words: "reads that hit the buffer,
	// sequential".
	Name string `json:"name"`
	// Requests is the number of requests in the class and Share their
	// fraction of all requests.
	Requests int     `json:"requests"`
	Share    float64 `json:"share"`
	// MeasuredMean and SimulatedMean are the class's mean service times
	// in milliseconds, and GapMs their difference (simulated - measured:
	// negative when the model is fast).
	MeasuredMean  float64 `json:"measured_mean_ms"`
	SimulatedMean float64 `json:"simulated_mean_ms"`
	GapMs         float64 `json:"gap_ms"`
	// Weight is Share x |GapMs|: how much the class moves the overall
	// simulated mean away from the measured one, in milliseconds. The
	// largest gap is the class with the largest weight.
	Weight float64 `json:"weight_ms"`
}

// Describe says the class's gap in a sentence: "simulated reads that hit
// the buffer, sequential, are 0.090 ms fast (12.0% of the requests)".
func (c Class) Describe() string {
	way := "slow"
	if c.GapMs < 0 {
		way = "fast"
	}
	return fmt.Sprintf("simulated %s are %.3f ms %s (%.1f%% of the requests)", c.Name, math.Abs(c.GapMs), way, 100*c.Share)
}

// Comparison is how a model's replay of a measured trace compares with
// the measurements.
type Comparison struct {
	// Requests is the number of requests compared.
	Requests int `json:"requests"`
	// DemeritMs is the demerit figure (metrics.Demerit) in milliseconds
	// and DemeritPct the same as a percentage of the measured mean.
	DemeritMs  float64 `json:"demerit_ms"`
	DemeritPct float64 `json:"demerit_pct"`
	// Measured and Simulated summarize the two samples.
	Measured  Stats `json:"measured"`
	Simulated Stats `json:"simulated"`
	// Classes lists the non-empty classes, largest weight first (ties in
	// a fixed order).
	Classes []Class `json:"classes"`
}

// LargestGap returns the class whose gap moves the overall mean the
// most, and false when there are no requests.
func (c *Comparison) LargestGap() (Class, bool) {
	if len(c.Classes) == 0 {
		return Class{}, false
	}
	return c.Classes[0], true
}

// Compare scores a replay (see Replay). It returns a zero Comparison
// for no requests.
func Compare(reqs []Request) Comparison {
	if len(reqs) == 0 {
		return Comparison{}
	}
	m := make([]time.Duration, len(reqs))
	s := make([]time.Duration, len(reqs))
	for i, r := range reqs {
		m[i], s[i] = r.Measured, r.Simulated
	}
	c := Comparison{Requests: len(reqs)}
	c.DemeritMs, c.DemeritPct = metrics.Demerit(m, s)
	c.Measured, c.Simulated = stats(m), stats(s)
	c.Classes = classes(reqs)
	return c
}

// stats sorts v and summarizes it.
func stats(v []time.Duration) Stats {
	slices.Sort(v)
	var sum float64
	for _, x := range v {
		sum += float64(x)
	}
	q := func(f float64) float64 { return float64(metrics.SortedQuantile(v, f)) / 1e6 }
	return Stats{Mean: sum / float64(len(v)) / 1e6, P50: q(Quantiles[0]), P90: q(Quantiles[1]), P99: q(Quantiles[2])}
}

// classIndex numbers a request's class: bit 0 write, bit 1 buffer hit,
// bit 2 sequential.
func classIndex(r Request) int {
	i := 0
	if r.Write {
		i |= 1
	}
	if r.Hit {
		i |= 2
	}
	if r.Sequential {
		i |= 4
	}
	return i
}

// className names class i in words.
func className(i int) string {
	op, how := "reads", "that went to the media"
	if i&1 != 0 {
		op = "writes"
	}
	switch {
	case i&2 != 0 && i&1 != 0:
		how = "that the write cache absorbed"
	case i&2 != 0:
		how = "that hit the buffer"
	case i&1 != 0:
		how = "written to the media"
	}
	pattern := "random"
	if i&4 != 0 {
		pattern = "sequential"
	}
	return fmt.Sprintf("%s %s %s", pattern, op, how)
}

// classes groups reqs by class and ranks the classes.
func classes(reqs []Request) []Class {
	var n [8]int
	var meas, sim [8]float64
	for _, r := range reqs {
		i := classIndex(r)
		n[i]++
		meas[i] += float64(r.Measured)
		sim[i] += float64(r.Simulated)
	}
	var out []Class
	for i := range n {
		if n[i] == 0 {
			continue
		}
		c := Class{
			Name: className(i), Requests: n[i], Share: float64(n[i]) / float64(len(reqs)),
			MeasuredMean: meas[i] / float64(n[i]) / 1e6, SimulatedMean: sim[i] / float64(n[i]) / 1e6,
		}
		c.GapMs = c.SimulatedMean - c.MeasuredMean
		c.Weight = c.Share * math.Abs(c.GapMs)
		out = append(out, c)
	}
	slices.SortStableFunc(out, func(a, b Class) int {
		if a.Weight != b.Weight {
			if a.Weight > b.Weight {
				return -1
			}
			return 1
		}
		return 0
	})
	return out
}
