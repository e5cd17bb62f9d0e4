package ssd

// The forward map: logical unit -> physical slot, for the units whose
// place differs from where preconditioning left them (the base layout,
// base.go). A unit with no entry is where the base layout says (or
// unmapped on a fresh drive). Entries live in an open-addressing hash
// table while they are sparse, so a run that touches a million units of
// a terabyte drive costs a few tens of megabytes; a chunk of the logical
// space that collects many entries moves to a dense array (4 bytes a
// unit), as a drive rewritten end to end costs no more than a plain
// page map.

const (
	fwdChunkShift = 16 // logical units per dense chunk: 65536 (256 KiB of entries)
	fwdChunk      = 1 << fwdChunkShift
	// asBase marks a dense entry with no override: the unit is where the
	// base layout put it. Entries are ppn+1 (0: unmapped), so slots stay
	// below 2^32-2 (Params.Validate).
	asBase = ^uint32(0)
	// fwdDenseAt is how many hash entries a chunk collects before it
	// turns dense: a sixth of the chunk, where the table's entries (8
	// bytes at a load of 1/4 to 1/2, so that looking up a unit with no
	// entry, as garbage collection does for every unit a preconditioned
	// block holds, probes 1.4-2.5 slots) cost about what the dense chunk
	// does.
	fwdDenseAt = fwdChunk / 6
	// fwdMinTable is the table's first size, in entries (512 KiB).
	fwdMinTable = 1 << 16
)

// fwdMap is the forward map's overrides of the base layout.
type fwdMap struct {
	dense []*[fwdChunk]uint32 // per chunk: nil while its entries live in tab
	inTab []uint32            // per chunk: its entries in tab
	// tab holds (lpn+1)<<32 | entry, 0 for an empty slot, probed
	// linearly from the slot of a multiplicative hash of lpn.
	tab     []uint64
	n       int    // entries in tab
	shift   uint8  // 64 - log2(len(tab))
	denseAt uint32 // entries at which a chunk turns dense (0: at its first)
}

func newFwdMap(units int64, denseAt uint32) fwdMap {
	chunks := (units + fwdChunk - 1) >> fwdChunkShift
	return fwdMap{dense: make([]*[fwdChunk]uint32, chunks), inTab: make([]uint32, chunks), denseAt: denseAt}
}

// home is lpn's first slot in tab.
func (m *fwdMap) home(lpn int64) int {
	return int((uint64(lpn) * 0x9E3779B97F4A7C15) >> m.shift)
}

// get returns lpn's entry (ppn+1, or 0 for unmapped) and whether it has
// one (false: lpn is where the base layout put it).
func (m *fwdMap) get(lpn int64) (uint32, bool) {
	if c := m.dense[lpn>>fwdChunkShift]; c != nil {
		e := c[lpn&(fwdChunk-1)]
		return e, e != asBase
	}
	if m.n == 0 {
		return 0, false
	}
	key := uint64(lpn+1) << 32
	mask := len(m.tab) - 1
	for i := m.home(lpn); ; i = (i + 1) & mask {
		s := m.tab[i]
		if s == 0 {
			return 0, false
		}
		if s&^0xFFFFFFFF == key {
			return uint32(s), true
		}
	}
}

// set gives lpn the entry e.
func (m *fwdMap) set(lpn int64, e uint32) {
	ci := lpn >> fwdChunkShift
	if c := m.dense[ci]; c != nil {
		c[lpn&(fwdChunk-1)] = e
		return
	}
	key := uint64(lpn+1) << 32
	if m.n > 0 {
		mask := len(m.tab) - 1
		for i := m.home(lpn); ; i = (i + 1) & mask {
			s := m.tab[i]
			if s == 0 {
				break
			}
			if s&^0xFFFFFFFF == key {
				m.tab[i] = key | uint64(e)
				return
			}
		}
	}
	if m.inTab[ci] >= m.denseAt {
		m.densify(ci)
		m.dense[ci][lpn&(fwdChunk-1)] = e
		return
	}
	if 2*(m.n+1) > len(m.tab) {
		m.grow()
	}
	m.insert(key | uint64(e))
	m.inTab[ci]++
}

// insert puts slot value s (a key absent from tab) in tab.
func (m *fwdMap) insert(s uint64) {
	mask := len(m.tab) - 1
	i := m.home(int64(s>>32) - 1)
	for m.tab[i] != 0 {
		i = (i + 1) & mask
	}
	m.tab[i] = s
	m.n++
}

// grow doubles tab (or makes its first) and reinserts its entries.
func (m *fwdMap) grow() {
	old := m.tab
	size := max(fwdMinTable, 2*len(old))
	m.tab = make([]uint64, size)
	m.shift = uint8(64 - log2(size))
	m.n = 0
	for _, s := range old {
		if s != 0 {
			m.insert(s)
		}
	}
}

// densify moves chunk ci's entries from tab to a dense array.
func (m *fwdMap) densify(ci int64) {
	c := new([fwdChunk]uint32)
	for i := range c {
		c[i] = asBase
	}
	if m.inTab[ci] > 0 {
		lo := ci << fwdChunkShift
		for u := lo; u < lo+fwdChunk && m.inTab[ci] > 0; u++ {
			if e, ok := m.take(u); ok {
				c[u-lo] = e
				m.inTab[ci]--
			}
		}
	}
	m.dense[ci] = c
}

// take removes lpn's entry from tab and returns it, closing the gap by
// shifting later entries of the probe run back (no tombstones).
func (m *fwdMap) take(lpn int64) (uint32, bool) {
	if m.n == 0 {
		return 0, false
	}
	key := uint64(lpn+1) << 32
	mask := len(m.tab) - 1
	i := m.home(lpn)
	for ; m.tab[i]&^0xFFFFFFFF != key; i = (i + 1) & mask {
		if m.tab[i] == 0 {
			return 0, false
		}
	}
	e := uint32(m.tab[i])
	m.tab[i] = 0
	m.n--
	for j := (i + 1) & mask; m.tab[j] != 0; j = (j + 1) & mask {
		h := m.home(int64(m.tab[j]>>32) - 1)
		// The entry at j may move to the gap at i unless its home lies
		// cyclically in (i, j].
		if (j > i && (h <= i || h > j)) || (j < i && h <= i && h > j) {
			m.tab[i], m.tab[j] = m.tab[j], 0
			i = j
		}
	}
	return e, true
}

// clone returns a deep copy of m.
func (m *fwdMap) clone() fwdMap {
	c := *m
	c.dense = make([]*[fwdChunk]uint32, len(m.dense))
	for i, ch := range m.dense {
		if ch != nil {
			cp := *ch
			c.dense[i] = &cp
		}
	}
	c.inTab = append([]uint32(nil), m.inTab...)
	c.tab = append([]uint64(nil), m.tab...)
	return c
}

// log2 returns the base-2 logarithm of a power of two.
func log2(n int) int {
	k := 0
	for 1<<k < n {
		k++
	}
	return k
}
