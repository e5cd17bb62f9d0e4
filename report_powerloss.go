package raidsim

import (
	"fmt"
	"strings"

	"github.com/raidsim/raidsim/drive"
	"github.com/raidsim/raidsim/metrics"
	"github.com/raidsim/raidsim/trace"
)

// The power-loss view for people: what a failure loses (acknowledged
// data that was only in volatile memory, named by range) kept apart from
// what it leaves inconsistent (RAID stripes mid-update), each line
// explained in words.

// LostRange is a byte range of a layer's address space.
type LostRange struct {
	// Offset is the first byte, from the start of the layer's device
	// (the volume for a cache, the drive for a drive).
	Offset int64 `json:"offset_bytes"`
	// Length is the number of bytes.
	Length int64 `json:"length_bytes"`
}

// LostRanges names what a power failure loses in one layer.
type LostRanges struct {
	// Layer names the layer ("page cache", "volume cache", "disk0").
	Layer string `json:"layer"`
	// First are the first lost ranges in address order, touching ranges
	// merged; Count is how many there are in all.
	First []LostRange `json:"first"`
	Count int         `json:"count"`
}

// lostRangesShown is how many ranges a report names per layer.
const lostRangesShown = 3

// lostRanges lists, for each layer that would lose data now, its first
// lost ranges.
func lostRanges(s *Stack) []LostRanges {
	var out []LostRanges
	add := func(layer string, n int, at func(i int) (off, length int64)) {
		if n == 0 {
			return
		}
		lr := LostRanges{Layer: layer, Count: n}
		for i := range min(n, lostRangesShown) {
			off, l := at(i)
			lr.First = append(lr.First, LostRange{off, l})
		}
		out = append(out, lr)
	}
	if h := s.Host; h != nil && h.PageCache() != nil {
		first, n := h.PageCache().DirtyExtents(lostRangesShown)
		add("page cache", n, func(i int) (int64, int64) { return first[i].Offset, first[i].Length })
	}
	if c := s.Cache; c != nil && !c.Config().NonVolatile && c.Device() == nil {
		first, n := c.DirtyExtents(lostRangesShown)
		add("volume cache", n, func(i int) (int64, int64) { return first[i].Offset, first[i].Length })
	}
	for _, d := range s.Drives {
		if l, ok := d.(drive.DirtyExtentLister); ok {
			first, n := l.DirtyExtents(lostRangesShown)
			add(d.Name(), n, func(i int) (int64, int64) { return first[i].Offset, first[i].Length })
		}
	}
	return out
}

// powerLossTables are what a power failure would have lost, layer by
// layer, and what it would have left inconsistent.
func (r *Report) powerLossTables() []*metrics.Table {
	pl := r.PowerLoss
	if pl == nil {
		return nil
	}
	lost := &metrics.Table{
		Title: fmt.Sprintf("\nPower loss at %s s. Acknowledged data lost: writes the layer above was told were done, "+
			"held only in volatile memory", metrics.FormatFixed(pl.AtSeconds, 3)),
		Header: []string{"layer", "lost KiB", "ranges lost (offset+length in bytes from the layer's start)", "why"},
	}
	ranges := map[string]LostRanges{}
	for _, lr := range pl.LostRanges {
		ranges[lr.Layer] = lr
	}
	row := func(layer string, bytes int64, why string) {
		lost.AddRow(layer, kib(bytes), describeRanges(ranges[layer]), why)
	}
	if r.Host != nil && (r.Host.PageCacheBytes > 0 || pl.PageCacheBytes > 0) {
		row("page cache", pl.PageCacheBytes, "programs wrote it; the OS had not written it back")
	}
	if c := r.Cache; c != nil {
		why := "the volume cache acknowledged it to the host and had not destaged it"
		if c.NonVolatile {
			why = fmt.Sprintf("none: the cache is non-volatile and keeps its %s of dirty data, written out on restart",
				trace.FormatSize(pl.VolumeCacheKept))
		}
		if pl.CacheDeviceBytes != nil {
			why = fmt.Sprintf("none: its %s of dirty data and its journal are on its cache device", trace.FormatSize(pl.VolumeCacheKept))
		}
		row("volume cache", pl.VolumeCacheBytes, why)
		if b := pl.CacheDeviceBytes; b != nil {
			why := "the cache device's volatile write buffer held it (acknowledged data and journal not yet on flash)"
			if *b == 0 {
				why = "none: the cache device's write buffer was empty or survives (power-loss protection)"
			}
			row("cache device", *b, why)
		}
	}
	for i, b := range pl.DriveCacheBytes {
		name := fmt.Sprintf("disk%d", i)
		if i < len(r.Disks) {
			name = r.Disks[i].Common().Name
		}
		row(name, b, r.driveLossWhy(i, b))
	}
	lost.AddRow("total", kib(pl.LostBytes), "", "acknowledged bytes that would read back as older data")
	tables := []*metrics.Table{lost}
	if c := pl.Contents; c != nil {
		tables = append(tables, contentsTable(c))
	}
	if r.RAID != nil {
		tables = append(tables, &metrics.Table{
			Title:  "\nStripes left inconsistent (the RAID write hole): not lost data, but redundancy that may no longer match",
			Header: []string{"layer", "updates", "why"},
			Rows: [][]string{{"array", fmt.Sprint(pl.RAIDUpdatesInFlight),
				"stripes whose new data and parity (or writes whose mirror copies) were being written: some may have landed, some not"}},
			Notes: []string{"An inconsistent stripe reads back correctly while every drive works. If a drive then " +
				"fails, the array rebuilds its chunk from the stale parity and gets wrong data, silently: the write " +
				"hole. A resync after the crash (md recomputes parity) or a write journal closes it."},
		})
	}
	return tables
}

// driveLossWhy says why drive i loses b bytes, or why none.
func (r *Report) driveLossWhy(i int, b int64) string {
	if i < len(r.Disks) {
		return r.Disks[i].PowerLossWhy(b)
	}
	return "the drive reported the write done from its write cache; not yet on the platters"
}

// describeRanges writes the first lost ranges and how many there are.
func describeRanges(lr LostRanges) string {
	if lr.Count == 0 {
		return "-"
	}
	parts := make([]string, len(lr.First))
	for i, x := range lr.First {
		parts[i] = fmt.Sprintf("%d+%d", x.Offset, x.Length)
	}
	s := strings.Join(parts, ", ")
	if lr.Count > len(lr.First) {
		s += fmt.Sprintf(" and %d more", lr.Count-len(lr.First))
	}
	return s
}

// contentsTable is what the power loss did to the array's bytes
// (--check-contents).
func contentsTable(c *ContentsReport) *metrics.Table {
	var ranges []string
	ranges = append(ranges, c.WrongRanges...)
	if c.WrongRangeCount > len(c.WrongRanges) {
		ranges = append(ranges, fmt.Sprintf("... (%d ranges)", c.WrongRangeCount))
	}
	var stripes []string
	for _, s := range c.InconsistentStripes {
		stripes = append(stripes, fmt.Sprint(s))
	}
	if c.Inconsistent > len(c.InconsistentStripes) {
		stripes = append(stripes, fmt.Sprintf("... (%d stripes)", c.Inconsistent))
	}
	return &metrics.Table{
		Title: fmt.Sprintf("\nContents after the power loss (--check-contents): %d writes with real bytes, %d acknowledged, the members' bytes read back",
			c.Writes, c.Acked),
		Header: []string{"check", "count", "where"},
		Rows: [][]string{
			{"acknowledged writes lost", fmt.Sprint(c.LostWrites), "none of their bytes on the members"},
			{"writes torn", fmt.Sprint(c.TornWrites), "some sectors new, some old (acknowledged or in flight)"},
			{"bytes wrong", fmt.Sprint(c.WrongBytes), strings.Join(ranges, " ")},
			{"stripes inconsistent", fmt.Sprint(c.Inconsistent), strings.Join(stripes, " ")},
		},
		Notes: []string{"Wrong bytes read back neither the last acknowledged write's bytes nor an in-flight write's. " +
			"An inconsistent stripe's parity or copies disagree with its data: it reads back right until a member fails."},
	}
}
