package metrics

import (
	"iter"
	"math"
	"math/bits"
	"time"
)

// Bucket layout.
//
// A value v (non-negative nanoseconds) goes to bucket
//
//	s   = max(0, bitlen(v) - 7)   (how many low bits v loses)
//	idx = 64*s + v>>s
//
// Values below 128 ns get one bucket each, so they are kept exactly. Above
// that, every power-of-two range [2^e, 2^(e+1)) is split into 64 buckets of
// equal width 2^(e-6); a bucket [lo, hi) therefore has hi/lo between
// 1+1/127 and 1+1/64, the log-linear scheme of HdrHistogram. Computing idx
// takes one count-leading-zeros instruction and two shifts: no logarithm.
const (
	subBits    = 6                              // log2 of buckets per octave
	subCount   = 1 << subBits                   // buckets per octave
	exactLimit = 2 * subCount                   // values below this have their own bucket
	maxShift   = 35                             // largest s: covers values below 2^42 ns
	numBuckets = subCount*maxShift + exactLimit // 2368
)

// MaxTracked is the largest latency the histogram's buckets resolve: 2^42-1
// ns, about 73 minutes. Larger values are counted in the last bucket
// (negative ones in the first); Count, Sum, Min and Max stay exact for them.
const MaxTracked = time.Duration(1<<(maxShift+7) - 1)

// QuantileError is the largest relative error of Histogram.Quantile for
// samples between 0 and MaxTracked: half a bucket's width divided by its
// lower bound, 1/128 (0.78%). Below 128 ns quantiles are exact.
const QuantileError = 1.0 / (2 * subCount)

// bucketOf returns the bucket index of d after clamping it into
// [0, MaxTracked].
func bucketOf(d time.Duration) int {
	v := uint64(min(max(d, 0), MaxTracked))
	s := bits.Len64(v|(exactLimit-1)) - (subBits + 1)
	return s<<subBits + int(v>>uint(s))
}

// bucketBounds returns the smallest value in bucket i and one past the
// largest.
func bucketBounds(i int) (lo, hi time.Duration) {
	if i < exactLimit {
		return time.Duration(i), time.Duration(i + 1)
	}
	s := uint(i>>subBits - 1)
	m := int64(i&(subCount-1) + subCount)
	return time.Duration(m << s), time.Duration((m + 1) << s)
}

// bucketValue returns the value that stands for every sample in bucket i:
// its arithmetic midpoint, lo + width/2, exact for one-value buckets.
func bucketValue(i int) time.Duration {
	lo, hi := bucketBounds(i)
	return lo + (hi-lo)/2
}

// Histogram is a latency histogram with logarithmic buckets and constant
// memory: a fixed array of 2368 counters (about 19 KiB) that never grows,
// however many samples it records.
//
// Count, Sum, Min, Max and Mean are exact. Quantile is within
// QuantileError (0.78%) of the exact nearest-rank sample quantile for
// samples up to MaxTracked (about 73 minutes), exact below 128 ns.
//
// The zero value is an empty histogram ready to use; NewHistogram returns
// one on the heap. A Histogram is a plain value: assigning it copies every
// counter, which makes a snapshot. It is not safe for concurrent use;
// parallel runs keep one each and Merge them afterwards.
type Histogram struct {
	count    int64
	sum      time.Duration
	sumSq    [2]uint64 // sum of squared samples, ns², exact: high and low 64 bits
	min, max time.Duration
	counts   [numBuckets]uint64
}

// NewHistogram returns a new, empty histogram. It is equivalent to
// new(Histogram).
func NewHistogram() *Histogram { return new(Histogram) }

// Record adds one sample. It never allocates. Samples outside
// [0, MaxTracked] are counted in the first or last bucket but still enter
// Count, Sum, Min and Max exactly. Sum wraps around after about 292 years
// of total latency.
func (h *Histogram) Record(d time.Duration) {
	if h.count == 0 || d < h.min {
		h.min = d
	}
	if h.count == 0 || d > h.max {
		h.max = d
	}
	h.count++
	h.sum += d
	h.addSq(d)
	h.counts[bucketOf(d)]++
}

// Count returns the number of samples recorded.
func (h *Histogram) Count() int64 { return h.count }

// Sum returns the exact total of the samples.
func (h *Histogram) Sum() time.Duration { return h.sum }

// Min returns the smallest sample, or 0 if there is none.
func (h *Histogram) Min() time.Duration { return h.min }

// Max returns the largest sample, or 0 if there is none.
func (h *Histogram) Max() time.Duration { return h.max }

// Mean returns Sum/Count rounded to the nearest nanosecond (halves away
// from zero), or 0 if there are no samples.
func (h *Histogram) Mean() time.Duration {
	if h.count == 0 {
		return 0
	}
	n := time.Duration(h.count)
	q, r := h.sum/n, h.sum%n
	switch {
	case r > 0 && r >= n-r:
		q++
	case r < 0 && -r >= n+r:
		q--
	}
	return q
}

// MeanSeconds returns the exact mean as a float64 number of seconds, or 0
// if there are no samples. Reports use it to avoid rounding to whole
// nanoseconds.
func (h *Histogram) MeanSeconds() float64 {
	if h.count == 0 {
		return 0
	}
	return float64(h.sum) / float64(h.count) / 1e9
}

// addSq adds d² to the 128-bit sum of squares, exactly (so merging in
// any order gives the same sum); it wraps past 2^128 ns².
func (h *Histogram) addSq(d time.Duration) {
	u := uint64(d)
	if d < 0 {
		u = uint64(-d)
	}
	hi, lo := bits.Mul64(u, u)
	var c uint64
	h.sumSq[1], c = bits.Add64(h.sumSq[1], lo, 0)
	h.sumSq[0], _ = bits.Add64(h.sumSq[0], hi, c)
}

// StdDev returns the sample standard deviation of the samples (with
// Count-1 in the denominator, as fio reports it), in nanoseconds, from
// exact sums; 0 for fewer than two samples.
func (h *Histogram) StdDev() float64 {
	if h.count < 2 {
		return 0
	}
	n := float64(h.count)
	mean := float64(h.sum) / n
	sq := float64(h.sumSq[0])*(1<<64) + float64(h.sumSq[1])
	v := (sq - n*mean*mean) / (n - 1)
	if v <= 0 {
		return 0
	}
	return math.Sqrt(v)
}

// Quantile returns an estimate of the q-quantile of the samples, 0 <= q <=
// 1: the nearest-rank quantile, the sample of rank ceil(q*Count) in
// ascending order (rank 1 when q*Count < 1), which is what gonum's
// stat.Quantile computes with stat.Empirical. The estimate is the midpoint
// of the bucket holding that sample, clamped to [Min, Max], so its relative
// error is at most QuantileError for samples within [0, MaxTracked].
// Quantile(0) is Min and Quantile(1) is Max, exactly.
//
// q below 0 (or NaN) counts as 0 and q above 1 as 1. An empty histogram
// returns 0. The cost is a scan of the buckets from Min up, or from Max
// down for q above one half: at most 2368 counters.
func (h *Histogram) Quantile(q float64) time.Duration {
	if h.count == 0 {
		return 0
	}
	rank := int64(1)
	if q >= 1 {
		rank = h.count
	} else if q > 0 {
		rank = max(1, int64(math.Ceil(q*float64(h.count))))
		rank = min(rank, h.count)
	}
	switch rank {
	case 1:
		return h.min
	case h.count:
		return h.max
	}
	lo, hi := bucketOf(h.min), bucketOf(h.max)
	i, seen := lo, uint64(0)
	if rank <= h.count/2 {
		// Count up to the rank-th smallest sample.
		for ; i < hi; i++ {
			if seen += h.counts[i]; seen >= uint64(rank) {
				break
			}
		}
	} else {
		// High quantiles: count down to the (count-rank+1)-th largest.
		want := uint64(h.count - rank + 1)
		for i = hi; i > lo; i-- {
			if seen += h.counts[i]; seen >= want {
				break
			}
		}
	}
	return min(max(bucketValue(i), h.min), h.max)
}

// Merge adds every sample of other to h, as if each had been recorded
// into h. It is exact: merging gives the same histogram as recording all
// samples into one. A nil other is ignored.
func (h *Histogram) Merge(other *Histogram) {
	if other == nil || other.count == 0 {
		return
	}
	if h.count == 0 || other.min < h.min {
		h.min = other.min
	}
	if h.count == 0 || other.max > h.max {
		h.max = other.max
	}
	h.count += other.count
	h.sum += other.sum
	var c uint64
	h.sumSq[1], c = bits.Add64(h.sumSq[1], other.sumSq[1], 0)
	h.sumSq[0], _ = bits.Add64(h.sumSq[0], other.sumSq[0], c)
	for i := bucketOf(other.min); i <= bucketOf(other.max); i++ {
		h.counts[i] += other.counts[i]
	}
}

// Reset empties h, keeping its storage.
func (h *Histogram) Reset() { *h = Histogram{} }

// Bucket is one non-empty bucket of a Histogram: Count samples at least
// Lower and below Upper (after clamping into [0, MaxTracked]).
type Bucket struct {
	Lower, Upper time.Duration
	Count        int64
}

// Buckets yields the non-empty buckets in ascending order, for plots of
// the latency distribution.
func (h *Histogram) Buckets() iter.Seq[Bucket] {
	return func(yield func(Bucket) bool) {
		if h.count == 0 {
			return
		}
		for i := bucketOf(h.min); i <= bucketOf(h.max); i++ {
			if h.counts[i] == 0 {
				continue
			}
			lo, hi := bucketBounds(i)
			if !yield(Bucket{Lower: lo, Upper: hi, Count: int64(h.counts[i])}) {
				return
			}
		}
	}
}
