package exact

import "math"

// addPsX87 returns a + dm_time_itod(ps) as DiskSim's reference build
// computes it where the quotient stays in an x87 register
// (disk_buffer_sector_done's next sector, disk_buffer_stopable_access).
func addPsX87(a float64, ps int64) float64 {
	return addQuoX87(a, float64(ps), psPerMs) // float64(ps) is exact: |ps| < 2^53
}

// addQuoX87 returns a + n/d as the reference build's x87 computes it
// when the quotient is not stored first: n/d rounded to a 64-bit
// mantissa, the sum rounded to a 64-bit mantissa, then stored as a
// double. Doubles round the quotient to 53 bits first and the sum once;
// the two differ by an ulp now and then, and an ulp of an event time can
// move dm_time_dtoi's picosecond and with it the platter's angle by one
// step.
func addQuoX87(a, n, d float64) float64 {
	qh := n / d
	if qh == 0 || a == 0 || math.IsInf(a, 0) || math.IsNaN(a) || math.IsInf(qh, 0) || math.IsNaN(qh) {
		return a + qh
	}
	// q = qh + ql to about 106 bits: the division's remainder is exact.
	ql := math.FMA(-qh, d, n) / d
	// The quotient rounded to 64 bits, as qh + q64l.
	g := ulpBelow(qh, ql) / 2048 // powers of two: exact
	q64l := math.RoundToEven(ql*(1/g)) * g
	// The exact sum a + qh + q64l as sh + e, sh a double and |e| at
	// most about an ulp of sh.
	sh, sl := twoSum(a, qh)
	e := sl + q64l
	// Round sh + e to 64 bits (the grid u/2048), then to 53 (the grid
	// u): a tie of the second rounding is where the single rounding of
	// doubles can differ.
	u := ulpBelow(sh, e)
	e64 := math.RoundToEven(e*(2048/u)) * (u / 2048)
	switch {
	case math.Abs(e64) < u/2:
		return sh
	case math.Abs(e64) == u/2:
		if math.Float64bits(sh)&1 == 0 {
			return sh
		}
		return sh + math.Copysign(u, e64)
	}
	return sh + e64
}

// twoSum returns a+b as s and the rounding error t: s + t == a + b.
func twoSum(a, b float64) (s, t float64) {
	s = a + b
	bb := s - a
	t = (a - (s - bb)) + (b - bb)
	return s, t
}

// ulpBelow returns the spacing of doubles where x + d lies, d being
// small beside x: x's own spacing, or half of it when x is a power of
// two and d takes the sum below it.
func ulpBelow(x, d float64) float64 {
	b := math.Float64bits(x) &^ (1 << 63)
	var u float64
	if exp := b >> 52; exp > 52 {
		u = math.Float64frombits((exp - 52) << 52)
	} else {
		ax := math.Abs(x)
		u = math.Nextafter(ax, math.Inf(1)) - ax
	}
	if b&(1<<52-1) == 0 && d != 0 && (d < 0) != (x < 0) {
		u /= 2
	}
	return u
}

// addX87 returns a + b as the x87 adds two doubles and stores the sum:
// rounded to a 64-bit mantissa, then to a double.
func addX87(a, b float64) float64 { return addQuoX87(a, b, 1) }
