// Command offered-load draws the curve every capacity planner draws:
// latency against offered load. A RAID 5 of four Deskstar 7K160s serves
// random 4 KiB reads; first a closed loop at a deep queue finds the
// stack's maximum rate, then open-loop Poisson arrivals (fio's
// rate_iops with rate_process=poisson and io_submit_mode=offload, so no
// arrival waits for a completion) offer 10% to 110% of it, each for the
// same stretch of virtual time.
//
// The drives serve their queues first come, first served (scheduler
// fcfs), so a drive's rate does not depend on how many commands wait:
// the stack's maximum is one number, the closed loop finds it, and the
// knee sits there. With the presets' SATF the rate grows with the queue
// (309 IOPS at iodepth 8, 687 at 96 on this stack) until commands wait
// past the drives' 500 ms starvation guard (disk.Params.MaxQueueAge) and
// are served oldest first (318 IOPS at 128): an open loop past that
// point falls back to the FIFO rate.
//
// Below the maximum the stack keeps up: it completes what is offered,
// and the latency rises as queues form, slowly at first, then steeply
// near the knee (an M/G/c queue's wait grows as 1/(1-load)). Past it
// the queue has no steady state: requests arrive faster than they
// leave, the backlog grows for as long as the load lasts, and so does
// the latency: twice the run, about twice the mean. The test
// (main_test.go) asserts both.
//
//	go run ./examples/offered-load
package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/metrics"
	"github.com/raidsim/raidsim/spec"
)

// Config is the stack, the workload and how long each point runs.
type Config struct {
	// Drive is the drive preset; Disks of them make a RAID 5; Scheduler
	// is their tagged-queue scheduler.
	Drive, Scheduler string
	Disks            int
	// BS is the request size in bytes.
	BS int64
	// ClosedDepth is the closed loop's iodepth, and ClosedIOs its
	// requests, for the maximum rate.
	ClosedDepth int
	ClosedIOs   int64
	// Runtime is how long each point offers its load (virtual time).
	Runtime time.Duration
	// Seed seeds every run.
	Seed uint64
}

// Full is what `go run` uses.
var Full = Config{Drive: "deskstar-7k160", Scheduler: "fcfs", Disks: 4, BS: 4096, ClosedDepth: 256, ClosedIOs: 20000, Runtime: 60 * time.Second, Seed: 1}

// Fractions are the offered loads, as fractions of the maximum.
var Fractions = []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.0, 1.05, 1.1}

// Point is one offered load and what the stack made of it.
type Point struct {
	// Fraction is the offered load over the maximum; OfferedIOPS the
	// rate asked for (rate_iops) and AchievedIOPS the rate completed,
	// over the time from the first arrival to the last completion.
	Fraction, OfferedIOPS, AchievedIOPS float64
	// Latency summarizes the reads' latencies (ms).
	Latency metrics.LatencySummary
	// IOs is the reads completed.
	IOs int64
}

// experiment is one phase of random reads on the stack.
func (c Config) experiment(job spec.Job, runtime time.Duration) spec.Experiment {
	job.RW, job.BS = "randread", spec.Size(c.BS)
	return spec.Experiment{
		Seed:   c.Seed,
		Stack:  spec.Stack{Drive: spec.Drive{Preset: c.Drive, Scheduler: c.Scheduler}, Disks: c.Disks, RAID: &spec.RAID{Level: "5"}},
		Phases: []spec.Phase{{Runtime: spec.Duration(runtime), Job: job}},
	}
}

// MaxIOPS is the stack's closed-loop rate at ClosedDepth.
func MaxIOPS(c Config) (float64, error) {
	x := c.experiment(spec.Job{IODepth: c.ClosedDepth, IOs: c.ClosedIOs}, 0)
	rep, err := raidsim.Run(&x)
	if err != nil {
		return 0, err
	}
	return rep.Phases[0].Read.IOPS, nil
}

// Offer runs Poisson arrivals at iops for c.Runtime (or runtime, when
// positive) and reports the point.
func Offer(c Config, iops float64, runtime time.Duration) (Point, error) {
	if runtime <= 0 {
		runtime = c.Runtime
	}
	x := c.experiment(spec.Job{IODepth: 65536, RateIOPS: strconv.FormatFloat(iops, 'f', 0, 64),
		RateProcess: "poisson", IOSubmitMode: "offload", TimeBased: true}, runtime)
	rep, err := raidsim.Run(&x)
	if err != nil {
		return Point{}, err
	}
	r := rep.Phases[0].Read
	return Point{OfferedIOPS: iops, AchievedIOPS: r.IOPS, Latency: r.LatencyMS, IOs: r.IOs}, nil
}

// Curve measures the maximum, then offers each fraction of it.
func Curve(c Config, fractions []float64) (maxIOPS float64, pts []Point, err error) {
	if maxIOPS, err = MaxIOPS(c); err != nil {
		return 0, nil, err
	}
	for _, f := range fractions {
		p, err := Offer(c, f*maxIOPS, 0)
		if err != nil {
			return 0, nil, err
		}
		p.Fraction = f
		pts = append(pts, p)
	}
	return maxIOPS, pts, nil
}

// WriteTable prints the curve.
func WriteTable(w io.Writer, c Config, maxIOPS float64, pts []Point) error {
	t := metrics.Table{
		Title: fmt.Sprintf("Random %d KiB reads on RAID 5 of %d %s (%s): closed-loop maximum %.1f IOPS at iodepth %d; Poisson arrivals for %s each",
			c.BS>>10, c.Disks, c.Drive, c.Scheduler, maxIOPS, c.ClosedDepth, c.Runtime),
		Header: []string{"offered %", "offered IOPS", "achieved IOPS", "mean ms", "p50 ms", "p99 ms", "max ms"},
	}
	for _, p := range pts {
		t.AddRow(metrics.FormatFixed(100*p.Fraction, 0), metrics.FormatFixed(p.OfferedIOPS, 1), metrics.FormatFixed(p.AchievedIOPS, 1),
			metrics.FormatFixed(p.Latency.Mean, 2), metrics.FormatFixed(p.Latency.P50, 2), metrics.FormatFixed(p.Latency.P99, 2),
			metrics.FormatFixed(p.Latency.Max, 1))
	}
	return t.WriteText(w)
}

func main() {
	maxIOPS, pts, err := Curve(Full, Fractions)
	if err == nil {
		err = WriteTable(os.Stdout, Full, maxIOPS, pts)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "offered-load:", err)
		os.Exit(1)
	}
}
