package spec

import (
	"cmp"
	"strconv"
	"strings"
	"time"

	"github.com/raidsim/raidsim/cache"
	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/faults"
	"github.com/raidsim/raidsim/host"
	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/ssd"
	"github.com/raidsim/raidsim/trace"
)

// Defaults the spec itself gives (the layers give the others).
const (
	// DefaultRWMixRead is the read percentage of rw and randrw, fio's.
	DefaultRWMixRead = 50
	// DefaultTraceFormat sniffs a trace's format.
	DefaultTraceFormat = "auto"
)

// The layers' defaults, as their zero configurations fill them.
var (
	cacheDefaults    = cache.Config{}.WithDefaults()
	raidDefaults     = raid.Config{}.WithDefaults()
	workloadDefaults = trace.Workload{}.WithDefaults()
	hostDefaults     = host.Params{}.WithDefaults().PageCache
)

// networks are the links stack.host.network names.
var networks = map[string]func() host.Link{"gigabit": host.Gigabit, "10gbe": host.TenGigabit}

// Enumerations: the layers' own typed values, by name.
var (
	rwNames        = enumNames(trace.ParseRW)
	schedulerNames = enumNames(disk.ParseScheduler)
	readAheadNames = enumNames(func(s string) (disk.ReadAheadPolicy, error) {
		var p disk.ReadAheadPolicy
		return p, p.UnmarshalText([]byte(s))
	})
	layoutNames       = enumNames(raid.ParseLayout)
	raid5WriteNames   = enumNames(raid.ParseWritePolicy)
	readPolicyNames   = enumNames(raid.ParseReadPolicy)
	cacheModeNames    = enumNames(cache.ParseMode)
	policyNames       = enumNames(cache.ParsePolicy)
	orderNames        = enumNames(cache.ParseOrder)
	alignNames        = enumNames(cache.ParseAlign)
	replacementNames  = enumNames(cache.ParseReplacement)
	preconditionNames = enumNames(ssd.ParsePrecondition)
	interfaceNames    = enumNames(ssd.ParseInterface)
	gcNames           = enumNames(ssd.ParseGCPolicy)
	mapNames          = enumNames(trace.ParseMapMode)
	levelNames        = raidLevelNames()
	presetNames       = drivePresetNames()
	hostPresetNames   = append([]string{"none"}, host.Presets()...)
	networkNames      = []string{"none", "gigabit", "10gbe"}
	formatNames       = trace.Formats()
)

// raidLevelNames are the levels raid.ParseLevel takes, as numbers.
func raidLevelNames() []string {
	var out []string
	for i := 0; i < 100; i++ {
		if l, err := raid.ParseLevel(strconv.Itoa(i)); err == nil && int(l) == i {
			out = append(out, strconv.Itoa(i))
		}
	}
	return append(out, "raidz1", "raidz2", "raidz3")
}

// fields is the one definition of every key, in reference order.
var fields = concat(topFields, stackFields, driveFields, driveSpecFields, diskFields, ssdFields, raidFields, cacheFields, hostFields, phaseFields, traceFields)

func concat(tables ...Table) Table {
	var all Table
	for _, t := range tables {
		all = append(all, t...)
	}
	return all
}

var topFields = Table{
	{Path: "name", Doc: "label of the run in reports", DefaultText: "the file name without extension",
		defaultOf: func(_ *Experiment, pl *Plan) string { return pl.Name }},
	{Path: "seed", Doc: "seed of every random stream: the same experiment and seed give a byte-identical report", Default: "0"},
	{Path: "stack", Doc: "the storage stack every phase runs on", Unset: "one " + DefaultPreset},
	{Path: "phases", Doc: "the phases, run in order on the same stack", Bounds: rangeOf(1, maxPhases), Required: true},
	{Path: "power_loss_at", Doc: "also report what a power failure this long after the start would lose, layer by layer",
		Unset: "none", Bounds: rangeOf(0, maxPowerLossAt)},
	{Path: "warmup", Doc: "leave the run's start out of the report, as cache studies do: the first N requests, or full (until the volume cache first fills)",
		Unset: "none", Bounds: rangeOf(0, maxIOs)},
	{Path: "sweep", Doc: "the fields `raidsim sweep` varies (path: [values]); `raidsim run` ignores it", Unset: "none"},
}

var stackFields = Table{
	{Path: "stack.drive", Doc: "the model of every drive", Unset: "preset " + DefaultPreset},
	{Path: "stack.disks", Label: "drives", Doc: "number of drives; more than one needs raid",
		DefaultText: "1, or the fewest the RAID level needs", Bounds: rangeOf(0, MaxDisks),
		defaultOf: func(_ *Experiment, pl *Plan) string { return strconv.Itoa(pl.Disks) }},
	{Path: "stack.raid", Doc: "makes an array of the drives", Unset: "none: a single drive"},
	{Path: "stack.failures", Doc: "array members failed at virtual times from the start", Unset: "none", Bounds: rangeOf(0, maxList)},
	{Path: "stack.failures[].member", Doc: "the member that fails, from 0", Required: true},
	{Path: "stack.failures[].at", Doc: "when it fails, from the start", Required: true, Bounds: rangeOf(0, maxFailureTime)},
	{Path: "stack.rebuild", Doc: "rebuild a failed member onto a spare drive; the run goes on until the rebuild ends", Unset: "none"},
	{Path: "stack.rebuild.member", Doc: "the failed member to rebuild (it must have failed by then, stack.failures)", Required: true},
	{Path: "stack.rebuild.at", Doc: "when the rebuild starts, from the start", Required: true, Bounds: rangeOf(0, maxFailureTime)},
	{Path: "stack.rebuild.drive", Label: "replacement drive", Doc: "the replacement's preset (raidsim drives) when it is another than the members' (an SMR drive replacing a CMR one, say); the members' own preset gives a drive of their model, overrides included",
		DefaultText: "a drive of the stack's model", defaultOf: func(x *Experiment, _ *Plan) string { return cmp.Or(x.Stack.Drive.Preset, DefaultPreset) }},
	{Path: "stack.faults", Doc: "media faults of every drive", Unset: "none"},
	{Path: "stack.faults.ure", Doc: "unrecoverable read errors per bit read (1e-14 on desktop data sheets); each leaves a sector unreadable until written",
		Default: "0", Bounds: rangeOf(0, 1)},
	{Path: "stack.faults.erc", Doc: "cap on a drive's error recovery (TLER/ERC, 7s); 0: no cap, the drive retries for recovery", Default: "0",
		Bounds: rangeOf(0, maxFaultTime)},
	{Path: "stack.faults.timeout", Doc: "the host's command timer (Linux: 30s); 0: none", Default: "0", Bounds: rangeOf(0, maxFaultTime)},
	{Path: "stack.faults.recovery", Doc: "how long a drive retries an unreadable sector before failing the read (erc caps it)", NoZero: true,
		Default: faults.DesktopRecovery.String(), Bounds: rangeOf(0, maxFaultTime)},
	{Path: "stack.faults.slow_fraction", Doc: "the share of requests, chosen at random, that take slow_delay longer", Unit: "fraction", Default: "0",
		Bounds: rangeOf(0, 1)},
	{Path: "stack.faults.slow_delay", Doc: "the extra time of a slow request", Default: "0", Bounds: rangeOf(0, maxFaultTime)},
	{Path: "stack.faults.bad_sectors", Doc: "sectors (LBAs, in the drive's sectors) of every drive unreadable from the start, until written",
		Unset: "none", Bounds: rangeOf(0, faults.MaxBadSectors)},
	{Path: "stack.cache", Label: "volume cache", Doc: "a volume write-back cache on top of the stack", Unset: "none"},
	{Path: "stack.host", Doc: "what the host does before requests reach the stack", Unset: "no host layer"},
}

var driveFields = Table{
	{Path: "stack.drive.preset", Label: "drive", Doc: "a built-in drive or SSD (raidsim drives)",
		Default: DefaultPreset, Values: presetNames, NoZero: true},
	{Path: "stack.drive.spec", Doc: "data-sheet figures: with a preset the non-zero ones replace the preset's, alone they are the whole drive", Unset: "none"},
	{Path: "stack.drive.write_cache", Label: "drive write cache", Doc: "the drive's write cache (an SSD's write buffer: off makes every write wait for its program)",
		DefaultText: "the model's (on for every preset)",
		defaultOf: func(_ *Experiment, pl *Plan) string {
			if m, ok := pl.Drive.(*ssd.Model); ok {
				return strconv.FormatBool(m.Params().WriteBuffer > 0)
			}
			return strconv.FormatBool(pl.diskParams().WriteCache)
		}},
	{Path: "stack.drive.write_cache_bytes", Doc: "buffer share holding cached writes", Unit: "bytes", Aligned: true, NoZero: true,
		DefaultText: "3/4 of the buffer",
		defaultOf:   func(_ *Experiment, pl *Plan) string { return trace.FormatSize(pl.diskParams().WriteCacheBytes) }},
	{Path: "stack.drive.spindle_sync", Doc: "synchronize the drives' spindles: every platter at angle 0 at the start, so an array's members turn in lockstep (off: each at its own angle, drawn from the seed)",
		Default: "false"},
	{Path: "stack.drive.scheduler", Label: "drive scheduler", Doc: "the drive's tagged-queue scheduler", Values: schedulerNames, NoZero: true,
		DefaultText: "the model's (" + disk.SATF.String() + " for presets)",
		defaultOf:   func(_ *Experiment, pl *Plan) string { return pl.diskParams().Scheduler.String() }},
	{Path: "stack.drive.queue_depth", Label: "NCQ depth", Doc: "commands the drive holds at once (its tagged queue); more wait in the host's queue", NoZero: true,
		BoundsText: queueBounds(), DefaultText: "the model's (" + strconv.Itoa(disk.MaxQueueDepth) + " for disks)",
		defaultOf: func(_ *Experiment, pl *Plan) string {
			if m, ok := pl.Drive.(*ssd.Model); ok {
				return strconv.Itoa(m.Params().QueueDepth)
			}
			return strconv.Itoa(pl.diskParams().QueueDepth)
		}},
	{Path: "stack.drive.read_ahead", Doc: "the drive's read-ahead policy", Values: readAheadNames,
		DefaultText: "the model's (" + disk.ReadAheadSegment.String() + " for presets)",
		defaultOf:   func(_ *Experiment, pl *Plan) string { return pl.diskParams().ReadAhead.String() }},
	{Path: "stack.drive.read_ahead_bytes", Doc: "the fixed read-ahead, or the cap of the track policies", Unit: "bytes", Aligned: true,
		DefaultText: "the model's (0 for presets)",
		defaultOf:   func(_ *Experiment, pl *Plan) string { return trace.FormatSize(pl.diskParams().ReadAheadBytes) }},
	{Path: "stack.drive.buffer_size", Doc: "the drive's buffer", Unit: "bytes", Aligned: true, NoZero: true, Bounds: rangeOf(0, maxBuffer),
		DefaultText: "the model's",
		defaultOf:   func(_ *Experiment, pl *Plan) string { return trace.FormatSize(pl.diskParams().BufferSize) }},
	{Path: "stack.drive.segments", Doc: "read segments of the buffer", Bounds: rangeOf(1, disk.MaxSegments), NoZero: true,
		DefaultText: "the model's",
		defaultOf:   func(_ *Experiment, pl *Plan) string { return strconv.Itoa(pl.diskParams().Segments) }},
	{Path: "stack.drive.precondition", Doc: "SSDs only: the state each drive is put in before the run: fresh out of box, every page written once, or then random-overwritten until write amplification settles",
		Default: ssd.FreshOutOfBox.String(), Values: preconditionNames, NoZero: true},
}

// queueBounds says the queue depth's bounds, which the device sets.
func queueBounds() string {
	return "1.." + strconv.Itoa(disk.MaxQueueDepth) + " for disks (NCQ), 1.." + strconv.Itoa(ssd.SATA.MaxQueueDepth()) +
		" for SATA SSDs, 1.." + strconv.Itoa(ssd.NVMe.MaxQueueDepth()) + " for NVMe SSDs"
}

// maxFaultTime bounds the faults' times, as package faults does.
const maxFaultTime = 10 * 365 * 24 * time.Hour // TestBoundsAreEnforced checks it against faults.Config.Validate

// maxBuffer bounds a drive's buffer.
const maxBuffer = 1 << 34

// presetSpec is the data sheet of the experiment's preset, zero without one.
func presetSpec(x *Experiment) disk.Spec {
	if x.Stack.Drive.Preset == "" && x.Stack.Drive.Spec != nil {
		return disk.Spec{}
	}
	s, _ := disk.PresetSpec(cmp.Or(x.Stack.Drive.Preset, DefaultPreset))
	return s
}

// specField is a stack.drive.spec key whose default is the preset's.
func specField(key, doc, unit string, bounds *Range, of func(disk.Spec) string) Field {
	return Field{Path: "stack.drive.spec." + key, Doc: doc, Unit: unit, Bounds: bounds, DefaultText: "the preset's",
		defaultOf: func(x *Experiment, _ *Plan) string { return of(presetSpec(x)) }}
}

func mbps(v float64) string { return strconv.FormatFloat(v/1e6, 'g', -1, 64) }
func dur(d time.Duration) string {
	if d == 0 {
		return "0"
	}
	return d.String()
}

var driveSpecFields = Table{
	specField("name", "the model's name (custom without a preset)", "", nil, func(s disk.Spec) string { return s.Name }),
	specField("capacity", "the addressable size; required without a preset", "bytes", rangeOf(0, maxCapacity),
		func(s disk.Spec) string { return trace.FormatSize(s.Capacity) }),
	specField("sector_size", "512 or 4096 (512 without a preset)", "bytes", nil, func(s disk.Spec) string { return strconv.Itoa(s.SectorSize) }),
	specField("rpm", "the spindle speed; required without a preset", "rpm", rangeOf(1, maxRPM), func(s disk.Spec) string { return strconv.Itoa(s.RPM) }),
	specField("heads", "data surfaces; required without a preset", "", rangeOf(1, maxHeads), func(s disk.Spec) string { return strconv.Itoa(s.Heads) }),
	specField("zones", "recording zones (16 without a preset)", "", rangeOf(1, 1000), func(s disk.Spec) string { return strconv.Itoa(s.Zones) }),
	specField("outer_sustained", "sustained media rate of the outer zone, whole cylinders with switches (one pair of rates required without a preset)", "MB/s",
		rangeOf(0, 1e6), func(s disk.Spec) string { return mbps(s.OuterSustained) }),
	specField("inner_sustained", "sustained media rate of the inner zone", "MB/s", rangeOf(0, 1e6), func(s disk.Spec) string { return mbps(s.InnerSustained) }),
	specField("outer_instant", "one-track media rate of the outer zone; with inner_instant it fixes sectors per track", "MB/s", rangeOf(0, 1e6), func(s disk.Spec) string { return mbps(s.OuterInstant) }),
	specField("inner_instant", "one-track media rate of the inner zone; with outer_instant it fixes sectors per track", "MB/s", rangeOf(0, 1e6), func(s disk.Spec) string { return mbps(s.InnerInstant) }),
	specField("track_to_track", "track-to-track read seek; required without a preset", "", rangeOf(0, time.Minute),
		func(s disk.Spec) string { return dur(s.TrackToTrack) }),
	specField("average_seek", "average read seek; required without a preset", "", rangeOf(0, time.Minute), func(s disk.Spec) string { return dur(s.AverageSeek) }),
	specField("full_stroke", "full-stroke read seek; required without a preset", "", rangeOf(0, time.Minute), func(s disk.Spec) string { return dur(s.FullStroke) }),
	specField("write_settle", "extra time of a write seek (0 without a preset)", "", rangeOf(0, time.Minute), func(s disk.Spec) string { return dur(s.WriteSettle) }),
	specField("head_switch", "head switch time (without a preset: derived from both pairs of rates, else 0)", "", rangeOf(0, time.Minute),
		func(s disk.Spec) string { return dur(s.HeadSwitch) }),
	specField("read_overhead", "controller time per read command (0 without a preset)", "", rangeOf(0, time.Minute), func(s disk.Spec) string { return dur(s.ReadOverhead) }),
	specField("write_overhead", "controller time per write command (the read overhead without a preset)", "", rangeOf(0, time.Minute),
		func(s disk.Spec) string { return dur(s.WriteOverhead) }),
	specField("interface_rate", "host interface rate (300 without a preset)", "MB/s", rangeOf(0, 1e6), func(s disk.Spec) string { return mbps(s.InterfaceRate) }),
	specField("buffer_size", "the drive's buffer; required without a preset", "bytes", rangeOf(0, maxBuffer),
		func(s disk.Spec) string { return trace.FormatSize(s.BufferSize) }),
}

// diskField is a stack.drive.disk key whose default is the model's.
func diskField(key, doc, unit string, bounds *Range, of func(disk.Params) string) Field {
	return Field{Path: "stack.drive.disk." + key, Doc: doc, Unit: unit, Bounds: bounds, DefaultText: "the model's",
		defaultOf: func(_ *Experiment, pl *Plan) string { return of(pl.diskParams()) }}
}

func fmtBool(b bool) string { return strconv.FormatBool(b) }

var diskFields = Table{
	{Path: "stack.drive.disk", Doc: "a disk model's finer parameters (DiskSim's knobs of disk.Params, by key) over the preset or data sheet; an explicit 0 replaces the model's value too",
		Unset: "none: the model's"},
	withBounds(diskField("cylinder_count", "physical cylinders the seek curve spans (0: one past the last zone's)", "", nil,
		func(p disk.Params) string { return itoa(p.CylinderCount) }), nil, "0..16777215, at least the zones' cylinders"),
	diskField("rpm_error_percent", "varies the spindle speed from drive to drive, uniformly within rpm plus or minus this percent (DiskSim's \"Percent error in rpms\")", "percent",
		nil, func(p disk.Params) string { return fmtFloat(p.RPMErrorPercent) }),
	diskField("cylinder_switch", "time to move to the next cylinder mid-transfer (0: the track-to-track seek)", "", nil,
		func(p disk.Params) string { return dur(p.CylinderSwitch) }),
	diskField("zero_latency_read", "a read whose head lands inside its sectors reads them as they pass (DiskSim's immediate buffer read)", "", nil,
		func(p disk.Params) string { return fmtBool(p.ZeroLatencyRead) }),
	diskField("read_any_free", "keep the sectors passing under the head during a read's rotational wait (DiskSim's read any free blocks)", "", nil,
		func(p disk.Params) string { return fmtBool(p.ReadAnyFree) }),
	diskField("zero_latency_write", "zero_latency_read for writes (DiskSim's immediate buffer write)", "", nil,
		func(p disk.Params) string { return fmtBool(p.ZeroLatencyWrite) }),
	diskField("write_interface_rate", "the bus rate of write data when it differs from reads' (0: interface_rate)", "MB/s", nil,
		func(p disk.Params) string { return mbps(p.WriteInterfaceRate) }),
	diskField("read_bus_watermark_of_segment", "read_bus_watermark is a fraction of the segment, not of the read", "", nil,
		func(p disk.Params) string { return fmtBool(p.ReadBusWatermarkOfSegment) }),
	diskField("read_bus_watermark", "the fraction of a read in the buffer before its data starts across the bus (0: the first sector)", "fraction",
		rangeOf(0, 1), func(p disk.Params) string { return fmtFloat(p.ReadBusWatermark) }),
	diskField("read_hits_on_writes", "keep the latest write's data in the buffer so reads of it hit", "", nil,
		func(p disk.Params) string { return fmtBool(p.ReadHitsOnWrites) }),
	diskField("no_almost_hits", "a read of data the read-ahead has not reached yet is a miss", "", nil,
		func(p disk.Params) string { return fmtBool(p.NoAlmostHits) }),
	diskField("no_read_ahead_on_hit", "a read served from the buffer does not restart read-ahead", "", nil,
		func(p disk.Params) string { return fmtBool(p.NoReadAheadOnHit) }),
	diskField("partial_hits", "read from the media only the part of a read not in the buffer", "", nil,
		func(p disk.Params) string { return fmtBool(p.PartialHits) }),
	diskField("partial_hit_wait", "with partial_hits, the buffered part waits for the read watermark", "", nil,
		func(p disk.Params) string { return fmtBool(p.PartialHitWait) }),
	diskField("no_buffer_cache", "the buffer only matches media and bus speeds: no read hits, no read-ahead", "", nil,
		func(p disk.Params) string { return fmtBool(p.NoBufferCache) }),
	diskField("read_ahead_keeps_request", "read-ahead stops before pushing the latest read's data out of its segment", "", nil,
		func(p disk.Params) string { return fmtBool(p.ReadAheadKeepsRequest) }),
	withBounds(diskField("min_read_ahead_bytes", "read-ahead read after a read before the drive serves another command", "bytes", nil,
		func(p disk.Params) string { return trace.FormatSize(p.MinReadAheadBytes) }), nil, "0..buffer_size"),
	diskField("write_hit_stops_read_ahead", "a write into the write cache stops read-ahead", "", nil,
		func(p disk.Params) string { return fmtBool(p.WriteHitStopsReadAhead) }),
	diskField("write_cache_entries", "separate dirty extents the write cache holds", "", rangeOf(1, disk.MaxWriteCacheEntries),
		func(p disk.Params) string { return itoa(p.WriteCacheEntries) }),
	diskField("write_cache_append_only", "the write cache takes only sequential write streams (DiskSim's fast write level 1)", "", nil,
		func(p disk.Params) string { return fmtBool(p.WriteCacheAppendOnly) }),
	diskField("flush_before_other", "destage all dirty data before serving a read or a write off the stream (DiskSim's fast write levels 1 and 2)", "", nil,
		func(p disk.Params) string { return fmtBool(p.FlushBeforeOther) }),
	diskField("no_write_merge", "adjacent writes do not merge into one dirty extent", "", nil,
		func(p disk.Params) string { return fmtBool(p.NoWriteMerge) }),
	diskField("preseek", "the arm starts for the next command before the previous one completes over the bus (DiskSim's preseeking level 2)", "", nil,
		func(p disk.Params) string { return fmtBool(p.Preseek) }),
	withBounds(diskField("max_queue_age", "a command that has waited this long in the tagged queue is served next (against starvation)", "", nil,
		func(p disk.Params) string { return dur(p.MaxQueueAge) }), nil, "0 or more"),
}

// ssdPreset is the parameters of the experiment's SSD preset, defaults
// filled.
func ssdPreset(x *Experiment) ssd.Params {
	p, _ := ssd.Preset(x.Stack.Drive.Preset)
	p.FillDefaults()
	return p
}

// ssdField is a stack.drive.ssd key whose default is the preset's.
func ssdField(key, doc, unit string, of func(ssd.Params) string) Field {
	return Field{Path: "stack.drive.ssd." + key, Doc: doc, Unit: unit, DefaultText: "the preset's",
		defaultOf: func(x *Experiment, _ *Plan) string { return of(ssdPreset(x)) }}
}

// withBounds returns f with bounds, in numbers or in words.
func withBounds(f Field, r *Range, words string) Field {
	f.Bounds, f.BoundsText = r, words
	return f
}

func itoa(n int) string { return strconv.Itoa(n) }

var ssdFields = Table{
	{Path: "stack.drive.ssd", Doc: "an SSD's parameters (ssd.Params by key): with an SSD preset those given replace the preset's, an explicit 0 too; without a preset they are the whole drive",
		Unset: "none: the preset's parameters"},
	ssdField("name", "the model's name (custom without a preset)", "", func(p ssd.Params) string { return p.Name }),
	withBounds(ssdField("capacity", "the user-addressable size (required without a preset, unless blocks_per_plane gives it)", "bytes",
		func(p ssd.Params) string { return trace.FormatSize(p.Capacity) }), nil, "at most 1PiB and 2^31 map units"),
	withBounds(ssdField("sector_size", "the logical block size", "bytes", func(p ssd.Params) string { return itoa(p.SectorSize) }), nil, "512 or 4096"),
	{Path: "stack.drive.ssd.interface", Doc: "the host interface: SATA (NCQ, a half-duplex link) or NVMe", Values: interfaceNames, DefaultText: "the preset's",
		defaultOf: func(x *Experiment, _ *Plan) string { return ssdPreset(x).Interface.String() }},
	withBounds(ssdField("link_rate", "the host link's payload rate (required without a preset)", "MB/s", func(p ssd.Params) string { return mbps(p.LinkRate) }),
		rangeOf(0, 1e6), ""),
	withBounds(ssdField("link_command_time", "link time of one command's protocol exchange besides its data, serialized on the link", "",
		func(p ssd.Params) string { return dur(p.LinkCommandTime) }), rangeOf(0, time.Second), ""),
	withBounds(ssdField("command_latency", "fixed firmware latency of every command, pipelined (not occupying the controller)", "",
		func(p ssd.Params) string { return dur(p.CommandLatency) }), rangeOf(0, time.Second), ""),
	withBounds(ssdField("read_cost", "the controller's serialized time per read command", "", func(p ssd.Params) string { return dur(p.ReadCost) }),
		rangeOf(0, time.Second), ""),
	withBounds(ssdField("write_cost", "the controller's serialized time per write command", "", func(p ssd.Params) string { return dur(p.WriteCost) }),
		rangeOf(0, time.Second), ""),
	withBounds(ssdField("trim_cost", "the controller's serialized time per trim command (read_cost without a preset)", "",
		func(p ssd.Params) string { return dur(p.TrimCost) }), rangeOf(0, time.Second), ""),
	withBounds(ssdField("write_buffer", "the DRAM holding written data before it is programmed (0: no write cache, every write waits for its program)", "bytes",
		func(p ssd.Params) string { return trace.FormatSize(p.WriteBuffer) }), nil, "0, or at least map_unit"),
	ssdField("power_loss_protection", "capacitors make the write buffer durable: a flush completes at once and a power loss loses nothing", "",
		func(p ssd.Params) string { return strconv.FormatBool(p.PowerLossProtection) }),
	withBounds(ssdField("channels", "flash channels (required without a preset)", "", func(p ssd.Params) string { return itoa(p.Channels) }),
		nil, "1..4096; at most 4096 dies in all"),
	withBounds(ssdField("ways_per_channel", "flash chips on a channel (MQSim's Chip_No_Per_Channel; required without a preset)", "",
		func(p ssd.Params) string { return itoa(p.WaysPerChannel) }), nil, "1..4096; at most 4096 dies in all"),
	withBounds(ssdField("dies_per_chip", "dies of a chip (1 without a preset)", "", func(p ssd.Params) string { return itoa(p.DiesPerChip) }),
		nil, "1..4096; at most 4096 dies in all"),
	withBounds(ssdField("planes_per_die", "planes of a die, programmed together (1 without a preset)", "", func(p ssd.Params) string { return itoa(p.PlanesPerDie) }),
		nil, "1..4096"),
	{Path: "stack.drive.ssd.blocks_per_plane", Doc: "erase blocks per plane, as MQSim gives the geometry: sets capacity to the flash less the spare space of over_provisioning",
		Unset: "none: capacity gives the size"},
	withBounds(ssdField("pages_per_block", "pages of an erase block (required without a preset)", "", func(p ssd.Params) string { return itoa(p.PagesPerBlock) }),
		rangeOf(1, 4096), ""),
	withBounds(ssdField("page_size", "a flash page (required without a preset)", "bytes", func(p ssd.Params) string { return trace.FormatSize(int64(p.PageSize)) }),
		nil, "a multiple of map_unit up to 1MiB"),
	withBounds(ssdField("read_time", "the array read time of a page, tR (required without a preset)", "", func(p ssd.Params) string { return dur(p.ReadTime) }),
		rangeOf(0, time.Second), ""),
	withBounds(ssdField("program_time", "the program time of a (multi-plane) page, tPROG; of the fast pages with program_time_slow (required without a preset)", "",
		func(p ssd.Params) string { return dur(p.ProgramTime) }), rangeOf(0, time.Second), ""),
	withBounds(ssdField("program_time_slow", "the program time of MLC's slow (MSB) pages, alternating with fast ones (0: every page at program_time)", "",
		func(p ssd.Params) string { return dur(p.ProgramTimeSlow) }), rangeOf(0, time.Second), ""),
	withBounds(ssdField("erase_time", "the erase time of a block, tBERS (required without a preset)", "", func(p ssd.Params) string { return dur(p.EraseTime) }),
		rangeOf(0, time.Second), ""),
	withBounds(ssdField("channel_rate", "one channel's transfer rate (required without a preset)", "MB/s", func(p ssd.Params) string { return mbps(p.ChannelRate) }),
		rangeOf(0, 1e6), ""),
	withBounds(ssdField("map_unit", "the FTL's mapping granularity (4KiB without a preset)", "bytes", func(p ssd.Params) string { return trace.FormatSize(int64(p.MapUnit)) }),
		nil, "a multiple of the sector size up to 1MiB"),
	withBounds(ssdField("over_provisioning", "spare flash as a fraction of the user capacity (0.0737: GiB of flash sold as GB; MQSim's Overprovisioning_Ratio r, a fraction of the flash, is r/(1-r) here)", "fraction",
		func(p ssd.Params) string { return fmtFloat(p.OverProvisioning) }), rangeOf(0, 0.9), ""),
	{Path: "stack.drive.ssd.gc", Doc: "garbage collection's victim block: the fewest valid pages, or the best age x free space per cost", Values: gcNames, DefaultText: "the preset's",
		defaultOf: func(x *Experiment, _ *Plan) string { return ssdPreset(x).GC.String() }},
	withBounds(ssdField("gc_low_blocks", "foreground trigger: a write that finds its die with this many free blocks or fewer first collects garbage (2 without a preset)", "",
		func(p ssd.Params) string { return itoa(p.GCLowBlocks) }), nil, "at least 1"),
	withBounds(ssdField("gc_background_blocks", "background trigger: an idle die with fewer free blocks collects garbage (2 x gc_low_blocks + 2 without a preset)", "",
		func(p ssd.Params) string { return itoa(p.GCBackgroundBlocks) }), nil, "0 or more"),
	withBounds(ssdField("slc_cache", "the pseudo-SLC write cache (0: none): writes program in SLC mode while it has room", "bytes",
		func(p ssd.Params) string { return trace.FormatSize(p.SLCCache) }), nil, "0..capacity"),
	withBounds(ssdField("slc_program_time", "a page program in SLC mode (required with an slc_cache)", "", func(p ssd.Params) string { return dur(p.SLCProgramTime) }),
		rangeOf(0, time.Second), ""),
	withBounds(ssdField("uber", "the data sheet's uncorrectable bit error rate, sectors unreadable per bit read (1e-17: 1 sector per 10^17 bits), for raidsim reliability (0: not known)", "",
		func(p ssd.Params) string { return fmtFloat(p.UBER) }), nil, "0..1"),
	withBounds(ssdField("mtbf_hours", "the data sheet's mean time between failures, for raidsim reliability (0: not known)", "hours",
		func(p ssd.Params) string { return fmtFloat(p.MTBFHours) }), nil, "0..1e12"),
}

var raidFields = Table{
	{Path: "stack.raid.level", Label: "RAID level", Doc: "the RAID level (a number or a string)", Values: levelNames, Required: true},
	{Path: "stack.raid.stripe_unit", Label: "stripe unit", Doc: "bytes each member holds of one stripe (the chunk)", Unit: "bytes", Aligned: true, NoZero: true,
		Default: trace.FormatSize(raidDefaults.StripeUnit), Bounds: rangeOf(0, maxCapacity)},
	{Path: "stack.raid.layout", Label: "parity layout", Doc: "the RAID 5 parity layout (md's names)", Values: layoutNames, NoZero: true,
		Default: raidDefaults.Layout.String()},
	{Path: "stack.raid.raid5_write", Label: "RAID 5 small writes", Doc: "how RAID 5 updates the parity of a stripe a write covers in part: the fewest reads (as md), read-modify-write or reconstruct-write",
		Values: raid5WriteNames, NoZero: true, Default: raidDefaults.Raid5Write.String()},
	{Path: "stack.raid.raid6_write", Label: "RAID 6 small writes", Doc: "how RAID 6 updates P and Q of a stripe a write covers in part: the fewest page reads (md since Linux 4.1), read-modify-write, or reconstruct-write (md before 4.1)",
		Values: raid5WriteNames, NoZero: true, Default: raidDefaults.Raid6Write.String()},
	{Path: "stack.raid.read_policy", Doc: "which copy serves a RAID 1 or 10 read", Values: readPolicyNames, Default: raidDefaults.ReadPolicy.String()},
	{Path: "stack.raid.parity_rate", Doc: "the parity engine's speed (0: free)", Unit: "bytes/s", Default: "0"},
	{Path: "stack.raid.rebuild_rate", Doc: "rebuild rate cap, as md's speed_limit_max (0: as fast as possible)", Unit: "bytes/s", Default: "0"},
	{Path: "stack.raid.speed_limit_min", Doc: "rebuild rate while foreground requests arrive, as md's speed_limit_min (0: unthrottled)", Unit: "bytes/s", Default: "0"},
	{Path: "stack.raid.recordsize", Label: "recordsize", Doc: "RAIDZ only: the largest record (ZFS's recordsize); a slot written in part holds a smaller record", Unit: "bytes", NoZero: true,
		Default: "128KiB", BoundsText: "a power of two from the sector (2^ashift) to 16MiB"},
	{Path: "stack.raid.ashift", Doc: "RAIDZ only: log2 of the allocation sector (12: 4 KiB, ZFS's choice for 4K-sector drives)", NoZero: true, Default: "12", Bounds: rangeOf(9, 16)},
	{Path: "stack.raid.fill", Doc: "RAIDZ only: the fraction of the volume's records allocated before the run, as a pool already holding data (what a resilver walks)", Unit: "fraction", Default: "0", Bounds: rangeOf(0, 1)},
	{Path: "stack.raid.fill_streams", Doc: "RAIDZ only: the files written side by side that filled the pool: their records interleave on the disks", NoZero: true, Default: "1", Bounds: rangeOf(1, 1<<20)},
	{Path: "stack.raid.scan_batch", Doc: "RAIDZ only: the records a resilver or scrub gathers in logical order and issues sorted by disk offset, as OpenZFS's sorted scan within its memory (0: all at once, -1: unsorted, the legacy scan)", Default: "0", Bounds: rangeOf(-1, 1<<30)},
}

var cacheFields = Table{
	{Path: "stack.cache.size", Label: "cache size", Doc: "the cache memory", Unit: "bytes", Aligned: true, NoZero: true,
		Default: trace.FormatSize(cacheDefaults.Size), Bounds: rangeOf(0, maxCacheSize)},
	{Path: "stack.cache.block", Doc: "the unit of cache memory", Unit: "bytes", Aligned: true, NoZero: true, Default: trace.FormatSize(cacheDefaults.Block)},
	{Path: "stack.cache.mode", Label: "cache mode", Doc: "how the cache treats writes", Values: cacheModeNames, NoZero: true, Default: cacheDefaults.Mode.String()},
	{Path: "stack.cache.read_cache", Doc: "keep clean data for reads", Default: strconv.FormatBool(!cacheDefaults.NoReadCache)},
	{Path: "stack.cache.read_ahead", Doc: "how far the cache reads ahead of a sequential stream, in the background", Unit: "bytes", Aligned: true,
		Default: "0"},
	{Path: "stack.cache.hit_latency", Doc: "the time of a hit", NoZero: true, Default: cacheDefaults.HitLatency.String(), Bounds: rangeOf(0, maxStartDelay)},
	{Path: "stack.cache.copy_rate", Doc: "memory copy rate", Unit: "bytes/s", NoZero: true, Default: strconv.FormatInt(cacheDefaults.CopyRate, 10)},
	{Path: "stack.cache.policy", Label: "destage policy", Doc: "when the cache destages: between watermarks, at intervals, when idle, or at a rate linear in the dirty data",
		Values: policyNames, NoZero: true, Default: cacheDefaults.Policy.String()},
	{Path: "stack.cache.max_dirty", Doc: "most dirty data held, destages in flight included; the rest of size caches clean data", Unit: "bytes",
		Aligned: true, NoZero: true, DefaultText: "the cache size",
		defaultOf: func(_ *Experiment, pl *Plan) string { return trace.FormatSize(pl.Cache.WithDefaults().MaxDirty) }},
	{Path: "stack.cache.high_water", Doc: "destaging starts when dirty data passes this fraction of max_dirty", Unit: "fraction", NoZero: true,
		Default: fmtFloat(cacheDefaults.HighWater), Bounds: rangeOf(0, 1)},
	{Path: "stack.cache.low_water", Doc: "destaging stops below this fraction of max_dirty, below high_water", Unit: "fraction", NoZero: true,
		DefaultText: fmtFloat(cacheDefaults.LowWater) + " when high_water is left out too, else 0 (destage to empty)", Bounds: rangeOf(0, 1),
		defaultOf: func(_ *Experiment, pl *Plan) string { return fmtFloat(pl.Cache.WithDefaults().LowWater) }},
	{Path: "stack.cache.interval", Doc: "the interval policy's period", NoZero: true, Default: cacheDefaults.Interval.String(), Bounds: rangeOf(0, maxStartDelay)},
	{Path: "stack.cache.wakeup", Doc: "the interval policy looks for aged data only at multiples of this, as Linux's flusher wakes up (0: at any time)",
		Default: "0", Bounds: rangeOf(0, maxStartDelay)},
	{Path: "stack.cache.idle", Doc: "the idle policy's quiet time", NoZero: true, Default: cacheDefaults.Idle.String(), Bounds: rangeOf(0, maxStartDelay)},
	{Path: "stack.cache.order", Label: "destage order", Doc: "which dirty data a destage takes first: by address (C-SCAN), oldest first, or WOW",
		Values: orderNames, NoZero: true, Default: cacheDefaults.Order.String()},
	{Path: "stack.cache.max_destage", Doc: "the largest destage write", Unit: "bytes", Aligned: true, NoZero: true,
		Default: trace.FormatSize(cacheDefaults.MaxDestageBytes)},
	{Path: "stack.cache.max_outstanding", Doc: "destages in flight at most", NoZero: true, Default: strconv.Itoa(cacheDefaults.MaxOutstandingDestages),
		Bounds: rangeOf(0, 1<<16)},
	{Path: "stack.cache.align", Doc: "shape destages to the array's stripes, or not", Values: alignNames, NoZero: true,
		DefaultText: "stripe over RAID, else none",
		defaultOf:   func(_ *Experiment, pl *Plan) string { return pl.Cache.Align.String() }},
	{Path: "stack.cache.non_volatile", Doc: "the cache is battery- or flash-backed: a power failure loses none of it", Default: "false"},
	{Path: "stack.cache.nv_ignores_flush", Doc: "a non-volatile cache acknowledges flushes at once", Default: "false"},
	{Path: "stack.cache.replacement", Label: "cache replacement", Doc: "which clean data the cache evicts for room (dirty data is never evicted)",
		Values: replacementNames, NoZero: true, Default: cacheDefaults.Replacement.String()},
	{Path: "stack.cache.sequential_cutoff", Doc: "a sequential stream this long bypasses the cache (bcache's sequential_cutoff); `off` turns it off (0 takes the default, where bcache's 0 is off)",
		Unit: "bytes", Aligned: true, DefaultText: "4MiB with a cache device, else none",
		defaultOf: func(_ *Experiment, pl *Plan) string {
			if pl.CacheDevice != nil {
				return trace.FormatSize(cache.DefaultSequentialCutoff)
			}
			return "0"
		}},
	{Path: "stack.cache.device", Doc: "keep the cache's data on this drive (an SSD cache tier, as bcache) instead of in memory", Unset: "none: in memory"},
	{Path: "stack.cache.device.preset", Label: "cache device", Doc: "a built-in SSD or drive (raidsim drives)", Values: presetNames, NoZero: true,
		Default: DefaultCacheDevice},
	{Path: "stack.cache.device.write_cache", Doc: "the cache device's write cache (an SSD's write buffer)", DefaultText: "the preset's",
		defaultOf: func(_ *Experiment, pl *Plan) string {
			switch m := pl.CacheDevice.(type) {
			case *ssd.Model:
				return strconv.FormatBool(m.Params().WriteBuffer > 0)
			case *disk.Model:
				return strconv.FormatBool(m.Params().WriteCache)
			}
			return "true"
		}},
	{Path: "stack.cache.device.power_loss_protection", Doc: "the cache SSD's write buffer survives a power failure (capacitors)", DefaultText: "the preset's",
		defaultOf: func(_ *Experiment, pl *Plan) string {
			if m, ok := pl.CacheDevice.(*ssd.Model); ok {
				return strconv.FormatBool(m.Params().PowerLossProtection)
			}
			return "false"
		}},
}

func fmtFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// hostField is a stack.host key whose default is the preset's.
func hostField(key, doc, unit string, bounds *Range, of func(h *host.Params) string) Field {
	return Field{Path: "stack.host." + key, Doc: doc, Unit: unit, Bounds: bounds, DefaultText: "the preset's",
		defaultOf: func(_ *Experiment, pl *Plan) string { return of(pl.Host) }}
}

var hostFields = Table{
	{Path: "stack.host.flushes", Doc: "false drops every flush at the host (an OS with write-cache buffer flushing turned off)", Default: "true"},
	{Path: "stack.host.preset", Label: "host", Doc: "the host model in front of the stack (package host), or none", Values: hostPresetNames, NoZero: true,
		Default: "none"},
	withNoZero(hostField("cores", "the host's CPU cores", "", rangeOf(1, host.MaxCores), func(h *host.Params) string { return strconv.Itoa(h.Cores) })),
	withNoZero(hostField("ram", "the host's memory", "bytes", rangeOf(1<<20, host.MaxRAM), func(h *host.Params) string { return trace.FormatSize(h.RAM) })),
	{Path: "stack.host.page_cache", Doc: "the page cache's size (512MiB), or off", NoZero: true, DefaultText: "the RAM the preset leaves to it",
		defaultOf: func(_ *Experiment, pl *Plan) string { return trace.FormatSize(pl.Host.PageCacheSize()) }},
	{Path: "stack.host.direct", Doc: "every request bypasses the page cache (O_DIRECT)", Default: "false"},
	{Path: "stack.host.dirty_ratio", Doc: "Linux's vm.dirty_ratio: writers are throttled when dirty pages pass this fraction of the page cache",
		Unit: "fraction", NoZero: true, Default: fmtFloat(hostDefaults.DirtyRatio), Bounds: rangeOf(0, 1)},
	{Path: "stack.host.dirty_background_ratio", Doc: "Linux's vm.dirty_background_ratio: the flusher starts at this fraction", Unit: "fraction", NoZero: true,
		Default: fmtFloat(hostDefaults.DirtyBackgroundRatio), Bounds: rangeOf(0, 1)},
	{Path: "stack.host.dirty_expire", Doc: "vm.dirty_expire_centisecs as a duration: dirty pages older than this are written back", NoZero: true,
		Default: hostDefaults.DirtyExpire.String(), Bounds: rangeOf(0, maxStartDelay)},
	{Path: "stack.host.writeback_interval", Doc: "vm.dirty_writeback_centisecs as a duration: the flusher's period", NoZero: true,
		Default: hostDefaults.WritebackInterval.String(), Bounds: rangeOf(0, maxStartDelay)},
	{Path: "stack.host.read_ahead", Doc: "the file read-ahead window, a multiple of 4KiB", Unit: "bytes", NoZero: true,
		Default: trace.FormatSize(hostDefaults.ReadAhead), Bounds: rangeOf(0, 1<<30)},
	{Path: "stack.host.network", Doc: "the link from the benchmark client", Values: networkNames, NoZero: true, DefaultText: "the preset's",
		defaultOf: func(_ *Experiment, pl *Plan) string { return networkName(pl.Host.Network) }},
	hostField("syscall_cost", "CPU time per file request", "", rangeOf(0, time.Second), func(h *host.Params) string { return dur(h.SyscallCost) }),
	hostField("command_cost", "CPU time per drive command", "", rangeOf(0, time.Second), func(h *host.Params) string { return dur(h.CommandCost) }),
	hostField("stripe_cache_per_page", "CPU time per 4 KiB page through software RAID 5's stripe cache", "", rangeOf(0, time.Second),
		func(h *host.Params) string { return dur(h.StripeCachePerPage) }),
	hostField("raid_read_bypass", "software RAID reads bypass md's stripe cache (Linux md's chunk-aligned reads, since 2.6.20)", "", nil,
		func(h *host.Params) string { return strconv.FormatBool(h.RAIDReadBypass) }),
	hostField("copy_rate", "memory copy rate", "bytes/s", nil, func(h *host.Params) string { return strconv.FormatInt(h.CopyRate, 10) }),
	hostField("xor_rate", "software parity rate (0: parity costs no host CPU, as with a hardware RAID controller)", "bytes/s", nil,
		func(h *host.Params) string { return strconv.FormatInt(h.XORRate, 10) }),
	hostField("driver_per_kib", "CPU time per KiB a drive command moves beyond DMA set-up (0: a bus-mastering controller)", "", rangeOf(0, time.Second),
		func(h *host.Params) string { return dur(h.DriverPerKiB) }),
	hostField("raid_read_ahead_stripes", "whole stripes of a software RAID 5 or 6 the read-ahead is raised to (md: 2; 0 leaves read_ahead alone)", "",
		rangeOf(0, host.MaxRAIDReadAheadStripes), func(h *host.Params) string { return itoa(h.RAIDReadAheadStripes) }),
	hostField("volume_cache_lookup", "CPU time per request of a volume cache kept in host memory (Intel Matrix Storage's), when the stack has one", "",
		rangeOf(0, time.Second), func(h *host.Params) string { return dur(h.VolumeCacheLookup) }),
	hostField("volume_cache_copy_rate", "memory copy rate of a volume cache kept in host memory (0: free)", "bytes/s", nil,
		func(h *host.Params) string { return strconv.FormatInt(h.VolumeCacheCopyRate, 10) }),
	hostField("reserve", "the memory the kernel and programs keep; the page cache gets the rest of ram", "bytes", nil,
		func(h *host.Params) string { return trace.FormatSize(h.Reserve) }),
	hostField("max_writeback", "the largest write the page cache's flusher sends down, a multiple of 4KiB", "bytes", nil,
		func(h *host.Params) string { return trace.FormatSize(h.PageCache.MaxWriteback) }),
	hostField("max_in_flight", "writeback writes in flight at once", "", rangeOf(1, 1<<16), func(h *host.Params) string { return itoa(h.PageCache.MaxInFlight) }),
	hostField("link_rate", "the network link's payload rate one way (with a network)", "bytes/s", nil,
		func(h *host.Params) string { return strconv.FormatInt(h.Network.Rate, 10) }),
	hostField("link_latency", "the network link's one-way delay beyond the time on the wire", "", rangeOf(0, time.Second),
		func(h *host.Params) string { return dur(h.Network.Latency) }),
	hostField("link_overhead", "protocol bytes of each request and reply on the link (SMB or NFS headers)", "bytes", nil,
		func(h *host.Params) string { return strconv.FormatInt(h.Network.Overhead, 10) }),
	hostField("link_cpu_per_request", "the file server's CPU time per request (its protocol server and TCP stack)", "", rangeOf(0, time.Second),
		func(h *host.Params) string { return dur(h.Network.CPUPerRequest) }),
	hostField("link_cpu_per_kib", "the file server's CPU time per KiB carried either way", "", rangeOf(0, time.Second),
		func(h *host.Params) string { return dur(h.Network.CPUPerKiB) }),
}

func withNoZero(f Field) Field { f.NoZero = true; return f }

// networkName names a host's link as stack.host.network does.
func networkName(l *host.Link) string {
	if l == nil {
		return "none"
	}
	for _, n := range networkNames[1:] {
		if networks[n]().Rate == l.Rate {
			return n
		}
	}
	return "none"
}

var phaseFields = Table{
	{Path: "phases[].name", Doc: "label of the phase's report; unique", DefaultText: "phase N, N from 1",
		defaultOf: func(_ *Experiment, pl *Plan) string { return pl.Phases[0].Name }},
	{Path: "phases[].startdelay", Doc: "idle time before the phase (fio startdelay): caches destage meanwhile", Default: "0", Bounds: rangeOf(0, maxStartDelay)},
	{Path: "phases[].runtime", Doc: "stop issuing requests after this much virtual time (fio runtime; 0: none)", Default: "0", Bounds: rangeOf(0, maxStartDelay)},
	{Path: "phases[].ramp_ios", Doc: "leave the first N completions out of the phase's report and take its rate from the last of them on (IOMeter's ramp-up); synthetic jobs only",
		Default: "0", Bounds: rangeOf(0, maxIOs)},
	{Path: "phases[].rw", Label: "access pattern", Doc: "the access pattern (fio's rw)", Values: rwNames, NoZero: true, Default: workloadDefaults.RW.String()},
	{Path: "phases[].rwmixread", Label: "reads (%)", Doc: "percentage of reads of rw and randrw", Unit: "percent", Default: strconv.Itoa(DefaultRWMixRead),
		Bounds: rangeOf(0, 100)},
	{Path: "phases[].bs", Label: "block size", Doc: "the block size, a multiple of the sector size", Unit: "bytes", Aligned: true, NoZero: true,
		Default: trace.FormatSize(workloadDefaults.BS)},
	{Path: "phases[].bssplit", Doc: "a block size mix instead of bs: SIZE/PERCENT:SIZE/PERCENT..., e.g. 4KiB/70:64KiB/30", Unset: "none"},
	{Path: "phases[].iodepth", Label: "queue depth", Doc: "requests kept outstanding", NoZero: true, Default: strconv.Itoa(workloadDefaults.IODepth),
		Bounds: rangeOf(0, trace.MaxIODepth)},
	{Path: "phases[].offset", Doc: "where the region addressed starts", Unit: "bytes", Aligned: true, Default: "0"},
	{Path: "phases[].size", Label: "region size", Doc: "the length of the region addressed (0: to the end of the stack)", Unit: "bytes", Aligned: true, Default: "0"},
	{Path: "phases[].ios", Label: "requests", Doc: "the number of requests (0: one pass over size, fio's io_size = size)", Default: "0", Bounds: rangeOf(0, maxIOs)},
	{Path: "phases[].random_distribution", Doc: "random offsets: uniform, zipf:THETA, pareto:H or normal:PCT", NoZero: true,
		Default: workloadDefaults.RandomDistribution.String()},
	{Path: "phases[].percentage_random", Doc: "share of random requests in a sequential pattern", Unit: "percent", Default: "0", Bounds: rangeOf(0, 100)},
	{Path: "phases[].fsync", Doc: "a flush after every N writes (0: never)", Default: "0"},
	{Path: "phases[].rate", Doc: "cap on bytes per second (fio rate): one size for reads, writes and trims, or READS,WRITES[,TRIMS], an empty one uncapped (1MiB,500KiB)",
		Unit: "bytes/s", Unset: "none: uncapped"},
	{Path: "phases[].rate_iops", Doc: "cap on requests per second (fio rate_iops), as rate: 100, or ,50 for writes alone", Unset: "none: uncapped"},
	{Path: "phases[].rate_process", Doc: "the gaps between a rated job's requests: even, or exponential (a Poisson process, open-loop arrivals)",
		Values: rateProcessNames, NoZero: true, Default: "linear"},
	{Path: "phases[].io_submit_mode", Doc: "a rated job ahead of schedule first waits for its requests in flight (inline, fio's default) or only for its time (offload)",
		Values: submitModeNames, NoZero: true, Default: "inline"},
	{Path: "phases[].thinktime", Doc: "stall after every thinktime_blocks blocks, having waited for the requests in flight (fio thinktime; 0: never)",
		Default: "0", Bounds: rangeOf(0, trace.MaxThinkTime)},
	{Path: "phases[].thinktime_spin", Doc: "the part of each stall spent spinning on a CPU (fio thinktime_spin)", Default: "0", Bounds: rangeOf(0, trace.MaxThinkTime)},
	{Path: "phases[].thinktime_blocks", Doc: "blocks between stalls (fio thinktime_blocks)", NoZero: true, Default: "1",
		Bounds: rangeOf(1, trace.MaxThinkTimeBlocks)},
	{Path: "phases[].thinktime_blocks_type", Doc: "count the blocks completed or issued between stalls (fio thinktime_blocks_type)",
		Values: thinkBlocksNames, NoZero: true, Default: "complete"},
	{Path: "phases[].numjobs", Label: "clones", Doc: "run that many clones of the job at once, each drawing its own requests (fio numjobs)",
		NoZero: true, Default: "1", Bounds: rangeOf(1, maxNumJobs)},
	{Path: "phases[].offset_increment", Doc: "move clone k's region by k times this (fio offset_increment)", Unit: "bytes", Aligned: true, Default: "0"},
	{Path: "phases[].group_reporting", Doc: "report the job's clones, and the jobs of its reporting group that set it too, as one (fio group_reporting)",
		Default: "false"},
	{Path: "phases[].time_based", Doc: "repeat the job until its runtime (fio time_based; needs runtime, no ios)", Default: "false"},
	{Path: "phases[].background", Doc: "synthetic jobs run beside the phase's own until it ends, each with its own iodepth: the job keys above, without ios and trace",
		Unset: "none", Bounds: rangeOf(0, maxBackground)},
	{Path: "phases[].trace", Doc: "replay a trace instead of a synthetic job (then no job keys)", Unset: "none"},
	{Path: "phases[].jobs", Doc: "concurrent jobs instead of the phase's own, as an fio job file's sections between stonewalls: the job keys above plus those below",
		Unset: "none: the phase's own job", Bounds: rangeOf(0, maxJobs)},
	{Path: "phases[].jobs[].name", Doc: "label of the job's report (its clones share it)", Unset: "job N, N from 1"},
	{Path: "phases[].jobs[].startdelay", Doc: "idle time before the job starts (fio startdelay)", Default: "0", Bounds: rangeOf(0, maxStartDelay)},
	{Path: "phases[].jobs[].runtime", Doc: "stop issuing the job's requests this long after it started (fio runtime; 0: none)", Default: "0",
		Bounds: rangeOf(0, maxStartDelay)},
	{Path: "phases[].jobs[].wait_for", Doc: "start when every clone of this earlier job has ended (fio wait_for)", Unset: "none"},
	{Path: "phases[].jobs[].new_group", Doc: "start a new reporting group with this job (fio new_group)", Default: "false"},
}

var traceFields = Table{
	{Path: "phases[].trace.path", Doc: "the trace file (.gz and .bz2 read as they are), relative to the config file", Required: true},
	{Path: "phases[].trace.format", Doc: "the trace's format, or auto to sniff it", Values: formatNames, NoZero: true, Default: DefaultTraceFormat},
	{Path: "phases[].trace.device", Doc: "replay only this device (volume) number", Unset: "every device"},
	{Path: "phases[].trace.iodepth", Doc: "replay in closed loop at this depth (0: open loop, at the recorded times)", Default: "0",
		Bounds: rangeOf(0, trace.MaxIODepth)},
	{Path: "phases[].trace.speed", Doc: "open-loop speed-up: 2 replays twice as fast", NoZero: true, Default: "1", Bounds: rangeOf(0, 1e9)},
	{Path: "phases[].trace.map", Doc: "offsets past the stack's capacity: refused, wrapped round, or scaled (needs capacity)", Values: mapNames, NoZero: true,
		Unset: "the format's: wrap for systor17 and tencent (many volumes in one file), else reject"},
	{Path: "phases[].trace.capacity", Doc: "the traced device's size, for map scale", Unit: "bytes", Default: "0"},
	{Path: "phases[].trace.reorder", Doc: "sort records by time within a window of N records (for unsorted traces; instead of reorder_window)", Default: "0", Bounds: rangeOf(0, maxReorder)},
	{Path: "phases[].trace.reorder_window", Doc: "sort records by time within this window of time, so records up to that late replay in order (0: the format's)",
		NoZero: true, Unset: "the format's: " + defaultWindows(), Bounds: rangeOf(0, trace.MaxReorderTime)},
	{Path: "phases[].trace.strict_order", Doc: "replay the trace as it is: a record out of time order stops an open-loop replay (no default reorder window)", Default: "false"},
}

// defaultWindows lists the formats' default reorder windows.
func defaultWindows() string {
	var parts []string
	for _, f := range formatNames {
		if w := trace.DefaultReorderWindow(trace.Format(f)); w > 0 {
			parts = append(parts, f+" "+w.String())
		}
	}
	return strings.Join(parts, ", ") + ", others 0"
}
