package raidsim

import (
	"cmp"
	"fmt"
	"strings"
	"time"

	"github.com/raidsim/raidsim/cache"
	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/trace"
)

// DefaultPreset is the drive a config runs on when it names none: the
// notebook drive of scenario S1.
const DefaultPreset = "travelstar-7k500"

// Bounds on values, so that a typo is an error rather than a run that
// allocates or takes forever.
const (
	maxCapacity    = 1 << 50 // 1 PiB per drive
	maxCacheSize   = 1 << 40 // 1 TiB of volume cache
	maxIOs         = 1 << 32 // requests per phase
	maxHeads       = 256
	maxRPM         = 100000
	maxStartDelay  = 24 * time.Hour
	maxFailureTime = 365 * 24 * time.Hour
	maxBackground  = 64 // background jobs of a phase
)

// plan is a config compiled into what runPhases takes.
type plan struct {
	x      Experiment
	phases []phase
	host   hostOptions
}

// Validate reports every problem with c at once in a *ConfigError, each
// naming its key path (`stack.raid.stripe_unit: 3000 is not a multiple
// of 512`), including workloads that do not fit the stack's capacity.
func (c *Config) Validate() error {
	_, err := c.compile()
	return err
}

// compile checks c and turns it into an Experiment (the stack) and
// phases.
func (c *Config) compile() (*plan, error) {
	var p problems
	pl := &plan{x: Experiment{Seed: c.Seed, PowerLossAt: time.Duration(c.PowerLossAt)}}
	if c.PowerLossAt < 0 {
		p.add("power_loss_at", "%v is negative", time.Duration(c.PowerLossAt))
	}
	st := &c.Stack
	drive, driveOK := compileDrive(&p, &st.Drive)
	pl.x.Drive = drive
	ss := int64(512)
	if driveOK && drive.SectorSize > 0 {
		ss = int64(drive.SectorSize)
	}
	// Disks and RAID.
	n := st.Disks
	switch {
	case n < 0:
		p.add("stack.disks", "%d is negative", n)
	case n > maxDisks:
		p.add("stack.disks", "%d is more than %d", n, maxDisks)
	case st.RAID == nil && n > 1:
		p.add("stack.disks", "%d drives need a RAID level (stack.raid.level)", n)
	}
	if st.RAID != nil {
		r := st.RAID
		var cfg raid.Config
		var err error
		if r.Level == "" {
			p.add("stack.raid.level", "missing: give 0, 1, 5 or 10")
		} else if cfg.Level, err = raid.ParseLevel(r.Level); err != nil {
			p.add("stack.raid.level", "%q is not a RAID level (want 0, 1, 5 or 10)", r.Level)
		} else if n > 0 && n <= maxDisks {
			if minN := raid.MinMembers(cfg.Level); n < minN {
				p.add("stack.disks", "%v needs at least %d drives, got %d", cfg.Level, minN, n)
			}
			if cfg.Level == raid.RAID10 && n%2 != 0 {
				p.add("stack.disks", "RAID 10 needs an even number of drives, got %d", n)
			}
		}
		cfg.StripeUnit = int64(r.StripeUnit)
		checkAligned(&p, "stack.raid.stripe_unit", int64(r.StripeUnit), ss)
		if r.StripeUnit > maxCapacity {
			p.add("stack.raid.stripe_unit", "%d bytes is absurdly large", r.StripeUnit)
		}
		if r.Layout != "" {
			if cfg.Layout, err = raid.ParseLayout(r.Layout); err != nil {
				p.add("stack.raid.layout", "%q: want left-symmetric, left-asymmetric, right-symmetric or right-asymmetric", r.Layout)
			}
		}
		if r.RAID5Write != "" {
			if cfg.Raid5Write, err = raid.ParseWritePolicy(r.RAID5Write); err != nil {
				p.add("stack.raid.raid5_write", "%q: want auto, rmw or rcw", r.RAID5Write)
			}
		}
		if r.ReadPolicy != "" {
			if cfg.ReadPolicy, err = raid.ParseReadPolicy(r.ReadPolicy); err != nil {
				p.add("stack.raid.read_policy", "%s", trimPkg(err))
			}
		}
		cfg.ParityRate, cfg.RebuildRate = int64(r.ParityRate), int64(r.RebuildRate)
		pl.x.RAID = &cfg
	}
	pl.x.Disks = n
	members := max(n, 1)
	if n == 0 && pl.x.RAID != nil {
		members = raid.MinMembers(pl.x.RAID.Level)
	}
	for i, f := range st.Failures {
		path := fmt.Sprintf("stack.failures[%d]", i)
		if st.RAID == nil {
			p.add(path, "failing a member needs an array (stack.raid)")
			continue
		}
		if f.Member < 0 || f.Member >= members {
			p.add(path+".member", "%d is not a member index (0..%d)", f.Member, members-1)
		}
		if f.At < 0 || time.Duration(f.At) > maxFailureTime {
			p.add(path+".at", "%v is outside 0..%v", time.Duration(f.At), maxFailureTime)
		}
		pl.x.Failures = append(pl.x.Failures, raid.Failure{Member: f.Member, At: time.Duration(f.At)})
	}
	if st.Cache != nil {
		pl.x.Cache = compileCache(&p, st.Cache, st.RAID != nil, ss)
	}
	if st.Host.Flushes != nil && !*st.Host.Flushes {
		pl.host.dropFlushes = true
	}
	// Phases.
	if len(c.Phases) == 0 {
		p.add("phases", "no phases: give at least one workload")
	}
	names := make(map[string]int)
	for i := range c.Phases {
		ph := compilePhase(&p, fmt.Sprintf("phases[%d]", i), &c.Phases[i], i, ss)
		if j, dup := names[ph.name]; dup {
			p.add(fmt.Sprintf("phases[%d].name", i), "%q is also the name of phases[%d]", ph.name, j)
		}
		names[ph.name] = i
		pl.phases = append(pl.phases, ph)
	}
	if p.under("stack") {
		return nil, p.err(c.source)
	}
	// Build the stack once to learn its capacity, and check what only the
	// devices know.
	s, err := pl.x.BuildStack(sim.NewEngine(c.Seed), "")
	if err != nil {
		p.addLines("stack", err)
		return nil, p.err(c.source)
	}
	capacity, sector := s.Top.Capacity(), s.Top.SectorSize()
	for i := range pl.phases {
		ph := &pl.phases[i]
		path := fmt.Sprintf("phases[%d]", i)
		if ph.trace == nil && !p.under(path) {
			checkRegion(&p, path, &c.Phases[i], capacity)
			if err := ph.workload.WithDefaults().Validate(capacity, sector); err != nil && !p.under(path) {
				p.addLines(path, err)
			}
			for j, bw := range ph.background {
				bp := fmt.Sprintf("%s.background[%d]", path, j)
				checkRegion(&p, bp, &c.Phases[i].Background[j], capacity)
				if err := bw.WithDefaults().Validate(capacity, sector); err != nil && !p.under(bp) {
					p.addLines(bp, err)
				}
			}
		}
	}
	if len(p) > 0 {
		return nil, p.err(c.source)
	}
	return pl, nil
}

// maxLines bounds the lines of one lower-level error reported at a path.
const maxLines = 8

// addLines reports each line of err (errors.Join's) at path, without its
// package prefix, at most maxLines of them.
func (p *problems) addLines(path string, err error) {
	lines := strings.Split(err.Error(), "\n")
	for i, line := range lines {
		if i == maxLines {
			p.add(path, "... and %d more", len(lines)-i)
			break
		}
		for _, pkg := range []string{"raidsim: ", "disk: ", "raid: ", "cache: ", "trace: "} {
			line = strings.TrimPrefix(line, pkg)
		}
		p.add(path, "%s", line)
	}
}

// trimPkg drops a "pkg: " prefix from an error message.
func trimPkg(err error) string {
	s := err.Error()
	if i := strings.Index(s, ": "); i > 0 && !strings.ContainsAny(s[:i], " \"") {
		return s[i+2:]
	}
	return s
}

// checkAligned reports a size that is negative or not a multiple of the
// sector size.
func checkAligned(p *problems, path string, v, ss int64) {
	if v < 0 {
		p.add(path, "%d is negative", v)
	} else if v%ss != 0 {
		p.add(path, "%d is not a multiple of %d", v, ss)
	}
}

// compileDrive builds the drive's Params from a preset, a spec and
// overrides.
func compileDrive(p *problems, d *DriveConfig) (disk.Params, bool) {
	before := len(*p)
	var spec disk.Spec
	preset := d.Preset
	if preset == "" && d.Spec == nil {
		preset = DefaultPreset
	}
	if preset != "" {
		var err error
		if spec, err = disk.PresetSpec(preset); err != nil {
			p.add("stack.drive.preset", "unknown preset %q (known: %s)", preset, strings.Join(disk.PresetNames(), ", "))
			return disk.Params{}, false
		}
	}
	if s := d.Spec; s != nil {
		over := func(dst *int, v int, path string, lo, hi int) {
			if v == 0 {
				return
			}
			if v < lo || v > hi {
				p.add("stack.drive.spec."+path, "%d is outside %d..%d", v, lo, hi)
				return
			}
			*dst = v
		}
		overF := func(dst *float64, v float64, path string) {
			if v == 0 {
				return
			}
			if v < 0 || v > 1e6 {
				p.add("stack.drive.spec."+path, "%g MB/s is outside 0..1e6", v)
				return
			}
			*dst = v * 1e6
		}
		overD := func(dst *time.Duration, v Duration, path string) {
			if v == 0 {
				return
			}
			if v < 0 || time.Duration(v) > time.Minute {
				p.add("stack.drive.spec."+path, "%v is outside 0..1m", time.Duration(v))
				return
			}
			*dst = time.Duration(v)
		}
		if s.Name != "" {
			spec.Name = s.Name
		}
		if s.Capacity != 0 {
			if s.Capacity > maxCapacity {
				p.add("stack.drive.spec.capacity", "%d bytes is more than %s", s.Capacity, trace.FormatSize(maxCapacity))
			} else {
				spec.Capacity = int64(s.Capacity)
			}
		}
		if s.SectorSize != 0 && s.SectorSize != 512 && s.SectorSize != 4096 {
			p.add("stack.drive.spec.sector_size", "%d: want 512 or 4096", s.SectorSize)
		} else if s.SectorSize != 0 {
			spec.SectorSize = s.SectorSize
		}
		over(&spec.RPM, s.RPM, "rpm", 1, maxRPM)
		over(&spec.Heads, s.Heads, "heads", 1, maxHeads)
		over(&spec.Zones, s.Zones, "zones", 1, 1000)
		overF(&spec.OuterSustained, s.OuterSustained, "outer_sustained")
		overF(&spec.InnerSustained, s.InnerSustained, "inner_sustained")
		overF(&spec.OuterInstant, s.OuterInstant, "outer_instant")
		overF(&spec.InnerInstant, s.InnerInstant, "inner_instant")
		overF(&spec.InterfaceRate, s.InterfaceRate, "interface_rate")
		overD(&spec.TrackToTrack, s.TrackToTrack, "track_to_track")
		overD(&spec.AverageSeek, s.AverageSeek, "average_seek")
		overD(&spec.FullStroke, s.FullStroke, "full_stroke")
		overD(&spec.WriteSettle, s.WriteSettle, "write_settle")
		overD(&spec.HeadSwitch, s.HeadSwitch, "head_switch")
		overD(&spec.ReadOverhead, s.ReadOverhead, "read_overhead")
		overD(&spec.WriteOverhead, s.WriteOverhead, "write_overhead")
		if s.BufferSize > 1<<34 {
			p.add("stack.drive.spec.buffer_size", "%d bytes is more than 16GiB", s.BufferSize)
		} else if s.BufferSize != 0 {
			spec.BufferSize = int64(s.BufferSize)
		}
		if preset == "" {
			spec.WriteCache = true // as drives ship
			if spec.Name == "" {
				spec.Name = "custom"
			}
		}
	}
	if len(*p) > before {
		return disk.Params{}, false
	}
	params, err := spec.Params()
	if err != nil {
		path := "stack.drive.spec"
		if d.Spec == nil {
			path = "stack.drive.preset"
		}
		p.addLines(path, err)
		return disk.Params{}, false
	}
	params.FillDefaults()
	if d.WriteCache != nil {
		params.WriteCache = *d.WriteCache
	}
	if d.Scheduler != "" {
		if params.Scheduler, err = disk.ParseScheduler(d.Scheduler); err != nil {
			p.add("stack.drive.scheduler", "%q: want satf, fcfs, sstf or clook", d.Scheduler)
		}
	}
	if d.QueueDepth != 0 {
		if d.QueueDepth < 1 || d.QueueDepth > disk.MaxQueueDepth {
			p.add("stack.drive.queue_depth", "%d is outside 1..%d", d.QueueDepth, disk.MaxQueueDepth)
		}
		params.QueueDepth = d.QueueDepth
	}
	if d.ReadAhead != "" {
		var ra disk.ReadAheadPolicy
		if err := ra.UnmarshalText([]byte(d.ReadAhead)); err != nil {
			p.add("stack.drive.read_ahead", "%q: want segment, fixed, off, track, cylinder or next-track", d.ReadAhead)
		}
		params.ReadAhead = ra
	}
	ss := int64(params.SectorSize)
	if d.BufferSize != 0 {
		if d.BufferSize > 1<<34 {
			p.add("stack.drive.buffer_size", "%d bytes is more than 16GiB", d.BufferSize)
		} else {
			checkAligned(p, "stack.drive.buffer_size", int64(d.BufferSize), ss)
			params.BufferSize = int64(d.BufferSize)
			if d.WriteCacheBytes == 0 {
				params.WriteCacheBytes = params.BufferSize / 4 * 3
			}
		}
	}
	if d.WriteCacheBytes != 0 {
		checkAligned(p, "stack.drive.write_cache_bytes", int64(d.WriteCacheBytes), ss)
		if d.WriteCacheBytes > Size(params.BufferSize) {
			p.add("stack.drive.write_cache_bytes", "%d bytes is more than the %d-byte buffer", d.WriteCacheBytes, params.BufferSize)
		}
		params.WriteCacheBytes = int64(d.WriteCacheBytes)
	}
	if d.ReadAheadBytes != 0 {
		checkAligned(p, "stack.drive.read_ahead_bytes", int64(d.ReadAheadBytes), ss)
		params.ReadAheadBytes = int64(d.ReadAheadBytes)
	}
	if d.Segments != 0 {
		if d.Segments < 1 || d.Segments > disk.MaxSegments {
			p.add("stack.drive.segments", "%d is outside 1..%d", d.Segments, disk.MaxSegments)
		}
		params.Segments = d.Segments
	}
	if len(*p) > before {
		return disk.Params{}, false
	}
	if err := params.Validate(); err != nil {
		p.addLines("stack.drive", err)
		return disk.Params{}, false
	}
	return params, true
}

// compileCache builds the volume cache's configuration.
func compileCache(p *problems, c *CacheConfig, overRAID bool, ss int64) *cache.Config {
	cfg := &cache.Config{
		Size: int64(c.Size), Block: int64(c.Block), MaxDirty: int64(c.MaxDirty), ReadAhead: int64(c.ReadAhead),
		HitLatency: time.Duration(c.HitLatency), CopyRate: int64(c.CopyRate),
		HighWater: c.HighWater, LowWater: c.LowWater,
		Interval: time.Duration(c.Interval), Idle: time.Duration(c.Idle),
		MaxDestageBytes: int64(c.MaxDestage), MaxOutstandingDestages: c.MaxOutstanding,
		NonVolatile: c.NonVolatile, NVIgnoresFlush: c.NVIgnoresFlush,
	}
	if c.ReadCache != nil && !*c.ReadCache {
		cfg.NoReadCache = true
	}
	if c.Size > maxCacheSize {
		p.add("stack.cache.size", "%d bytes is more than %s", c.Size, trace.FormatSize(maxCacheSize))
	}
	checkAligned(p, "stack.cache.size", int64(c.Size), ss)
	checkAligned(p, "stack.cache.block", int64(c.Block), ss)
	if c.Block > 0 && c.Size > 0 && c.Block > c.Size {
		p.add("stack.cache.block", "%d bytes is larger than the %d-byte cache", c.Block, c.Size)
	}
	checkAligned(p, "stack.cache.max_dirty", int64(c.MaxDirty), ss)
	if size := cmp.Or(int64(c.Size), cache.DefaultSize); int64(c.MaxDirty) > size {
		p.add("stack.cache.max_dirty", "%d bytes is more than the %d-byte cache", c.MaxDirty, size)
	}
	checkAligned(p, "stack.cache.read_ahead", int64(c.ReadAhead), ss)
	checkAligned(p, "stack.cache.max_destage", int64(c.MaxDestage), ss)
	if c.HitLatency < 0 {
		p.add("stack.cache.hit_latency", "%v is negative", time.Duration(c.HitLatency))
	}
	if c.Interval < 0 {
		p.add("stack.cache.interval", "%v is negative", time.Duration(c.Interval))
	}
	if c.Idle < 0 {
		p.add("stack.cache.idle", "%v is negative", time.Duration(c.Idle))
	}
	if c.MaxOutstanding < 0 || c.MaxOutstanding > 1<<16 {
		p.add("stack.cache.max_outstanding", "%d is outside 0..65536", c.MaxOutstanding)
	}
	if c.HighWater < 0 || c.HighWater > 1 {
		p.add("stack.cache.high_water", "%g is outside 0..1", c.HighWater)
	}
	if c.LowWater < 0 || c.LowWater >= 1 {
		p.add("stack.cache.low_water", "%g is outside 0..1", c.LowWater)
	}
	if (c.HighWater != 0 || c.LowWater != 0) && c.LowWater >= c.HighWater {
		p.add("stack.cache.low_water", "%g must be below high_water %g", c.LowWater, c.HighWater)
	}
	var err error
	if c.Mode != "" {
		if cfg.Mode, err = cache.ParseMode(c.Mode); err != nil {
			p.add("stack.cache.mode", "%q: want write-back, write-through or off", c.Mode)
		}
	}
	if c.Policy != "" {
		if cfg.Policy, err = cache.ParsePolicy(c.Policy); err != nil {
			p.add("stack.cache.policy", "%q: want wm, interval, idle or linear", c.Policy)
		}
	}
	if c.Order != "" {
		if cfg.Order, err = cache.ParseOrder(c.Order); err != nil {
			p.add("stack.cache.order", "%q: want lba, lrw or wow", c.Order)
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
		p.add("stack.cache.align", "%q: want stripe or none", c.Align)
	} else if cfg.Align == cache.AlignStripe && !overRAID {
		p.add("stack.cache.align", "stripe alignment needs an array (stack.raid)")
	}
	return cfg
}

// compilePhase turns one phase into a runnable phase, checking what it
// can without the stack.
func compilePhase(p *problems, path string, c *PhaseConfig, i int, ss int64) phase {
	ph := phase{name: c.Name, stream: phaseStream(i), delay: time.Duration(c.StartDelay)}
	if ph.name == "" {
		ph.name = fmt.Sprintf("phase %d", i+1)
	}
	if c.StartDelay < 0 || time.Duration(c.StartDelay) > maxStartDelay {
		p.add(path+".startdelay", "%v is outside 0..%v", time.Duration(c.StartDelay), maxStartDelay)
	}
	if c.Runtime < 0 || time.Duration(c.Runtime) > maxStartDelay {
		p.add(path+".runtime", "%v is outside 0..%v", time.Duration(c.Runtime), maxStartDelay)
	}
	ph.runtime = time.Duration(c.Runtime)
	if t := c.Trace; t != nil {
		var set []string
		for _, f := range []struct {
			key string
			on  bool
		}{{"rw", c.RW != ""}, {"rwmixread", c.RWMixRead != nil}, {"bs", c.BS != 0}, {"bssplit", c.BSSplit != ""},
			{"iodepth", c.IODepth != 0}, {"offset", c.Offset != 0}, {"size", c.Size != 0}, {"ios", c.IOs != 0},
			{"random_distribution", c.RandomDistribution != ""}, {"percentage_random", c.PercentageRandom != 0},
			{"fsync", c.Fsync != 0}, {"runtime", c.Runtime != 0}} {
			if f.on {
				set = append(set, f.key)
			}
		}
		for _, k := range set {
			p.add(path+"."+k, "describes a synthetic workload; this phase replays a trace (put iodepth under trace)")
		}
		src := &TraceSource{Path: t.Path, Format: t.Format, IODepth: t.IODepth, Speed: t.Speed,
			SourceCapacity: int64(t.Capacity), Reorder: t.Reorder}
		tp := path + ".trace"
		if t.Path == "" {
			p.add(tp+".path", "missing: give the trace file")
		}
		if t.Format != "" && t.Format != "auto" {
			known := false
			for _, f := range trace.Formats() {
				known = known || f == t.Format
			}
			if !known {
				p.add(tp+".format", "%q: want auto or one of %s", t.Format, strings.Join(trace.Formats(), ", "))
			}
		}
		if t.Device != nil {
			if *t.Device < 0 {
				p.add(tp+".device", "%d is negative", *t.Device)
			}
			src.Devices = []int{*t.Device}
		}
		if t.IODepth < 0 || t.IODepth > trace.MaxIODepth {
			p.add(tp+".iodepth", "%d is outside 0..%d", t.IODepth, trace.MaxIODepth)
		}
		if t.Speed < 0 || t.Speed > 1e9 {
			p.add(tp+".speed", "%g is outside 0..1e9", t.Speed)
		}
		if t.Map != "" {
			var err error
			if src.Map, err = trace.ParseMapMode(t.Map); err != nil {
				p.add(tp+".map", "%q: want reject, wrap or scale", t.Map)
			}
		}
		if src.Map == trace.MapScale && t.Capacity <= 0 {
			p.add(tp+".capacity", "map scale needs the traced device's capacity")
		}
		if t.Reorder < 0 || t.Reorder > 1<<20 {
			p.add(tp+".reorder", "%d is outside 0..%d", t.Reorder, 1<<20)
		}
		ph.trace = src
		return ph
	}
	if len(c.Background) > maxBackground {
		p.add(path+".background", "%d jobs, more than %d", len(c.Background), maxBackground)
		return ph
	}
	for j := range c.Background {
		b := &c.Background[j]
		bp := fmt.Sprintf("%s.background[%d]", path, j)
		for _, f := range []struct {
			key string
			on  bool
		}{{"name", b.Name != ""}, {"ios", b.IOs != 0}, {"trace", b.Trace != nil}, {"startdelay", b.StartDelay != 0},
			{"runtime", b.Runtime != 0}, {"background", len(b.Background) > 0}} {
			if f.on {
				p.add(bp+"."+f.key, "not allowed in a background job: it runs until the phase's own workload ends")
			}
		}
		if b.Trace != nil || len(b.Background) > 0 {
			continue
		}
		bg := compilePhase(p, bp, b, i, ss)
		bg.workload.NumIOs = maxIOs // until the main workload ends
		ph.background = append(ph.background, bg.workload)
	}
	w := trace.Workload{RWMixRead: 50, BS: int64(c.BS), IODepth: c.IODepth, Offset: int64(c.Offset),
		Size: int64(c.Size), NumIOs: c.IOs, PercentageRandom: c.PercentageRandom, Fsync: c.Fsync}
	var err error
	if c.RW != "" {
		if w.RW, err = trace.ParseRW(c.RW); err != nil {
			p.add(path+".rw", "%q: want read, write, randread, randwrite, rw or randrw", c.RW)
		}
	}
	if c.RWMixRead != nil {
		w.RWMixRead = *c.RWMixRead
		if w.RWMixRead < 0 || w.RWMixRead > 100 {
			p.add(path+".rwmixread", "%d is outside 0..100", w.RWMixRead)
		}
	}
	if c.BSSplit != "" {
		if c.BS != 0 {
			p.add(path+".bs", "give bs or bssplit, not both")
		}
		if w.BSSplit, err = trace.ParseBSSplit(c.BSSplit); err != nil {
			p.add(path+".bssplit", "%s", trimPkg(err))
		}
		for _, e := range w.BSSplit {
			if e.Size%ss != 0 {
				p.add(path+".bssplit", "block size %d is not a multiple of %d", e.Size, ss)
			}
		}
	} else if c.BS != 0 {
		checkAligned(p, path+".bs", int64(c.BS), ss)
	}
	if c.IODepth < 0 || c.IODepth > trace.MaxIODepth {
		p.add(path+".iodepth", "%d is outside 1..%d", c.IODepth, trace.MaxIODepth)
	}
	checkAligned(p, path+".offset", int64(c.Offset), ss)
	checkAligned(p, path+".size", int64(c.Size), ss)
	if c.IOs < 0 || c.IOs > maxIOs {
		p.add(path+".ios", "%d is outside 0..%d", c.IOs, int64(maxIOs))
	}
	if c.RandomDistribution != "" {
		if w.RandomDistribution, err = trace.ParseDistribution(c.RandomDistribution); err != nil {
			p.add(path+".random_distribution", "%s", trimPkg(err))
		}
	}
	if c.PercentageRandom < 0 || c.PercentageRandom > 100 {
		p.add(path+".percentage_random", "%d is outside 0..100", c.PercentageRandom)
	}
	if c.Fsync < 0 {
		p.add(path+".fsync", "%d is negative (0 never flushes)", c.Fsync)
	}
	ph.workload = w
	return ph
}

// checkRegion checks a synthetic phase's region and block size against
// the stack's capacity.
func checkRegion(p *problems, path string, c *PhaseConfig, capacity int64) {
	if int64(c.Offset) >= capacity {
		p.add(path+".offset", "%d is past the end of the %d-byte stack", c.Offset, capacity)
		return
	}
	if int64(c.Size) > capacity-int64(c.Offset) {
		p.add(path+".size", "region %d+%d bytes ends past the %d-byte stack", c.Offset, c.Size, capacity)
		return
	}
	region := int64(c.Size)
	if region == 0 {
		region = capacity - int64(c.Offset)
	}
	if int64(c.BS) > region {
		p.add(path+".bs", "%d bytes is larger than the %d-byte region", c.BS, region)
	}
}
