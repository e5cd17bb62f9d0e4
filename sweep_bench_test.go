package raidsim_test

import (
	"fmt"
	"runtime/debug"
	"testing"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/spec"
	"github.com/raidsim/raidsim/sweep"
)

// benchSweep is a what-if grid of real configs: a 4-drive RAID 5 at
// four stripe units, with and without a volume write-back cache, at two
// queue depths, each point a mixed random phase and a sequential one:
// 16 points, times seeds (1, 2, ...) when seeds > 1.
func benchSweep(seeds int) map[string]any {
	axes := []any{
		map[string]any{"path": "stack.raid.stripe_unit", "values": []any{"16KiB", "64KiB", "256KiB", "1MiB"}},
		map[string]any{"path": "stack.cache", "values": []any{nil, map[string]any{"size": "64MiB"}}},
		map[string]any{"path": "phases[0].iodepth", "values": []any{4, 16}},
	}
	if seeds > 1 {
		var vs []any
		for s := range seeds {
			vs = append(vs, s+1)
		}
		axes = append(axes, map[string]any{"path": "seed", "values": vs})
	}
	return map[string]any{
		"name": "bench-sweep",
		"seed": 1,
		"stack": map[string]any{
			"drive": map[string]any{"preset": "deskstar-7k500"},
			"disks": 4,
			"raid":  map[string]any{"level": "5", "stripe_unit": "64KiB"},
		},
		"phases": []any{
			map[string]any{"name": "mixed", "rw": "randrw", "rwmixread": 70, "bs": "8KiB", "iodepth": 8, "size": "4GiB", "ios": 12000},
			map[string]any{"name": "load", "rw": "write", "bs": "256KiB", "iodepth": 4, "size": "1GiB", "ios": 2000},
		},
		"sweep": axes,
	}
}

// BenchmarkSweep runs the sweep end to end (parse every point, run it,
// collect the reports in order) at 16 and 64 points on 1 and 2 workers.
// ns/op is the wall time of one whole sweep and s/point that per point:
// it stays flat from 16 to 64 points, and workers=2 over workers=1 is
// the parallel speed-up (benchstat slices by the points= and workers=
// keys). On a shared machine run it alone, with -count, e.g.
//
//	go test -run '^$' -bench 'Sweep/points=64' -count 5 .
func BenchmarkSweep(b *testing.B) {
	// raidsim sweep runs with the collector at 400% (see
	// cmd/raidsim/sweep.go); measure what the command does.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	for _, seeds := range []int{1, 4} {
		base, axes, err := sweep.Split(benchSweep(seeds))
		if err != nil {
			b.Fatal(err)
		}
		grid, err := sweep.NewGrid(base, axes)
		if err != nil {
			b.Fatal(err)
		}
		if grid.Len() != 16*seeds {
			b.Fatalf("grid has %d points, want %d", grid.Len(), 16*seeds)
		}
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("points=%d/workers=%d", grid.Len(), workers), func(b *testing.B) {
				benchGrid(b, grid, workers)
			})
		}
	}
}

// benchGrid runs every point of grid on workers, b.N times.
func benchGrid(b *testing.B, grid *sweep.Grid, workers int) {
	eval := func(p sweep.Point) (*raidsim.Report, error) {
		x, err := spec.ParseTree(p.Tree, "bench-sweep")
		if err != nil {
			return nil, err
		}
		return raidsim.Run(x)
	}
	var ios int64
	for b.Loop() {
		points, err := grid.Points(0, grid.Len())
		if err != nil {
			b.Fatal(err)
		}
		reps, err := sweep.Run(points, workers, eval, nil)
		if err != nil {
			b.Fatal(err)
		}
		ios = 0
		for _, r := range reps {
			ios += r.Total.All.IOs
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/sweep")
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N*grid.Len()), "s/point")
	b.ReportMetric(float64(ios)*float64(b.N)/b.Elapsed().Seconds(), "requests/s")
}
