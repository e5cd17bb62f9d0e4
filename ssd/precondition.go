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
	// HostBytes is what preconditioning wrote as the host would: the
	// fill, and with the explicit map the random overwrites of Steady (a
	// drawn steady state is not written: see Drawn).
	HostBytes int64
	// Drawn reports a Steady state drawn from the steady-state
	// distribution of uniform random overwrites (the default) rather
	// than written overwrite by overwrite (the explicit reference map).
	Drawn bool
	// Windows counts the windows of random overwrites (a quarter of the
	// capacity each) an explicit Steady preconditioning wrote.
	Windows int
	// Converged reports that Steady reached its steady state: a drawn
	// state always; a written one once garbage collection had run
	// through both of the last two windows and turned the flash over
	// (erased as many blocks as the drive has since it began), and the
	// write amplification of the last window was within 1% of the
	// window's before, within 32 windows (8 capacities).
	Converged bool
	// WriteAmplification is the steady state's write amplification
	// under uniform random writes: measured over the last window when
	// written, Desnoyers' model for the drawn state's block size and
	// spare when drawn (GreedyWriteAmplificationBlock).
	WriteAmplification float64
}

// Steady-state detection of the explicit map: windows of a quarter of
// the logical units; stop once garbage collection ran in the last two
// windows and has erased as many blocks as the drive holds since it
// began, and the two windows' write amplification agrees within
// steadyTolerance, or after steadyMaxWindows (8 capacities) without
// convergence. From a fill, write amplification rises once the spare is
// used up and swings about its steady value for about a capacity of
// writes: shorter windows, or no turnover, let two windows on a swing
// agree (at 28% spare, eighths once stopped at WA 2.83 of a steady
// 2.47); these stop after about 1.5 capacities (TestSteadyConverges).
const (
	steadyWindowDiv  = 4
	steadyMaxWindows = 32
	steadyTolerance  = 0.01
)

// Precondition puts a fresh drive in state kind, without simulating
// time. Fill is the state writing every unit once in order leaves;
// Steady the state uniform random overwrites (after a fill) converge
// to, drawn from the engine's stream "<name>/precondition" (see the
// package doc). Either costs memory for a few numbers per die and per
// block: the run then pays for the units it touches. Counters start
// afresh after it. It must be called before any request.
func (d *Drive) Precondition(kind Precondition) (PreconditionResult, error) {
	if d.outstanding != 0 || d.f.stats().hostUnits != 0 || d.f.base.kind != FreshOutOfBox {
		return PreconditionResult{}, fmt.Errorf("ssd %s: precondition a fresh, idle drive only", d.name)
	}
	res := PreconditionResult{Kind: kind}
	switch kind {
	case FreshOutOfBox:
	case Fill:
		d.fill()
	case Steady:
		rng := d.eng.Rand(d.name + "/precondition")
		if d.explicit {
			d.fill()
			res.Windows, res.WriteAmplification, res.Converged = d.steadyExplicit(rng)
		} else {
			res.WriteAmplification = d.f.drawSteady(rng)
			res.Drawn, res.Converged = true, true
		}
	default:
		return res, fmt.Errorf("ssd %s: unknown precondition %d", d.name, uint8(kind))
	}
	res.HostBytes = int64(d.f.stats().hostUnits) * d.unitBytes
	if kind == Fill || res.Drawn {
		res.HostBytes = d.g.units * d.unitBytes // the fill, laid out rather than written
	}
	if kind == Steady {
		d.oweSteady(res.WriteAmplification)
	}
	d.base = d.f.stats()
	d.precondition = res
	return res, nil
}

// oweSteady gives each die of a drive just put in the steady state the
// garbage collection time a running die owes: the collection that opened
// its host block, wa-1 copies and wa erases' worth a block of host units,
// partly paid, as much left as the block has units to fill (Drive.owe).
// Preconditioning runs untimed; without this a short run would start
// with every die's collection paid.
func (d *Drive) oweSteady(wa float64) {
	n := d.g.unitsPerBlock
	for i := range d.dies {
		h := &d.f.dies[i].host
		if h.blk == noBlock || wa <= 1 {
			continue
		}
		left := n - h.next
		frac := float64(left) / float64(n)
		w := gcWork{moves: int((wa - 1) * float64(n) * frac), erases: int(math.Round(wa * frac))}
		dd := &d.dies[i]
		dd.gcSpare, dd.gcCopies, dd.gcLeft = d.gcTime(w), w.moves, left
	}
}

// Preconditioned returns what Precondition did (zero for a fresh drive).
func (d *Drive) Preconditioned() PreconditionResult { return d.precondition }

// fill writes every unit once in order with the explicit map, else lays
// out the state that would leave.
func (d *Drive) fill() {
	if !d.explicit {
		d.f.layFill()
		return
	}
	var w gcWork
	for u := range d.g.units {
		d.f.write(u, false, &w)
	}
}

// layFill puts f, a fresh FTL, in the state writing every unit once in
// order leaves: each die's blocks full in turn, the last one its open
// host write point; block ages as the writes left them for cost-benefit
// cleaning.
func (f *ftl) layFill() {
	g := &f.g
	f.base = baseLayout{kind: Fill}
	upb := int64(g.unitsPerBlock)
	for d := range g.dies {
		units := g.dieUnits(d)
		nb := int32((units + upb - 1) / upb)
		die := &f.dies[d]
		first := int32(d) * g.blocksPerDie
		for k := range nb {
			bn := first + k
			b := &f.blk[bn]
			c := int32(min(upb, units-int64(k)*upb))
			b.valid, b.base = c, c
			if k < nb-1 {
				b.state = blockClosed
				b.stamp = int64(k+1)*upb - units
				f.link(die, bn)
				continue
			}
			b.state, b.rev = blockOpen, f.rev.get()
			die.host = openBlock{blk: bn, next: int(c)}
		}
		die.free = die.free[:0]
		for b := g.blocksPerDie - 1; b >= nb; b-- {
			die.free = append(die.free, first+b)
		}
		die.minFree = len(die.free)
	}
}

// steadyExplicit overwrites uniformly random units a window at a time
// until the write amplification settles (see steadyWindowDiv). It
// returns the windows written, the last window's write amplification and
// whether it converged. The units are drawn over the whole drive, so
// each die gets its share of them at random and the dies' write points
// drift apart as on a running drive (equal shares would fill them, and
// collect garbage, in lockstep).
func (d *Drive) steadyExplicit(rng *rand.Rand) (int, float64, bool) {
	f := d.f
	g := &f.g
	window := max(g.units/steadyWindowDiv, 1)
	prev, wa := math.NaN(), 0.0 // the window before's WA (NaN while GC had not run) and the last's
	var gcFrom uint64           // erases when garbage collection began, plus one (0: not yet)
	var w gcWork
	for n := 1; n <= steadyMaxWindows; n++ {
		s0 := f.stats()
		for range window {
			f.write(rng.Int64N(g.units), false, &w)
		}
		s1 := f.stats()
		host, moves := s1.hostUnits-s0.hostUnits, s1.gcMoves-s0.gcMoves
		wa = float64(host+moves) / float64(host)
		if moves > 0 && gcFrom == 0 {
			gcFrom = s0.erases + 1
		}
		turned := gcFrom > 0 && s1.erases+1-gcFrom >= uint64(g.blocks())
		if moves > 0 && turned && math.Abs(wa-prev) <= steadyTolerance*wa {
			return n, wa, true
		}
		prev = math.NaN()
		if moves > 0 {
			prev = wa
		}
	}
	return steadyMaxWindows, wa, false
}

// CopyStateFrom gives d, a fresh idle drive of the same model, src's
// flash state: its mapping, blocks, wear and preconditioning, as if d had
// been preconditioned the same way (members of an array preconditioned
// once instead of once each). Counters start afresh.
func (d *Drive) CopyStateFrom(src *Drive) error {
	if d.outstanding != 0 || d.f.stats().hostUnits != 0 || d.f.base.kind != FreshOutOfBox {
		return fmt.Errorf("ssd %s: copy state into a fresh, idle drive only", d.name)
	}
	if src.g != d.g || src.p.GC != d.p.GC || src.p.GCLowBlocks != d.p.GCLowBlocks {
		return fmt.Errorf("ssd %s: state of %s is from another model", d.name, src.name)
	}
	if src.outstanding != 0 || src.bufUsed != 0 {
		return fmt.Errorf("ssd %s: %s is busy", d.name, src.name)
	}
	d.f = src.f.clone()
	d.explicit = src.explicit
	for i := range d.dies {
		s, o := &src.dies[i], &d.dies[i]
		o.gcSpare, o.gcCopies, o.gcLeft = s.gcSpare, s.gcCopies, s.gcLeft
	}
	d.base = d.f.stats()
	d.precondition = src.precondition
	return nil
}
