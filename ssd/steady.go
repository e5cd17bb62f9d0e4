package ssd

import (
	"math"
	"math/rand/v2"
)

// The steady state of uniform random overwrites under greedy garbage
// collection, after Desnoyers' model (SYSTOR 2012) for blocks of n units.
// A closed block loses a valid unit whenever the host overwrites one of
// its units: at rate v/U per host write for a block with v of the U
// logical units. Greedy cleans the block with the fewest valid units,
// which in the steady state holds v* of them, so the flow of blocks
// through each level v* < i <= n is the same, and the number of blocks
// at level i is proportional to 1/i. Counting blocks and units:
//
//	(H(n) - H(v*)) n / (n - v*) = alpha,   WA = n / (n - v*),
//
// where alpha is physical over logical space and H the harmonic number
// (continued to real arguments by the digamma function). As n grows,
// H(n) - H(v*) -> ln(n/v*) and this becomes the large-block limit
// v*/n = exp(-alpha (1 - v*/n)) (GreedyWriteAmplification). Cost-benefit
// cleaning reaches the same state under uniform writes, where a block's
// age and its valid count go together: a block at level i was closed
// about U (H(n) - H(i)) host writes ago.

// GreedyWriteAmplificationBlock returns Desnoyers' write amplification
// of uniform random writes under greedy garbage collection for blocks of
// n map units and alpha physical over logical space (1 +
// over-provisioning): n / (n - v*), v* solving the level equation above.
// It is 1 when alpha leaves every victim empty and +Inf for alpha <= 1.
func GreedyWriteAmplificationBlock(alpha float64, n int) float64 {
	if !(alpha > 1) || n < 1 {
		return math.Inf(1)
	}
	v := greedyVictimValid(alpha, n)
	return float64(n) / (float64(n) - v)
}

// greedyVictimValid solves the level equation for v* in [0, n).
func greedyVictimValid(alpha float64, n int) float64 {
	nf := float64(n)
	hn := harmonic(nf)
	level := func(v float64) float64 { return (hn - harmonic(v)) * nf / (nf - v) }
	if level(0) <= alpha {
		return 0
	}
	lo, hi := 0.0, nf*(1-1e-12) // level falls from H(n) at 0 to about 1 near n
	for range 200 {
		m := (lo + hi) / 2
		if level(m) > alpha {
			lo = m
		} else {
			hi = m
		}
	}
	return lo
}

// harmonic returns H(x) = digamma(x+1) + Euler's gamma for x >= 0: the
// harmonic number 1 + 1/2 + ... + 1/x continued to real x.
func harmonic(x float64) float64 {
	s := 0.0
	for x < 8 { // H(x) = H(x+1) - 1/(x+1)
		x++
		s -= 1 / x
	}
	x2 := 1 / (x * x)
	// digamma(x+1) = ln x + 1/(2x) - 1/(12x^2) + 1/(120x^4) - 1/(252x^6) + ...
	return s + math.Log(x) + 0.5772156649015329 + 1/(2*x) - x2*(1.0/12-x2*(1.0/120-x2/252))
}

// steadySpare is the blocks of each die a drawn steady state does not
// close: GCLowBlocks free (what foreground collection keeps free between
// host blocks) and the two write points.
func (f *ftl) steadySpare() int32 { return int32(f.low) + 2 }

// drawSteady puts f, a fresh FTL, in the steady state of uniform random
// overwrites, drawn from each die's stream. Each die's two write points
// are open, filled to random slots with valid data (as a running die's
// are: write points all starting empty would fill, and collect garbage,
// in step across the dies for a long while); its closed blocks hold the
// rest, with valid counts from the greedy level distribution for the
// block size and spare; a permutation lays the die's units over them;
// for cost-benefit cleaning each block has the age its level implies. It
// returns the model's write amplification of the drawn state (the mean
// over the dies, weighted by their units).
func (f *ftl) drawSteady(rng *rand.Rand) float64 {
	g := &f.g
	n := g.unitsPerBlock
	hn := harmonic(float64(n))
	f.base = baseLayout{kind: Steady, dies: make([]dieBase, g.dies)}
	var waSum float64
	for d := range g.dies {
		src := rand.New(rand.NewPCG(rng.Uint64(), uint64(d)))
		units := g.dieUnits(d)
		closed := g.blocksPerDie - f.steadySpare()
		host, gc := int32(src.IntN(n)), int32(src.IntN(n))
		host, gc = int32(min(int64(host), units)), int32(min(int64(gc), units-int64(host)))
		inClosed := units - int64(host) - int64(gc)
		counts := steadyCounts(src, inClosed, int(closed), n)
		v := greedyVictimValid(float64(closed)*float64(n)/float64(max(inClosed, 1)), n)
		waSum += float64(units) * float64(n) / (float64(n) - v)
		counts = append(counts, host, gc) // the write points' blocks follow the closed ones
		db := &f.base.dies[d]
		db.perm = newFeistel(uint64(units), src.Uint64)
		db.start = make([]uint32, len(counts)+1)
		die := &f.dies[d]
		first := int32(d) * g.blocksPerDie
		die.free = die.free[:0]
		for b := g.blocksPerDie - 1; b >= int32(len(counts)); b-- {
			die.free = append(die.free, first+b)
		}
		for k, c := range counts {
			db.start[k+1] = db.start[k] + uint32(c)
			bn := first + int32(k)
			b := &f.blk[bn]
			b.valid, b.base = c, c
			switch k - int(closed) {
			case 0, 1:
				ob := &die.host
				if k > int(closed) {
					ob = &die.gc
				}
				b.state, b.rev = blockOpen, f.rev.get()
				*ob = openBlock{blk: bn, next: int(c)}
			default:
				b.state = blockClosed
				b.stamp = -int64(float64(units) * (hn - harmonic(float64(c))))
				f.link(die, bn)
			}
		}
		die.minFree = len(die.free)
	}
	return waSum / float64(g.units)
}

// xlogx is x ln x, 0 at 0.
func xlogx(x float64) float64 {
	if x == 0 {
		return 0
	}
	return x * math.Log(x)
}

// steadyCounts draws the valid counts of closed blocks of n units each
// holding units in all. A block's level y has density 1/y from a victim
// level lambda up to n+1 (Desnoyers' greedy steady state: equal flow
// through every level), lambda chosen so the mean of floor(y) is
// units/closed; the levels are drawn stratified (so the sample follows
// the distribution closely), shuffled, and the few units of rounding
// nudged one at a time onto random blocks.
func steadyCounts(rng *rand.Rand, units int64, closed, n int) []int32 {
	target := float64(units) / float64(closed)
	nf := float64(n)
	// mean of floor(y) for y with density 1/y on [lambda, n+1): the
	// partial first level, then levels m..n, whose sum of
	// i ln((i+1)/i) telescopes to (n+1) ln(n+1) - m ln m - ln((n+1)!/m!)
	mean := func(lambda float64) float64 {
		total := math.Log((nf + 1) / lambda)
		i0 := math.Floor(lambda)
		m := i0 + 1
		lg := func(x float64) float64 { v, _ := math.Lgamma(x); return v }
		sum := i0*math.Log(m/lambda) + (nf+1)*math.Log(nf+1) - xlogx(m) - (lg(nf+2) - lg(m+1))
		return sum / total
	}
	lo, hi := 1e-9, nf // mean rises with lambda
	if mean(lo) > target {
		hi = lo
	}
	for range 100 {
		m := (lo + hi) / 2
		if mean(m) < target {
			lo = m
		} else {
			hi = m
		}
	}
	lambda := lo
	counts := make([]int32, closed)
	var sum int64
	for k := range counts {
		x := (float64(k) + rng.Float64()) / float64(closed)
		y := lambda * math.Pow((nf+1)/lambda, x)
		counts[k] = int32(min(math.Floor(y), nf))
		sum += int64(counts[k])
	}
	rng.Shuffle(len(counts), func(a, b int) { counts[a], counts[b] = counts[b], counts[a] })
	// Nudge: each step moves the sum one unit toward units, on a random
	// block that has room; a closed block holds 0..n units, so any sum up
	// to closed*n (at least units: Params.Validate) is reachable.
	for sum != units {
		k := rng.IntN(closed)
		switch {
		case sum < units && counts[k] < int32(n):
			counts[k]++
			sum++
		case sum > units && counts[k] > 0:
			counts[k]--
			sum--
		}
	}
	return counts
}
