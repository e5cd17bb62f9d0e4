package spec

import (
	"cmp"
	"fmt"
	"strings"
	"time"

	"github.com/raidsim/raidsim/cache"
	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/drive"
	"github.com/raidsim/raidsim/faults"
	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/smr"
	"github.com/raidsim/raidsim/ssd"
	"github.com/raidsim/raidsim/trace"
)

// planStack plans the drive, the array, the failures, the cache and the
// host into pl, and reports whether the drive model is usable.
func planStack(p *problems, st *Stack, pl *Plan) bool {
	pl.SectorSize = 512
	var ok bool
	var m drive.Model
	switch k := driveKind(&st.Drive); k.Name {
	case ssd.KindName:
		m, ok = planSSD(p, &st.Drive)
	case disk.KindName:
		m, ok = planDrive(p, &st.Drive)
		if st.Drive.Precondition != "" && st.Drive.Precondition != "none" {
			p.add("stack.drive.precondition", "%q: only SSDs are preconditioned", st.Drive.Precondition)
			ok = false
		}
		if st.Drive.SSD != nil {
			p.add("stack.drive.ssd", "is an SSD's section; the drive is a disk (%s): give an SSD preset, or no preset", cmp.Or(st.Drive.Preset, "a data sheet"))
			ok = false
		}
	case smr.KindName:
		m, ok = planSMRDrive(p, &st.Drive)
	default:
		m, ok = planOtherDrive(p, &st.Drive, k)
	}
	if ok {
		pl.Drive, pl.SectorSize = m, m.SectorSize()
	}
	ss := int64(pl.SectorSize)
	n := st.Disks
	switch {
	case n < 0 || n > MaxDisks:
		p.checkBounds("stack.disks", int64(n))
	case st.RAID == nil && n > 1:
		p.add("stack.disks", "%d drives need a RAID level (stack.raid.level)", n)
	}
	switch {
	case st.RAID != nil && isRAIDZ(st.RAID.Level):
		pl.RAIDZ = planRAIDZ(p, st.RAID, n, ss)
	case st.RAID != nil:
		pl.RAID = planRAID(p, st.RAID, n, ss)
		refuseRAIDZKeys(p, st.RAID)
	}
	pl.Disks = max(n, 1)
	if n == 0 && pl.RAID != nil {
		pl.Disks = raid.MinMembers(pl.RAID.Level)
	}
	if n == 0 && pl.RAIDZ != nil {
		pl.Disks = pl.RAIDZ.Config.Parity + 2
	}
	planFailures(p, st, pl)
	planRebuild(p, st, pl)
	planFaults(p, st, pl)
	if st.Cache != nil {
		pl.Cache = planCache(p, st.Cache, pl, ss)
		if st.Cache.Device != nil {
			pl.CacheDevice = planCacheDevice(p, st.Cache.Device, pl.Cache)
		}
	}
	pl.DropFlushes = st.Host.Flushes != nil && !*st.Host.Flushes
	planHost(p, &st.Host, pl)
	return ok
}

// planRAID checks the array description against n drives of ss-byte
// sectors and returns its configuration, defaults filled.
func planRAID(p *problems, r *RAID, n int, ss int64) *raid.Config {
	const at = "stack.raid."
	var cfg raid.Config
	var err error
	if r.Level == "" {
		p.add(at+"level", "missing: give %s", orList(levelNames))
	} else if cfg.Level, err = raid.ParseLevel(r.Level); err != nil {
		p.add(at+"level", "%q is not a RAID level (want %s)", r.Level, orList(levelNames))
	} else if n > 0 && n <= MaxDisks {
		if minN := raid.MinMembers(cfg.Level); n < minN {
			p.add("stack.disks", "%v needs at least %d drives, got %d", cfg.Level, minN, n)
		}
		if cfg.Level == raid.RAID10 && n%2 != 0 {
			p.add("stack.disks", "RAID 10 needs an even number of drives, got %d", n)
		}
	}
	checkAligned(p, at+"stripe_unit", int64(r.StripeUnit), ss)
	if r.StripeUnit > maxCapacity {
		p.add(at+"stripe_unit", "%d bytes is more than %s", r.StripeUnit, trace.FormatSize(maxCapacity))
	}
	cfg.StripeUnit = int64(r.StripeUnit)
	if r.Layout != "" {
		if cfg.Layout, err = raid.ParseLayout(r.Layout); err != nil {
			p.badName(at+"layout", r.Layout)
		}
	}
	if r.RAID5Write != "" {
		if cfg.Raid5Write, err = raid.ParseWritePolicy(r.RAID5Write); err != nil {
			p.badName(at+"raid5_write", r.RAID5Write)
		}
	}
	if r.RAID6Write != "" {
		if cfg.Raid6Write, err = raid.ParseWritePolicy(r.RAID6Write); err != nil {
			p.badName(at+"raid6_write", r.RAID6Write)
		}
	}
	if r.ReadPolicy != "" {
		if cfg.ReadPolicy, err = raid.ParseReadPolicy(r.ReadPolicy); err != nil {
			p.add(at+"read_policy", "%q: %v", r.ReadPolicy, err)
		}
	}
	cfg.ParityRate, cfg.RebuildRate, cfg.RebuildMinRate = int64(r.ParityRate), int64(r.RebuildRate), int64(r.SpeedLimitMin)
	cfg = cfg.WithDefaults()
	if !p.under("stack.raid") {
		if err := cfg.Validate(); err != nil {
			p.addErr("stack.raid", err)
		}
	}
	return &cfg
}

// planFailures checks the member failures.
func planFailures(p *problems, st *Stack, pl *Plan) {
	if len(st.Failures) > maxList {
		p.add("stack.failures", "%d entries, more than %d", len(st.Failures), maxList)
		return
	}
	first := make(map[int]int) // member -> index of its first failure
	for i, f := range st.Failures {
		path := fmt.Sprintf("stack.failures[%d]", i)
		if st.RAID == nil {
			p.add(path, "failing a member needs an array (stack.raid)")
			continue
		}
		if f.Member < 0 || f.Member >= pl.Disks {
			p.add(path+".member", "%d is not a member index (0..%d)", f.Member, pl.Disks-1)
		} else if j, dup := first[f.Member]; dup {
			p.add(path+".member", "member %d already fails (stack.failures[%d]): a failed member cannot fail again", f.Member, j)
		} else {
			first[f.Member] = i
		}
		p.checkDuration(path+".at", time.Duration(f.At))
		pl.Failures = append(pl.Failures, raid.Failure{Member: f.Member, At: time.Duration(f.At)})
	}
}

// planCache checks the volume cache description and returns its
// configuration. Aligned to stripes, it takes the array's geometry.
func planCache(p *problems, c *Cache, pl *Plan, ss int64) *cache.Config {
	cfg := &cache.Config{
		Size: int64(c.Size), Block: int64(c.Block), MaxDirty: int64(c.MaxDirty), ReadAhead: int64(c.ReadAhead),
		HitLatency: time.Duration(c.HitLatency), CopyRate: int64(c.CopyRate),
		HighWater: c.HighWater, LowWater: c.LowWater,
		Interval: time.Duration(c.Interval), Wakeup: time.Duration(c.Wakeup), Idle: time.Duration(c.Idle),
		MaxDestageBytes: int64(c.MaxDestage), MaxOutstandingDestages: c.MaxOutstanding,
		NonVolatile: c.NonVolatile, NVIgnoresFlush: c.NVIgnoresFlush,
		NoReadCache:      c.ReadCache != nil && !*c.ReadCache,
		SequentialCutoff: int64(c.SequentialCutoff),
	}
	cfg.HighWater = highWater(c)
	checkCacheSizes(p, c, ss)
	checkCacheTimes(p, c)
	parseCacheNames(p, c, cfg, pl.RAID != nil)
	if cfg.Align == cache.AlignStripe && pl.RAID != nil {
		cfg.StripeUnit, cfg.DataMembers = pl.RAID.StripeUnit, pl.mapping().DataMembers()
	}
	if !p.under("stack.cache") {
		if err := cfg.WithDefaults().Validate(); err != nil {
			p.addErr("stack.cache", err)
		}
	}
	return cfg
}

// checkCacheSizes checks the cache's byte counts.
func checkCacheSizes(p *problems, c *Cache, ss int64) {
	const at = "stack.cache."
	if c.Size > maxCacheSize {
		p.add(at+"size", "%d bytes is more than %s", c.Size, trace.FormatSize(maxCacheSize))
	}
	checkAligned(p, at+"size", int64(c.Size), ss)
	checkAligned(p, at+"block", int64(c.Block), ss)
	size := cmp.Or(int64(c.Size), cache.DefaultSize)
	if c.Block > 0 && int64(c.Block) > size {
		p.add(at+"block", "%d bytes is larger than the %d-byte cache", c.Block, size)
	}
	if block := cmp.Or(int64(c.Block), cache.DefaultBlock); c.Size <= maxCacheSize && block > 0 && size/block > maxCacheBlocks {
		p.add(at+"size", "%s in %s blocks is %d blocks, more than %d: the cache keeps one index entry (about %d bytes) per extent, and random writes make one extent per block (raise block or lower size)",
			trace.FormatSize(size), trace.FormatSize(block), size/block, maxCacheBlocks, cacheExtentBytes)
	}
	checkAligned(p, at+"max_dirty", int64(c.MaxDirty), ss)
	if int64(c.MaxDirty) > size {
		p.add(at+"max_dirty", "%d bytes is more than the %d-byte cache", c.MaxDirty, size)
	}
	checkAligned(p, at+"read_ahead", int64(c.ReadAhead), ss)
	checkAligned(p, at+"max_destage", int64(c.MaxDestage), ss)
	if c.CopyRate < 0 {
		p.add(at+"copy_rate", "%d is negative", c.CopyRate)
	}
}

// checkCacheTimes checks the cache's times, fractions and counts.
func checkCacheTimes(p *problems, c *Cache) {
	const at = "stack.cache."
	for _, d := range []struct {
		key string
		v   Duration
	}{{"hit_latency", c.HitLatency}, {"interval", c.Interval}, {"wakeup", c.Wakeup}, {"idle", c.Idle}} {
		p.checkDuration(at+d.key, time.Duration(d.v))
	}
	p.checkBounds(at+"max_outstanding", int64(c.MaxOutstanding))
	p.checkFloat(at+"high_water", c.HighWater)
	lowOK := p.checkFloat(at+"low_water", c.LowWater)
	if high := highWater(c); lowOK && c.LowWater != 0 && c.LowWater >= high {
		p.add(at+"low_water", "%g must be below high_water %g", c.LowWater, high)
	}
}

// parseCacheNames reads the cache's enumerations into cfg.
func parseCacheNames(p *problems, c *Cache, cfg *cache.Config, overRAID bool) {
	const at = "stack.cache."
	var err error
	if c.Mode != "" {
		if cfg.Mode, err = cache.ParseMode(c.Mode); err != nil {
			p.badName(at+"mode", c.Mode)
		}
	}
	if c.Policy != "" {
		if cfg.Policy, err = cache.ParsePolicy(c.Policy); err != nil {
			p.badName(at+"policy", c.Policy)
		}
	}
	if c.Order != "" {
		if cfg.Order, err = cache.ParseOrder(c.Order); err != nil {
			p.badName(at+"order", c.Order)
		}
	}
	if c.Replacement != "" {
		if cfg.Replacement, err = cache.ParseReplacement(c.Replacement); err != nil {
			p.badName(at+"replacement", c.Replacement)
		}
	}
	align := c.Align
	if align == "" {
		align = "none"
		if overRAID {
			align = "stripe" // real controllers gather full stripes
		}
	}
	if cfg.Align, err = cache.ParseAlign(align); err != nil {
		p.badName(at+"align", c.Align)
	} else if cfg.Align == cache.AlignStripe && !overRAID {
		p.add(at+"align", "stripe alignment needs an array (stack.raid)")
	}
}

// highWater is the cache's high watermark: as given, or the default when
// only low_water is given (a low watermark alone keeps the default high
// one; a high watermark alone destages down to empty).
func highWater(c *Cache) float64 {
	if c.HighWater == 0 && c.LowWater != 0 {
		return cache.DefaultHighWater
	}
	return c.HighWater
}

// planRebuild checks the rebuild: an array with redundancy, a member
// that has failed by then.
func planRebuild(p *problems, st *Stack, pl *Plan) {
	rb := st.Rebuild
	if rb == nil {
		return
	}
	const at = "stack.rebuild"
	if (pl.RAID == nil || pl.RAID.Level == raid.RAID0) && pl.RAIDZ == nil {
		p.add(at, "a rebuild needs an array with redundancy (RAID 1, 5, 6, 10 or RAIDZ)")
		return
	}
	if rb.Drive != "" && !strings.EqualFold(rb.Drive, cmp.Or(st.Drive.Preset, DefaultPreset)) {
		pl.RebuildDrive = planRebuildDrive(p, rb.Drive, pl)
	}
	p.checkDuration(at+".at", time.Duration(rb.At))
	failed := false
	for _, f := range pl.Failures {
		failed = failed || f.Member == rb.Member && f.At <= time.Duration(rb.At)
	}
	if !failed {
		p.add(at+".member", "member %d has not failed by %v (stack.failures)", rb.Member, time.Duration(rb.At))
	}
	pl.Rebuild = &raid.Failure{Member: rb.Member, At: time.Duration(rb.At)}
	if pl.RAID != nil && pl.RAID.RebuildRate > 0 && pl.Drive != nil {
		member := pl.Drive.Capacity()
		if t := float64(member) / float64(pl.RAID.RebuildRate); t+time.Duration(rb.At).Seconds() >= sim.MaxInputTime.Seconds() {
			p.add("stack.raid.rebuild_rate", "%d bytes/s rebuilds a %d-byte member in %s, past the longest run (%.0f years): give a higher rate, or 0 for none",
				pl.RAID.RebuildRate, member, years(t), maxRunYears)
		}
	}
}

// planFaults checks the drives' media faults.
func planFaults(p *problems, st *Stack, pl *Plan) {
	f := st.Faults
	if f == nil {
		return
	}
	cfg := faults.Config{UREPerBit: f.URE, ERC: time.Duration(f.ERC), Timeout: time.Duration(f.Timeout), Recovery: time.Duration(f.Recovery),
		SlowFraction: f.SlowFraction, SlowDelay: time.Duration(f.SlowDelay), BadSectors: f.BadSectors}.WithDefaults()
	if err := cfg.Validate(0); err != nil {
		for _, line := range strings.Split(err.Error(), "\n") {
			field, msg, _ := strings.Cut(strings.TrimPrefix(line, "faults: Config."), ": ")
			field, _, _ = strings.Cut(field, "[")
			key := map[string]string{"UREPerBit": "ure", "ERC": "erc", "Timeout": "timeout", "Recovery": "recovery",
				"SlowFraction": "slow_fraction", "SlowDelay": "slow_delay", "BadSectors": "bad_sectors"}[field]
			p.add("stack.faults."+key, "%s", msg)
		}
	}
	pl.Faults = &cfg
}
