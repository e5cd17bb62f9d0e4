package raidsim_test

import (
	"fmt"
	"log"
	"time"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/spec"
)

// The README's library example: random 4 KiB writes on a Deskstar 7K500
// with its write cache off, then on.
func Example() {
	for _, wc := range []bool{false, true} {
		x := &spec.Experiment{
			Seed:   1,
			Stack:  spec.Stack{Drive: spec.Drive{Preset: "deskstar-7k500", WriteCache: &wc}},
			Phases: []spec.Phase{{Job: spec.Job{RW: "randwrite", BS: 4096, IODepth: 1, IOs: 2000}}},
		}
		rep, err := raidsim.Run(x)
		if err != nil {
			log.Fatal(err)
		}
		all := rep.Total.All
		fmt.Printf("write cache %-5v %3.0f IOPS, p99 %.1f ms\n", wc, all.IOPS, all.LatencyMS.P99)
	}
	// Output:
	// write cache false  75 IOPS, p99 23.2 ms
	// write cache true  181 IOPS, p99 18.0 ms
}

// What a power failure one second into a run of random writes would lose
// with the drive's write cache on and off.
func ExampleRun_powerLoss() {
	for _, wc := range []bool{true, false} {
		x := &spec.Experiment{
			Seed:        1,
			Stack:       spec.Stack{Drive: spec.Drive{Preset: "deskstar-7k160", WriteCache: &wc}},
			Phases:      []spec.Phase{{Job: spec.Job{RW: "randwrite", BS: 16 << 10, IODepth: 4, IOs: 1000}}},
			PowerLossAt: new(spec.Duration(time.Second)),
		}
		rep, err := raidsim.Run(x)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("write cache %-5v lost %3d KiB acknowledged\n", wc, rep.PowerLoss.LostBytes>>10)
	}
	// Output:
	// write cache true  lost 128 KiB acknowledged
	// write cache false lost   0 KiB acknowledged
}
