package reliability_test

import (
	"fmt"
	"time"

	"github.com/raidsim/raidsim/reliability"
)

// Four 2 TB drives, AFR 2 %, URE 1e-14, rebuilt in 6 hours: the odds of
// losing data in a year as RAID 5 and as RAID 6.
func Example() {
	for _, level := range []int{5, 6} {
		p := reliability.Params{Level: level, Disks: 4, Capacity: 2e12, AFR: 0.02, UREPerBit: 1e-14, Rebuild: 6 * time.Hour}
		m, _ := reliability.Markov(p)
		e, _ := reliability.MonteCarlo(p, reliability.MonteCarloOptions{Seed: 1})
		fmt.Printf("RAID %d: MTTDL %.3g h (Markov), %.3g h (Monte Carlo); loss per year %.2g\n", level, m, e.MTTDLHours, e.PerYear())
	}
	// Output:
	// RAID 5: MTTDL 2.84e+05 h (Markov), 2.85e+05 h (Monte Carlo); loss per year 0.03
	// RAID 6: MTTDL 9.54e+09 h (Markov), 9.44e+09 h (Monte Carlo); loss per year 9.3e-07
}
