package trace

import (
	"math"
	"math/bits"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"
)

// slotSampler draws slot numbers in [0, n) for random offsets. It holds
// only a few numbers whatever n is: nothing is allocated per slot.
type slotSampler struct {
	kind DistKind
	n    uint64
	src  *rand.Rand

	zipf    zipfSampler
	paretoP float64 // exponent log(h)/log(1-h)
	normal  distuv.Normal
	scatter *permutation // nil: rank r is slot r
}

func newSlotSampler(d Distribution, n uint64, src *rand.Rand, scatter bool) slotSampler {
	s := slotSampler{kind: d.Kind, n: n, src: src}
	switch d.Kind {
	case Zipf:
		s.zipf = newZipfSampler(n, d.Param)
	case Pareto:
		s.paretoP = math.Log(d.Param) / math.Log(1-d.Param)
	case Normal:
		s.normal = distuv.Normal{
			Mu:    float64(n) / 2,
			Sigma: float64(n) * d.Param / 100,
			Src:   src,
		}
	}
	if scatter && (d.Kind == Zipf || d.Kind == Pareto) {
		p := newPermutation(n, src)
		s.scatter = &p
	}
	return s
}

// next returns a slot in [0, n).
func (s *slotSampler) next() uint64 {
	var r uint64
	switch s.kind {
	case Uniform:
		return s.src.Uint64N(s.n)
	case Zipf:
		r = s.zipf.next(s.src) - 1
	case Pareto:
		// Not distuv.Pareto: that is the unbounded continuous law, while
		// fio's pareto:h is a power law on the ranks of a finite region.
		// fio's form: rank = n * U^p, so P(rank < x*n) = x^(1/p), which
		// equals 1-h at x = h.
		r = uint64(float64(s.n) * math.Pow(s.src.Float64(), s.paretoP))
		if r >= s.n {
			r = s.n - 1
		}
	case Normal:
		// Truncated by resampling, so the bell keeps its shape inside the
		// region; at 100% deviation about 62% of draws land outside and
		// are redrawn.
		for {
			x := s.normal.Rand()
			if x >= 0 && x < float64(s.n) {
				return uint64(x)
			}
		}
	}
	if s.scatter != nil {
		r = s.scatter.apply(r)
	}
	return r
}

// zipfSampler draws ranks k in 1..n with probability proportional to
// k^-theta by rejection-inversion (W. Hörmann and G. Derflinger,
// "Rejection-inversion to generate variates from monotone discrete
// distributions", ACM TOMACS 6(3), 1996). gonum's distuv has no Zipf, and
// math/rand/v2's needs theta > 1. This method is exact for every theta >
// 0, including theta < 1 where the method of Gray et al. (which fio uses)
// is an approximation and theta = 1 where that method divides by zero; it
// needs no zeta sum, so its setup is constant whatever n, and it accepts
// about 98% of candidates or more.
//
// With h(x) = x^-theta and H an antiderivative of h, a uniform u between
// H(1.5)-h(1) and H(n+0.5) gives x = H^-1(u); k = round(x) is accepted
// when u >= H(k+0.5)-h(k), which holds at once when x is close enough to k.
type zipfSampler struct {
	theta    float64
	n        float64
	hLow     float64 // H(1.5) - h(1)
	hHigh    float64 // H(n + 0.5)
	shortcut float64 // accept at once when k - x <= shortcut
}

func newZipfSampler(n uint64, theta float64) zipfSampler {
	z := zipfSampler{theta: theta, n: float64(n)}
	z.hLow = z.bigH(1.5) - 1
	z.hHigh = z.bigH(z.n + 0.5)
	z.shortcut = 2 - z.bigHInv(z.bigH(2.5)-z.h(2))
	return z
}

func (z *zipfSampler) h(x float64) float64 { return math.Exp(-z.theta * math.Log(x)) }

// bigH(x) = (x^(1-theta) - 1) / (1-theta), and log(x) at theta = 1,
// written so it stays accurate near theta = 1.
func (z *zipfSampler) bigH(x float64) float64 {
	lx := math.Log(x)
	return expm1OverX((1-z.theta)*lx) * lx
}

// bigHInv inverts bigH.
func (z *zipfSampler) bigHInv(y float64) float64 {
	return math.Exp(log1pOverX((1-z.theta)*y) * y)
}

func (z *zipfSampler) next(src *rand.Rand) uint64 {
	for {
		u := z.hHigh + src.Float64()*(z.hLow-z.hHigh)
		x := z.bigHInv(u)
		k := math.Floor(x + 0.5)
		if k < 1 {
			k = 1
		} else if k > z.n {
			k = z.n
		}
		if k-x <= z.shortcut || u >= z.bigH(k+0.5)-z.h(k) {
			return uint64(k)
		}
	}
}

// expm1OverX returns (e^x - 1)/x, and its limit 1 at x = 0.
func expm1OverX(x float64) float64 {
	if math.Abs(x) > 1e-8 {
		return math.Expm1(x) / x
	}
	return 1 + x/2*(1+x/3)
}

// log1pOverX returns log(1+x)/x, and its limit 1 at x = 0.
func log1pOverX(x float64) float64 {
	if math.Abs(x) > 1e-8 {
		return math.Log1p(x) / x
	}
	return 1 - x/2*(1-2*x/3)
}

// permutation is a keyed bijection of [0, n): a four-round balanced
// Feistel network on the smallest even number of bits covering n, with
// cycle walking to stay below n. The domain is less than 4n, so a value
// takes fewer than four passes on average. It scatters the hot ranks of a
// skewed distribution over the region without a table.
type permutation struct {
	n    uint64
	half uint // bits in each Feistel half
	mask uint64
	keys [4]uint64
}

func newPermutation(n uint64, src *rand.Rand) permutation {
	b := uint(bits.Len64(n - 1))
	half := (b + 1) / 2
	p := permutation{n: n, half: half, mask: 1<<half - 1}
	for i := range p.keys {
		p.keys[i] = src.Uint64()
	}
	return p
}

func (p *permutation) apply(x uint64) uint64 {
	for {
		l, r := x>>p.half, x&p.mask
		for _, k := range p.keys {
			l, r = r, l^(mix64(r^k)&p.mask)
		}
		x = l<<p.half | r
		if x < p.n {
			return x
		}
	}
}

// mix64 is a 64-bit finalizer (the one splitmix64 uses): every input bit
// affects every output bit.
func mix64(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
