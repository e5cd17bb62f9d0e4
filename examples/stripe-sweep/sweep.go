package main

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/spec"
	"github.com/raidsim/raidsim/trace"
)

// grid is the what-if: one workload on one array, at every pair of stripe
// unit and volume cache size.
type grid struct {
	// Drive is the preset of the four drives.
	Drive string
	// Disks is the number of drives in the RAID 5 array.
	Disks int
	// StripeUnits are the array's stripe units (chunk sizes), in bytes.
	StripeUnits []int64
	// CacheSizes are the volume write-back cache sizes, in bytes; 0 means
	// no volume cache.
	CacheSizes []int64
	// Workload is the mixed job every cell runs.
	Workload spec.Job
	// Seed is every cell's seed: all cells see the same request stream.
	Seed uint64
	// Workers is the number of cells simulated at once; 0 means one per
	// CPU (GOMAXPROCS).
	Workers int
}

// cell is the outcome of one point of the grid.
type cell struct {
	StripeUnit, CacheSize int64
	Report                *raidsim.Report
}

// experiment returns the experiment of one cell. Controllers in front
// of an array normally turn the drives' own write caches off: every
// write the array issues reaches a platter.
func (g grid) experiment(stripe, cacheSize int64) *spec.Experiment {
	writeCache := false
	x := &spec.Experiment{
		Seed: g.Seed,
		Stack: spec.Stack{
			Drive: spec.Drive{Preset: g.Drive, WriteCache: &writeCache},
			Disks: g.Disks,
			RAID:  &spec.RAID{Level: "5", StripeUnit: spec.Size(stripe)},
		},
		Phases: []spec.Phase{{Job: g.Workload}},
	}
	if cacheSize > 0 {
		x.Stack.Cache = &spec.Cache{Size: spec.Size(cacheSize), Align: "stripe"}
	}
	return x
}

// run simulates every cell, Workers at a time, and returns their reports.
// Each cell is an independent simulation with
// its own engine and the same seed, so the results do not depend on the
// number of workers or on the order cells finish in.
func (g grid) run() (*results, error) {
	cells := make([][]cell, len(g.CacheSizes))
	type job struct{ i, j int }
	jobs := make(chan job)
	errs := make([][]error, len(g.CacheSizes))
	for i, c := range g.CacheSizes {
		cells[i] = make([]cell, len(g.StripeUnits))
		errs[i] = make([]error, len(g.StripeUnits))
		for j, s := range g.StripeUnits {
			cells[i][j] = cell{StripeUnit: s, CacheSize: c}
		}
	}
	workers := g.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for jb := range jobs {
				c := &cells[jb.i][jb.j]
				c.Report, errs[jb.i][jb.j] = raidsim.Run(g.experiment(c.StripeUnit, c.CacheSize))
			}
		})
	}
	for i := range g.CacheSizes {
		for j := range g.StripeUnits {
			jobs <- job{i, j}
		}
	}
	close(jobs)
	wg.Wait()
	for i, row := range errs {
		for j, err := range row {
			if err != nil {
				return nil, fmt.Errorf("stripe unit %s, cache %s: %w",
					trace.FormatSize(g.StripeUnits[j]), cacheName(g.CacheSizes[i]), err)
			}
		}
	}
	return &results{grid: g, cells: cells}, nil
}

// results are a finished sweep.
type results struct {
	grid  grid
	cells [][]cell // [cache size][stripe unit]
}

// iops returns the IOPS of cache size i and stripe unit j.
func (r *results) iops(i, j int) float64 { return r.cells[i][j].Report.Total.All.IOPS }

// best returns the index of the stripe unit with the most IOPS at cache
// size i (the smallest unit on a tie).
func (r *results) best(i int) int {
	b := 0
	for j := range r.cells[i] {
		if r.iops(i, j) > r.iops(i, b) {
			b = j
		}
	}
	return b
}

// meanQueue returns the drives' time-weighted mean queue length (the
// requests in each drive's tagged queue and waiting for a tag), averaged
// over the drives.
func meanQueue(rep *raidsim.Report) float64 {
	var q float64
	for _, d := range rep.Disks {
		if d, ok := d.(*disk.Report); ok {
			q += d.MeanTaggedQueue + d.MeanHostQueue
		}
	}
	return q / float64(len(rep.Disks))
}

// meanSeek returns the drives' mean seek distance in cylinders.
func meanSeek(rep *raidsim.Report) float64 {
	var c float64
	for _, d := range rep.Disks {
		if d, ok := d.(*disk.Report); ok {
			c += d.MeanSeekCylinders
		}
	}
	return c / float64(len(rep.Disks))
}

// cacheName labels a cache size: "none" or "64MiB".
func cacheName(size int64) string {
	if size == 0 {
		return "none"
	}
	return trace.FormatSize(size)
}
