package exact

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// x87AddPs is addPsX87 in math/big: the quotient and the sum rounded
// to 64-bit mantissas, then to a double.
func x87AddPs(a float64, ps int64) float64 {
	q := new(big.Float).SetPrec(64).SetInt64(ps)
	q.Quo(q, new(big.Float).SetPrec(64).SetInt64(psPerMs))
	s := new(big.Float).SetPrec(64).SetFloat64(a)
	s.Add(s, q)
	f, _ := s.Float64()
	return f
}

// TestAddPsX87 checks addPsX87 against math/big on event times and
// durations like the simulator's, and on one sum where the x87's two
// roundings and a double's one part: 22205.256342788776 ms plus
// 21,295,712 ps.
func TestAddPsX87(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 1))
	differ := 0
	for i := 0; i < 200000; i++ {
		a := r.Float64() * math.Pow(10, float64(r.IntN(7)))
		ps := r.Int64N(int64(math.Pow(10, float64(1+r.IntN(11)))))
		want := x87AddPs(a, ps)
		if got := addPsX87(a, ps); got != want {
			t.Fatalf("%v + %d ps: %v, x87 %v", a, ps, got, want)
		}
		if want != a+psToMs(ps) {
			differ++
		}
	}
	if differ == 0 {
		t.Error("no sum where doubles and the x87 part: the test shows nothing")
	}
	t.Logf("%d of 200000 sums differ from doubles", differ)
}
