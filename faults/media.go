package faults

import (
	"math"
	"math/rand/v2"
	"slices"
)

// badSet is the device's unreadable sectors, sorted.
type badSet struct{ s []int64 }

// add marks sector lba unreadable.
func (b *badSet) add(lba int64) {
	i, found := slices.BinarySearch(b.s, lba)
	if !found {
		b.s = slices.Insert(b.s, i, lba)
	}
}

// first returns the first unreadable sector in [lo, hi), and how many
// there are.
func (b *badSet) first(lo, hi int64) (lba int64, n int) {
	i, _ := slices.BinarySearch(b.s, lo)
	j, _ := slices.BinarySearch(b.s, hi)
	if i == j {
		return 0, 0
	}
	return b.s[i], j - i
}

// clear makes sectors [lo, hi) readable (they were written) and returns
// how many were bad.
func (b *badSet) clear(lo, hi int64) int {
	i, _ := slices.BinarySearch(b.s, lo)
	j, _ := slices.BinarySearch(b.s, hi)
	b.s = slices.Delete(b.s, i, j)
	return j - i
}

// poisson draws a Poisson(mean) count: by inversion for small means
// (the only ones a per-bit error rate gives a single request), by the
// normal approximation beyond 500.
func poisson(rng *rand.Rand, mean float64) int64 {
	if mean <= 0 {
		return 0
	}
	if mean > 500 {
		return max(0, int64(math.Round(mean+math.Sqrt(mean)*rng.NormFloat64())))
	}
	u := rng.Float64()
	p := math.Exp(-mean)
	cum := p
	var k int64
	for u > cum && k < 10000 {
		k++
		p *= mean / float64(k)
		cum += p
	}
	return k
}
