package ssd

import "math/bits"

// The flash translation layer, functional part: where each logical unit
// lives, which physical slots hold valid data, free and closed blocks per
// die, and garbage collection. It knows nothing of time; the drive charges
// the time of what it does (drive.go) and preconditioning runs it alone
// (precondition.go).
//
// Units are MapUnit bytes. A physical slot is one unit of a page; slot
// number ppn = block*unitsPerBlock + index. A block here is the set of
// one erase block per plane that multi-plane operations use together.
// Logical units are striped over the dies a multi-plane page at a time
// (static allocation, as MQSim's default channel-way-die order), so every
// die holds the same share of the logical space and collects its own
// garbage.

// geometry is the derived shape of the flash array.
type geometry struct {
	unitSize        int64
	units           int64 // logical units
	dies            int
	channels        int
	unitsPerPage    int
	unitsPerProgram int // one multi-plane page program
	unitsPerBlock   int
	unitsPerDie     int64 // logical units per die (the largest share)
	blocksPerDie    int32
}

func newGeometry(p *Params) geometry {
	g := geometry{unitSize: int64(p.MapUnit), dies: p.Dies(), channels: p.Channels}
	g.units = (p.Capacity + g.unitSize - 1) / g.unitSize
	g.unitsPerPage = p.PageSize / p.MapUnit
	g.unitsPerProgram = g.unitsPerPage * p.PlanesPerDie
	g.unitsPerBlock = g.unitsPerProgram * p.PagesPerBlock
	stripe := int64(g.dies) * int64(g.unitsPerProgram)
	g.unitsPerDie = (g.units + stripe - 1) / stripe * int64(g.unitsPerProgram)
	phys := float64(g.units) * (1 + p.OverProvisioning)
	perDie := int64(phys/float64(g.dies)+0.5) / int64(g.unitsPerBlock)
	g.blocksPerDie = int32(min(perDie, 1<<30))
	return g
}

func (g *geometry) blocks() int64 { return int64(g.blocksPerDie) * int64(g.dies) }

// dieUnits returns how many logical units live on die d.
func (g *geometry) dieUnits(d int) int64 {
	upg := int64(g.unitsPerProgram)
	stripe := int64(g.dies) * upg
	full, rest := g.units/stripe, g.units%stripe
	return full*upg + min(max(rest-int64(d)*upg, 0), upg)
}

// dieUnit returns die d's i-th logical unit (0 <= i < dieUnits(d)).
func (g *geometry) dieUnit(d int, i int64) int64 {
	upg := int64(g.unitsPerProgram)
	return i/upg*int64(g.dies)*upg + int64(d)*upg + i%upg
}
func (g *geometry) slots() int64 { return g.blocks() * int64(g.unitsPerBlock) }

const (
	fwdChunkShift = 16 // logical units per forward-map chunk: 65536 (256 KiB)
	bufferedBit   = 1 << 31
	noBlock       = -1
)

const (
	blockFree uint8 = iota
	blockOpen
	blockClosed
	blockVictim
)

// block is one (multi-plane) erase block's metadata.
type block struct {
	valid   int32  // valid units
	pending int32  // units allocated but not yet programmed
	erases  uint32 // erase count (wear)
	state   uint8
	prev    int32 // bucket list links (closed blocks)
	next    int32
	stamp   uint64 // host unit writes when the block was closed
}

// openBlock is a write point: the block being filled and its next slot.
type openBlock struct {
	blk  int32
	next int
}

// dieFTL is one die's blocks.
type dieFTL struct {
	free    []int32 // stack of erased blocks
	host    openBlock
	gc      openBlock
	buckets []int32 // closed blocks by valid count: list heads
	minFree int
	st      ftlStats // this die's counters (freeMin unused: minFree)
}

// revChunk holds the reverse map and valid bits of a run of blocks,
// allocated when one of them is first opened.
type revChunk struct {
	rev  []uint32 // slot -> logical unit
	bits []uint64 // slot valid
}

// ftlStats are the FTL's counters: per die, and summed by ftl.stats.
type ftlStats struct {
	hostUnits uint64 // units written by the host
	gcMoves   uint64 // valid units copied by garbage collection
	erases    uint64
	maxErase  uint32
	freeMin   int // fewest free blocks any die had
}

// ftl is the page-level mapping with per-die write points and GC.
type ftl struct {
	g           geometry
	policy      GCPolicy
	low         int
	fwd         [][]uint32 // lpn -> ppn+1 (0: unmapped), bufferedBit while unprogrammed
	rev         []*revChunk
	chunkBlocks int32 // blocks per revChunk
	blk         []block
	dies        []dieFTL

	// moveHook and eraseHook, when set (by tests), see every GC copy
	// and every erase.
	moveHook  func(from, to int64)
	eraseHook func(block int32)
}

func newFTL(p *Params) *ftl {
	g := newGeometry(p)
	f := &ftl{g: g, policy: p.GC, low: p.GCLowBlocks}
	f.fwd = make([][]uint32, (g.units+(1<<fwdChunkShift)-1)>>fwdChunkShift)
	f.chunkBlocks = int32(max(1, (1<<16)/g.unitsPerBlock))
	f.rev = make([]*revChunk, (g.blocks()+int64(f.chunkBlocks)-1)/int64(f.chunkBlocks))
	f.blk = make([]block, g.blocks())
	f.dies = make([]dieFTL, g.dies)
	for d := range f.dies {
		die := &f.dies[d]
		die.free = make([]int32, 0, g.blocksPerDie)
		first := int32(d) * g.blocksPerDie
		for b := g.blocksPerDie - 1; b >= 0; b-- {
			die.free = append(die.free, first+b)
		}
		die.host.blk, die.gc.blk = noBlock, noBlock
		die.buckets = make([]int32, g.unitsPerBlock+1)
		for i := range die.buckets {
			die.buckets[i] = noBlock
		}
		die.minFree = len(die.free)
	}
	return f
}

// dieOf returns the die of logical unit lpn: runs of one multi-plane
// page of consecutive units go to consecutive dies, so a page holds
// consecutive data and a sequential transfer spreads over every die.
func (f *ftl) dieOf(lpn int64) int {
	return int(lpn / int64(f.g.unitsPerProgram) % int64(f.g.dies))
}

// lookup returns where lpn lives: its slot, whether that slot still
// waits to be programmed, and whether lpn is mapped at all.
func (f *ftl) lookup(lpn int64) (ppn int64, buffered, ok bool) {
	c := f.fwd[lpn>>fwdChunkShift]
	if c == nil {
		return 0, false, false
	}
	e := c[lpn&(1<<fwdChunkShift-1)]
	if e == 0 {
		return 0, false, false
	}
	return int64(e&^bufferedBit) - 1, e&bufferedBit != 0, true
}

func (f *ftl) setFwd(lpn int64, e uint32) {
	c := f.fwd[lpn>>fwdChunkShift]
	if c == nil {
		c = make([]uint32, 1<<fwdChunkShift)
		f.fwd[lpn>>fwdChunkShift] = c
	}
	c[lpn&(1<<fwdChunkShift-1)] = e
}

func (f *ftl) chunk(ppn int64) (*revChunk, int64) {
	per := int64(f.chunkBlocks) * int64(f.g.unitsPerBlock)
	return f.rev[ppn/per], ppn % per
}

// gcWork is what one write or trim cost the die in garbage collection.
type gcWork struct {
	moves, erases int
}

// write maps lpn to a fresh slot on its die, invalidating the old one,
// collecting garbage first when the die runs out of free blocks. A
// buffered write stays flagged until programmed is called for its slot.
func (f *ftl) write(lpn int64, buffered bool, w *gcWork) int64 {
	fc := f.fwd[lpn>>fwdChunkShift]
	if fc == nil {
		fc = make([]uint32, 1<<fwdChunkShift)
		f.fwd[lpn>>fwdChunkShift] = fc
	}
	e := &fc[lpn&(1<<fwdChunkShift-1)]
	if *e != 0 {
		f.invalidate(int64(*e&^bufferedBit) - 1)
		*e = 0 // unmapped while GC may run below
	}
	d := f.dieOf(lpn)
	ppn := f.alloc(d, &f.dies[d].host, w)
	v := uint32(ppn + 1)
	if buffered {
		v |= bufferedBit
		f.blk[ppn/int64(f.g.unitsPerBlock)].pending++
	}
	*e = v
	f.place(ppn, lpn)
	f.dies[d].st.hostUnits++
	return ppn
}

// trim unmaps lpn.
func (f *ftl) trim(lpn int64) {
	if old, _, ok := f.lookup(lpn); ok {
		f.invalidate(old)
		f.setFwd(lpn, 0)
	}
}

// programmed marks slot ppn, allocated buffered, as on flash.
func (f *ftl) programmed(ppn int64) {
	b := &f.blk[ppn/int64(f.g.unitsPerBlock)]
	b.pending--
	c, i := f.chunk(ppn)
	lpn := int64(c.rev[i])
	if c.bits[i>>6]&(1<<(i&63)) == 0 {
		return // overwritten or trimmed meanwhile
	}
	f.setFwd(lpn, uint32(ppn+1))
}

// place records that slot ppn holds lpn.
func (f *ftl) place(ppn, lpn int64) {
	c, i := f.chunk(ppn)
	c.rev[i] = uint32(lpn)
	c.bits[i>>6] |= 1 << (i & 63)
	f.blk[ppn/int64(f.g.unitsPerBlock)].valid++
}

// invalidate clears slot ppn's valid bit, moving its block down a bucket.
func (f *ftl) invalidate(ppn int64) {
	c, i := f.chunk(ppn)
	c.bits[i>>6] &^= 1 << (i & 63)
	bn := int32(ppn / int64(f.g.unitsPerBlock))
	b := &f.blk[bn]
	if b.state == blockClosed {
		d := &f.dies[f.dieOfBlock(bn)]
		f.unlink(d, bn)
		b.valid--
		f.link(d, bn)
		return
	}
	b.valid--
}

func (f *ftl) dieOfBlock(b int32) int { return int(b / f.g.blocksPerDie) }

func (f *ftl) link(d *dieFTL, bn int32) {
	b := &f.blk[bn]
	h := d.buckets[b.valid]
	b.prev, b.next = noBlock, h
	if h != noBlock {
		f.blk[h].prev = bn
	}
	d.buckets[b.valid] = bn
}

func (f *ftl) unlink(d *dieFTL, bn int32) {
	b := &f.blk[bn]
	if b.prev != noBlock {
		f.blk[b.prev].next = b.next
	} else {
		d.buckets[b.valid] = b.next
	}
	if b.next != noBlock {
		f.blk[b.next].prev = b.prev
	}
}

// alloc returns the next slot of write point ob on die d, opening a new
// block when ob is full. Host write points collect garbage first while
// the die has GCLowBlocks free blocks or fewer; the GC write point uses
// the reserve.
func (f *ftl) alloc(d int, ob *openBlock, w *gcWork) int64 {
	die := &f.dies[d]
	if ob.blk == noBlock || ob.next == f.g.unitsPerBlock {
		if ob.blk != noBlock {
			f.close(die, ob.blk)
		}
		if ob == &die.host {
			for len(die.free) <= f.low && f.collect(d, w) {
			}
		}
		ob.blk, ob.next = f.open(die), 0
	}
	ppn := int64(ob.blk)*int64(f.g.unitsPerBlock) + int64(ob.next)
	ob.next++
	return ppn
}

func (f *ftl) open(die *dieFTL) int32 {
	n := len(die.free)
	bn := die.free[n-1]
	die.free = die.free[:n-1]
	die.minFree = min(die.minFree, n-1)
	f.blk[bn].state = blockOpen
	ci := bn / f.chunkBlocks
	if f.rev[ci] == nil {
		per := int(f.chunkBlocks) * f.g.unitsPerBlock
		f.rev[ci] = &revChunk{rev: make([]uint32, per), bits: make([]uint64, (per+63)/64)}
	}
	return bn
}

// openAllChunks allocates every reverse-map chunk and forward-map chunk,
// so that dies can write in parallel without allocating shared state.
func (f *ftl) openAllChunks() {
	per := int(f.chunkBlocks) * f.g.unitsPerBlock
	for ci := range f.rev {
		if f.rev[ci] == nil {
			f.rev[ci] = &revChunk{rev: make([]uint32, per), bits: make([]uint64, (per+63)/64)}
		}
	}
	for ci := range f.fwd {
		if f.fwd[ci] == nil {
			f.fwd[ci] = make([]uint32, 1<<fwdChunkShift)
		}
	}
}

func (f *ftl) close(die *dieFTL, bn int32) {
	b := &f.blk[bn]
	b.state = blockClosed
	b.stamp = die.st.hostUnits
	f.link(die, bn)
}

// collect cleans one victim block of die d: its valid units move to the
// die's GC write point and it is erased. It reports false when no block
// can be cleaned (every closed block full of valid data or pending).
func (f *ftl) collect(d int, w *gcWork) bool {
	die := &f.dies[d]
	v := f.victim(d)
	if v == noBlock {
		return false
	}
	f.unlink(die, v)
	b := &f.blk[v]
	b.state = blockVictim
	upb := int64(f.g.unitsPerBlock)
	c, i0 := f.chunk(int64(v) * upb)
	for wi := i0 >> 6; wi < (i0+upb+63)>>6; wi++ {
		word := c.bits[wi]
		c.bits[wi] = 0 // every valid unit leaves; chunks hold whole blocks, so a word holds no other block's bits only when aligned: restored below
		for ; word != 0; word &= word - 1 {
			i := wi<<6 + int64(bits.TrailingZeros64(word))
			if i < i0 || i >= i0+upb {
				c.bits[wi] |= 1 << (i & 63) // another block's unit: keep it
				continue
			}
			if f.moveHook != nil {
				f.moveHook(int64(v)*upb+i-i0, f.peekGC(die))
			}
			f.move(d, die, int64(c.rev[i]), w)
		}
	}
	b.valid = 0
	f.erase(die, v)
	w.erases++
	return true
}

// move copies valid unit lpn to die d's GC write point.
func (f *ftl) move(d int, die *dieFTL, lpn int64, w *gcWork) {
	np := f.alloc(d, &die.gc, w)
	f.fwd[lpn>>fwdChunkShift][lpn&(1<<fwdChunkShift-1)] = uint32(np + 1)
	f.place(np, lpn)
	w.moves++
	die.st.gcMoves++
}

// peekGC returns the slot the GC write point fills next (for moveHook).
func (f *ftl) peekGC(die *dieFTL) int64 {
	ob := die.gc
	if ob.blk == noBlock || ob.next == f.g.unitsPerBlock {
		return int64(die.free[len(die.free)-1]) * int64(f.g.unitsPerBlock)
	}
	return int64(ob.blk)*int64(f.g.unitsPerBlock) + int64(ob.next)
}

func (f *ftl) erase(die *dieFTL, bn int32) {
	if f.eraseHook != nil {
		f.eraseHook(bn)
	}
	b := &f.blk[bn]
	b.valid, b.pending, b.state = 0, 0, blockFree
	b.erases++
	die.st.erases++
	die.st.maxErase = max(die.st.maxErase, b.erases)
	die.free = append(die.free, bn)
}

// victim picks die d's block to clean by the policy, or noBlock. Blocks
// with pages still waiting to be programmed are skipped.
func (f *ftl) victim(d int) int32 {
	die := &f.dies[d]
	if f.policy == CostBenefit {
		return f.costBenefit(d)
	}
	for v := 0; v < f.g.unitsPerBlock; v++ {
		for bn := die.buckets[v]; bn != noBlock; bn = f.blk[bn].next {
			if f.blk[bn].pending == 0 {
				return bn
			}
		}
	}
	return noBlock
}

// costBenefit scans die d's closed blocks for the largest
// age x (1-u) / 2u; an empty block wins at once.
func (f *ftl) costBenefit(d int) int32 {
	die := &f.dies[d]
	best, bestScore := int32(noBlock), -1.0
	upb := float64(f.g.unitsPerBlock)
	for v := 0; v < f.g.unitsPerBlock; v++ {
		for bn := die.buckets[v]; bn != noBlock; bn = f.blk[bn].next {
			b := &f.blk[bn]
			if b.pending != 0 {
				continue
			}
			if v == 0 {
				return bn
			}
			u := float64(v) / upb
			age := float64(die.st.hostUnits-b.stamp) + 1
			if s := age * (1 - u) / (2 * u); s > bestScore {
				best, bestScore = bn, s
			}
		}
	}
	return best
}

// freeBlocks returns die d's free block count.
func (f *ftl) freeBlocks(d int) int { return len(f.dies[d].free) }

// stats sums the dies' counters: the most erased block, the fewest free
// blocks any die had.
func (f *ftl) stats() ftlStats {
	var s ftlStats
	s.freeMin = int(f.g.blocksPerDie)
	for i := range f.dies {
		d := &f.dies[i]
		s.hostUnits += d.st.hostUnits
		s.gcMoves += d.st.gcMoves
		s.erases += d.st.erases
		s.maxErase = max(s.maxErase, d.st.maxErase)
		s.freeMin = min(s.freeMin, d.minFree)
	}
	return s
}

// clone returns a deep copy of f (hooks excluded).
func (f *ftl) clone() *ftl {
	c := &ftl{g: f.g, policy: f.policy, low: f.low, chunkBlocks: f.chunkBlocks}
	c.fwd = make([][]uint32, len(f.fwd))
	for i, ch := range f.fwd {
		if ch != nil {
			c.fwd[i] = append([]uint32(nil), ch...)
		}
	}
	c.rev = make([]*revChunk, len(f.rev))
	for i, r := range f.rev {
		if r != nil {
			c.rev[i] = &revChunk{rev: append([]uint32(nil), r.rev...), bits: append([]uint64(nil), r.bits...)}
		}
	}
	c.blk = append([]block(nil), f.blk...)
	c.dies = append([]dieFTL(nil), f.dies...)
	for i := range c.dies {
		c.dies[i].free = append(make([]int32, 0, cap(f.dies[i].free)), f.dies[i].free...)
		c.dies[i].buckets = append([]int32(nil), f.dies[i].buckets...)
	}
	return c
}
