package main

import (
	"fmt"
	"strconv"

	"github.com/raidsim/raidsim/metrics"
	"github.com/raidsim/raidsim/plot"
	"github.com/raidsim/raidsim/trace"
)

// table renders one row per cell and a note on each effect the sweep
// shows, with the figures behind it.
func (r *results) table() metrics.Table {
	g := r.grid
	wl := g.Workload
	t := metrics.Table{
		Title: fmt.Sprintf("RAID 5 of %d %s (drive write cache off), %d%% reads, bssplit 8KiB/80:64KiB/20 random over %s, iodepth %d, %d requests per cell, seed %d",
			g.Disks, g.Drive, *wl.RWMixRead, trace.FormatSize(int64(wl.Size)), wl.IODepth, wl.IOs, g.Seed),
		Header: []string{"cache", "stripe unit", "IOPS", "mean ms", "read ms", "write ms", "p99 ms", "read hits", "stalled writes", "at risk"},
	}
	var maxRisk int64
	for _, row := range r.cells {
		for _, c := range row {
			rep := c.Report
			hits, stalls, risk := "-", "-", "-"
			if rep.Cache != nil {
				hits = metrics.FormatFixed(100*rep.Cache.ReadHitRatio, 1) + "%"
				stalls = strconv.FormatInt(rep.Cache.Stalls, 10)
				risk = mib(rep.Cache.DirtyAtEndBytes)
				maxRisk = max(maxRisk, rep.Cache.DirtyAtEndBytes)
			}
			t.AddRow(cacheName(c.CacheSize), trace.FormatSize(c.StripeUnit),
				metrics.FormatFixed(rep.Total.All.IOPS, 0), metrics.FormatSig(rep.Total.All.LatencyMS.Mean, 3),
				metrics.FormatSig(rep.Total.Read.LatencyMS.Mean, 3), metrics.FormatSig(rep.Total.Write.LatencyMS.Mean, 3),
				metrics.FormatFixed(rep.Total.All.LatencyMS.P99, 0), hits, stalls, risk)
		}
	}
	t.Notes = r.notes(maxRisk)
	return t
}

// notes explains the table. They assume the default grid's shape (no
// cache first, stripe units ascending) and describe what the figures
// show, so they stay true when the sizes change.
func (r *results) notes(maxRisk int64) []string {
	g := r.grid
	last, lastS := len(g.CacheSizes)-1, len(g.StripeUnits)-1
	unit := func(j int) string { return trace.FormatSize(g.StripeUnits[j]) }
	var notes []string
	if g.CacheSizes[0] == 0 {
		notes = append(notes, fmt.Sprintf(
			"Without a volume cache, larger stripe units give more IOPS: %.0f at %s, %.0f at %s. A 64 KiB request on %s chunks covers several chunks on different drives, so several drives seek for it; on %s chunks it usually stays on one, and the other drives serve other requests. 8 KiB requests stay on one drive either way, and every small write still costs RAID 5's four I/Os (read old data and parity, write both).",
			r.iops(0, 0), unit(0), r.iops(0, lastS), unit(lastS), unit(0), unit(lastS)))
		lo, hi := 1e18, 0.0
		for i := 1; i < len(g.CacheSizes); i++ {
			for j := range g.StripeUnits {
				gain := r.iops(i, j)/r.iops(0, j) - 1
				lo, hi = min(lo, gain), max(hi, gain)
			}
		}
		none, big := r.cells[0][0].Report, r.cells[last][0].Report
		raises := "A write-back cache raises IOPS at every stripe unit"
		if lo <= 0 {
			raises = "A write-back cache changes IOPS"
		}
		notes = append(notes, fmt.Sprintf(
			"%s, by %.0f%% to %.0f%%. Writes are acknowledged from memory (mean write latency %s ms without a cache, %s ms with %s, at %s) and destaged many at a time in LBA order: the drives hold %.1f requests on average against %.1f without a cache, so their command queueing finds nearer ones (mean seek %.0f against %.0f cylinders). The %s cache also serves %.0f%% of reads, about its share of the %s region.",
			raises, 100*lo, 100*hi, metrics.FormatSig(none.Total.Write.LatencyMS.Mean, 3), metrics.FormatSig(big.Total.Write.LatencyMS.Mean, 2), cacheName(g.CacheSizes[last]), unit(0),
			meanQueue(big), meanQueue(none), meanSeek(big), meanSeek(none), cacheName(g.CacheSizes[last]), 100*big.Cache.ReadHitRatio, trace.FormatSize(int64(g.Workload.Size))))
	}
	bests := ""
	for i := range g.CacheSizes {
		if i > 0 {
			bests += ", "
		}
		bests += fmt.Sprintf("%s with %s", unit(r.best(i)), cacheName(g.CacheSizes[i]))
	}
	small, large := r.cells[last][0].Report, r.cells[last][lastS].Report
	largestLoses := len(g.CacheSizes) > 1 && g.CacheSizes[0] == 0 && r.best(0) == lastS
	for i := 1; i < len(g.CacheSizes); i++ {
		largestLoses = largestLoses && r.best(i) != lastS
	}
	if largestLoses && large.Cache != nil && small.Cache != nil {
		notes = append(notes, fmt.Sprintf(
			"The best stripe unit depends on the cache (%s). With a cache the largest unit loses: RAID 5 makes a write wait for any earlier write to the same stripe, and LBA-ordered destages are neighbours, so on %s chunks (stripes of %s of data) they share stripes and queue behind one another. With %s the drives hold %.1f requests on average at %s against %.1f at %s, and %d writes stalled for room against %d. Small chunks avoid that but split the 64 KiB requests, so a middle size wins. (Destaging least recently written first, cache.OrderLRW, spreads the destages over stripes and gives the drives back their queues; the example's test checks it.)",
			bests, unit(lastS), trace.FormatSize(g.StripeUnits[lastS]*int64(g.Disks-1)), cacheName(g.CacheSizes[last]),
			meanQueue(small), unit(0), meanQueue(large), unit(lastS), small.Cache.Stalls, large.Cache.Stalls))
	} else {
		notes = append(notes, fmt.Sprintf("The best stripe unit for each cache size: %s.", bests))
	}
	// Data written against the largest cache: below a few times its size
	// the cached figures are mostly memory speed, not the steady state.
	written := r.cells[last][0].Report.Total.Write.Bytes
	steady := "The runs write several times the largest cache, so most of each figure is the steady state in which destaging sets the pace."
	if g.CacheSizes[last] > 0 && written < 3*g.CacheSizes[last] {
		steady = fmt.Sprintf("These runs write only %s, less than three times the largest cache: its figures are mostly memory speed, not the steady state. Run more requests (-ios) for a fair comparison.", mib(written))
	}
	notes = append(notes, fmt.Sprintf(
		"Part of a cache's speed is borrowed: \"at risk\" is data acknowledged but only in the cache's volatile memory when the run ended (up to %s), lost on a power failure and still to be written. %s",
		mib(maxRisk), steady))
	return notes
}

// heatMap draws the IOPS of every cell.
func (r *results) heatMap() plot.HeatMapFigure {
	g := r.grid
	f := plot.HeatMapFigure{
		Title:      fmt.Sprintf("RAID 5 x%d %s: IOPS, %d%% reads 8K/64K random", g.Disks, g.Drive, *g.Workload.RWMixRead),
		XLabel:     "stripe unit",
		YLabel:     "volume write-back cache",
		ValueLabel: "IOPS",
		Format:     func(v float64) string { return metrics.FormatFixed(v, 0) },
	}
	for _, s := range g.StripeUnits {
		f.XTicks = append(f.XTicks, trace.FormatSize(s))
	}
	for i, c := range g.CacheSizes {
		f.YTicks = append(f.YTicks, cacheName(c))
		row := make([]float64, len(g.StripeUnits))
		for j := range row {
			row[j] = r.iops(i, j)
		}
		f.Values = append(f.Values, row)
	}
	return f
}

// mib formats bytes as MiB with one decimal.
func mib(b int64) string { return metrics.FormatFixed(float64(b)/(1<<20), 1) + " MiB" }
