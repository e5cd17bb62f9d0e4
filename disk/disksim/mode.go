package disksim

import "fmt"

// Mode says how a DiskSim model is simulated.
type Mode int

const (
	// Exact, the default, simulates the model as DiskSim 4.0's source
	// does (package exact): every request's service time DiskSim
	// computes, its quirks and failures included.
	Exact Mode = iota
	// Refined builds raidsim's own drive model from the parameters
	// (disk.Params, see Load), with the refinements listed in the
	// package documentation where DiskSim's source departs from its
	// manual or from the drives it models.
	Refined
)

// Modes names the modes, in order.
var Modes = []string{"exact", "refined"}

func (m Mode) String() string {
	if m >= 0 && int(m) < len(Modes) {
		return Modes[m]
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// ParseMode reads a mode's name.
func ParseMode(s string) (Mode, error) {
	for i, n := range Modes {
		if s == n {
			return Mode(i), nil
		}
	}
	return 0, fmt.Errorf("disksim: mode %q: want exact or refined", s)
}

// Options are the ways of loading a DiskSim model.
type Options struct {
	// Mode is Exact (the zero value) or Refined.
	Mode Mode
}
