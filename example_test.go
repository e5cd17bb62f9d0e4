package raidsim_test

import (
	"fmt"
	"log"
	"time"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/trace"
)

// The README's library example: random 4 KiB writes on a Deskstar 7K500
// with its write cache off, then on.
func Example() {
	drive, err := disk.Preset("deskstar-7k500")
	if err != nil {
		log.Fatal(err)
	}
	for _, wc := range []bool{false, true} {
		drive.WriteCache = wc
		x := raidsim.Experiment{
			Drive:    drive,
			Workload: trace.Workload{RW: trace.RWRandWrite, BS: 4096, IODepth: 1, NumIOs: 2000},
			Seed:     1,
		}
		rep, err := x.Run()
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("write cache %-5v %3.0f IOPS, p99 %.1f ms\n", wc, rep.All.IOPS, rep.All.LatencyMS.P99)
	}
	// Output:
	// write cache false  75 IOPS, p99 23.2 ms
	// write cache true  181 IOPS, p99 18.0 ms
}

// What a power failure one second into a run of random writes would lose
// with the drive's write cache on and off.
func ExampleExperiment_powerLoss() {
	drive, err := disk.Preset("deskstar-7k160")
	if err != nil {
		log.Fatal(err)
	}
	for _, wc := range []bool{true, false} {
		drive.WriteCache = wc
		x := raidsim.Experiment{
			Drive:       drive,
			Workload:    trace.Workload{RW: trace.RWRandWrite, BS: 16 << 10, IODepth: 4, NumIOs: 1000},
			Seed:        1,
			PowerLossAt: time.Second,
		}
		rep, err := x.Run()
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("write cache %-5v lost %3d KiB acknowledged\n", wc, rep.PowerLoss.LostBytes>>10)
	}
	// Output:
	// write cache true  lost 128 KiB acknowledged
	// write cache false lost   0 KiB acknowledged
}
