package articles

import (
	"math"
	"testing"
)

// Within fails t unless sim is within tol (a fraction) of the article's
// figure art.
func Within(t testing.TB, what string, sim, art, tol float64) {
	t.Helper()
	if d := math.Abs(sim-art) / art; d > tol {
		t.Errorf("%s: simulated %.2f, article %.2f: %.0f%% off, more than %.0f%%", what, sim, art, 100*d, 100*tol)
	}
}

// More fails t unless a > b: the direction of an effect.
func More(t testing.TB, what string, a, b float64) {
	t.Helper()
	if !(a > b) {
		t.Errorf("%s: %.2f is not more than %.2f", what, a, b)
	}
}
