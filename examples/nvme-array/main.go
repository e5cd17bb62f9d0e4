// Command nvme-array runs an array of today's data centre drives: eight
// 7.68 TB PCIe 4.0 NVMe SSDs (the intel-d7-p5500 preset: TLC, 128 dies,
// its sources and inferences in package ssd) in RAID 5 and in RAID 6,
// with md's 512 KiB chunk, every drive preconditioned to the steady state
// of random overwrites. Random 4 KiB writes arrive at 96,000 a second
// (Poisson, the same for both levels: RAID 6 does the same host work with
// more member I/O) on the healthy array, then again while member 0,
// failed, is rebuilt onto a fresh spare of the same model. The table
// gives, for each level, the foreground IOPS and latency healthy and
// during the rebuild, the members' write amplification, the rebuild's
// rate and the time a whole rebuild takes at that rate.
//
// A whole rebuild writes 7.68 TB: hours of virtual time under load, far
// more than a run need simulate, since both the load and the drives'
// steady state are stationary. Each run simulates a window of virtual
// time (2 s here) and projects the rebuild's time from its rate over the
// window, as benchmark.RebuildUnderLoad does; the table says so. The
// rebuild runs unthrottled (md's speed_limit_min raised to its
// speed_limit_max and that out of the way, as on an all-flash array:
// md's defaults, 1,000 KiB/s while the array is busy and 200,000 KiB/s
// otherwise, would make it take at least 10.7 hours, and months under
// load).
//
//	go run ./examples/nvme-array
package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"time"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/metrics"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/spec"
	"github.com/raidsim/raidsim/ssd"
)

const (
	preset  = "intel-d7-p5500"
	members = 8
	chunk   = 512 << 10 // mdadm's default chunk
	seed    = 1
	// mdSpeedLimitMax is md's default speed_limit_max, 200,000 KiB/s.
	mdSpeedLimitMax = 200000 << 10
)

// Rate is the foreground's host writes a second: 30% of what the drives'
// steady state sustains under RAID 6 (8 drives x 120,000 random writes a
// second, 3 member writes a host write), a busy array's load that both
// levels carry during the rebuild too (at 40%, RAID 6 falls behind while
// it rebuilds).
const Rate = 96000

// Window is the virtual time each run simulates; the test uses less.
const Window = 2 * time.Second

// Run is one run: a level, healthy or rebuilding member 0.
type Run struct {
	Level      string
	Rebuilding bool
	// IOPS, MeanMS and P99MS are the foreground writes' rate and latency
	// over the window, after its first tenth.
	IOPS, MeanMS, P99MS float64
	// WA is the surviving members' mean write amplification over the
	// run, SpareWA the spare's (rebuilding only).
	WA, SpareWA float64
	// RebuiltBytes of TotalBytes were rebuilt in RebuildTime (the
	// window); Projected is the whole rebuild's time at that rate, the
	// rebuild's own time when it ended inside the window.
	RebuiltBytes, TotalBytes int64
	RebuildTime, Projected   time.Duration
	RebuildDone              bool
}

// RebuildRate is the rebuild's rate in bytes per second of the spare.
func (r Run) RebuildRate() float64 {
	return float64(r.RebuiltBytes) / r.RebuildTime.Seconds()
}

// load is an open loop of random 4 KiB writes over the array: Poisson
// arrivals at Rate a second, the same for both levels, so RAID 6 does the
// same host work with more member I/O. Latencies are measured after the
// first tenth of the window.
type load struct {
	eng      *sim.Engine
	dev      sim.Device
	rng      *rand.Rand
	rate     float64
	end      sim.Time // no arrivals after it
	from     sim.Time // measure completions of requests issued after it
	lat      metrics.Histogram
	done     int64
	free     []*sim.Request
	err      error
	arrive   sim.HandlerFunc
	complete func(*sim.Request)
}

func newLoad(eng *sim.Engine, dev sim.Device, rate float64, window time.Duration) *load {
	l := &load{eng: eng, dev: dev, rng: eng.Rand("nvme-array/load"), rate: rate,
		end: eng.Now().Add(window), from: eng.Now().Add(window / 10)}
	l.arrive = func(now sim.Time, _ any) { l.issue(now) }
	l.complete = func(r *sim.Request) {
		if r.Err != nil && l.err == nil {
			l.err = r.Err
		}
		if r.Issued >= l.from {
			l.lat.Record(r.Latency())
			l.done++
		}
		l.free = append(l.free, r)
	}
	eng.After(0, l.arrive, nil)
	return l
}

func (l *load) issue(now sim.Time) {
	if now >= l.end || l.err != nil {
		return
	}
	r := &sim.Request{}
	if n := len(l.free); n > 0 {
		r, l.free = l.free[n-1], l.free[:n-1]
	}
	*r = sim.Request{Op: sim.Write, Offset: l.rng.Int64N(l.dev.Capacity()/4096) * 4096, Length: 4096, Done: l.complete}
	if err := l.dev.Submit(r); err != nil {
		l.err = err
		return
	}
	l.eng.After(time.Duration(l.rng.ExpFloat64()/l.rate*1e9), l.arrive, nil)
}

// plan is the array at level: the drives in their steady state.
func plan(level string) (*spec.Plan, error) {
	x := &spec.Experiment{Seed: seed, Stack: spec.Stack{
		Drive: spec.Drive{Preset: preset, Precondition: "steady"}, Disks: members,
		RAID: &spec.RAID{Level: level, StripeUnit: chunk},
	}, Phases: []spec.Phase{{Job: spec.Job{RW: "randwrite", BS: 4096, IOs: 1}}}} // the load is driven below
	return x.Plan()
}

// run runs level healthy or rebuilding for window of virtual time under
// rate host writes a second.
func run(level string, rebuilding bool, rate float64, window time.Duration) (Run, error) {
	pl, err := plan(level)
	if err != nil {
		return Run{}, err
	}
	eng := sim.NewEngine(pl.Seed)
	s, err := raidsim.Build(eng, pl, "", nil)
	if err != nil {
		return Run{}, err
	}
	res := Run{Level: level, Rebuilding: rebuilding}
	var spare *ssd.Drive
	if rebuilding {
		// A replacement comes fresh out of the box (the stack's planned
		// rebuild would give the spare the members' state).
		p, err := ssd.Preset(preset)
		if err != nil {
			return Run{}, err
		}
		if spare, err = ssd.New(eng, p, "spare", nil); err != nil {
			return Run{}, err
		}
		if err := s.Array.Fail(0); err != nil {
			return Run{}, err
		}
		if err := s.Array.Rebuild(spare); err != nil {
			return Run{}, err
		}
	}
	l := newLoad(eng, s.Top, rate, window)
	eng.RunUntil(eng.Now().Add(window))
	if l.err != nil {
		return Run{}, fmt.Errorf("RAID %s: %w", level, l.err)
	}
	res.IOPS = float64(l.done) / (window - window/10).Seconds()
	res.MeanMS, res.P99MS = l.lat.MeanSeconds()*1e3, l.lat.Quantile(0.99).Seconds()*1e3
	n := 0
	for i, d := range s.Drives {
		if rebuilding && i == 0 {
			continue // failed
		}
		sd, ok := d.(*ssd.Drive)
		if !ok {
			return Run{}, fmt.Errorf("drive %d is not an SSD", i)
		}
		res.WA += sd.Stats().WriteAmplification
		n++
	}
	res.WA /= float64(n)
	if rebuilding {
		res.SpareWA = spare.Stats().WriteAmplification
		rb := s.Array.Stats().Rebuild
		if rb.Err != nil {
			return Run{}, rb.Err
		}
		res.RebuiltBytes, res.TotalBytes, res.RebuildTime, res.RebuildDone = rb.Bytes, rb.Total, rb.Duration, rb.Done
		res.Projected = rb.Duration
		if !rb.Done && rb.Bytes > 0 {
			res.Projected = time.Duration(float64(rb.Duration) * float64(rb.Total) / float64(rb.Bytes))
		}
	}
	return res, nil
}

// Runs are both levels, healthy and rebuilding, at rate host writes a
// second for window of virtual time each.
func Runs(rate float64, window time.Duration) ([]Run, error) {
	var out []Run
	for _, level := range []string{"5", "6"} {
		for _, rebuilding := range []bool{false, true} {
			r, err := run(level, rebuilding, rate, window)
			if err != nil {
				return nil, fmt.Errorf("RAID %s (rebuilding %v): %w", level, rebuilding, err)
			}
			out = append(out, r)
		}
	}
	return out, nil
}

// write prints the runs as a table with what it shows.
func write(w io.Writer, rs []Run, rate float64, window time.Duration) error {
	t := metrics.Table{
		Title: fmt.Sprintf("%d x %s (7.68 TB, PCIe 4.0, steady state), %d KiB chunk: random 4 KiB writes, %.0f a second (Poisson), %v of virtual time a run",
			members, preset, chunk>>10, rate, window),
		Header: []string{"RAID", "array", "IOPS", "mean ms", "p99 ms", "members' WA", "spare's WA", "rebuild MB/s", "rebuilt", "whole rebuild"},
	}
	for _, r := range rs {
		state, rate, rebuilt, whole, spareWA := "healthy", "-", "-", "-", "-"
		if r.Rebuilding {
			state = "rebuilding member 0"
			rate = metrics.FormatFixed(r.RebuildRate()/1e6, 0)
			rebuilt = fmt.Sprintf("%.1f GB (%.3f%%)", float64(r.RebuiltBytes)/1e9, 100*float64(r.RebuiltBytes)/float64(r.TotalBytes))
			whole = fmt.Sprintf("%.2f h projected", r.Projected.Hours())
			if r.RebuildDone {
				whole = fmt.Sprintf("%.2f h", r.Projected.Hours())
			}
			spareWA = metrics.FormatFixed(r.SpareWA, 2)
		}
		t.AddRow(r.Level, state, metrics.FormatFixed(r.IOPS, 0), metrics.FormatFixed(r.MeanMS, 3), metrics.FormatFixed(r.P99MS, 3),
			metrics.FormatFixed(r.WA, 2), spareWA, rate, rebuilt, whole)
	}
	t.Notes = notes(rs)
	return t.WriteText(w)
}

// notes says what the table shows, from its own figures.
func notes(rs []Run) []string {
	find := func(level string, rebuilding bool) Run {
		for _, r := range rs {
			if r.Level == level && r.Rebuilding == rebuilding {
				return r
			}
		}
		return Run{}
	}
	r5, r5b, r6, r6b := find("5", false), find("5", true), find("6", false), find("6", true)
	return []string{
		fmt.Sprintf("A 4 KiB write costs RAID 5 two member reads and two writes (old data and parity, then both new) and RAID 6 three and three (old data, P and Q: md's read-modify-write): healthy, RAID 6 answers in %.3f ms on average against RAID 5's %.3f.", r6.MeanMS, r5.MeanMS),
		fmt.Sprintf("During the rebuild the load's p99 rises from %.3f to %.3f ms on RAID 5 and from %.3f to %.3f ms on RAID 6: reads of the failed member's data are rebuilt from the others, and the rebuild's chunk reads wait in the same die queues as the load.", r5.P99MS, r5b.P99MS, r6.P99MS, r6b.P99MS),
		fmt.Sprintf("RAID 6 rebuilds at %.0f MB/s against RAID 5's %.0f under the same host load: its writes keep the members busier. A whole rebuild takes %.1f h against %.1f h (projected from the window's rate: the load and the drives' steady state are stationary; md's default speed_limit_max, 200,000 KiB/s, alone would make it %.1f h).",
			r6b.RebuildRate()/1e6, r5b.RebuildRate()/1e6, r6b.Projected.Hours(), r5b.Projected.Hours(), float64(r5b.TotalBytes)/mdSpeedLimitMax/3600),
		fmt.Sprintf("The members' write amplification (%.2f) is their steady state's under uniform random writes, the same for both levels; the spare, written in order, stays at %.2f.", r5.WA, r5b.SpareWA),
	}
}

func main() {
	start := time.Now()
	rs, err := Runs(Rate, Window)
	if err != nil {
		fmt.Fprintln(os.Stderr, "nvme-array:", err)
		os.Exit(1)
	}
	if err := write(os.Stdout, rs, Rate, Window); err != nil {
		fmt.Fprintln(os.Stderr, "nvme-array:", err)
		os.Exit(1)
	}
	fmt.Printf("\n(%.1f s wall time)\n", time.Since(start).Seconds())
}
