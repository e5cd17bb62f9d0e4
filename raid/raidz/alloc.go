package raidz

import "math/bits"

// allocator hands out vdev space in units of Parity+1 sectors (every
// record's allocated size is a multiple of it), first fit from a cursor
// that moves on past each allocation: records are placed one after the
// other in the order they are allocated, and freed space is reused when
// the cursor comes round to it, as a metaslab's cursor does.
type allocator struct {
	used   []uint64 // one bit per unit
	units  int64
	cursor int64
	free   int64 // free units
}

func newAllocator(units int64) *allocator {
	return &allocator{used: make([]uint64, (units+63)/64), units: units, free: units}
}

func (a *allocator) isUsed(u int64) bool { return a.used[u>>6]&(1<<(u&63)) != 0 }

func (a *allocator) mark(u, n int64, used bool) {
	for i := u; i < u+n; i++ {
		if used {
			a.used[i>>6] |= 1 << (i & 63)
		} else {
			a.used[i>>6] &^= 1 << (i & 63)
		}
	}
}

// nextFree returns the first free unit at or after u, or a.units.
func (a *allocator) nextFree(u int64) int64 {
	for u < a.units {
		w := ^a.used[u>>6] >> (u & 63)
		if w != 0 {
			u += int64(bits.TrailingZeros64(w))
			return min(u, a.units)
		}
		u = (u | 63) + 1
	}
	return a.units
}

// nextUsed returns the first used unit at or after u, or a.units.
func (a *allocator) nextUsed(u int64) int64 {
	for u < a.units {
		w := a.used[u>>6] >> (u & 63)
		if w != 0 {
			u += int64(bits.TrailingZeros64(w))
			return min(u, a.units)
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
