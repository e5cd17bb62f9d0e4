package disksim

import "github.com/raidsim/raidsim/disk/disksim/exact"

// The smart controller's parameters (controller type 3,
// disksim_ctlrsmart.c) and its memory cache's (disksim_cachemem.c,
// cachemem.modspec), as DiskSim's loader checks them.

var cacheMemSpecs = []pspec{
	{"Cache size", pInt, true, ""}, {"SLRU segments", pList, false, "Cache size"}, {"Line size", pInt, true, ""},
	{"Bit granularity", pInt, true, ""}, {"Lock granularity", pInt, true, ""}, {"Shared read locks", pInt, true, ""},
	{"Max request size", pInt, true, ""}, {"Replacement policy", pInt, true, ""}, {"Allocation policy", pInt, true, ""},
	{"Write scheme", pInt, true, ""}, {"Flush policy", pInt, true, ""}, {"Flush period", pFloat, true, ""},
	{"Flush idle delay", pFloat, true, ""}, {"Flush max line cluster", pInt, true, ""},
	{"Read prefetch type", pInt, true, ""}, {"Write prefetch type", pInt, true, ""},
	{"Line-by-line fetches", pInt, true, ""}, {"Max gather", pInt, true, ""},
}

// exactSmart reads a smart controller's queue length, pending count,
// Scheduler and Cache (ps, by table name) into c.Smart.
func (l *loader) exactSmart(b *Block, ps map[string]Param, c *exact.Controller) error {
	sc := &exact.SmartController{}
	c.Smart = sc
	p, ok := ps["Scheduler"]
	if !ok {
		return errAt(b.Pos, "%s %s: a smart controller (type 3) without a Scheduler: DiskSim follows a null pointer (ioqueue_copy in controller_smart_initialize)", b.Type, b.Name)
	}
	if err := l.exactQueue(p.Value.Block, &sc.Queue); err != nil {
		return err
	}
	if p, ok = ps["Cache"]; !ok {
		return errAt(b.Pos, "%s %s: a smart controller (type 3) without a Cache: DiskSim follows a null pointer (controller_smart_initialize)", b.Type, b.Name)
	}
	if err := l.exactCacheMem(p.Value.Block, &sc.Cache); err != nil {
		return err
	}
	n, _ := ps["Maximum queue length"].Value.Int()
	if n < 0 {
		return errAt(ps["Maximum queue length"].Pos, "Maximum queue length = %d: DiskSim accepts 0 or more", n)
	}
	sc.MaxOutstanding = int(n) + 1
	p, ok = ps["Max per-disk pending count"]
	if !ok {
		// the parameter is optional; controller_smart_initialize copies
		// the zeroed field, and no access ever goes to the disk
		return nil
	}
	n, _ = p.Value.Int()
	if n < 0 {
		return errAt(p.Pos, "Max per-disk pending count = %d: DiskSim accepts 0 or more", n)
	}
	sc.PendingCount = int(n)
	return nil
}

// exactCacheMem reads a disksim_cachemem block with DiskSim's checks
// (each parameter's range, then the granularities against the line
// size).
func (l *loader) exactCacheMem(b *Block, k *exact.CacheMem) error {
	if b.Type != "disksim_cachemem" {
		return errAt(b.Pos, "Cache: a %s block: exact mode simulates disksim_cachemem only", b.Type)
	}
	var line, bit, lock int64
	err := readBlock(b, cacheMemSpecs, func(name string, p Param) error {
		if name == "SLRU segments" {
			// cachemem_setup_segs counts a segment for each value
			k.SLRUSegments = len(p.Value.List)
			k.SLRUListGiven = true
			return nil
		}
		f, _ := p.Value.Float()
		n, _ := p.Value.Int()
		switch name {
		case "Cache size":
			k.Size = int(n)
			return ranged(p, f, 0, 1<<31-1)
		case "Line size":
			line = n
			k.LineSize = int(n)
			return ranged(p, f, 0, 1<<31-1)
		case "Bit granularity":
			bit = n
			k.BitGranularity = int(n)
			return ranged(p, f, 1, 1<<31-1)
		case "Lock granularity":
			lock = n
			k.LockGranularity = int(n)
			return ranged(p, f, 1, 1<<31-1)
		case "Max request size":
			k.MaxRequestSize = int(n)
			return ranged(p, f, 0, 1<<31-1)
		case "Shared read locks":
			k.SharedReadLocks = n == 1
			return ranged(p, f, 0, 1)
		case "Allocation policy":
			k.AllocateNonDirty = n == 1
			return ranged(p, f, 0, 1)
		case "Line-by-line fetches":
			k.LineByLine = n == 1
			return ranged(p, f, 0, 1)
		case "Replacement policy":
			k.Replacement = int(n)
			return ranged(p, f, 1, 4)
		case "Write scheme":
			k.WriteScheme = int(n)
			return ranged(p, f, 1, 3)
		case "Flush policy":
			k.FlushPolicy = int(n)
			return ranged(p, f, 0, 1)
		case "Flush period":
			k.FlushPeriod = f
			return ranged(p, f, 0, 1e300)
		case "Flush idle delay":
			k.FlushIdleDelay = f
			if f != -1 {
				return ranged(p, f, 0, 1e300)
			}
		case "Flush max line cluster":
			k.FlushMaxLineCluster = int(n)
			return ranged(p, f, 0, 1<<31-1)
		case "Max gather":
			k.MaxGather = int(n)
			return ranged(p, f, 0, 1<<31-1)
		case "Read prefetch type":
			k.ReadPrefetch = int(n)
			return ranged(p, f, 0, 3)
		case "Write prefetch type":
			k.WritePrefetch = int(n)
			return ranged(p, f, 0, 3)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if line%bit != 0 {
		return errAt(b.Pos, "%s: Line size = %d is not a multiple of Bit granularity = %d: DiskSim rejects it", b.Type, line, bit)
	}
	if line%lock != 0 {
		return errAt(b.Pos, "%s: Line size = %d is not a multiple of Lock granularity = %d: DiskSim rejects it", b.Type, line, lock)
	}
	return nil
}
