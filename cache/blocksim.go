package cache

import "fmt"

// BlockSim is a Cache's clean read caching reduced to its replacement
// decisions: a cache of whole blocks that every access reads. It runs
// the same replacement policy code as a Cache, with no device, no
// timing and no dirty data, so it simulates millions of accesses a
// second; raidsim mrc uses it for the miss-ratio curves of every
// policy. A Cache given the same reads one at a time, each Block long
// and aligned, read-only, with Size a multiple of Block, hits and
// misses exactly as BlockSim does (TestBlockSimMatchesCache).
type BlockSim struct {
	rp     replacer
	blocks int64
	held   map[int64]*extent
	free   freeList[extent]
	// Hits and Misses count the accesses so far.
	Hits, Misses int64
}

// blockSimUnit is the byte size BlockSim gives a block: the policies'
// shares (2Q's 25%, S3-FIFO's 10%) are fractions of blocks*blockSimUnit.
const blockSimUnit = 4096

// NewBlockSim returns a cache of blocks blocks under policy p.
func NewBlockSim(p Replacement, blocks int64) (*BlockSim, error) {
	if p >= numReplacements {
		return nil, fmt.Errorf("cache: replacement policy %d is unknown", uint8(p))
	}
	if blocks <= 0 {
		return nil, fmt.Errorf("cache: a BlockSim needs at least one block, got %d", blocks)
	}
	return &BlockSim{rp: newReplacer(p, blocks*blockSimUnit), blocks: blocks, held: map[int64]*extent{}}, nil
}

// Access reads block b (any int64) and reports whether it was held.
func (s *BlockSim) Access(b int64) bool {
	if e := s.held[b]; e != nil {
		s.rp.hit(e)
		s.Hits++
		return true
	}
	s.Misses++
	off := b * blockSimUnit
	s.rp.miss(off, off+blockSimUnit)
	for int64(len(s.held)) >= s.blocks {
		v := s.rp.victim()
		delete(s.held, v.off/blockSimUnit)
		*v = extent{}
		s.free.put(v)
	}
	e := s.free.get()
	*e = extent{off: off, end: off + blockSimUnit}
	s.rp.admit(e)
	s.held[b] = e
	return false
}

// MissRatio returns Misses over all accesses, or 0 before any.
func (s *BlockSim) MissRatio() float64 { return ratio(s.Misses, s.Hits+s.Misses) }
