package ssd

// revArena holds the reverse map (slot -> logical unit) of the blocks
// written since preconditioning, one run of unitsPerBlock entries per
// block, recycled when the block is erased. Blocks that still hold only
// what preconditioning left need none: the base layout computes theirs.
// The arena grows by doubling, so filling it allocates a logarithmic
// number of times and the steady state not at all.
type revArena struct {
	per  int      // entries per run: unitsPerBlock
	buf  []uint32 // the runs, end to end
	free []int32  // runs of erased blocks, for reuse
}

const noRev = -1

// get returns a run for a block being opened.
func (a *revArena) get() int32 {
	if n := len(a.free); n > 0 {
		r := a.free[n-1]
		a.free = a.free[:n-1]
		return r
	}
	r := int32(len(a.buf) / a.per)
	if len(a.buf)+a.per > cap(a.buf) {
		nb := make([]uint32, len(a.buf), max(2*cap(a.buf), 64*a.per, 1<<18)) // at least 1 MiB
		copy(nb, a.buf)
		a.buf = nb
	}
	a.buf = a.buf[:len(a.buf)+a.per]
	return r
}

// put returns run r to the arena.
func (a *revArena) put(r int32) { a.free = append(a.free, r) }

// run returns run r's entries.
func (a *revArena) run(r int32) []uint32 {
	o := int(r) * a.per
	return a.buf[o : o+a.per : o+a.per]
}

func (a *revArena) clone() revArena {
	c := *a
	c.buf = append(make([]uint32, 0, cap(a.buf)), a.buf...)
	c.free = append(make([]int32, 0, cap(a.free)), a.free...)
	return c
}
