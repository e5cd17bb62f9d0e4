package raidz

import "math/bits"

// allocator hands out vdev space in units of Parity+1 sectors (every
// record's allocated size is a multiple of it), first fit from a cursor
// that moves on past each allocation: records are placed one after the
// other in the order they are allocated, and freed space is reused when
// the cursor comes round to it, as a metaslab's cursor does. Its bitmap
// is kept in pages made on first use, so an empty vdev of many
// terabytes costs nothing.
type allocator struct {
	pages  [][]uint64 // pageWords words each; nil: all free
	units  int64
	cursor int64
	free   int64 // free units
}

const (
	pageWords = 1 << 13
	pageUnits = pageWords * 64
)

func newAllocator(units int64) *allocator {
	return &allocator{pages: make([][]uint64, (units+pageUnits-1)/pageUnits), units: units, free: units}
}

func (a *allocator) word(u int64) uint64 {
	p := a.pages[u/pageUnits]
	if p == nil {
		return 0
	}
	return p[(u%pageUnits)>>6]
}

func (a *allocator) mark(u, n int64, used bool) {
	for i := u; i < u+n; i++ {
		pi := i / pageUnits
		if a.pages[pi] == nil {
			a.pages[pi] = make([]uint64, pageWords)
		}
		w := &a.pages[pi][(i%pageUnits)>>6]
		if used {
			*w |= 1 << (i & 63)
		} else {
			*w &^= 1 << (i & 63)
		}
	}
}

// nextFree returns the first free unit at or after u, or a.units.
func (a *allocator) nextFree(u int64) int64 {
	for u < a.units {
		if a.pages[u/pageUnits] == nil {
			return u
		}
		w := ^a.word(u) >> (u & 63)
		if w != 0 {
			return min(u+int64(bits.TrailingZeros64(w)), a.units)
		}
		u = (u | 63) + 1
	}
	return a.units
}

// nextUsed returns the first used unit at or after u, or a.units.
func (a *allocator) nextUsed(u int64) int64 {
	for u < a.units {
		if a.pages[u/pageUnits] == nil {
			u = (u/pageUnits + 1) * pageUnits
			continue
		}
		w := a.word(u) >> (u & 63)
		if w != 0 {
			return min(u+int64(bits.TrailingZeros64(w)), a.units)
		}
		u = (u | 63) + 1
	}
	return a.units
}

// alloc returns the first run of n free units at or after the cursor,
// wrapping round once, and false when there is none.
func (a *allocator) alloc(n int64) (int64, bool) {
	if n > a.free {
		return 0, false
	}
	for pass := 0; pass < 2; pass++ {
		u, end := a.cursor, a.units
		if pass == 1 {
			u, end = 0, min(a.cursor+n, a.units)
		}
		for u < end {
			u = a.nextFree(u)
			if u+n > a.units {
				break
			}
			next := a.nextUsed(u)
			if next-u >= n {
				a.mark(u, n, true)
				a.free -= n
				a.cursor = u + n
				if a.cursor >= a.units {
					a.cursor = 0
				}
				return u, true
			}
			u = next
		}
	}
	return 0, false
}

// release frees n units from u.
func (a *allocator) release(u, n int64) {
	a.mark(u, n, false)
	a.free += n
}
