package reliability

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"
)

// MaxCycles bounds MonteCarloOptions.Cycles.
const MaxCycles = 1 << 26

// MonteCarloOptions sets the simulation's size and randomness.
type MonteCarloOptions struct {
	// Cycles is the number of cycles (from all drives healthy back to
	// healthy, or to a loss) simulated; zero means 100 000.
	Cycles int
	// Seed seeds the PCG stream: the same seed gives the same answer.
	Seed uint64
	// RebuildTime, if set, draws each rebuild window's length (hours are
	// time.Duration) instead of the constant Params.Rebuild.
	RebuildTime func(r *rand.Rand) time.Duration
}

// Estimate is a Monte Carlo answer with its standard error.
type Estimate struct {
	// MTTDLHours is the mean time to data loss, hours, and StdErrHours
	// its standard error.
	MTTDLHours  float64
	StdErrHours float64
	// LossPerCycle is the probability of a loss between the first
	// failure and the array's return to full redundancy.
	LossPerCycle float64
	// Cycles is the number simulated.
	Cycles int
}

// PerYear is the probability of a loss within a year.
func (e Estimate) PerYear() float64 { return PerYear(e.MTTDLHours) }

// MonteCarlo estimates the MTTDL by simulating failure and rebuild
// windows (see the package doc).
func MonteCarlo(p Params, o MonteCarloOptions) (Estimate, error) {
	if err := p.Validate(); err != nil {
		return Estimate{}, err
	}
	if o.Cycles < 0 || o.Cycles > MaxCycles {
		return Estimate{}, fmt.Errorf("reliability: Cycles: %d is outside 0..%d", o.Cycles, MaxCycles)
	}
	if o.Cycles == 0 {
		o.Cycles = 100_000
	}
	g := p.group()
	s := sim{g: g, lambda: p.rate(), h: p.ureLoss(g), rebuild: p.Rebuild.Hours(),
		rng: rand.New(rand.NewPCG(o.Seed, 0x9e3779b97f4a7c15)), draw: o.RebuildTime}
	healthy := 1 / (float64(g.n) * s.lambda) // E[time to the first failure], exact
	var sumL, sumP, sumLL, sumPP, sumLP float64
	for range o.Cycles {
		d, loss, err := s.cycle()
		if err != nil {
			return Estimate{}, err
		}
		l := healthy + d
		sumL, sumP = sumL+l, sumP+loss
		sumLL, sumPP, sumLP = sumLL+l*l, sumPP+loss*loss, sumLP+l*loss
	}
	n := float64(o.Cycles)
	mL, mP := sumL/n, sumP/n
	if mP == 0 {
		return Estimate{MTTDLHours: math.Inf(1), StdErrHours: math.Inf(1), Cycles: o.Cycles}, nil
	}
	vL, vP, cLP := sumLL/n-mL*mL, sumPP/n-mP*mP, sumLP/n-mL*mP
	r := mL / mP
	// Delta method for the ratio of two means.
	v := (vL/(mP*mP) + mL*mL*vP/(mP*mP*mP*mP) - 2*mL*cLP/(mP*mP*mP)) / n
	return Estimate{MTTDLHours: r / g.copies, StdErrHours: math.Sqrt(max(v, 0)) / g.copies, LossPerCycle: mP, Cycles: o.Cycles}, nil
}

// sim is one Monte Carlo run's state.
type sim struct {
	g       group
	lambda  float64 // per drive-hour
	h       float64 // URE loss of a rebuild with no redundancy left
	rebuild float64 // hours
	rng     *rand.Rand
	draw    func(*rand.Rand) time.Duration
}

// window returns the next rebuild window's length in hours.
func (s *sim) window() (float64, error) {
	if s.draw == nil {
		return s.rebuild, nil
	}
	w := s.draw(s.rng)
	if w <= 0 {
		return 0, errors.New("reliability: RebuildTime drew a window that is not positive")
	}
	return w.Hours(), nil
}

// cycle simulates one cycle from the first failure, returning the
// weighted time spent degraded (hours) and the weighted probability of
// loss: an unbiased estimate of each under the true measure.
func (s *sim) cycle() (degraded, loss float64, err error) {
	k, weight := 1, 1.0
	w, err := s.window()
	if err != nil {
		return 0, 0, err
	}
	for {
		rate := float64(s.g.n-k) * s.lambda
		pf := -math.Expm1(-rate * w) // another failure before the rebuild ends
		q := max(pf, 0.5)            // balanced failure biasing
		if s.rng.Float64() < q {
			weight *= pf / q
			// The failure's time, from the exponential truncated to w.
			tau := -math.Log1p(-s.rng.Float64()*pf) / rate
			degraded += weight * tau
			if k == s.g.t {
				return degraded, loss + weight, nil
			}
			k++
			if w, err = s.window(); err != nil { // md restarts the rebuild for every failed drive
				return 0, 0, err
			}
			continue
		}
		weight *= (1 - pf) / (1 - q)
		degraded += weight * w
		if k == s.g.t { // rebuilt with no redundancy: a URE loses data
			loss += weight * s.h
		}
		return degraded, loss, nil
	}
}
