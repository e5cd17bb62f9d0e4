package exact

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// x87AddQuo is addQuoX87 in math/big: the quotient and the sum rounded
// to 64-bit mantissas, then to a double.
func x87AddQuo(a, n, d float64) float64 {
	q := new(big.Float).SetPrec(64).SetFloat64(n)
	q.Quo(q, new(big.Float).SetPrec(64).SetFloat64(d))
	s := new(big.Float).SetPrec(64).SetFloat64(a)
	s.Add(s, q)
	f, _ := s.Float64()
	return f
}

// TestAddPsX87 checks addPsX87 and addQuoX87 against math/big on event
// times, durations and validate gaps like the simulator's; about 2% of
// those sums come out an ulp away from a double's single rounding, and
// the test fails if none does (it would then show nothing).
func TestAddPsX87(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 1))
	differ := 0
	for i := 0; i < 200000; i++ {
		a := r.Float64() * math.Pow(10, float64(r.IntN(7)))
		ps := r.Int64N(int64(math.Pow(10, float64(1+r.IntN(11)))))
		want := x87AddQuo(a, float64(ps), psPerMs)
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
	// a validate record's gap: microseconds with five decimals, / 1000
	for i := 0; i < 100000; i++ {
		a := r.Float64() * math.Pow(10, float64(r.IntN(7)))
		us := float64(r.Int64N(20000000000)) / 1e5
		if got, want := addQuoX87(a, us, 1000), x87AddQuo(a, us, 1000); got != want {
			t.Fatalf("%v + %v us: %v, x87 %v", a, us, got, want)
		}
	}
}

// TestAddX87Binades checks the sums at a power of two, from above and
// below, and with negative operands, against math/big.
func TestAddX87Binades(t *testing.T) {
	for _, c := range [][3]float64{
		{1024, -1e-13, 1}, {1024, 1e-13, 1}, {-1024, 1e-13, 1}, {-1024, -1e-13, 1},
		{512, -0.3, 1000}, {2048, -7, 3}, {1, -1, 3}, {0.5, 1e9, 1e9}, {-300.25, 17, 1e9},
	} {
		if got, want := addQuoX87(c[0], c[1], c[2]), x87AddQuo(c[0], c[1], c[2]); got != want {
			t.Errorf("%v + %v/%v: %v, x87 %v", c[0], c[1], c[2], got, want)
		}
	}
	r := rand.New(rand.NewPCG(21, 2))
	for i := 0; i < 100000; i++ {
		a := (r.Float64() - 0.25) * math.Pow(10, float64(r.IntN(8)))
		b := (r.Float64() - 0.25) * math.Pow(10, float64(r.IntN(8)-4))
		if got, want := addX87(a, b), x87AddQuo(a, b, 1); got != want {
			t.Fatalf("%v + %v: %v, x87 %v", a, b, got, want)
		}
	}
}
