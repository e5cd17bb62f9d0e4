//go:build long

package oracle

import "testing"

// TestCorpusAll replays the whole recorded corpus: every pair agrees
// with DiskSim, and at least 300 pairs DiskSim ran compare 2,000
// requests or more (issue 21).
func TestCorpusAll(t *testing.T) {
	if n := replayCorpus(t, 1, 2000); n < 300 {
		t.Errorf("%d pairs DiskSim ran with 2,000 requests or more; want 300", n)
	}
}
