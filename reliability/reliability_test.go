package reliability_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/reliability"
)

// drives4x2TB is the array: 2 TB drives (2e12 bytes), AFR 2 %,
// URE 1e-14, rebuilt in 6 hours.
func drives4x2TB(level, disks int) reliability.Params {
	return reliability.Params{Level: level, Disks: disks, Capacity: 2e12, AFR: 0.02, UREPerBit: 1e-14, Rebuild: 6 * time.Hour}
}

// TestMarkovRAID5ByHand: the chain's answer for RAID 5 is the textbook
// closed form ((2N-1)λ + μ) / (Nλ((N-1)λ + μh)).
func TestMarkovRAID5ByHand(t *testing.T) {
	p := drives4x2TB(5, 4)
	got, err := reliability.Markov(p)
	require.NoError(t, err)
	n, lambda, mu := 4.0, -math.Log(1-0.02)/8760, 1/6.0
	h := 1 - math.Exp(-8*2e12*3*1e-14)
	want := ((2*n-1)*lambda + mu) / (n * lambda * ((n-1)*lambda + mu*h))
	assert.InEpsilon(t, want, got, 1e-12)
	assert.InDelta(t, 0.381, p.RebuildURE(), 0.001, "reading 3 x 2 TB at 1e-14 meets a URE 38 %% of the time")
	// Without UREs it is the classic (2N-1)λ+μ over N(N-1)λ².
	p.UREPerBit = 0
	got, err = reliability.Markov(p)
	require.NoError(t, err)
	assert.InEpsilon(t, ((2*n-1)*lambda+mu)/(n*(n-1)*lambda*lambda), got, 1e-12)
}

// TestMarkovAgreesWithMonteCarlo: with the rebuild time held constant
// and short beside the drives' lifetime, the Monte Carlo MTTDL agrees
// with the Markov closed form within four standard errors, for every
// level, with and without UREs.
func TestMarkovAgreesWithMonteCarlo(t *testing.T) {
	for _, c := range []struct {
		level, disks int
		ure          float64
	}{{5, 4, 1e-14}, {6, 4, 1e-14}, {1, 2, 1e-14}, {10, 4, 1e-14}, {5, 8, 0}, {6, 6, 0}, {1, 3, 1e-15}, {10, 8, 0}} {
		t.Run(fmt.Sprintf("RAID %d of %d URE %g", c.level, c.disks, c.ure), func(t *testing.T) {
			p := drives4x2TB(c.level, c.disks)
			p.UREPerBit = c.ure
			m, err := reliability.Markov(p)
			require.NoError(t, err)
			e, err := reliability.MonteCarlo(p, reliability.MonteCarloOptions{Seed: 1})
			require.NoError(t, err)
			t.Logf("Markov %.4g h, Monte Carlo %.4g ± %.2g h", m, e.MTTDLHours, e.StdErrHours)
			require.Less(t, e.StdErrHours/e.MTTDLHours, 0.01, "100 000 cycles give the MTTDL within 1 %%")
			assert.InDelta(t, m, e.MTTDLHours, 4*e.StdErrHours)
		})
	}
}

// TestMonteCarloDeterministic: the same seed gives the same estimate,
// another seed another within the error.
func TestMonteCarloDeterministic(t *testing.T) {
	p := drives4x2TB(6, 4)
	a, err := reliability.MonteCarlo(p, reliability.MonteCarloOptions{Seed: 3, Cycles: 20000})
	require.NoError(t, err)
	b, _ := reliability.MonteCarlo(p, reliability.MonteCarloOptions{Seed: 3, Cycles: 20000})
	c, _ := reliability.MonteCarlo(p, reliability.MonteCarloOptions{Seed: 4, Cycles: 20000})
	assert.Equal(t, a, b)
	assert.NotEqual(t, a.MTTDLHours, c.MTTDLHours)
	assert.InDelta(t, a.MTTDLHours, c.MTTDLHours, 6*a.StdErrHours)
}

// TestMonteCarloExponentialRebuild: drawing exponential rebuild windows
// (the Markov chain's own assumption) also agrees; drawing windows ten
// times longer divides a RAID 5 MTTDL without UREs by about ten.
func TestMonteCarloExponentialRebuild(t *testing.T) {
	p := drives4x2TB(5, 4)
	m, _ := reliability.Markov(p)
	exp := func(r *rand.Rand) time.Duration { return time.Duration(r.ExpFloat64() * float64(p.Rebuild)) }
	e, err := reliability.MonteCarlo(p, reliability.MonteCarloOptions{Seed: 1, RebuildTime: exp})
	require.NoError(t, err)
	assert.InDelta(t, m, e.MTTDLHours, 4*e.StdErrHours)

	p.UREPerBit = 0
	short, _ := reliability.MonteCarlo(p, reliability.MonteCarloOptions{Seed: 1})
	p.Rebuild *= 10
	long, _ := reliability.MonteCarlo(p, reliability.MonteCarloOptions{Seed: 1})
	assert.InDelta(t, 10, short.MTTDLHours/long.MTTDLHours, 0.3)
}

// TestRAID6SurvivesWhatRAID5Does not: at AFR 2 % and URE 1e-14, four
// 2 TB drives lose data about once in 32 years as RAID 5 (a rebuild
// meets a URE 38 % of the time) and practically never as RAID 6.
func TestRAID6SurvivesWhatRAID5DoesNot(t *testing.T) {
	m5, _ := reliability.Markov(drives4x2TB(5, 4))
	m6, _ := reliability.Markov(drives4x2TB(6, 4))
	assert.InDelta(t, 0.0304, reliability.PerYear(m5), 0.001)
	assert.Less(t, reliability.PerYear(m6), 1e-5)
}

// TestParamsErrors: every problem at once, named.
func TestParamsErrors(t *testing.T) {
	err := reliability.Params{Level: 7, Disks: 2, AFR: 2, MTTFHours: 5, UREPerBit: -1}.Validate()
	require.Error(t, err)
	for _, want := range []string{"Level: 7: want 1, 5, 6 or 10", "Capacity: 0 bytes is not positive",
		"AFR: give AFR or MTTFHours, not both", "UREPerBit: -1 is not a probability", "Rebuild: 0s is not a positive time"} {
		assert.Contains(t, err.Error(), want)
	}
	err = reliability.Params{Level: 10, Disks: 5, Capacity: 1, AFR: 0.01, Rebuild: time.Hour}.Validate()
	assert.ErrorContains(t, err, "RAID 10 needs an even number of at least 4 drives, got 5")
	_, err = reliability.MonteCarlo(drives4x2TB(5, 4), reliability.MonteCarloOptions{Cycles: -1})
	assert.ErrorContains(t, err, "Cycles: -1 is outside")
}
