package mrc

import "fmt"

// BlockBytes is the block size of the curves, 4 KiB.
const BlockBytes = 4096

// Exact computes LRU's stack distances over a stream of block accesses
// (Mattson's algorithm), and from them LRU's miss ratio at any size.
// The zero value is not usable; make one with NewExact. It keeps a few
// dozen bytes per distinct block.
type Exact struct {
	last   map[int64]int32 // block -> time of its latest access
	at     []int64         // block accessed at each time still live, or -1
	fen    []int32         // Fenwick tree over times 1..len-1: 1 where live
	now    int32
	hist   []int64 // hist[d]: accesses at stack distance d (1 = the same block again)
	cold   int64   // first accesses
	access int64
}

// NewExact returns an empty Exact.
func NewExact() *Exact {
	const initial = 1 << 16
	return &Exact{last: map[int64]int32{}, at: make([]int64, initial), fen: make([]int32, initial)}
}

func (x *Exact) add(t int32, d int32) {
	for ; int(t) < len(x.fen); t += t & -t {
		x.fen[t] += d
	}
}

// sum returns the live times in 1..t.
func (x *Exact) sum(t int32) int32 {
	var s int32
	for ; t > 0; t -= t & -t {
		s += x.fen[t]
	}
	return s
}

// Access records an access to block b and returns its stack distance:
// 1 plus the number of distinct other blocks accessed since b was last,
// or 0 if b was never accessed before.
func (x *Exact) Access(b int64) int64 {
	x.access++
	var d int64
	if t, ok := x.last[b]; ok {
		d = int64(x.sum(x.now)-x.sum(t)) + 1
		x.add(t, -1)
		x.at[t] = -1
		for int64(len(x.hist)) <= d {
			x.hist = append(x.hist, 0)
		}
		x.hist[d]++
	} else {
		x.cold++
	}
	if int(x.now)+1 >= len(x.fen) {
		x.compact()
	}
	x.now++
	x.add(x.now, 1)
	x.at[x.now] = b
	x.last[b] = x.now
	return d
}

// compact renumbers the live times 1..n in order and rebuilds the tree
// with room for as many again.
func (x *Exact) compact() {
	n := int32(0)
	for t := int32(1); t <= x.now; t++ {
		if b := x.at[t]; b >= 0 && x.last[b] == t {
			n++
			x.at[n] = b
			x.last[b] = n
		}
	}
	size := max(2*int(n)+2, 1<<16)
	if size > len(x.at) {
		at := make([]int64, size)
		copy(at, x.at[:n+1])
		x.at = at
	}
	x.fen = make([]int32, size)
	for t := int32(1); int(t) < len(x.fen); t++ { // linear Fenwick build
		if t <= n {
			x.fen[t]++
		}
		if p := t + t&-t; int(p) < len(x.fen) {
			x.fen[p] += x.fen[t]
		}
	}
	x.now = n
}

// Accesses returns the accesses so far.
func (x *Exact) Accesses() int64 { return x.access }

// Distinct returns the distinct blocks accessed so far.
func (x *Exact) Distinct() int64 { return int64(len(x.last)) }

// Misses returns the misses an LRU cache of blocks blocks would have
// had on the accesses so far.
func (x *Exact) Misses(blocks int64) int64 {
	m := x.cold
	for d := max(blocks+1, 1); d < int64(len(x.hist)); d++ {
		m += x.hist[d]
	}
	return m
}

// MissRatio returns Misses(blocks) over the accesses, or 0 before any.
func (x *Exact) MissRatio(blocks int64) float64 {
	if x.access == 0 {
		return 0
	}
	return float64(x.Misses(blocks)) / float64(x.access)
}

// Curve returns MissRatio at each of sizes (in blocks), in one pass over
// the distances.
func (x *Exact) Curve(sizes []int64) ([]float64, error) {
	return curve(x.hist, x.cold, float64(x.access), sizes, 1)
}

// curve turns a distance histogram into miss ratios at sizes: a sampled
// distance d (the block and d-1 others) counts as the block and
// (d-1)/rate others, and misses are divided by total.
func curve(hist []int64, cold int64, total float64, sizes []int64, rate float64) ([]float64, error) {
	out := make([]float64, len(sizes))
	if total <= 0 {
		return out, nil
	}
	// tail[d] = accesses at distance d or more.
	tail := make([]int64, len(hist)+1)
	for d := len(hist) - 1; d >= 0; d-- {
		tail[d] = tail[d+1] + hist[d]
	}
	for i, c := range sizes {
		if c <= 0 {
			return nil, fmt.Errorf("mrc: cache size %d blocks is not positive", c)
		}
		// A sampled access at distance d misses a cache of c blocks when
		// 1 + (d-1)/rate > c, that is d > 1 + (c-1)*rate.
		first := int64(1+float64(c-1)*rate) + 1
		m := cold
		if first < int64(len(tail)) {
			m += tail[max(first, 0)]
		}
		out[i] = min(1, float64(m)/total)
	}
	return out, nil
}
