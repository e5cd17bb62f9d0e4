package metrics

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	"gonum.org/v1/gonum/stat"
)

// testSeed seeds every randomized test; failures print it.
const testSeed = 20261129

func newRand(t testing.TB, stream uint64) *rand.Rand {
	t.Helper()
	t.Logf("seed %d, stream %d", testSeed, stream)
	return rand.New(rand.NewPCG(testSeed, stream))
}

// TestBucketLayout checks that buckets tile [0, MaxTracked] without gaps
// or overlaps, that every value lands in the bucket whose bounds hold it,
// and that no bucket is wider than 1/64 of its lower bound.
func TestBucketLayout(t *testing.T) {
	prevHi := time.Duration(0)
	for i := range numBuckets {
		lo, hi := bucketBounds(i)
		if lo != prevHi {
			t.Fatalf("bucket %d starts at %d, previous ended at %d", i, lo, prevHi)
		}
		if hi <= lo {
			t.Fatalf("bucket %d is empty: [%d, %d)", i, lo, hi)
		}
		if i >= exactLimit && float64(hi-lo)/float64(lo) > 1.0/subCount {
			t.Fatalf("bucket %d [%d, %d) wider than 1/%d of its start", i, lo, hi, subCount)
		}
		if i < exactLimit && hi-lo != 1 {
			t.Fatalf("bucket %d below %d ns is not exact: [%d, %d)", i, exactLimit, lo, hi)
		}
		if got := bucketOf(lo); got != i {
			t.Fatalf("bucketOf(%d) = %d, want %d", lo, got, i)
		}
		if got := bucketOf(hi - 1); got != i {
			t.Fatalf("bucketOf(%d) = %d, want %d", hi-1, got, i)
		}
		prevHi = hi
	}
	if prevHi != MaxTracked+1 {
		t.Fatalf("last bucket ends at %d, want MaxTracked+1 = %d", prevHi, MaxTracked+1)
	}
	if MaxTracked < time.Hour {
		t.Fatalf("MaxTracked = %v, want at least an hour", MaxTracked)
	}
	for _, c := range []struct {
		d    time.Duration
		want int
	}{
		{-5, 0}, {math.MinInt64, 0}, {0, 0}, {1, 1}, {127, 127},
		{MaxTracked + 1, numBuckets - 1}, {math.MaxInt64, numBuckets - 1},
	} {
		if got := bucketOf(c.d); got != c.want {
			t.Errorf("bucketOf(%d) = %d, want %d", c.d, got, c.want)
		}
	}
	r := newRand(t, 1)
	for range 100000 {
		d := time.Duration(r.Int64N(int64(MaxTracked) + 1))
		lo, hi := bucketBounds(bucketOf(d))
		if d < lo || d >= hi {
			t.Fatalf("%d in bucket [%d, %d)", d, lo, hi)
		}
	}
}

// sampler draws one latency.
type sampler struct {
	name string
	draw func(r *rand.Rand) time.Duration
}

// samplers are the distributions the accuracy tests use; together they
// cover nanoseconds to minutes.
var samplers = []sampler{
	{"uniform 1µs-1s", func(r *rand.Rand) time.Duration {
		return time.Microsecond + time.Duration(r.Int64N(int64(time.Second-time.Microsecond)))
	}},
	{"exponential mean 5ms", func(r *rand.Rand) time.Duration {
		return time.Duration(r.ExpFloat64() * 5e6)
	}},
	{"lognormal median 1ms sigma 2.5", func(r *rand.Rand) time.Duration {
		// exp(±2.5·4) spans 45 ns to 22 s around the median.
		return time.Duration(math.Exp(math.Log(1e6) + 2.5*r.NormFloat64()))
	}},
	{"bimodal cache hits and seeks", func(r *rand.Rand) time.Duration {
		if r.IntN(10) < 7 {
			return 20*time.Microsecond + time.Duration(r.Int64N(30000))
		}
		return 2*time.Millisecond + time.Duration(r.ExpFloat64()*8e6)
	}},
	{"tiny 0-300ns", func(r *rand.Rand) time.Duration {
		return time.Duration(r.Int64N(300))
	}},
	{"uniform 1s-1h", func(r *rand.Rand) time.Duration {
		return time.Second + time.Duration(r.Int64N(int64(time.Hour-time.Second)))
	}},
}

var testQuantiles = []float64{
	0, 1e-5, 0.001, 0.01, 0.05, 0.1, 0.25, 1.0 / 3, 0.5, 0.75, 0.9,
	0.95, 0.99, 0.995, 0.999, 0.9999, 0.99999, 1,
}

// TestQuantileAccuracy compares Quantile with the exact nearest-rank
// sample quantile as gonum's stat.Quantile computes it (stat.Empirical).
func TestQuantileAccuracy(t *testing.T) {
	const n = 100000
	for k, s := range samplers {
		t.Run(s.name, func(t *testing.T) {
			r := newRand(t, uint64(100+k))
			var h Histogram
			xs := make([]float64, n)
			for i := range xs {
				d := s.draw(r)
				h.Record(d)
				xs[i] = float64(d)
			}
			slices.Sort(xs)
			qs := append(slices.Clone(testQuantiles), make([]float64, 200)...)
			for i := len(testQuantiles); i < len(qs); i++ {
				qs[i] = r.Float64()
			}
			worst := 0.0
			for _, q := range qs {
				exact := stat.Quantile(q, stat.Empirical, xs, nil)
				got := float64(h.Quantile(q))
				rel := 0.0
				if exact != 0 {
					rel = math.Abs(got-exact) / exact
				} else if got != 0 {
					rel = math.Inf(1)
				}
				worst = max(worst, rel)
				if rel > QuantileError || rel >= 0.01 {
					t.Errorf("Quantile(%v) = %v, exact %v: relative error %.4f%% > %.4f%%",
						q, got, exact, 100*rel, 100*QuantileError)
				}
			}
			t.Logf("worst relative error %.4f%% over %d quantiles", 100*worst, len(qs))
		})
	}
}

// TestQuantileSmallCounts checks the rank rule on tiny samples, where
// nearest-rank and interpolating definitions differ most.
func TestQuantileSmallCounts(t *testing.T) {
	var h Histogram
	for _, d := range []time.Duration{40, 10, 30, 20} { // exact buckets
		h.Record(d)
	}
	for _, c := range []struct {
		q    float64
		want time.Duration
	}{
		{-1, 10}, {math.NaN(), 10}, {0, 10}, {0.1, 10}, {0.25, 10}, {0.26, 20},
		{0.5, 20}, {0.51, 30}, {0.75, 30}, {0.76, 40}, {1, 40}, {2, 40},
	} {
		if got := h.Quantile(c.q); got != c.want {
			t.Errorf("Quantile(%v) = %v, want %v", c.q, got, c.want)
		}
	}
}

func TestQuantileMonotone(t *testing.T) {
	r := newRand(t, 2)
	var h Histogram
	for range 10000 {
		h.Record(samplers[2].draw(r))
	}
	prev := time.Duration(math.MinInt64)
	for i := 0; i <= 1000; i++ {
		q := h.Quantile(float64(i) / 1000)
		if q < prev {
			t.Fatalf("Quantile(%v) = %v < Quantile of smaller q %v", float64(i)/1000, q, prev)
		}
		prev = q
	}
}

func TestExactStats(t *testing.T) {
	r := newRand(t, 3)
	var h Histogram
	var sum time.Duration
	lo, hi := time.Duration(math.MaxInt64), time.Duration(math.MinInt64)
	ds := []time.Duration{-7, 0, 3 * time.Hour, MaxTracked + 1} // outside the buckets
	for range 50000 {
		ds = append(ds, samplers[2].draw(r))
	}
	for _, d := range ds {
		h.Record(d)
		sum += d
		lo, hi = min(lo, d), max(hi, d)
	}
	if h.Count() != int64(len(ds)) {
		t.Errorf("Count = %d, want %d", h.Count(), len(ds))
	}
	if h.Sum() != sum {
		t.Errorf("Sum = %d, want %d", h.Sum(), sum)
	}
	if h.Min() != lo || h.Max() != hi {
		t.Errorf("Min, Max = %d, %d, want %d, %d", h.Min(), h.Max(), lo, hi)
	}
	if h.Quantile(0) != lo || h.Quantile(1) != hi {
		t.Errorf("Quantile(0), Quantile(1) = %d, %d, want %d, %d", h.Quantile(0), h.Quantile(1), lo, hi)
	}
	n := time.Duration(len(ds))
	want := sum / n
	if 2*(sum%n) >= n {
		want++
	}
	if h.Mean() != want {
		t.Errorf("Mean = %d, want %d", h.Mean(), want)
	}
	if got, want := h.MeanSeconds(), float64(sum)/float64(n)/1e9; got != want {
		t.Errorf("MeanSeconds = %v, want %v", got, want)
	}
}

func TestMeanRounding(t *testing.T) {
	for _, c := range []struct {
		samples []time.Duration
		want    time.Duration
	}{
		{nil, 0},
		{[]time.Duration{1, 2}, 2},    // 1.5 rounds up
		{[]time.Duration{1, 1, 2}, 1}, // 1.33
		{[]time.Duration{1, 2, 2}, 2}, // 1.67
		{[]time.Duration{-1, -2}, -2}, // -1.5 rounds away from zero
		{[]time.Duration{-1, -1, -2}, -1},
		{[]time.Duration{5}, 5},
	} {
		var h Histogram
		for _, d := range c.samples {
			h.Record(d)
		}
		if got := h.Mean(); got != c.want {
			t.Errorf("Mean of %v = %d, want %d", c.samples, got, c.want)
		}
	}
}

func TestEmptyHistogram(t *testing.T) {
	var h Histogram
	if h.Count() != 0 || h.Sum() != 0 || h.Min() != 0 || h.Max() != 0 || h.Mean() != 0 ||
		h.MeanSeconds() != 0 || h.Quantile(0.5) != 0 || h.Quantile(1) != 0 {
		t.Errorf("empty histogram reports non-zero figures")
	}
	for b := range h.Buckets() {
		t.Errorf("empty histogram yields bucket %+v", b)
	}
	if *NewHistogram() != h {
		t.Errorf("NewHistogram differs from the zero value")
	}
}

func TestMergeEqualsSingle(t *testing.T) {
	r := newRand(t, 4)
	var all Histogram
	parts := make([]Histogram, 3)
	for i := range 30000 {
		d := samplers[i%len(samplers)].draw(r)
		if i%1000 == 0 {
			d = -d // negative samples clamp into bucket 0
		}
		all.Record(d)
		parts[r.IntN(len(parts))].Record(d)
	}
	var merged Histogram
	merged.Merge(&Histogram{}) // empty into empty
	merged.Merge(nil)
	for i := range parts {
		merged.Merge(&parts[i])
	}
	if merged != all {
		t.Fatalf("merged histogram differs from recording everything into one: "+
			"count %d/%d sum %d/%d min %d/%d max %d/%d",
			merged.Count(), all.Count(), merged.Sum(), all.Sum(),
			merged.Min(), all.Min(), merged.Max(), all.Max())
	}
	before := merged
	merged.Merge(&Histogram{})
	if merged != before {
		t.Errorf("merging an empty histogram changed the result")
	}
	// Merging in the other order gives the same histogram.
	var rev Histogram
	for i := len(parts) - 1; i >= 0; i-- {
		rev.Merge(&parts[i])
	}
	if rev != all {
		t.Errorf("merge order changes the result")
	}
	// Merging with itself doubles every count.
	double := all
	double.Merge(&double)
	if double.Count() != 2*all.Count() || double.Sum() != 2*all.Sum() ||
		double.Min() != all.Min() || double.Max() != all.Max() || double.Quantile(0.5) != all.Quantile(0.5) {
		t.Errorf("self-merge: got count %d sum %d, want %d %d", double.Count(), double.Sum(), 2*all.Count(), 2*all.Sum())
	}
}

func TestReset(t *testing.T) {
	h := NewHistogram()
	h.Record(time.Millisecond)
	h.Reset()
	if *h != (Histogram{}) {
		t.Errorf("Reset left state behind")
	}
	h.Record(3 * time.Millisecond)
	if h.Min() != 3*time.Millisecond || h.Count() != 1 {
		t.Errorf("after Reset: min %v count %d", h.Min(), h.Count())
	}
}

func TestBuckets(t *testing.T) {
	var h Histogram
	for _, d := range []time.Duration{5, 5, 1000, 1001, time.Second} {
		h.Record(d)
	}
	var got []Bucket
	for b := range h.Buckets() {
		got = append(got, b)
	}
	// 1000 = 125<<3 and 1e9 = 119<<23 + 3355392: buckets of 64..127 << s.
	want := []Bucket{{5, 6, 2}, {125 << 3, 126 << 3, 2}, {119 << 23, 120 << 23, 1}}
	if !slices.Equal(got, want) {
		t.Errorf("Buckets = %v, want %v", got, want)
	}
	var n int
	for range h.Buckets() {
		n++
		break
	}
	if n != 1 {
		t.Errorf("Buckets ignores an early break")
	}
}

// TestConstantMemory checks that a histogram is a fixed-size value and
// that recording a million samples allocates nothing.
func TestConstantMemory(t *testing.T) {
	size := unsafe.Sizeof(Histogram{})
	if want := uintptr(numBuckets*8 + 6*8); size != want { // counters, count, sum, min, max and the 128-bit sum of squares
		t.Errorf("unsafe.Sizeof(Histogram{}) = %d, want %d", size, want)
	}
	if size > 20<<10 {
		t.Errorf("Histogram is %d bytes, want at most 20 KiB", size)
	}
	h := NewHistogram()
	r := newRand(t, 5)
	ds := make([]time.Duration, 1<<20)
	for i := range ds {
		ds[i] = samplers[i%len(samplers)].draw(r)
	}
	allocs := testing.AllocsPerRun(1, func() {
		for _, d := range ds {
			h.Record(d)
		}
	})
	if allocs != 0 {
		t.Errorf("recording %d samples allocated %v times", len(ds), allocs)
	}
	if h.Count() != 2*int64(len(ds)) { // AllocsPerRun runs once more to warm up
		t.Errorf("Count = %d, want %d", h.Count(), 2*len(ds))
	}
}

func TestRecordAllocs(t *testing.T) {
	var h Histogram
	d := time.Duration(0)
	if a := testing.AllocsPerRun(1000, func() {
		d += 12345
		h.Record(d)
	}); a != 0 {
		t.Errorf("Record allocates %v times per call", a)
	}
	if a := testing.AllocsPerRun(100, func() { _ = h.Quantile(0.99) }); a != 0 {
		t.Errorf("Quantile allocates %v times per call", a)
	}
}

func BenchmarkHistogramRecord(b *testing.B) {
	r := rand.New(rand.NewPCG(testSeed, 6))
	ds := make([]time.Duration, 4096)
	for i := range ds {
		ds[i] = samplers[2].draw(r)
	}
	h := NewHistogram()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		h.Record(ds[i&(len(ds)-1)])
	}
}

func BenchmarkQuantile(b *testing.B) {
	for _, s := range []sampler{samplers[1], samplers[2]} {
		b.Run("dist="+s.name[:strings.IndexByte(s.name, ' ')], func(b *testing.B) {
			r := rand.New(rand.NewPCG(testSeed, 7))
			h := NewHistogram()
			for range 100000 {
				h.Record(s.draw(r))
			}
			b.ReportAllocs()
			for b.Loop() {
				_ = h.Quantile(0.99)
			}
		})
	}
}

// TestStdDev: the sample standard deviation of 2, 4, 4, 4, 5, 5, 7, 9
// ns is sqrt(32/7), worked by hand; merging two halves gives the same.
func TestStdDev(t *testing.T) {
	var all, a, b Histogram
	for i, v := range []time.Duration{2, 4, 4, 4, 5, 5, 7, 9} {
		all.Record(v)
		if i < 3 {
			a.Record(v)
		} else {
			b.Record(v)
		}
	}
	want := math.Sqrt(32.0 / 7)
	a.Merge(&b)
	for _, h := range []*Histogram{&all, &a} {
		if got := h.StdDev(); math.Abs(got-want) > 1e-12 {
			t.Errorf("StdDev %v, want %v", got, want)
		}
	}
	var one Histogram
	one.Record(time.Second)
	if one.StdDev() != 0 {
		t.Errorf("one sample: %v", one.StdDev())
	}
}
