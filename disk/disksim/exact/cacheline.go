package exact

import "fmt"

// The memory cache's space (src/disksim_cachemem.c with "Cache size"
// above 0): atoms (one a block) grouped in lines of "Line size" atoms,
// found by block number, kept on a free list or on the replacement
// lists (segments of segmented LRU), each lock granule's first atom
// holding the granule's read and write locks and the requests waiting
// for them.

// Atom state bits (cache_atom.state).
const (
	atomValid    = 0x80000000 // CACHE_VALID
	atomDirty    = 0x40000000 // CACHE_DIRTY
	atomLockdown = 0x20000000 // CACHE_LOCKDOWN
	atomSegnum   = 0x000000ff // CACHE_SEGNUM: the list a line head is on
)

// cacheMaxSegments is CACHE_MAXSEGMENTS, and cacheLocksPerStruct
// CACHE_LOCKSPERSTRUCT: the entries of one lock holder or waiter block.
const (
	cacheMaxSegments    = 10
	cacheLocksPerStruct = 15
	cacheHashSize       = 1 << 12 // buckets of the block-number hash (a power of 2)
)

// Replacement policies (CACHE_REPLACE_*) and write schemes
// (CACHE_WRITE_*).
const (
	replaceFIFO    = 1
	replaceSLRU    = 2
	replaceRandom  = 3
	replaceLIFO    = 4
	writeSyncOnly  = 1
	writeThru      = 2
	writeBack      = 3
	prefetchFront  = 1 // CACHE_PREFETCH_FRONTOFLINE
	prefetchRest   = 2 // CACHE_PREFETCH_RESTOFLINE
	flagWasBlocked = 1 // CACHE_FLAG_WASBLOCKED
	flagLineLocked = 2 // CACHE_FLAG_LINELOCKED_ALLOCATE
)

// cacheAtom is a cache_atom: one block of cache space.
type cacheAtom struct {
	hashNext, hashPrev *cacheAtom
	lineNext, linePrev *cacheAtom
	lbn                int
	state              uint32
	lruNext, lruPrev   *cacheAtom
	readLocks          *holderBlock // the requests holding read locks
	writeLock          *event       // the request holding the write lock
	lockWaiters        *waiterBlock // descriptors waiting for a lock
}

// lockBlock is a cache_lockholders block (of requests holding read
// locks) or a cache_lockwaiters one (of descriptors waiting): up to
// cacheLocksPerStruct entries, chained.
type lockBlock[T any] struct {
	entry [cacheLocksPerStruct]*T
	next  *lockBlock[T]
}

type (
	holderBlock = lockBlock[event]
	waiterBlock = lockBlock[cacheDesc]
)

// cacheDesc is a cache_mem_event: a request's progress through the
// cache (read, write, allocation, write-through).
type cacheDesc struct {
	typ        int
	next, prev *cacheDesc
	done       int // donefunc: doneHostTransfer, doneRequestComplete or doneEmpty
	flags      int
	req        *event
	accblkno   int
	cleaned    *cacheAtom
	locktype   int
	lockstop   int
	allocstop  int
	waitees    *cacheDesc
	validpoint int
	// fillStart and fillEnd are the fill's blocks (the request's
	// tempint1 and tempint2)
	fillStart, fillEnd int
	rw                 *cacheDesc // an allocation's read or write (prev)
}

// The done functions a descriptor calls.
const (
	doneHostTransfer    = iota // donefunc_ctlrsmart_read
	doneRequestComplete        // donefunc_ctlrsmart_write
	doneEmpty                  // donefunc_cachemem_empty
)

// cacheSpace is a cache_mem's space and lists (one set: mapmask 0).
type cacheSpace struct {
	size, lineSize, atomsPerBit, lockGran int
	sharedReadLocks                       bool
	replace, numSegs, writeScheme         int
	readPrefetch, writePrefetch           int
	lineByLine                            bool
	maxGather                             int
	// flushMaxCluster is "Flush max line cluster", lines;
	// allocNonDirty the "Allocation policy" that replaces clean lines
	// before dirty ones (CACHE_ALLOCATE_NONDIRTY)
	flushMaxCluster int
	allocNonDirty   bool
	// hash is the atoms by block number, chained through hashNext
	// and hashPrev (cache_insert_new_into_hash): a fixed table, so
	// that replacing lines allocates nothing
	hash *[cacheHashSize]*cacheAtom
	// freeList is the free lines (map[0].freelist); unborn counts the
	// lines cachemem_initialize builds that no allocation has taken
	// yet: made when first taken, so that memory follows the blocks
	// used rather than the size asked for.
	freeList             *cacheAtom
	unborn               int
	lru                  [cacheMaxSegments]*cacheAtom
	numActive, maxActive [cacheMaxSegments]int
	lineWaiters          *cacheDesc
	// pools of released descriptors and lock blocks
	descPool   *cacheDesc
	holderPool *holderBlock
	waiterPool *waiterBlock
}

// init sets the space up as cachemem_initialize and cachemem_setup_segs
// leave it.
func (c *cacheSpace) init(k *CacheMem) {
	*c = cacheSpace{size: k.Size, lineSize: k.LineSize, atomsPerBit: k.BitGranularity, lockGran: k.LockGranularity,
		sharedReadLocks: k.SharedReadLocks, replace: k.Replacement, numSegs: k.SLRUSegments, writeScheme: k.WriteScheme,
		readPrefetch: k.ReadPrefetch, writePrefetch: k.WritePrefetch,
		lineByLine: k.LineByLine, maxGather: k.MaxGather, flushMaxCluster: k.FlushMaxLineCluster, allocNonDirty: k.AllocateNonDirty, hash: c.hash, descPool: c.descPool, holderPool: c.holderPool, waiterPool: c.waiterPool}
	if c.size == 0 {
		return
	}
	if c.hash == nil {
		c.hash = new([cacheHashSize]*cacheAtom)
	}
	c.unborn = c.size / max(c.lineSize, 1)
	if !k.SLRUListGiven {
		// "Cache size" sets every segment's maximum to the size;
		// cachemem_setup_segs, run for an SLRU segments list, zeroes
		// them (a one-entry list sets none)
		for i := range c.maxActive {
			c.maxActive[i] = c.size
		}
	}
}

func (c *cacheSpace) newDesc() *cacheDesc {
	d := c.descPool
	if d == nil {
		return &cacheDesc{}
	}
	c.descPool = d.next
	*d = cacheDesc{}
	return d
}

func (c *cacheSpace) freeDesc(d *cacheDesc) {
	d.next = c.descPool
	c.descPool = d
}

// findAtom is cache_find_atom.
func (c *cacheSpace) findAtom(lbn int) *cacheAtom {
	t := c.hash[lbn&(cacheHashSize-1)]
	for t != nil && t.lbn != lbn {
		t = t.hashNext
	}
	return t
}

// hashInsert is cache_insert_new_into_hash.
func (c *cacheSpace) hashInsert(a *cacheAtom) {
	h := &c.hash[a.lbn&(cacheHashSize-1)]
	a.hashNext = *h
	a.hashPrev = nil
	if a.hashNext != nil {
		a.hashNext.hashPrev = a
	}
	*h = a
}

// hashRemove is cache_remove_entry_from_hash.
func (c *cacheSpace) hashRemove(a *cacheAtom) {
	if a.hashPrev != nil {
		a.hashPrev.hashNext = a.hashNext
	} else {
		c.hash[a.lbn&(cacheHashSize-1)] = a.hashNext
	}
	if a.hashNext != nil {
		a.hashNext.hashPrev = a.hashPrev
	}
	a.hashNext, a.hashPrev = nil, nil
}

// addToList is cache_add_to_lrulist: line goes at the tail of the
// segment's circular list (or of the free list, segnum atomSegnum).
func (c *cacheSpace) addToList(line *cacheAtom, segnum int) {
	head := &c.freeList
	if segnum != atomSegnum {
		head = &c.lru[segnum]
		c.numActive[segnum]++
	}
	line.state |= uint32(segnum)
	if h := *head; h != nil {
		line.lruNext = h
		line.lruPrev = h.lruPrev
		h.lruPrev = line
		line.lruPrev.lruNext = line
	} else {
		line.lruNext = line
		line.lruPrev = line
		*head = line
	}
}

// removeFromList is cache_remove_from_lrulist.
func (c *cacheSpace) removeFromList(line *cacheAtom, segnum int) {
	head := &c.freeList
	if segnum != atomSegnum {
		head = &c.lru[segnum]
		c.numActive[segnum]--
	}
	if line.lruNext != line {
		line.lruPrev.lruNext = line.lruNext
		line.lruNext.lruPrev = line.lruPrev
		if *head == line {
			*head = line.lruNext
		}
	} else {
		*head = nil
	}
	line.state &^= atomSegnum
	line.lruNext = nil
	line.lruPrev = nil
}

// access is cache_access: under segmented LRU the line moves to the
// tail of its segment's list, promoted a segment if it was on one, the
// heads of full segments demoted; other policies keep no order (and so
// never put a line on a list).
func (c *cacheSpace) access(line *cacheAtom) {
	if c.replace != replaceSLRU {
		return
	}
	for line.linePrev != nil {
		line = line.linePrev
	}
	segnum := 0
	if line.lruNext != nil {
		segnum = int(line.state & atomSegnum)
		c.removeFromList(line, segnum)
		if segnum != c.numSegs-1 {
			segnum = (segnum + 1) & atomSegnum
		}
	}
	if segnum >= cacheMaxSegments {
		abortf("cache_access promotes a line past the last SLRU segment (segment %d)", segnum)
	}
	c.addToList(line, segnum)
	for segnum != 0 && c.numActive[segnum] == c.maxActive[segnum] {
		line = c.lru[segnum]
		c.removeFromList(line, segnum)
		segnum--
		c.addToList(line, segnum)
	}
}

// lineFree reports whether a line can be taken (map[0].freelist set).
func (c *cacheSpace) lineFree() bool { return c.freeList != nil || c.unborn > 0 }

// takeFreeLine removes the free list's head (cache_get_free_atom), or
// makes one of the lines not taken yet.
func (c *cacheSpace) takeFreeLine() *cacheAtom {
	if l := c.freeList; l != nil {
		c.removeFromList(l, atomSegnum)
		return l
	}
	c.unborn--
	n := max(c.lineSize, 1)
	atoms := make([]cacheAtom, n)
	for i := 1; i < n; i++ {
		atoms[i-1].lineNext = &atoms[i]
		atoms[i].linePrev = &atoms[i-1]
	}
	return &atoms[0]
}

// unmapLine is cache_unmap_line for lines of a fixed size: off its
// list, onto the free list, out of the hash.
func (c *cacheSpace) unmapLine(line *cacheAtom) {
	if line.lruNext != nil {
		c.removeFromList(line, int(line.state&atomSegnum))
	}
	c.addToList(line, atomSegnum)
	for ; line != nil; line = line.lineNext {
		c.hashRemove(line)
	}
}

// replaceStart is cache_get_replace_startpoint (random replacement is
// refused by the loader: it draws from DiskSim's generator).
func (c *cacheSpace) replaceStart() *cacheAtom {
	line := c.lru[0]
	if line != nil && c.replace == replaceLIFO {
		line = line.lruPrev
	}
	return line
}

// waitForLine is cache_replace_waitforline: an allocation that has
// waited before goes to the front of the line waiters, others to the
// back (linewaiters points at the last; last.next is the first).
func (c *cacheSpace) waitForLine(a *cacheDesc) {
	if w := c.lineWaiters; w != nil {
		a.next = w.next
		w.next = a
		if a.flags&flagLineLocked == 0 {
			c.lineWaiters = a
		}
	} else {
		a.next = a
		c.lineWaiters = a
	}
	a.flags |= flagLineLocked
}

// granule returns the first atom of t's lock granule.
func (c *cacheSpace) granule(t *cacheAtom) *cacheAtom {
	for t.lbn%c.lockGran != 0 {
		t = t.linePrev
	}
	return t
}

// addToLockBlock is cache_add_to_lockstruct: x goes in the last
// block's first free slot after a used one, or in a new block taken
// from pool; nothing when it is there already.
func addToLockBlock[T any](pool, head **lockBlock[T], x *T) {
	t := *head
	if t == nil {
		*head = newLockBlock(pool, x)
		return
	}
	for t.next != nil {
		for _, e := range t.entry {
			if e == x {
				return
			}
		}
		t = t.next
	}
	start := false
	for i, e := range t.entry {
		switch {
		case e == x:
			return
		case e != nil:
			start = true
		case start:
			t.entry[i] = x
			return
		}
	}
	t.next = newLockBlock(pool, x)
}

func newLockBlock[T any](pool **lockBlock[T], x *T) *lockBlock[T] {
	b := *pool
	if b == nil {
		b = &lockBlock[T]{}
	} else {
		*pool = b.next
		*b = lockBlock[T]{}
	}
	b.entry[0] = x
	return b
}

// freeLockBlock gives b back to pool (addtoextraq).
func freeLockBlock[T any](pool **lockBlock[T], b *lockBlock[T]) {
	b.next = *pool
	*pool = b
}

// checkSpace reports what of a cache with space exact mode does not
// simulate, each error naming the parameter and its value.
func (k *CacheMem) checkSpace() []error {
	var errs []error
	bad := func(f string, a ...any) {
		errs = append(errs, fmt.Errorf("exact: smart controller: cache: Cache size = %d: "+f, append([]any{k.Size}, a...)...))
	}
	switch {
	case k.BitGranularity < 1 || k.LockGranularity < 1 || k.LineSize < 0:
		bad("Line size = %d, Bit granularity = %d, Lock granularity = %d: the granularities must be 1 or more and the line size 0 or more (DiskSim divides by them)", k.LineSize, k.BitGranularity, k.LockGranularity)
	case k.LineSize == 0 && (k.BitGranularity > 1 || k.LockGranularity > 1):
		bad("Line size = 0 with Bit granularity = %d and Lock granularity = %d: each block is a line of its own (cache_allocate_space_continue links none), and a granule of more than one block follows a null line_prev (cache_get_write_lock) or line_next: DiskSim crashes (a segmentation fault, or an assertion in cachemem_free_block_dirty)", k.BitGranularity, k.LockGranularity)
	case k.LineSize != 0 && k.Size%k.LineSize != 0:
		bad("Line size = %d does not divide the size: cachemem_initialize builds a short last line, and DiskSim follows its null line_next when it allocates it", k.LineSize)
	}
	switch k.Replacement {
	case replaceRandom:
		bad("Replacement policy = 3: random replacement draws from DiskSim's generator (DISKSIM_drand48), which exact mode does not share")
	case replaceSLRU:
		if k.SLRUSegments > 1 {
			bad("SLRU segments = %d values: cachemem_setup_segs writes past its one-entry map", k.SLRUSegments)
		}
	}
	if k.LineByLine {
		bad("Line-by-line fetches = 1: line-by-line write-through (cache_write_line_by_line) is not ported")
	}
	if k.MaxGather != 0 {
		bad("Max gather = %d: a write through split at a gather limit (cache_write_line_by_line) is not ported", k.MaxGather)
	}
	return errs
}
