package mrc

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/raidsim/raidsim/cache"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/trace"
)

// Options says which curves Build computes.
type Options struct {
	// Policies are the replacement policies to draw; LRU's curve comes
	// from stack distances, the others' from simulation. Empty means
	// LRU alone.
	Policies []cache.Replacement
	// Sizes are the cache sizes, in blocks, of the points. Empty means
	// DefaultSizes.
	Sizes []int64
	// SampleRate, in (0, 1), computes LRU's curve with SHARDS at that
	// rate instead of exactly; 0 (or 1) is exact.
	SampleRate float64
}

// DefaultPoints is the number of sizes Build chooses when none are
// given.
const DefaultPoints = 12

// maxSimulations bounds the simulated caches of one Build (policies
// other than LRU times sizes), each a pass's worth of work.
const maxSimulations = 1000

// Point is one cache size of a curve and the miss ratio there.
type Point struct {
	// Blocks is the cache size in 4 KiB blocks, Bytes the same in bytes.
	Blocks int64 `json:"blocks"`
	Bytes  int64 `json:"bytes"`
	// MissRatio is the fraction of 4 KiB block accesses that missed.
	MissRatio float64 `json:"miss_ratio"`
}

// Curve is one policy's miss ratio at each size.
type Curve struct {
	// Policy is the replacement policy's name ("lru", "arc", ...).
	Policy string `json:"policy"`
	// Method is how the points were found: "exact" (LRU's stack
	// distances), "shards" (the same on a sample) or "simulated" (a
	// cache of each size).
	Method string  `json:"method"`
	Points []Point `json:"points"`
}

// Result is what Build found.
type Result struct {
	// BlockBytes is the block size the curves count, 4096.
	BlockBytes int64 `json:"block_bytes"`
	// Records counts the trace's records, Accesses the 4 KiB block
	// accesses they made (reads and writes; flushes make none).
	Records  int64 `json:"records"`
	Accesses int64 `json:"accesses"`
	// DistinctBlocks is the blocks accessed at least once (estimated
	// from the sample with SHARDS).
	DistinctBlocks int64 `json:"distinct_blocks"`
	// SampleRate is SHARDS' rate, or 1 for exact LRU.
	SampleRate float64 `json:"sample_rate"`
	Curves     []Curve `json:"curves"`
}

// Reader yields trace records until io.EOF, as trace.Reader does.
type Reader interface {
	Next() (trace.Record, error)
}

// Blocks calls fn for each 4 KiB block r reads or writes (nothing for
// flushes and trims), as a key that keeps the devices of a multi-device
// trace apart: the accesses the curves count.
func Blocks(r trace.Record, fn func(int64)) {
	if (r.Op != sim.Read && r.Op != sim.Write) || r.Length <= 0 || r.Offset < 0 {
		return
	}
	dev := int64(r.Device) << 48
	for b := r.Offset / BlockBytes; b <= (r.Offset+r.Length-1)/BlockBytes; b++ {
		fn(b ^ dev)
	}
}

// Build reads the trace that open returns, once for LRU's curve and
// the distinct blocks, and once more if other policies are asked for,
// and returns the curves.
func Build(open func() (Reader, error), o Options) (*Result, error) {
	if err := o.validate(); err != nil {
		return nil, err
	}
	rate := o.SampleRate
	if rate == 0 {
		rate = 1
	}
	res := &Result{BlockBytes: BlockBytes, SampleRate: rate}
	lru, err := lruPass(open, rate, res)
	if err != nil {
		return nil, err
	}
	sizes := o.Sizes
	if len(sizes) == 0 {
		sizes = DefaultSizes(res.DistinctBlocks, rate)
	}
	policies := o.Policies
	if len(policies) == 0 {
		policies = []cache.Replacement{cache.LRU}
	}
	var others []cache.Replacement
	for _, p := range policies {
		if p != cache.LRU {
			others = append(others, p)
		}
	}
	if len(others)*len(sizes) > maxSimulations {
		return nil, fmt.Errorf("mrc: %d policies at %d sizes is %d simulated caches, more than %d", len(others), len(sizes), len(others)*len(sizes), maxSimulations)
	}
	sim, err := simulate(open, others, sizes)
	if err != nil {
		return nil, err
	}
	for _, p := range policies {
		var ratios []float64
		c := Curve{Policy: p.String(), Method: "simulated"}
		if p == cache.LRU {
			c.Method = "exact"
			if rate < 1 {
				c.Method = "shards"
			}
			if ratios, err = lru(sizes); err != nil {
				return nil, err
			}
		} else {
			ratios = sim[p]
		}
		for i, s := range sizes {
			c.Points = append(c.Points, Point{Blocks: s, Bytes: s * BlockBytes, MissRatio: ratios[i]})
		}
		res.Curves = append(res.Curves, c)
	}
	return res, nil
}

func (o Options) validate() error {
	var errs []error
	if o.SampleRate != 0 && !(o.SampleRate > 0 && o.SampleRate <= 1) {
		errs = append(errs, fmt.Errorf("mrc: sample rate must be in (0, 1], got %v", o.SampleRate))
	}
	for _, s := range o.Sizes {
		if s <= 0 || s > math.MaxInt64/BlockBytes {
			errs = append(errs, fmt.Errorf("mrc: cache size %d blocks is out of range", s))
		}
	}
	if len(o.Sizes) > maxSimulations {
		errs = append(errs, fmt.Errorf("mrc: %d sizes, at most %d", len(o.Sizes), maxSimulations))
	}
	seen := map[cache.Replacement]bool{}
	for _, p := range o.Policies {
		if _, err := cache.ParseReplacement(p.String()); err != nil {
			errs = append(errs, err)
		} else if seen[p] {
			errs = append(errs, fmt.Errorf("mrc: policy %v given twice", p))
		}
		seen[p] = true
	}
	return errors.Join(errs...)
}

// lruPass reads the trace through an Exact or a SHARDS estimator, fills
// res's counts and returns the curve function.
func lruPass(open func() (Reader, error), rate float64, res *Result) (func([]int64) ([]float64, error), error) {
	var access func(int64)
	var distinct func() int64
	var curve func([]int64) ([]float64, error)
	if rate < 1 {
		s, err := NewSHARDS(rate)
		if err != nil {
			return nil, err
		}
		access, curve = s.Access, s.Curve
		distinct = func() int64 { return int64(math.Round(float64(s.x.Distinct()) / rate)) }
	} else {
		x := NewExact()
		access, curve, distinct = func(b int64) { x.Access(b) }, x.Curve, x.Distinct
	}
	err := each(open, func(r trace.Record) {
		res.Records++
		Blocks(r, func(b int64) { res.Accesses++; access(b) })
	})
	res.DistinctBlocks = distinct()
	return curve, err
}

// simulate runs a BlockSim per policy and size over the trace and
// returns the miss ratios.
func simulate(open func() (Reader, error), policies []cache.Replacement, sizes []int64) (map[cache.Replacement][]float64, error) {
	out := map[cache.Replacement][]float64{}
	if len(policies) == 0 {
		return out, nil
	}
	var sims []*cache.BlockSim
	for _, p := range policies {
		for _, s := range sizes {
			bs, err := cache.NewBlockSim(p, s)
			if err != nil {
				return nil, err
			}
			sims = append(sims, bs)
		}
	}
	err := each(open, func(r trace.Record) {
		Blocks(r, func(b int64) {
			for _, s := range sims {
				s.Access(b)
			}
		})
	})
	if err != nil {
		return nil, err
	}
	for i, p := range policies {
		for j := range sizes {
			out[p] = append(out[p], sims[i*len(sizes)+j].MissRatio())
		}
	}
	return out, nil
}

// each calls fn on every record of the trace open returns.
func each(open func() (Reader, error), fn func(trace.Record)) error {
	r, err := open()
	if err != nil {
		return err
	}
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		fn(rec)
	}
}

// ShardsMinBlocks is the smallest cache, in blocks of the sample, that
// SHARDS resolves: a size below ShardsMinBlocks/rate is a cache of
// fewer than 32 sampled blocks, where whether a few hot blocks fall in
// the sample moves the curve (on a Zipf 1.1 workload, by 0.07 to 0.17 at
// a thousandth of the footprint with 1% sampling).
const ShardsMinBlocks = 32

// DefaultSizes returns DefaultPoints sizes, in blocks, evenly spaced on
// a log scale from distinct/1000 (at least 1; with SHARDS at rate < 1,
// at least ShardsMinBlocks/rate) to distinct, without repeats.
func DefaultSizes(distinct int64, rate float64) []int64 {
	hi := max(distinct, 1)
	lo := max(hi/1000, 1)
	if rate > 0 && rate < 1 {
		lo = min(hi, max(lo, int64(math.Ceil(ShardsMinBlocks/rate))))
	}
	var out []int64
	for i := range DefaultPoints {
		f := float64(i) / float64(DefaultPoints-1)
		s := int64(math.Round(float64(lo) * math.Pow(float64(hi)/float64(lo), f)))
		if len(out) == 0 || s > out[len(out)-1] {
			out = append(out, s)
		}
	}
	return slices.Clip(out)
}
