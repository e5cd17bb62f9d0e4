package disksim

import (
	"path/filepath"
	"testing"

	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
)

// TestConformance runs the sim.Device conformance suite on drives loaded
// from DiskSim models: the measured layouts (slips, spares, serpentine
// mapping), per-case overheads and zero-latency access must keep every
// device invariant, with real bytes.
func TestConformance(t *testing.T) {
	files := []string{"testdata/mini.parv", "atlas10k.parv", "hp_c3323a.parv"}
	for i, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			if i > 0 {
				f = sharedModelPath(t, f)
			}
			p, _, err := Load(f)
			if err != nil {
				t.Fatal(err)
			}
			conform(t, p)
		})
	}
}

// conform runs the sim.Device conformance suite, with real bytes, on
// drives of model p.
func conform(t *testing.T, p disk.Params) {
	t.Helper()
	m, err := disk.NewModel(p)
	if err != nil {
		t.Fatal(err)
	}
	simtest.TestDevice(t, func(t *testing.T) (sim.Device, *sim.Engine) {
		eng := sim.NewEngine(7)
		d, err := m.NewDrive(eng, "d0", nil)
		if err != nil {
			t.Fatal(err)
		}
		return d, eng
	}, simtest.WithData())
}
