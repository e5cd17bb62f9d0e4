package ssd

// The base layout: where preconditioning left every logical unit,
// computed from a few numbers per die instead of stored per unit, so a
// preconditioned drive costs memory only for what the run then touches.
//
//   - FreshOutOfBox: nothing is mapped.
//   - Fill: what writing every unit once in order does. Each die's host
//     write point takes its units in order, so die unit i lies in the
//     die's block i / unitsPerBlock at slot i % unitsPerBlock.
//   - Steady: the state uniform random overwrites converge to (steady.go).
//     Die d's closed blocks k = 0..C-1 hold counts[k] valid units each,
//     drawn from the greedy steady-state distribution; a keyed
//     pseudo-random permutation of the die's units (a Feistel network
//     with cycle walking) lays them end to end over those blocks: die
//     unit i sits at position p = perm(i), in the block k with
//     start[k] <= p < start[k+1], at slot p - start[k].
//
// A unit with no forward-map entry is where the base layout says, and
// its slot is still valid; an entry overrides it (the unit was written,
// moved by garbage collection or trimmed). A block holds base data in its
// first block.base slots until it is erased.

// baseLayout is the base layout of a drive.
type baseLayout struct {
	kind Precondition
	dies []dieBase // Steady only
}

// dieBase is one die's steady-state layout.
type dieBase struct {
	perm  feistel
	start []uint32 // first position of data block k; one more entry than data blocks
}

// dieIndex returns lpn's index among its die's units (the inverse of
// geometry.dieUnit).
func (g *geometry) dieIndex(lpn int64) int64 {
	upg := int64(g.unitsPerProgram)
	return lpn/(int64(g.dies)*upg)*upg + lpn%upg
}

// baseWhere returns the slot where the base layout put lpn, or false
// when it left lpn unmapped.
func (f *ftl) baseWhere(lpn int64) (int64, bool) {
	g := &f.g
	upb := int64(g.unitsPerBlock)
	var k, j int64
	switch f.base.kind {
	case Fill:
		i := g.dieIndex(lpn)
		k, j = i/upb, i%upb
	case Steady:
		d := f.dieOf(lpn)
		db := &f.base.dies[d]
		p := uint32(db.perm.forward(uint64(g.dieIndex(lpn))))
		k = int64(searchStart(db.start, p))
		j = int64(p - db.start[k])
	default:
		return 0, false
	}
	return (int64(f.dieOf(lpn))*int64(g.blocksPerDie)+k)*upb + j, true
}

// baseUnit returns the unit the base layout put in slot j of block bn
// (j < the block's base count).
func (f *ftl) baseUnit(bn int32, j int64) int64 {
	g := &f.g
	d := int(bn / g.blocksPerDie)
	k := int64(bn % g.blocksPerDie)
	var i int64
	if f.base.kind == Fill {
		i = k*int64(g.unitsPerBlock) + j
	} else {
		db := &f.base.dies[d]
		i = int64(db.perm.inverse(uint64(db.start[k]) + uint64(j)))
	}
	return g.dieUnit(d, i)
}

// searchStart returns the k with start[k] <= p < start[k+1].
func searchStart(start []uint32, p uint32) int {
	lo, hi := 0, len(start)-1 // start[lo] <= p < start[hi]
	for hi-lo > 1 {
		m := int(uint(lo+hi) >> 1)
		if start[m] <= p {
			lo = m
		} else {
			hi = m
		}
	}
	return lo
}

// feistel is a keyed pseudo-random permutation of [0, n): a four-round
// balanced Feistel network on the smallest even number of bits that
// covers n, walking the cycle until the result falls below n (Black &
// Rogaway's cycle walking), so both directions cost a few hashes.
type feistel struct {
	n    uint64
	half uint
	keys [4]uint64
}

func newFeistel(n uint64, seed func() uint64) feistel {
	bits := 2
	for uint64(1)<<bits < n {
		bits += 2
	}
	p := feistel{n: n, half: uint(bits / 2)}
	for i := range p.keys {
		p.keys[i] = seed()
	}
	return p
}

func (p *feistel) f(x uint64, k uint64) uint64 {
	return mix64(x^k) & (1<<p.half - 1)
}

func (p *feistel) enc(x uint64) uint64 {
	l, r := x>>p.half, x&(1<<p.half-1)
	for _, k := range p.keys {
		l, r = r, l^p.f(r, k)
	}
	return l<<p.half | r
}

func (p *feistel) dec(x uint64) uint64 {
	l, r := x>>p.half, x&(1<<p.half-1)
	for i := len(p.keys) - 1; i >= 0; i-- {
		l, r = r^p.f(l, p.keys[i]), l
	}
	return l<<p.half | r
}

// forward maps i in [0, n) to its position; inverse undoes it.
func (p *feistel) forward(i uint64) uint64 {
	x := p.enc(i)
	for x >= p.n {
		x = p.enc(x)
	}
	return x
}

func (p *feistel) inverse(x uint64) uint64 {
	i := p.dec(x)
	for i >= p.n {
		i = p.dec(i)
	}
	return i
}

// mix64 is SplitMix64's finalizer: a bijective 64-bit mixer.
func mix64(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
