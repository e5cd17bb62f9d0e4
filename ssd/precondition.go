package ssd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
)

// PreconditionResult says what preconditioning did.
type PreconditionResult struct {
	// Kind is the state asked for.
	Kind Precondition
	// HostBytes is what preconditioning wrote as the host would.
	HostBytes int64
	// Rounds is the random-overwrite rounds of Steady (an eighth of the
	// capacity each).
	Rounds int
	// WriteAmplification is that of the last Steady round: the drive's
	// steady-state write amplification under uniform random writes.
	WriteAmplification float64
}

// Steady-state detection: rounds of an eighth of the logical units; stop
// once at least steadyMinRounds rounds (3/8 of the capacity) were written
// and the round's write amplification moved by under steadyTolerance
// from the round before, or after steadyMaxRounds (8 capacities). From a
// sequential fill, uniform random overwrites reach their steady write
// amplification within a quarter of the capacity (TestSteadyConverges).
const (
	steadyRoundDiv  = 8
	steadyMinRounds = 3
	steadyMaxRounds = 64
	steadyTolerance = 0.01
)

// Precondition puts a fresh drive in state kind functionally, without
// simulating time: Fill writes every unit once in order; Steady then
// overwrites uniformly random units (from the engine's stream
// "<name>/precondition") until write amplification settles (see
// steadyRoundDiv). Counters
// start afresh after it. It must be called before any request.
func (d *Drive) Precondition(kind Precondition) (PreconditionResult, error) {
	if d.outstanding != 0 || d.f.stats().hostUnits != 0 {
		return PreconditionResult{}, fmt.Errorf("ssd %s: precondition a fresh, idle drive only", d.name)
	}
	res := PreconditionResult{Kind: kind}
	switch kind {
	case FreshOutOfBox:
	case Fill:
		d.fill()
	case Steady:
		d.fill()
		res.Rounds, res.WriteAmplification = d.steady(d.eng.Rand(d.name + "/precondition"))
	default:
		return res, fmt.Errorf("ssd %s: unknown precondition %d", d.name, uint8(kind))
	}
	res.HostBytes = int64(d.f.stats().hostUnits) * d.unitBytes
	d.base = d.f.stats()
	d.precondition = res
	return res, nil
}

// Preconditioned returns what Precondition did (zero for a fresh drive).
func (d *Drive) Preconditioned() PreconditionResult { return d.precondition }

func (d *Drive) fill() {
	var w gcWork
	for u := range d.g.units {
		d.f.write(u, false, &w)
	}
}

func (d *Drive) steady(rng *rand.Rand) (int, float64) {
	f := d.f
	g := &f.g
	// Each die draws its own uniform random units from its own stream:
	// the dies share nothing but read-only geometry, so they run in
	// parallel, and the result does not depend on how many goroutines run
	// them. Valid bits of two dies never share a word when blocks hold a
	// multiple of 64 units; otherwise the dies run one after another.
	streams := make([]*rand.Rand, g.dies)
	for i := range streams {
		streams[i] = rand.New(rand.NewPCG(rng.Uint64(), uint64(i)))
	}
	workers := 1
	if g.unitsPerBlock%64 == 0 {
		f.openAllChunks()
		workers = min(runtime.GOMAXPROCS(0), g.dies)
	}
	perDie := max(g.units/steadyRoundDiv/int64(g.dies), 1)
	prev := math.Inf(1)
	rounds := 0
	for rounds < steadyMaxRounds {
		s0 := f.stats()
		var wg sync.WaitGroup
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var gw gcWork
				for die := w; die < g.dies; die += workers {
					n := g.dieUnits(die)
					for range perDie {
						f.write(g.dieUnit(die, streams[die].Int64N(n)), false, &gw)
					}
				}
			}()
		}
		wg.Wait()
		rounds++
		s1 := f.stats()
		wa := float64(s1.hostUnits-s0.hostUnits+s1.gcMoves-s0.gcMoves) / float64(s1.hostUnits-s0.hostUnits)
		if rounds >= steadyMinRounds && math.Abs(wa-prev) <= steadyTolerance*wa {
			return rounds, wa
		}
		prev = wa
	}
	return rounds, prev
}

// CopyStateFrom gives d, a fresh idle drive of the same model, src's
// flash state: its mapping, blocks, wear and preconditioning, as if d had
// been preconditioned the same way (members of an array preconditioned
// once instead of once each). Counters start afresh.
func (d *Drive) CopyStateFrom(src *Drive) error {
	if d.outstanding != 0 || d.f.stats().hostUnits != 0 {
		return fmt.Errorf("ssd %s: copy state into a fresh, idle drive only", d.name)
	}
	if src.g != d.g || src.p.GC != d.p.GC || src.p.GCLowBlocks != d.p.GCLowBlocks {
		return fmt.Errorf("ssd %s: state of %s is from another model", d.name, src.name)
	}
	if src.outstanding != 0 || src.bufUsed != 0 {
		return fmt.Errorf("ssd %s: %s is busy", d.name, src.name)
	}
	d.f = src.f.clone()
	d.base = d.f.stats()
	d.precondition = src.precondition
	return nil
}
