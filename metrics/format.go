package metrics

import (
	"math"
	"strconv"
)

// FormatFixed formats v with exactly decimals digits after the point, as
// strconv.FormatFloat(v, 'f', decimals, 64) does; negative decimals count
// as 0. Negative zero, and negative values that round to zero, print
// without the minus sign. NaN and infinities print as "NaN",
// "+Inf" and "-Inf".
func FormatFixed(v float64, decimals int) string {
	s := strconv.FormatFloat(v, 'f', max(decimals, 0), 64)
	if len(s) > 1 && s[0] == '-' && isZeroDigits(s[1:]) {
		return s[1:] // -0, or a small negative rounded to zero
	}
	return s
}

// FormatSig formats v with at least digits significant digits and never
// in exponent notation: the integer part is never rounded, and small
// values get as many decimals as their significant digits need, up to 9
// (so 1e-10 prints as "0.000000000"). digits below 1 count as 1.
//
//	FormatSig(12345.6, 4) == "12346"
//	FormatSig(12.3456, 4) == "12.35"
//	FormatSig(0.0051234, 3) == "0.00512"
func FormatSig(v float64, digits int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) || v == 0 {
		return FormatFixed(v, 0)
	}
	digits = max(digits, 1)
	// Position of the leading digit: 0 for [1, 10), -1 for [0.1, 1).
	lead := int(math.Floor(math.Log10(math.Abs(v))))
	dec := min(max(digits-1-lead, 0), 9)
	return FormatFixed(v, dec)
}

func isZeroDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '0' && s[i] != '.' {
			return false
		}
	}
	return true
}
