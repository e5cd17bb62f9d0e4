package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/pprof"
	"strconv"
	"time"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/internal/outfile"
	"github.com/raidsim/raidsim/spec"
	"github.com/raidsim/raidsim/trace"
)

// benchExperiment is the experiment `raidsim bench` runs unless flags
// change it: the stack benchmark of the README's performance table
// (BenchmarkStack), a 64 MiB volume write-back cache over a 4-drive
// RAID 5 of deskstar-7k500 drives, 70/30 random 4 KiB reads and writes
// over the whole array at iodepth 32, one million requests, seed 1.
func benchExperiment() spec.Experiment {
	mix := 70
	return spec.Experiment{
		Seed: 1,
		Stack: spec.Stack{
			Drive: spec.Drive{Preset: "deskstar-7k500"},
			Disks: 4,
			RAID:  &spec.RAID{Level: "5"},
			Cache: &spec.Cache{Size: 64 << 20},
		},
		Phases: []spec.Phase{{Job: spec.Job{RW: "randrw", RWMixRead: &mix, BS: 4096, IODepth: 32, IOs: 1_000_000}}},
	}
}

// groupBench heads bench's own flags in --help.
const groupBench = "Benchmark"

// benchFlags are the flags of `raidsim bench`: run's experiment flags
// (on bench's own base experiment) and bench's own.
var benchFlags = benchTable()

func benchTable() []*runFlag {
	var t []*runFlag
	for _, f := range runFlags {
		if f.group != groupOutput {
			t = append(t, f)
		}
	}
	return append(t,
		&runFlag{name: "count", group: groupBench, metavar: "N", example: "3",
			usage: "run the experiment N times, one line each (default 1)"},
		&runFlag{name: "cpuprofile", group: groupBench, metavar: "FILE", example: "cpu.prof",
			usage: "write a CPU profile of the runs to FILE: .pprof, .prof or .pb.gz (go tool pprof reads it)"},
		&runFlag{name: "force", group: groupBench, usage: forceUsage},
	)
}

// maxBenchCount bounds --count.
const maxBenchCount = 1000

// benchHelpText introduces `raidsim bench --help`.
const benchHelpText = `Usage: raidsim bench [experiment flags] [--count N] [--cpuprofile FILE [--force]]

Runs an experiment and prints how fast the simulator ran it, for comparing
machines, versions and other simulators: simulated requests, wall-clock
seconds, requests per second and nanoseconds per request (wall clock), the
CPU seconds the process used meanwhile (on a machine shared with other
work, CPU time is the steadier figure), heap allocations per request
(set-up included), and the process's peak resident memory. Without flags it
runs the stack benchmark of the README's performance table:

  %s

The experiment flags are raidsim run's (see raidsim run --help) and change
that base; with --config FILE or --trace FILE the file is the base instead.
The simulated results are raidsim run's: print them with raidsim run.
`

func benchHelp(w io.Writer) {
	fmt.Fprintf(w, benchHelpText, describeBench())
	writeGroupsOn(w, benchFlags, benchExperiment())
}

// describeBench says what the base experiment of bench runs.
func describeBench() string {
	x := benchExperiment()
	j := &x.Phases[0].Job
	return fmt.Sprintf("a %s volume cache over a %d-drive RAID %s of %s, %d %s requests (%d%% reads)\n  of %s at iodepth %d, seed %d",
		trace.FormatSize(int64(x.Stack.Cache.Size)), x.Stack.Disks, x.Stack.RAID.Level, x.Stack.Drive.Preset,
		j.IOs, j.RW, *j.RWMixRead, trace.FormatSize(int64(j.BS)), j.IODepth, x.Seed)
}

// benchOptions are bench's own flags.
type benchOptions struct {
	count      int
	cpuprofile string
	force      bool
}

func benchOptionsOf(flags []given) (benchOptions, error) {
	o := benchOptions{count: 1}
	if v, ok := lastValue(flags, "count"); ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxBenchCount {
			return o, usagef("--count: want 1 to %d runs, got %q", maxBenchCount, v)
		}
		o.count = n
	}
	o.cpuprofile, _ = lastValue(flags, "cpuprofile")
	var err error
	o.force, err = forceOf(flags)
	return o, err
}

// runBench is `raidsim bench`: the experiment run --count times, each
// run's speed printed as it ends.
func runBench(args []string, stdout, _ io.Writer) (err error) {
	flags, err := parseTable("bench", benchFlags, args, stdout, benchHelp)
	if err != nil {
		return err
	}
	o, err := benchOptionsOf(flags)
	if err != nil {
		return err
	}
	b, err := experimentFrom(flags, benchExperiment)
	if err != nil {
		return err
	}
	if _, err := b.x.Plan(); err != nil { // every problem before the first line
		return b.explain(err)
	}
	if o.cpuprofile != "" {
		p := outfile.Policy{Force: o.force, Inputs: experimentInputs(flags, &b.x)}
		stop, err := startProfile(p, o.cpuprofile)
		if err != nil {
			return err
		}
		defer func() {
			if cerr := stop(err != nil); err == nil {
				err = cerr
			}
		}()
	}
	fmt.Fprintf(stdout, "%4s %10s %9s %11s %10s %8s %14s %12s\n", "run", "requests", "wall s", "requests/s", "ns/request", "CPU s", "allocs/request", "peak RSS MiB")
	for i := range o.count {
		m, err := measure(&b.x)
		if err != nil {
			return b.explain(err)
		}
		fmt.Fprintf(stdout, "%4d %10d %9.3f %11.0f %10.0f %8s %14.4f %12s\n", i+1, m.requests, m.wall.Seconds(),
			float64(m.requests)/m.wall.Seconds(), float64(m.wall.Nanoseconds())/float64(m.requests),
			cpuText(m.cpu), float64(m.allocs)/float64(m.requests), rssText(m.peakRSS))
	}
	return nil
}

// measurement is what one bench run cost.
type measurement struct {
	requests int64         // requests completed (reads, writes, flushes, failed ones)
	wall     time.Duration // wall-clock time of the whole run, set-up and report included
	cpu      time.Duration // CPU time of the process during the run (all threads); -1 if unknown
	allocs   uint64        // heap allocations of the run
	peakRSS  int64         // the process's peak resident set so far, bytes; -1 if unknown
}

// measure runs x once and measures it.
func measure(x *spec.Experiment) (measurement, error) {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	cpu0, _ := resources()
	start := time.Now()
	rep, err := raidsim.Run(x)
	wall := time.Since(start)
	cpu1, rss := resources()
	runtime.ReadMemStats(&after)
	if err != nil {
		return measurement{}, err
	}
	t := &rep.Total
	m := measurement{
		requests: t.All.IOs + t.Flushes + t.FailedRequests,
		wall:     wall,
		cpu:      cpu1 - cpu0,
		allocs:   after.Mallocs - before.Mallocs,
		peakRSS:  rss,
	}
	if cpu0 < 0 {
		m.cpu = -1
	}
	if m.requests == 0 {
		m.requests = 1 // an empty run: per-request figures are the run's
	}
	return m, nil
}

// cpuText formats a CPU time in seconds, or "n/a" where the platform
// does not report it.
func cpuText(d time.Duration) string {
	if d < 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.3f", d.Seconds())
}

// rssText formats a peak RSS in MiB, or "n/a" where the platform does
// not report it.
func rssText(b int64) string {
	if b < 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.1f", float64(b)/(1<<20))
}

// startProfile starts a CPU profile into file, through the output
// policy p, and returns what stops it and puts the file in place (or,
// when the runs failed, removes it).
func startProfile(p outfile.Policy, file string) (func(failed bool) error, error) {
	f, err := p.Create(outfile.Target{Name: "--cpuprofile", Path: file, Exts: profileExts})
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Abort()
		return nil, fmt.Errorf("--cpuprofile %s: %w", file, err)
	}
	return func(failed bool) error {
		pprof.StopCPUProfile()
		if failed {
			f.Abort()
			return nil
		}
		return f.Commit()
	}, nil
}

// peakRSS returns the process's peak resident set size in bytes, or -1
// if the system does not say.
func peakRSS() int64 {
	_, rss := resources()
	return rss
}
