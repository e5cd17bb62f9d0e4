package ssd

import (
	"fmt"
	"math"
	"math/rand/v2"
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
// once at least steadyMinRounds rounds (half the capacity) were written
// and the round's write amplification moved by under steadyTolerance
// from the round before, or after steadyMaxRounds (8 capacities). From a
// sequential fill, uniform random overwrites reach their steady write
// amplification within a quarter of the capacity (TestSteadyConverges).
const (
	steadyRoundDiv  = 8
	steadyMinRounds = 4
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
	if d.outstanding != 0 || d.f.st.hostUnits != 0 {
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
	res.HostBytes = int64(d.f.st.hostUnits) * d.unitBytes
	d.base = d.f.st
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
	n := d.g.units
	round := max(n/steadyRoundDiv, 1)
	var w gcWork
	prev := math.Inf(1)
	rounds := 0
	for rounds < steadyMaxRounds {
		h0, m0 := f.st.hostUnits, f.st.gcMoves
		for range round {
			f.write(rng.Int64N(n), false, &w)
		}
		rounds++
		wa := float64(f.st.hostUnits-h0+f.st.gcMoves-m0) / float64(f.st.hostUnits-h0)
		if rounds >= steadyMinRounds && math.Abs(wa-prev) <= steadyTolerance*wa {
			return rounds, wa
		}
		prev = wa
	}
	return rounds, prev
}
