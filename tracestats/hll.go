package tracestats

import (
	"math"
	"math/bits"

	"github.com/raidsim/raidsim/mrc"
)

// hllBits is log2 of the HyperLogLog's registers: 2^14 of them, one
// byte each (16 KiB), for a standard error of 1.04/sqrt(2^14) = 0.81%.
const hllBits = 14

// HLLError is the relative standard error of the footprint estimate
// beyond the exact count: 1.04/sqrt(2^14).
const HLLError = 0.0081

// hll estimates the number of distinct blocks in a stream in constant
// memory (Flajolet, Fusy, Gandouet and Meunier, "HyperLogLog: the
// analysis of a near-optimal cardinality estimation algorithm", 2007),
// with linear counting below 5/2 of the registers, as the paper and
// Heule et al.'s HyperLogLog++ do for small counts. Blocks are hashed
// with mrc.Hash, a bijection, so the estimate is deterministic.
type hll struct {
	reg [1 << hllBits]uint8
}

// add counts block b.
func (h *hll) add(b int64) {
	x := mrc.Hash(b)
	i := x >> (64 - hllBits)
	rho := uint8(bits.LeadingZeros64(x<<hllBits|1<<(hllBits-1)) + 1)
	if rho > h.reg[i] {
		h.reg[i] = rho
	}
}

// estimate returns the estimated number of distinct blocks added.
func (h *hll) estimate() float64 {
	const m = float64(1 << hllBits)
	var sum float64
	zeros := 0
	for _, r := range h.reg {
		sum += math.Ldexp(1, -int(r))
		if r == 0 {
			zeros++
		}
	}
	alpha := 0.7213 / (1 + 1.079/m)
	e := alpha * m * m / sum
	if e <= 2.5*m && zeros > 0 {
		return m * math.Log(m/float64(zeros)) // linear counting
	}
	return e
}
