package ssd

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

const noBlock = -1

const (
	blockFree uint8 = iota
	blockOpen
	blockClosed
	blockVictim
)

// block is one (multi-plane) erase block's metadata.
type block struct {
	stamp   int64 // die host unit writes when the block was closed (negative: before the run's base)
	valid   int32 // valid units
	pending int32 // units allocated but not yet programmed
	base    int32 // leading slots still holding what preconditioning left (base.go)
	rev     int32 // its run in the reverse arena, or noRev
	erases  uint32
	prev    int32 // bucket list links (closed blocks)
	next    int32
	state   uint8
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

// ftlStats are the FTL's counters: per die, and summed by ftl.stats.
type ftlStats struct {
	hostUnits uint64 // units written by the host
	gcMoves   uint64 // valid units copied by garbage collection
	erases    uint64
	maxErase  uint32
	freeMin   int // fewest free blocks any die had
}

// ftl is the page-level mapping with per-die write points and GC. Where
// each unit lives is the base layout (what preconditioning left,
// computed) overridden by the forward map; a slot is valid when the
// unit it was written for still maps to it, so no valid bits are kept.
type ftl struct {
	g      geometry
	policy GCPolicy
	low    int
	base   baseLayout
	fwd    fwdMap
	rev    revArena
	blk    []block
	dies   []dieFTL

	// moveHook and eraseHook, when set (by tests), see every GC copy
	// and every erase.
	moveHook  func(from, to int64)
	eraseHook func(block int32)
}

// newFTL returns a fresh-out-of-box FTL. With explicit set, every unit
// written gets a dense forward-map entry at once (the reference page map
// of the tests) instead of a hash entry while sparse.
func newFTL(p *Params, explicit bool) *ftl {
	g := newGeometry(p)
	f := &ftl{g: g, policy: p.GC, low: p.GCLowBlocks}
	denseAt := uint32(fwdDenseAt)
	if explicit {
		denseAt = 0
	}
	f.fwd = newFwdMap(g.units, denseAt)
	f.rev = revArena{per: g.unitsPerBlock}
	f.blk = make([]block, g.blocks())
	for i := range f.blk {
		f.blk[i].rev = noRev
	}
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

// where returns lpn's slot, or false when lpn is unmapped.
func (f *ftl) where(lpn int64) (int64, bool) {
	if e, over := f.fwd.get(lpn); over {
		return int64(e) - 1, e != 0
	}
	return f.baseWhere(lpn)
}

// lookup returns where lpn lives: its slot, whether that slot still
// waits to be programmed, and whether lpn is mapped at all.
func (f *ftl) lookup(lpn int64) (ppn int64, buffered, ok bool) {
	ppn, ok = f.where(lpn)
	return ppn, ok && f.unprogrammed(ppn), ok
}

// unprogrammed reports whether slot ppn was allocated to a host write
// that its die has not programmed yet. A die programs its host units in
// the order they were allocated, so a block's unprogrammed slots are the
// last b.pending it handed out.
func (f *ftl) unprogrammed(ppn int64) bool {
	upb := int64(f.g.unitsPerBlock)
	bn := int32(ppn / upb)
	b := &f.blk[bn]
	if b.pending == 0 {
		return false
	}
	filled := upb
	if h := &f.dies[f.dieOfBlock(bn)].host; h.blk == bn {
		filled = int64(h.next)
	}
	return ppn%upb >= filled-int64(b.pending)
}

// slotUnit returns the unit slot ppn was written for and whether the
// slot still holds its current data.
func (f *ftl) slotUnit(ppn int64) (int64, bool) {
	upb := int64(f.g.unitsPerBlock)
	bn, j := int32(ppn/upb), ppn%upb
	b := &f.blk[bn]
	if j < int64(b.base) {
		lpn := f.baseUnit(bn, j)
		_, over := f.fwd.get(lpn)
		return lpn, !over
	}
	if b.rev == noRev {
		return 0, false
	}
	lpn := int64(f.rev.run(b.rev)[j])
	e, over := f.fwd.get(lpn)
	return lpn, over && int64(e) == ppn+1
}

// gcWork is what one write or trim cost the die in garbage collection.
type gcWork struct {
	moves, erases int
}

// write maps lpn to a fresh slot on its die, invalidating the old one,
// collecting garbage first when the die runs out of free blocks. A
// buffered write's slot counts as unprogrammed until programmed is
// called for it.
func (f *ftl) write(lpn int64, buffered bool, w *gcWork) int64 {
	if old, ok := f.where(lpn); ok {
		f.invalidate(old)
		f.fwd.set(lpn, 0) // unmapped while GC may run below
	}
	d := f.dieOf(lpn)
	ppn := f.alloc(d, &f.dies[d].host, w)
	f.fwd.set(lpn, uint32(ppn+1))
	f.place(ppn, lpn)
	if buffered {
		f.blk[ppn/int64(f.g.unitsPerBlock)].pending++
	}
	f.dies[d].st.hostUnits++
	return ppn
}

// trim unmaps lpn.
func (f *ftl) trim(lpn int64) {
	if old, ok := f.where(lpn); ok {
		f.invalidate(old)
		f.fwd.set(lpn, 0)
	}
}

// programmed records that slot ppn, allocated to a buffered write, is
// on flash.
func (f *ftl) programmed(ppn int64) {
	f.blk[ppn/int64(f.g.unitsPerBlock)].pending--
}

// place records that slot ppn holds lpn.
func (f *ftl) place(ppn, lpn int64) {
	upb := int64(f.g.unitsPerBlock)
	b := &f.blk[ppn/upb]
	f.rev.run(b.rev)[ppn%upb] = uint32(lpn)
	b.valid++
}

// invalidate counts slot ppn's data stale, moving its block down a
// bucket.
func (f *ftl) invalidate(ppn int64) {
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
	b := &f.blk[bn]
	b.state = blockOpen
	b.rev = f.rev.get()
	return bn
}

func (f *ftl) close(die *dieFTL, bn int32) {
	b := &f.blk[bn]
	b.state = blockClosed
	b.stamp = int64(die.st.hostUnits)
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
	first := int64(v) * upb
	for left, ppn := b.valid, first; left > 0 && ppn < first+upb; ppn++ {
		lpn, ok := f.slotUnit(ppn)
		if !ok {
			continue
		}
		left--
		if f.moveHook != nil {
			f.moveHook(ppn, f.peekGC(die))
		}
		f.move(d, die, lpn, w)
	}
	b.valid = 0
	f.erase(die, v)
	w.erases++
	return true
}

// move copies valid unit lpn to die d's GC write point.
func (f *ftl) move(d int, die *dieFTL, lpn int64, w *gcWork) {
	np := f.alloc(d, &die.gc, w)
	f.fwd.set(lpn, uint32(np+1))
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
	if b.rev != noRev {
		f.rev.put(b.rev)
	}
	b.valid, b.pending, b.base, b.rev, b.state = 0, 0, 0, noRev, blockFree
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
			age := float64(int64(die.st.hostUnits)-b.stamp) + 1
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

// clone returns a deep copy of f (hooks excluded; the base layout, never
// changed after preconditioning, is shared).
func (f *ftl) clone() *ftl {
	c := &ftl{g: f.g, policy: f.policy, low: f.low, base: f.base, fwd: f.fwd.clone(), rev: f.rev.clone()}
	c.blk = append([]block(nil), f.blk...)
	c.dies = append([]dieFTL(nil), f.dies...)
	for i := range c.dies {
		c.dies[i].free = append(make([]int32, 0, cap(f.dies[i].free)), f.dies[i].free...)
		c.dies[i].buckets = append([]int32(nil), f.dies[i].buckets...)
	}
	return c
}
