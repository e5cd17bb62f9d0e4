package metrics_test

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/raidsim/raidsim/metrics"
	"github.com/raidsim/raidsim/sim"
)

func ExampleHistogram() {
	var h metrics.Histogram // the zero value is ready to use
	for i := 1; i <= 1000; i++ {
		h.Record(time.Duration(i) * time.Microsecond)
	}
	fmt.Println("count:", h.Count(), "min:", h.Min(), "max:", h.Max(), "mean:", h.Mean())
	fmt.Println("p50:", h.Quantile(0.50)) // exact: 500µs, within 0.78%
	fmt.Println("p99:", h.Quantile(0.99)) // exact: 990µs
	// Output:
	// count: 1000 min: 1µs max: 1ms mean: 500.5µs
	// p50: 501.76µs
	// p99: 987.136µs
}

func ExampleHistogram_Merge() {
	var a, b metrics.Histogram
	a.Record(2 * time.Millisecond)
	b.Record(8 * time.Millisecond)
	a.Merge(&b)
	fmt.Println(a.Count(), a.Min(), a.Max(), a.Mean())
	// Output: 2 2ms 8ms 5ms
}

func ExampleRecorder() {
	var rec metrics.Recorder
	// Devices fill Issued and Completed; Observe reads Op, Length and the
	// latency between them.
	rec.Observe(&sim.Request{Op: sim.Read, Length: 4096, Issued: 0, Completed: sim.Time(3 * time.Millisecond)})
	rec.Observe(&sim.Request{Op: sim.Write, Length: 65536, Issued: 0, Completed: sim.Time(9 * time.Millisecond)})
	rec.Add(sim.Read, 4096, 5*time.Millisecond)
	rec.Add(sim.Flush, 0, 20*time.Millisecond)

	// Percentiles are bucket midpoints (5.014 for 5 ms) except at the
	// extremes, where Min and Max are exact.
	s := rec.Summarize(100 * time.Millisecond)
	if err := s.WriteText(os.Stdout); err != nil {
		fmt.Println(err)
	}
	// Output:
	// op     IOs  IOPS  MB/s  mean ms  p50 ms  p95 ms  p99 ms  max ms
	// -----  ---  ----  ----  -------  ------  ------  ------  ------
	// read     2  20.0  0.08    4.000   3.000   5.000   5.000   5.000
	// write    1  10.0  0.66    9.000   9.000   9.000   9.000   9.000
	// all      3  30.0  0.74    5.667   5.014   9.000   9.000   9.000
	//
	// flushes: 1
	// simulated time: 0.100 s
}

func ExampleSummary_WriteJSON() {
	var rec metrics.Recorder
	rec.Add(sim.Write, 1000000, 4*time.Millisecond)
	s := rec.Summarize(2 * time.Second)
	fmt.Printf("%.1f MB/s, %.0f IOPS, p99 %.1f ms\n", s.Write.MBPerS, s.Write.IOPS, s.Write.LatencyMS.P99)

	// Embedding a Summary in a larger report keeps its names at the top.
	type report struct {
		metrics.Summary
		Cache struct {
			HitRatio float64 `json:"hit_ratio"`
		} `json:"cache"`
	}
	b, _ := json.Marshal(report{Summary: s})
	fmt.Println(string(b))
	// Output:
	// 0.5 MB/s, 0 IOPS, p99 4.0 ms
	// {"read":{"ios":0,"bytes":0,"iops":0,"mb_per_s":0,"latency_ms":{"mean":0,"p50":0,"p95":0,"p99":0,"max":0}},"write":{"ios":1,"bytes":1000000,"iops":0.5,"mb_per_s":0.5,"latency_ms":{"mean":4,"p50":4,"p95":4,"p99":4,"max":4}},"all":{"ios":1,"bytes":1000000,"iops":0.5,"mb_per_s":0.5,"latency_ms":{"mean":4,"p50":4,"p95":4,"p99":4,"max":4}},"flushes":0,"sim_s":2,"cache":{"hit_ratio":0}}
}

func ExampleTable() {
	t := metrics.Table{
		Title:  "RAID 5, 4 drives",
		Header: []string{"workload", "IOPS", "p99 ms"},
		Notes:  []string{"write cache off"},
	}
	t.AddRow("randread 4KiB", metrics.FormatFixed(312.25, 1), metrics.FormatSig(24.0123, 4))
	t.AddRow("randwrite 4KiB", metrics.FormatFixed(96.5, 1), metrics.FormatSig(110.47, 4))
	_ = t.WriteText(os.Stdout)
	fmt.Println()
	_ = t.WriteCSV(os.Stdout)
	// Output:
	// RAID 5, 4 drives
	// workload         IOPS  p99 ms
	// --------------  -----  ------
	// randread 4KiB   312.2   24.01
	// randwrite 4KiB   96.5   110.5
	//
	// write cache off
	//
	// workload,IOPS,p99 ms
	// randread 4KiB,312.2,24.01
	// randwrite 4KiB,96.5,110.5
}

func ExampleLevel() {
	// A drive busy from 2 ms to 5 ms and from 8 ms to 9 ms of a 10 ms run.
	var busy metrics.Level
	busy.Set(sim.Time(2*time.Millisecond), 1)
	busy.Set(sim.Time(5*time.Millisecond), 0)
	busy.Set(sim.Time(8*time.Millisecond), 1)
	busy.Set(sim.Time(9*time.Millisecond), 0)
	fmt.Printf("utilization %.0f%%\n", 100*busy.Mean(sim.Time(10*time.Millisecond)))
	// Output: utilization 40%
}
