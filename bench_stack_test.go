package raidsim_test

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/metrics"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/spec"
	"github.com/raidsim/raidsim/trace"
)

// stackExperiment is the stack benchmark: a 64 MiB volume write-back
// cache (watermark destage, stripe-aligned) over a 4-drive RAID 5 of
// deskstar-7k500 drives (64 KiB stripe unit), 70/30 random 4 KiB reads
// and writes over the whole array at depth 32, ios requests, seed 1.
// `raidsim bench` runs the same experiment by default.
func stackExperiment(ios int64) *spec.Experiment {
	x := experiment("deskstar-7k500", spec.Job{RW: "randrw", RWMixRead: percent(70), BS: 4096, IODepth: 32, IOs: ios})
	x.Stack.Disks = 4
	x.Stack.RAID = &spec.RAID{Level: "5"}
	x.Stack.Cache = &spec.Cache{Size: 64 << 20}
	return x
}

// BenchmarkStack measures the whole path of the stack benchmark
// (workload generator, replay, cache, RAID 5, four detailed drives,
// latency histograms, report) at two run lengths, to show that the
// cost per request does not grow with the run. It reports simulated
// requests per wall-clock second, ns per request and allocations per
// request (set-up included: the steady state allocates nothing, see
// TestStackSteadyStateAllocations). Run it with
//
//	go test -run '^$' -bench Stack -cpu 1 -count 5 .
func BenchmarkStack(b *testing.B) {
	for _, st := range []struct {
		name  string
		drive string
	}{{"cache-raid5x4", "deskstar-7k500"}, {"cache-raid5x4-ssd", stackSSD}} {
		for _, n := range []struct {
			name string
			ios  int64
		}{{"100k", 100_000}, {"1M", 1_000_000}} {
			b.Run(fmt.Sprintf("stack=%s/mix=70-30/qd=32/ios=%s", st.name, n.name), func(b *testing.B) {
				x := stackExperiment(n.ios)
				x.Stack.Drive.Preset = st.drive
				benchRun(b, x, n.ios)
			})
		}
	}
}

// stackSSD is the SSD of the stack benchmark's SSD variant, fresh out
// of the box. Its page map grows with the flash written, to about
// 150 MB a drive over the whole 160 GB; the 1 TB 970 EVO Plus's grows
// past half a gigabyte in this run, and preconditioning either costs
// seconds and that memory before the first request.
const stackSSD = "intel-x25m-g2"

// benchRun runs x, of ios requests, b.N times and reports requests/s,
// ns/request and allocs/request.
func benchRun(b *testing.B, x *spec.Experiment, ios int64) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for b.Loop() {
		if _, err := raidsim.Run(x); err != nil {
			b.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	reqs := float64(ios) * float64(b.N)
	b.ReportMetric(reqs/b.Elapsed().Seconds(), "requests/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/reqs, "ns/request")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/reqs, "allocs/request")
}

// stackLoop keeps depth requests of a synthetic workload outstanding
// on a stack, recording each completion as a run does.
type stackLoop struct {
	dev  sim.Device
	gen  *trace.Synthetic
	rec  metrics.Recorder
	done int
	err  error
}

func (l *stackLoop) submit(r *sim.Request) {
	rec, err := l.gen.Next()
	if err != nil {
		l.err = err
		return
	}
	r.Op, r.Offset, r.Length = rec.Op, rec.Offset, rec.Length
	if err := l.dev.Submit(r); err != nil && l.err == nil {
		l.err = err
	}
}

func (l *stackLoop) onDone(r *sim.Request) {
	l.done++
	l.rec.Observe(r)
	l.submit(r)
}

// BenchmarkStackSteady times the stack benchmark's per-request path
// after a warm-up of 200,000 requests (the volume cache full and
// destaging, free lists and indexes grown), for 100k and 1M requests.
// BenchmarkStack's whole runs include the warm-up, whose first ~60,000
// requests are cheaper (the cache absorbs writes without destaging), so
// its 1M run costs more per request than its 100k run; here both run
// lengths time the same steady state, which shows whether the cost per
// request grows with the run. Run it with
//
//	go test -run '^$' -bench StackSteady -cpu 1 -count 5 .
func BenchmarkStackSteady(b *testing.B) {
	const warm = 200_000
	for _, n := range []struct {
		name string
		ios  int
	}{{"100k", 100_000}, {"1M", 1_000_000}} {
		b.Run("stack=cache-raid5x4/mix=70-30/qd=32/warm=200k/ios="+n.name, func(b *testing.B) {
			var reqs float64
			for b.Loop() {
				b.StopTimer()
				eng, l := newStackLoop(b, stackExperiment(1))
				l.run(eng, warm)
				b.StartTimer()
				l.run(eng, n.ios)
				reqs += float64(n.ios)
				if l.err != nil {
					b.Fatal(l.err)
				}
			}
			b.ReportMetric(reqs/b.Elapsed().Seconds(), "requests/s")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/reqs, "ns/request")
		})
	}
}

// newStackLoop builds x's stack on a new engine with a 70/30 random
// 4 KiB generator and 32 requests outstanding.
func newStackLoop(tb testing.TB, x *spec.Experiment) (*sim.Engine, *stackLoop) {
	tb.Helper()
	eng := sim.NewEngine(1)
	s, err := raidsim.NewStack(eng, x.Stack, "", nil)
	require.NoError(tb, err)
	gen, err := trace.NewSynthetic(trace.Workload{RW: trace.RWRandRW, RWMixRead: 70, BS: 4096}, eng.Rand("job"),
		s.Top.Capacity(), s.Top.SectorSize())
	require.NoError(tb, err)
	l := &stackLoop{dev: s.Top, gen: gen}
	for range 32 {
		l.submit(&sim.Request{Done: l.onDone})
	}
	return eng, l
}

// run steps eng until n more requests have completed.
func (l *stackLoop) run(eng *sim.Engine, n int) {
	for target := l.done + n; l.done < target && eng.Step(); {
	}
}
