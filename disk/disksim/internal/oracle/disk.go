package oracle

import (
	"strconv"
)

// diskFlags are disksim_disk's 0/1 parameters (Print stats aside).
var diskFlags = []string{
	"Hold bus entire read xfer", "Hold bus entire write xfer", "Allow almost read hits",
	"Allow sneaky full read hits", "Allow sneaky partial read hits", "Allow sneaky intermediate read hits",
	"Allow read hits on write data", "Allow write prebuffering", "Never disconnect",
	"Use separate write segment", "Set watermark by reqsize", "Calc sector by sector",
	"Read-ahead on idle hit", "Read any free blocks", "Combine seq writes", "Stop prefetch in sector",
	"Disconnect write if seek", "Write hit stop prefetch", "Read directly to buffer",
	"Immed transfer partial hit", "Extra write disconnect",
}

// diskOverheads are disksim_disk's times (ms, scaled by the time scale
// where DiskSim scales them).
var diskOverheads = []string{
	"Per-request overhead time",
	"Read hit over. after read", "Read hit over. after write", "Read miss over. after read",
	"Read miss over. after write", "Write hit over. after read", "Write hit over. after write",
	"Write miss over. after read", "Write miss over. after write", "Read completion overhead",
	"Write completion overhead", "Data preparation overhead", "First reselect overhead",
	"Other reselect overhead", "Read disconnect afterread", "Read disconnect afterwrite",
	"Write disconnect overhead", "Extradisc command overhead", "Extradisc disconnect overhead",
	"Extradisc inter-disconnect delay", "Extradisc 2nd disconnect overhead", "Extradisc seek delta",
	"Minimum seek delay",
}

// disk sets the disksim_disk parameters: every flag either way, every
// level, the buffer's segments, water marks and read-ahead, and the
// overheads zero, small or large. The values DiskSim's post-load checks
// reject (disk_postpass_perdisk) are mostly fixed up so that the pair
// runs; about one model in forty keeps them, to check that raidsim
// rejects what DiskSim rejects.
func (g *gen) disk(m *Model) {
	sectors := m.BlockCount
	bpt, _ := strconv.Atoi(Get(m.Zones[0].KV, "Blocks per track"))
	v := map[string]string{}
	for _, f := range diskFlags {
		v[f] = g.flag(f)
	}
	for _, o := range diskOverheads {
		v[o] = g.ms(o, 1.0)
	}
	v["Max queue length"] = g.pick("max queue length", "8", "0", "1", "20")
	v["Bulk sector transfer time"] = g.ms("disk bulk sector time", 0.1)
	v["Time scale for overheads"] = g.pick("time scale", "1.0", "0.0", "0.5", "2.0")
	segs, _ := strconv.Atoi(g.pick("buffer segments", "4", "1", "2", "11"))
	v["Number of buffer segments"] = strconv.Itoa(segs)
	v["Maximum number of write segments"] = strconv.Itoa(1 + g.r.IntN(segs))
	var seg int
	switch g.pick("segment size", "tracks", "small", "track", "disk") {
	case "small":
		seg = 64 + g.r.IntN(64)
		if g.wild {
			seg = 1 + g.r.IntN(8)
		}
	case "track":
		seg = bpt/2 + g.r.IntN(bpt)
	case "tracks":
		seg = bpt * (2 + g.r.IntN(8))
	default:
		seg = sectors // made the mapped blocks by fitSegmentToDisk
	}
	seg = max(1, min(seg, sectors))
	v["Segment size (in blks)"] = strconv.Itoa(seg)
	v["Preseeking level"] = g.pick("preseeking level", "0", "1", "2")
	v["Avg sectors per cylinder"] = strconv.Itoa(max(1, min(sectors, bpt*m.Surfaces)))
	water := func(name string) string {
		switch g.pick(name, "fraction", "zero", "one") {
		case "zero":
			return "0.0"
		case "one":
			return "1.0"
		}
		return f6(g.r.Float64())
	}
	v["Low (write) water mark"] = water("low water mark")
	v["High (read) water mark"] = water("high water mark")
	v["Enable caching in buffer"] = g.pick("caching", "1", "0", "2")
	v["Buffer continuous read"] = g.pick("continuous read", "1", "0", "2", "3", "4")
	ra := func(name string) string {
		switch g.pick(name, "some", "zero", "segment") {
		case "zero":
			return "0"
		case "segment":
			return strconv.Itoa(seg)
		}
		return strconv.Itoa(g.r.IntN(seg + 1))
	}
	v["Minimum read-ahead (blks)"] = ra("minimum read-ahead")
	v["Maximum read-ahead (blks)"] = ra("maximum read-ahead")
	v["Read-ahead over requested"] = g.pick("read-ahead over requested", "0", "-1", "1")
	v["Fast write level"] = g.pick("fast write level", "1", "0", "2")
	v["Immediate buffer read"] = g.pick("immediate buffer read", "0", "1", "2")
	v["Immediate buffer write"] = g.pick("immediate buffer write", "0", "1", "2")

	if g.r.IntN(40) != 0 {
		// what disk_postpass_perdisk would reject
		if v["Buffer continuous read"] != "0" || v["Read any free blocks"] != "0" || v["Fast write level"] != "0" {
			if v["Enable caching in buffer"] == "0" {
				v["Enable caching in buffer"] = "1"
			}
		}
		if v["Hold bus entire read xfer"] == "1" {
			for _, f := range []string{"Allow sneaky full read hits", "Allow sneaky partial read hits", "Allow sneaky intermediate read hits"} {
				v[f] = "0"
			}
		}
		if segs <= 1 {
			v["Use separate write segment"] = "0"
		}
		if Get(m.Driver, "Use queueing in subsystem") == "1" && v["Max queue length"] == "0" {
			// nothing is ever sent to the disk
			v["Max queue length"] = "1"
		}
	}

	// the order of the manual (and of DiskSim's table): Model and the
	// Scheduler go in where Files puts them.
	order := []string{"Max queue length", "Bulk sector transfer time", "Segment size (in blks)",
		"Number of buffer segments", "Print stats", "Per-request overhead time", "Time scale for overheads",
		"Hold bus entire read xfer", "Hold bus entire write xfer", "Allow almost read hits",
		"Allow sneaky full read hits", "Allow sneaky partial read hits", "Allow sneaky intermediate read hits",
		"Allow read hits on write data", "Allow write prebuffering", "Preseeking level", "Never disconnect",
		"Avg sectors per cylinder", "Maximum number of write segments", "Use separate write segment",
		"Low (write) water mark", "High (read) water mark", "Set watermark by reqsize", "Calc sector by sector",
		"Enable caching in buffer", "Buffer continuous read", "Minimum read-ahead (blks)",
		"Maximum read-ahead (blks)", "Read-ahead over requested", "Read-ahead on idle hit",
		"Read any free blocks", "Fast write level", "Combine seq writes", "Stop prefetch in sector",
		"Disconnect write if seek", "Write hit stop prefetch", "Read directly to buffer",
		"Immed transfer partial hit", "Read hit over. after read", "Read hit over. after write",
		"Read miss over. after read", "Read miss over. after write", "Write hit over. after read",
		"Write hit over. after write", "Write miss over. after read", "Write miss over. after write",
		"Read completion overhead", "Write completion overhead", "Data preparation overhead",
		"First reselect overhead", "Other reselect overhead", "Read disconnect afterread",
		"Read disconnect afterwrite", "Write disconnect overhead", "Extra write disconnect",
		"Extradisc command overhead", "Extradisc disconnect overhead", "Extradisc inter-disconnect delay",
		"Extradisc 2nd disconnect overhead", "Extradisc seek delta", "Minimum seek delay",
		"Immediate buffer read", "Immediate buffer write"}
	g.outOfRange(v, sectors)
	v["Print stats"] = "0"
	m.Disk = nil
	for _, k := range order {
		m.Disk = append(m.Disk, KV{k, v[k]})
	}
	m.DiskModelFirst = g.pick("disk model first", "yes", "no") == "yes"
}

// fitSegmentToDisk makes a "disk" segment size the disk's mapped
// blocks as DiskSim counts them (the bound it checks the size against),
// with the read-ahead limits within it.
func fitSegmentToDisk(m *Model) {
	seg, _ := strconv.Atoi(Get(m.Disk, "Segment size (in blks)"))
	t := *m
	t.Disk = Set(append([]KV(nil), m.Disk...), "Segment size (in blks)", "1")
	for _, k := range []string{"Minimum read-ahead (blks)", "Maximum read-ahead (blks)"} {
		t.Disk = Set(t.Disk, k, "0")
	}
	em, err := LoadFiles(t.Files())
	if err != nil {
		return
	}
	n, err := em.Sectors()
	if err != nil || n >= seg {
		return
	}
	m.Disk = Set(m.Disk, "Segment size (in blks)", strconv.Itoa(n))
	for _, k := range []string{"Minimum read-ahead (blks)", "Maximum read-ahead (blks)"} {
		if v, _ := strconv.Atoi(Get(m.Disk, k)); v > n {
			m.Disk = Set(m.Disk, k, strconv.Itoa(n))
		}
	}
}

// looseFlags are the flags DiskSim takes any value of (tested for
// non-zero; disk_postpass_perdisk checks the others).
var looseFlags = []string{
	"Set watermark by reqsize", "Calc sector by sector", "Read any free blocks", "Stop prefetch in sector",
	"Disconnect write if seek", "Write hit stop prefetch", "Read directly to buffer",
	"Immed transfer partial hit", "Extra write disconnect",
}

// outOfRange gives one parameter a value outside the range disk.modspec
// states: DiskSim's generated loaders test the range and do nothing
// when it fails, so the model loads and runs (disk_postpass_perdisk's
// checks aside).
func (g *gen) outOfRange(v map[string]string, sectors int) {
	seg, _ := strconv.Atoi(v["Segment size (in blks)"])
	switch g.pick("out-of-range value", "none", "negative overhead", "water mark", "continuous read",
		"caching", "immediate", "read-ahead over requested", "read-ahead", "avg sectors per cylinder", "flag") {
	case "negative overhead":
		k := append(diskOverheads, "Bulk sector transfer time", "Time scale for overheads")[g.r.IntN(len(diskOverheads)+2)]
		v[k] = f6(-0.5 * g.r.Float64())
	case "water mark":
		k := []string{"Low (write) water mark", "High (read) water mark"}[g.r.IntN(2)]
		v[k] = []string{f6(1 + g.r.Float64()), f6(-g.r.Float64())}[g.r.IntN(2)]
	case "continuous read":
		v["Buffer continuous read"] = strconv.Itoa([]int{5, 9, -1}[g.r.IntN(3)])
		if v["Enable caching in buffer"] == "0" {
			v["Enable caching in buffer"] = "1"
		}
	case "caching":
		v["Enable caching in buffer"] = strconv.Itoa([]int{3, -1}[g.r.IntN(2)])
	case "immediate":
		k := []string{"Immediate buffer read", "Immediate buffer write"}[g.r.IntN(2)]
		v[k] = strconv.Itoa([]int{3, -1}[g.r.IntN(2)])
	case "read-ahead over requested":
		v["Read-ahead over requested"] = strconv.Itoa([]int{2, -3}[g.r.IntN(2)])
	case "read-ahead":
		k := []string{"Minimum read-ahead (blks)", "Maximum read-ahead (blks)"}[g.r.IntN(2)]
		v[k] = strconv.Itoa(seg + 1 + g.r.IntN(seg+1))
	case "avg sectors per cylinder":
		v["Avg sectors per cylinder"] = strconv.Itoa([]int{0, 10*sectors + 7}[g.r.IntN(2)])
	case "flag":
		v[looseFlags[g.r.IntN(len(looseFlags))]] = strconv.Itoa([]int{2, -1}[g.r.IntN(2)])
	}
}
