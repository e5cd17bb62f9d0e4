package raidsim_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/internal/bigtrace"
	"github.com/raidsim/raidsim/spec"
	"github.com/raidsim/raidsim/trace"
)

// BenchmarkRun measures the whole path a user takes: a synthetic workload
// generated, replayed closed-loop on a detailed drive, every completion
// recorded in a metrics.Recorder, the report built. Random 4 KiB reads
// over a whole deskstar-7k500.
func BenchmarkRun(b *testing.B) {
	for _, sched := range []disk.Scheduler{disk.FCFS, disk.SATF} {
		for _, qd := range []int{1, 32} {
			b.Run(fmt.Sprintf("sched=%v/qd=%d", sched, qd), func(b *testing.B) {
				const ios = 200000
				x := experiment("deskstar-7k500", spec.Job{RW: "randread", BS: 4096, IODepth: qd, IOs: ios})
				x.Stack.Drive.Scheduler = sched.String()
				b.ReportAllocs()
				for b.Loop() {
					if _, err := raidsim.Run(x); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(ios)*float64(b.N)/b.Elapsed().Seconds(), "requests/s")
			})
		}
	}
}

// BenchmarkRunHost is BenchmarkRun's satf/qd=32 point with the host
// layer on (nas-1gb: CPU costs, a 896 MiB page cache, the gigabit link).
func BenchmarkRunHost(b *testing.B) {
	const ios = 200000
	x := experiment("deskstar-7k500", spec.Job{RW: "randread", BS: 4096, IODepth: 32, IOs: ios})
	x.Stack.Host.Preset = "nas-1gb"
	b.ReportAllocs()
	for b.Loop() {
		if _, err := raidsim.Run(x); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(ios)*float64(b.N)/b.Elapsed().Seconds(), "requests/s")
}

// BenchmarkReplay10M replays a generated 10-million-record trace file
// (raidsim CSV, 4 KiB random reads and writes) through a deskstar-7k500
// in closed loop at depth 32 and reports records/s and the memory the
// replay allocated in all (an upper bound on its peak heap growth): the
// readers stream, so it stays flat however long the trace. Run it with
//
//	go test -run '^$' -bench Replay10M -benchtime 1x .
//
// RAIDSIM_SCALE sets another record count.
func BenchmarkReplay10M(b *testing.B) {
	n := benchRecords(b)
	x := experiment("deskstar-7k500", spec.Job{RW: "randrw", RWMixRead: percent(50), BS: 4096, IODepth: 32, IOs: n})
	path := filepath.Join(b.TempDir(), "10m.csv")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := trace.NewCSVWriter(f)
	if _, err := raidsim.Generate(x, w); err != nil {
		b.Fatal(err)
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	x.Phases[0].Job = spec.Job{Trace: &spec.Trace{Path: path, Format: "csv", IODepth: 32}}
	replayMeasured(b, x, n, false)
}

// BenchmarkReplayMSR10M replays a generated 10-million-record MSR
// Cambridge trace (gzip, as the published ones are) through one drive
// in open loop at its recorded times: parse, decompression and
// simulation end to end, in records/s, with the memory the process
// holds (runtime Sys) and allocated. The arrivals (Poisson, 40/s of 4
// to 64 KiB over 400 GB of a deskstar-7k500) keep the drive below
// saturation, so the queue, and the memory, stay bounded:
//
//	go test -run '^$' -bench ReplayMSR10M -benchtime 1x .
//
// RAIDSIM_SCALE sets another record count.
func BenchmarkReplayMSR10M(b *testing.B) {
	n := benchRecords(b)
	path := filepath.Join(b.TempDir(), "10m.csv.gz")
	if err := bigtrace.WriteMSRFile(path, bigtrace.MSR{Records: n, Rate: 40, ReadFraction: 0.6, Span: 400e9, Seed: 7}); err != nil {
		b.Fatal(err)
	}
	x := experiment("deskstar-7k500", spec.Job{Trace: &spec.Trace{Path: path, Format: "msr"}})
	replayMeasured(b, x, n, true)
}

// benchRecords is the replay benchmarks' record count: 10 million, or
// RAIDSIM_SCALE's.
func benchRecords(b *testing.B) int64 {
	s := os.Getenv("RAIDSIM_SCALE")
	if s == "" {
		return 10_000_000
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v <= 0 {
		b.Fatalf("RAIDSIM_SCALE=%q: want a positive record count", s)
	}
	return v
}

// replayMeasured runs x, a replay of n records, once per benchmark
// iteration and reports the bytes it allocated, the memory the process
// holds (runtime Sys) and records/s. With noWarning a replay that
// warned (records skipped or moved) fails the benchmark.
func replayMeasured(b *testing.B, x *spec.Experiment, n int64, noWarning bool) {
	b.ResetTimer()
	for b.Loop() {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		rep, err := raidsim.Run(x)
		if err != nil {
			b.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		tr := rep.Phases[0].Trace
		if tr.Records != n || (noWarning && tr.Warning != "") {
			b.Fatalf("replayed %d records, want %d (%s)", tr.Records, n, tr.Warning)
		}
		b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/(1<<20), "MiB-allocated")
		b.ReportMetric(float64(after.Sys)/(1<<20), "MiB-sys")
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
}
