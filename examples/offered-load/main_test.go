package main

import (
	"bytes"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestKnee: below the closed-loop maximum the stack completes what is
// offered (within three Poisson standard deviations and 1%) at a
// latency that rises toward the knee and stays put when the run is
// twice as long; past it the rate stays at the maximum and the latency
// grows with the length of the run, without bound.
func TestKnee(t *testing.T) {
	c := Full
	maxIOPS, pts, err := Curve(c, []float64{0.1, 0.3, 0.5, 0.7, 0.9, 1.1})
	require.NoError(t, err)
	var b bytes.Buffer
	require.NoError(t, WriteTable(&b, c, maxIOPS, pts))
	t.Log("\n" + b.String())

	for _, p := range pts[:5] {
		n := p.OfferedIOPS * c.Runtime.Seconds()
		assert.InEpsilon(t, p.OfferedIOPS, p.AchievedIOPS, 3/math.Sqrt(n)+0.01, "offered %.0f%%: the stack keeps up", 100*p.Fraction)
	}
	for i := 1; i < len(pts); i++ {
		assert.Greater(t, pts[i].Latency.Mean, pts[i-1].Latency.Mean, "latency rises with the load (%.0f%%)", 100*pts[i].Fraction)
	}
	assert.Greater(t, pts[4].Latency.Mean, 3*pts[0].Latency.Mean, "near the knee (90%) the mean is several times the idle one")

	over := pts[5]
	assert.Less(t, over.AchievedIOPS, 0.95*over.OfferedIOPS, "past the knee the stack falls behind")
	assert.InEpsilon(t, maxIOPS, over.AchievedIOPS, 0.05, "and completes at its maximum")

	// Twice the run: the backlog, and so the mean latency, doubles past
	// the knee; below it the latency is what it was.
	for _, f := range []float64{0.9, 1.1} {
		short, err := Offer(c, f*maxIOPS, c.Runtime)
		require.NoError(t, err)
		long, err := Offer(c, f*maxIOPS, 2*c.Runtime)
		require.NoError(t, err)
		ratio := long.Latency.Mean / short.Latency.Mean
		t.Logf("offered %.0f%%: mean %.1f ms over %s, %.1f ms over %s (x%.2f)", 100*f, short.Latency.Mean, c.Runtime,
			long.Latency.Mean, 2*c.Runtime, ratio)
		if f < 1 {
			assert.InDelta(t, 1, ratio, 0.3, "a steady state below the knee")
		} else {
			assert.Greater(t, ratio, 1.6, "no steady state past the knee: latency grows with time")
		}
	}
}
