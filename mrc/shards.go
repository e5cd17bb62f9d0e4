package mrc

import (
	"fmt"
	"math"
)

// SHARDS estimates LRU's miss-ratio curve from a fixed-rate spatial
// sample of the blocks (Waldspurger et al., FAST 2015): every access to
// a sampled block is kept, so each sampled block's stack distances are
// exact within the sample, and a sampled distance d (the block and d-1
// others) stands for the block and (d-1)/rate others in the full
// stream.
type SHARDS struct {
	rate      float64
	threshold uint64 // a block is sampled when Hash(b) <= threshold
	x         *Exact
	access    int64 // all accesses, sampled or not
}

// NewSHARDS returns an estimator sampling rate of the blocks, in
// (0, 1].
func NewSHARDS(rate float64) (*SHARDS, error) {
	if !(rate > 0 && rate <= 1) {
		return nil, fmt.Errorf("mrc: SHARDS sampling rate must be in (0, 1], got %v", rate)
	}
	th := uint64(math.MaxUint64)
	if rate < 1 {
		th = uint64(rate * (1 << 63) * 2)
	}
	return &SHARDS{rate: rate, threshold: th, x: NewExact()}, nil
}

// Hash spreads block numbers over 64 bits: MurmurHash3's 64-bit
// finalizer (fmix64), a hash of the kind the SHARDS paper samples with.
// It is a bijection, so distinct blocks never collide, and fixed, so
// the same trace always gives the same sample.
func Hash(b int64) uint64 {
	k := uint64(b)
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	k *= 0xc4ceb9fe1a85ec53
	return k ^ k>>33
}

// Access records an access to block b.
func (s *SHARDS) Access(b int64) {
	s.access++
	if Hash(b) <= s.threshold {
		s.x.Access(b)
	}
}

// Accesses returns every access so far, sampled or not.
func (s *SHARDS) Accesses() int64 { return s.access }

// Sampled returns the accesses in the sample.
func (s *SHARDS) Sampled() int64 { return s.x.access }

// Curve returns the estimated miss ratio at each of sizes (in blocks).
// Misses in the sample are divided by the accesses a sample of this
// rate is expected to hold (SHARDS_adj).
func (s *SHARDS) Curve(sizes []int64) ([]float64, error) {
	return curve(s.x.hist, s.x.cold, float64(s.access)*s.rate, sizes, s.rate)
}
