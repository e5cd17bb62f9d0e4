package metrics

import (
	"math"
	"slices"
	"time"
)

// DemeritSteps is the number of quantile steps Demerit samples: steps of
// 0.0001.
const DemeritSteps = 10000

// Demerit scores how well a simulated distribution of response (or
// service) times matches a measured one: the root mean square of the
// horizontal distance between their cumulative distribution functions,
// the "demerit figure" of Ruemmler & Wilkes ("An introduction to disk
// drive modeling", IEEE Computer 27(3), 1994) that DiskSim's validation
// reports for its drive models.
//
// The horizontal distance at probability q is |Qm(q) - Qs(q)|, where Q is
// a sample's empirical quantile function: Q(q) is the smallest value x
// with at least a fraction q of the sample at or below x (the
// ceil(q*n)-th smallest). Demerit samples q = k/10000 for k = 1..10000
// and returns
//
//	ms  = sqrt( sum_k (Qm(k/10000) - Qs(k/10000))^2 / 10000 )  in milliseconds
//	pct = 100 * ms / (mean of measured in ms)
//
// Zero for identical samples; a simulator that is uniformly 1 ms slow
// scores 1 ms. The two samples need not be the same size. Demerit returns
// NaNs when either is empty (and pct is NaN when the measured mean is 0).
func Demerit(measured, simulated []time.Duration) (ms, pct float64) {
	if len(measured) == 0 || len(simulated) == 0 {
		return math.NaN(), math.NaN()
	}
	m := slices.Clone(measured)
	s := slices.Clone(simulated)
	slices.Sort(m)
	slices.Sort(s)
	var sum float64
	for k := 1; k <= DemeritSteps; k++ {
		q := float64(k) / DemeritSteps
		d := float64(sortedQuantile(m, q) - sortedQuantile(s, q))
		sum += d * d
	}
	ms = math.Sqrt(sum/DemeritSteps) / 1e6
	var mean float64
	for _, v := range m {
		mean += float64(v)
	}
	mean /= float64(len(m)) * 1e6
	pct = math.NaN()
	if mean > 0 {
		pct = 100 * ms / mean
	}
	return ms, pct
}

// SortedQuantile returns the empirical quantile q (0 < q <= 1) of an
// ascending sample: its ceil(q*n)-th smallest value, the definition
// Demerit uses. It returns 0 for an empty sample; q <= 0 gives the
// smallest value.
func SortedQuantile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sortedQuantile(sorted, q)
}

func sortedQuantile(sorted []time.Duration, q float64) time.Duration {
	n := len(sorted)
	// ceil(q*n) computed with a guard against q*n landing a hair above an
	// integer through rounding (k/10000 * 10000).
	i := int(math.Ceil(q*float64(n)-1e-9)) - 1
	if i < 0 {
		i = 0
	}
	if i >= n {
		i = n - 1
	}
	return sorted[i]
}
