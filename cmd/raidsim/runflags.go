package main

import (
	"fmt"
	"strings"

	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/host"
	"github.com/raidsim/raidsim/spec"
	"github.com/raidsim/raidsim/ssd"
	"github.com/raidsim/raidsim/trace"
)

// baseExperiment is the experiment `raidsim run` starts from: one drive
// of the default preset (spec.DefaultPreset), one phase of 1000 random
// reads of the default block size (4KiB) at iodepth 1, seed 1. Every
// experiment flag changes one field of it; a field no flag changes
// keeps the value given here, or else its default (spec.Default). The
// block size is left to its default so that --bssplit can replace it.
// With --trace the phase replays the trace instead (traceBase); with
// --config FILE the file is the base.
func baseExperiment() spec.Experiment {
	return spec.Experiment{
		Seed:   1,
		Phases: []spec.Phase{{Job: spec.Job{RW: "randread", IODepth: 1, IOs: 1000}}},
	}
}

// traceBase is baseExperiment with its one phase replaying a trace (the
// path comes from --trace) instead of the synthetic job.
func traceBase() spec.Experiment {
	x := baseExperiment()
	x.Phases = []spec.Phase{{Job: spec.Job{Trace: &spec.Trace{}}}}
	return x
}

// section is a part of an experiment a flag needs: it sets a field
// inside it, and without it the flag would create it silently.
type section int

const (
	anywhere  section = iota
	raidSec           // stack.raid, from --raid
	cacheSec          // stack.cache, from --cache
	traceSec          // phases[0].trace, from --trace
	synthetic         // phases[0] without a trace: a synthetic job
	hostSec           // stack.host.preset, from --host
)

// sectionPath is the key path of each section, and sectionFlag the flag
// that creates it.
var (
	sectionPath = map[section]string{raidSec: "stack.raid", cacheSec: "stack.cache", traceSec: "phases[0].trace", hostSec: "stack.host.preset"}
	sectionFlag = map[section]string{raidSec: "--raid", cacheSec: "--cache", traceSec: "--trace", hostSec: "--host"}
)

// present reports whether x has the section.
func (s section) present(x *spec.Experiment) bool {
	switch s {
	case raidSec:
		return x.Stack.RAID != nil
	case cacheSec:
		return x.Stack.Cache != nil
	case traceSec:
		return len(x.Phases) > 0 && x.Phases[0].Trace != nil
	case synthetic:
		return len(x.Phases) == 0 || x.Phases[0].Trace == nil
	case hostSec:
		return x.Stack.Host.Preset != "" && !strings.EqualFold(x.Stack.Host.Preset, "none")
	}
	return true
}

// setting is one field to set: a key path and its value, written as in
// a file.
type setting struct{ path, value string }

// runFlag is one flag of `raidsim run` (and `raidsim gen`): most set the
// field at a key path of spec.Experiment to their value, decoded as a
// file's value is (spec.Set), so a flag and a file give the same errors.
type runFlag struct {
	name    string   // the long name, without --
	aliases []string // other spellings (fio's)
	group   string   // the heading it is listed under in --help
	metavar string   // the value's name in --help; "" for a switch
	usage   string
	// path is the key path the value is set at, and tracePath the path
	// used instead when the first phase replays a trace.
	path, tracePath string
	// settings, when set, turns the value into the fields to set (for
	// flags that are not one path: --fail-disk, --cache, --set).
	settings func(x *spec.Experiment, value string) ([]setting, error)
	// needs is the section the flag sets a field in, which must come
	// from the base experiment, its own flag or --set.
	needs section
	// example is a value the flag accepts, for tests.
	example string
}

// field reports whether the flag sets fields of the experiment (the
// others choose the base or the output).
func (f *runFlag) field() bool { return f.path != "" || f.settings != nil }

// flag groups, in --help order.
const (
	groupExperiment = "Experiment"
	groupWorkload   = "Workload (the first phase's job, in fio's words)"
	groupDrive      = "Drive (every drive of the stack)"
	groupRAID       = "RAID"
	groupCache      = "Volume cache"
	groupHost       = "Host (CPU cost, page cache, network)"
	groupTrace      = "Trace replay"
	groupOutput     = "Output"
)

// runFlags is the flag table of `raidsim run`.
var runFlags = []*runFlag{
	{name: "config", group: groupExperiment, metavar: "FILE", example: "x.yaml",
		usage: "start from this YAML or JSON experiment (examples/configs/) instead of the base experiment; the other flags change it"},
	{name: "set", group: groupExperiment, metavar: "PATH=VALUE", settings: setFlag, example: "phases[0].runtime=2s",
		usage: "set any field by its key path, its value written as in a file (repeatable), e.g. --set stack.drive.read_ahead=off"},
	{name: "name", group: groupExperiment, metavar: "NAME", path: "name", example: "mine",
		usage: "name of the run in its report"},
	{name: "seed", aliases: []string{"randseed"}, group: groupExperiment, metavar: "N", path: "seed", example: "7",
		usage: "seed of every random stream: the same seed gives a byte-identical report"},
	{name: "power-loss-at", group: groupExperiment, metavar: "DURATION", path: "power_loss_at", example: "300ms",
		usage: "also report what a power failure this long after the start would lose in each layer"},

	{name: "rw", group: groupWorkload, metavar: "PATTERN", path: "phases[0].rw", needs: synthetic, example: "randwrite",
		usage: "access pattern: read, write, randread, randwrite, rw, randrw, trim or randtrim"},
	{name: "rwmixread", group: groupWorkload, metavar: "PERCENT", path: "phases[0].rwmixread", needs: synthetic, example: "70",
		usage: "percentage of reads of rw and randrw"},
	{name: "bs", group: groupWorkload, metavar: "SIZE", path: "phases[0].bs", needs: synthetic, example: "64KiB",
		usage: "block size, e.g. 4KiB, 64k, 1MiB"},
	{name: "bssplit", group: groupWorkload, metavar: "MIX", path: "phases[0].bssplit", needs: synthetic, example: "4k/70:64k/30",
		usage: "block size mix instead of --bs, e.g. 4k/70:64k/30"},
	{name: "iodepth", group: groupWorkload, metavar: "N", path: "phases[0].iodepth", tracePath: "phases[0].trace.iodepth", example: "32",
		usage: "requests kept outstanding; with --trace, replay in closed loop at this depth instead of at the recorded times"},
	{name: "ios", aliases: []string{"number_ios"}, group: groupWorkload, metavar: "N", path: "phases[0].ios", needs: synthetic, example: "5000",
		usage: "number of requests"},
	{name: "offset", group: groupWorkload, metavar: "SIZE", path: "phases[0].offset", needs: synthetic, example: "10GiB",
		usage: "start of the region addressed"},
	{name: "size", group: groupWorkload, metavar: "SIZE", path: "phases[0].size", needs: synthetic, example: "1GiB",
		usage: "length of the region addressed; 0 means to the end of the stack"},
	{name: "random_distribution", group: groupWorkload, metavar: "DIST", path: "phases[0].random_distribution", needs: synthetic, example: "zipf:1.2",
		usage: "random offsets: uniform, zipf:THETA, pareto:H or normal:PCT"},
	{name: "percentage_random", group: groupWorkload, metavar: "PERCENT", path: "phases[0].percentage_random", needs: synthetic, example: "20",
		usage: "share of random requests in a sequential pattern"},
	{name: "fsync", group: groupWorkload, metavar: "N", path: "phases[0].fsync", needs: synthetic, example: "8",
		usage: "send a flush after every N writes (0: never)"},

	{name: "drive", group: groupDrive, metavar: "PRESET", path: "stack.drive.preset", example: "deskstar-7k500",
		usage: "drive preset: " + strings.Join(disk.PresetNames(), ", ") + "; SSDs: " + strings.Join(ssd.PresetNames(), ", ")},
	{name: "precondition", group: groupDrive, metavar: "STATE", path: "stack.drive.precondition", example: "steady",
		usage: "SSDs: the state each drive is put in before the run: none (fresh out of box), fill (written once) or steady (random-overwritten until write amplification settles)"},
	{name: "write-cache", group: groupDrive, metavar: "on|off", path: "stack.drive.write_cache", example: "off",
		usage: "the drive's write cache (on as drives ship)"},
	{name: "spindle-sync", group: groupDrive, path: "stack.drive.spindle_sync", example: "true",
		usage: "synchronize the drives' spindles: every platter at angle 0 at the start (default: each at its own angle)"},
	{name: "scheduler", group: groupDrive, metavar: "NAME", path: "stack.drive.scheduler", example: "fcfs",
		usage: "the drive's queue scheduler: satf, fcfs, sstf or clook"},
	{name: "ncq", group: groupDrive, metavar: "N", path: "stack.drive.queue_depth", example: "8",
		usage: "the drive's tagged queue depth, 1 to 32"},

	{name: "raid", group: groupRAID, metavar: "LEVEL", path: "stack.raid.level", example: "5",
		usage: "make an array of the drives: RAID 0, 1, 5, 6 or 10"},
	{name: "disks", group: groupRAID, metavar: "N", path: "stack.disks", needs: raidSec, example: "4",
		usage: "number of drives in the array (0: the fewest the level needs)"},
	{name: "stripe", group: groupRAID, metavar: "SIZE", path: "stack.raid.stripe_unit", needs: raidSec, example: "128KiB",
		usage: "stripe unit (chunk) of each member"},
	{name: "layout", group: groupRAID, metavar: "NAME", path: "stack.raid.layout", needs: raidSec, example: "left-asymmetric",
		usage: "RAID 5 parity layout: left-symmetric, left-asymmetric, right-symmetric or right-asymmetric"},
	{name: "raid5-write", group: groupRAID, metavar: "NAME", path: "stack.raid.raid5_write", needs: raidSec, example: "rmw",
		usage: "RAID 5 small writes: auto (fewest reads, as md), rmw or rcw"},
	{name: "fail-disk", group: groupRAID, metavar: "I@TIME", settings: failDiskFlag, needs: raidSec, example: "1@1s",
		usage: "fail array member I at virtual time TIME, e.g. 1@1s (repeatable); sets stack.failures[k].member and .at"},
	{name: "rebuild", group: groupRAID, metavar: "I@TIME", settings: rebuildFlag, needs: raidSec, example: "1@2s",
		usage: "rebuild failed member I onto a spare drive at TIME, e.g. 0@1ms; the run goes on until the rebuild ends and reports its time, lost data and the foreground's slowdown; sets stack.rebuild"},
	{name: "speed-limit-max", group: groupRAID, metavar: "RATE", path: "stack.raid.rebuild_rate", needs: raidSec, example: "50MiB",
		usage: "rebuild rate cap in bytes/s, as md's speed_limit_max (default: none)"},
	{name: "speed-limit-min", group: groupRAID, metavar: "RATE", path: "stack.raid.speed_limit_min", needs: raidSec, example: "1000KiB",
		usage: "rebuild rate while foreground requests arrive, as md's speed_limit_min (default: unthrottled)"},
	{name: "ure", group: groupDrive, metavar: "RATE", path: "stack.faults.ure", example: "1e-14",
		usage: "unrecoverable read errors per bit read on every drive, e.g. 1e-14; each leaves a sector unreadable until written"},
	{name: "erc", group: groupDrive, metavar: "DURATION", path: "stack.faults.erc", example: "7s",
		usage: "cap on a drive's error recovery (TLER/ERC), e.g. 7s; without it a desktop drive retries 2 minutes"},

	{name: "cache", group: groupCache, metavar: "SIZE|off", path: "stack.cache.size", settings: cacheFlag, example: "64MiB",
		usage: "a volume write-back cache of this size on top of the stack; off removes it"},
	{name: "cache-mode", group: groupCache, metavar: "MODE", path: "stack.cache.mode", needs: cacheSec, example: "write-through",
		usage: "write-back, write-through or off"},
	{name: "destage", group: groupCache, metavar: "POLICY", path: "stack.cache.policy", needs: cacheSec, example: "idle",
		usage: "destage policy: wm (high and low watermarks), interval, idle or linear"},
	{name: "destage-order", group: groupCache, metavar: "ORDER", path: "stack.cache.order", needs: cacheSec, example: "lrw",
		usage: "destage order: lba (C-SCAN), lrw (oldest first) or wow"},
	{name: "cache-max-dirty", group: groupCache, metavar: "SIZE", path: "stack.cache.max_dirty", needs: cacheSec, example: "8MiB",
		usage: "most dirty data held; the rest of the cache keeps clean data for reads"},
	{name: "high-water", group: groupCache, metavar: "FRACTION", path: "stack.cache.high_water", needs: cacheSec, example: "0.7",
		usage: "destaging starts when dirty data passes this fraction of the dirty limit"},
	{name: "low-water", group: groupCache, metavar: "FRACTION", path: "stack.cache.low_water", needs: cacheSec, example: "0.3",
		usage: "destaging stops below this fraction"},
	{name: "flush-interval", group: groupCache, metavar: "DURATION", path: "stack.cache.interval", needs: cacheSec, example: "500ms",
		usage: "period of the interval destage policy"},
	{name: "cache-nv", group: groupCache, path: "stack.cache.non_volatile", needs: cacheSec, example: "true",
		usage: "the cache is non-volatile (battery- or flash-backed): a power failure loses none of it"},
	{name: "cache-align", group: groupCache, metavar: "stripe|none", path: "stack.cache.align", needs: cacheSec, example: "none",
		usage: "shape destages to full stripes"},

	{name: "host", group: groupHost, metavar: "PRESET|none", path: "stack.host.preset", example: "nas-1gb",
		usage: "put a host in front of the stack: " + strings.Join(host.Presets(), ", ") + ", or none (default)"},
	{name: "page-cache", group: groupHost, metavar: "SIZE|off", path: "stack.host.page_cache", needs: hostSec, example: "256MiB",
		usage: "the host's page cache size, or off (default: the RAM the host leaves to it)"},
	{name: "direct", group: groupHost, path: "stack.host.direct", needs: hostSec, example: "true",
		usage: "O_DIRECT: every request bypasses the host's page cache"},

	{name: "trace", group: groupTrace, metavar: "FILE", path: "phases[0].trace.path", example: "t.csv",
		usage: "replay this trace file instead of a synthetic job (.gz and .bz2 are read as they are)"},
	{name: "format", group: groupTrace, metavar: "NAME", path: "phases[0].trace.format", needs: traceSec, example: "msr",
		usage: "trace format: " + strings.Join(trace.Formats(), ", ")},
	{name: "trace-device", group: groupTrace, metavar: "N", path: "phases[0].trace.device", needs: traceSec, example: "0",
		usage: "replay only this device (disk, volume) number of the trace"},
	{name: "speed", group: groupTrace, metavar: "FACTOR", path: "phases[0].trace.speed", needs: traceSec, example: "2",
		usage: "open-loop speed: 2 replays the trace twice as fast"},
	{name: "map", group: groupTrace, metavar: "MODE", path: "phases[0].trace.map", needs: traceSec, example: "wrap",
		usage: "offsets past the stack's capacity: reject, wrap, or scale (needs --trace-capacity)"},
	{name: "trace-capacity", group: groupTrace, metavar: "SIZE", path: "phases[0].trace.capacity", needs: traceSec, example: "16GiB",
		usage: "size of the traced device, for --map scale"},
	{name: "reorder", group: groupTrace, metavar: "N", path: "phases[0].trace.reorder", needs: traceSec, example: "64",
		usage: "sort records by time within a window of N (for unsorted traces)"},

	{name: "json", group: groupOutput, example: "true", usage: "print the report as JSON"},
	{name: "output-format", group: groupOutput, metavar: "normal|json", example: "json",
		usage: "fio's spelling: json is --json, normal the text report"},
	{name: "timeline", group: groupOutput, metavar: "N", example: "6",
		usage: fmt.Sprintf("also print the life of the first N requests (up to %d), phase by phase, with the requests each sent below (text only)", maxTimeline)},
	{name: "timeline-summary", group: groupOutput, example: "true",
		usage: "also print the mean time per request in each phase (queue, overhead, seek, rotate, media, bus, cache, other) over the whole run (text only)"},
}

func init() { runFlags = append(runFlags, traceEventFlags...) }

// maxTimeline bounds --timeline: a timeline is for reading, not storage.
const maxTimeline = 10000

// setFlag is --set PATH=VALUE.
func setFlag(_ *spec.Experiment, value string) ([]setting, error) {
	path, v, ok := strings.Cut(value, "=")
	if !ok || strings.TrimSpace(path) == "" {
		return nil, fmt.Errorf("want PATH=VALUE, e.g. stack.raid.stripe_unit=128KiB, got %q", value)
	}
	return []setting{{strings.TrimSpace(path), v}}, nil
}

// rebuildFlag is --rebuild I@TIME: stack.rebuild.
func rebuildFlag(_ *spec.Experiment, value string) ([]setting, error) {
	member, at, ok := strings.Cut(value, "@")
	if !ok {
		return nil, fmt.Errorf("want MEMBER@TIME, e.g. 0@1ms, got %q", value)
	}
	return []setting{{"stack.rebuild.member", member}, {"stack.rebuild.at", at}}, nil
}

// failDiskFlag is --fail-disk I@TIME: a failure appended to
// stack.failures.
func failDiskFlag(x *spec.Experiment, value string) ([]setting, error) {
	member, at, ok := strings.Cut(value, "@")
	if !ok {
		return nil, fmt.Errorf("want MEMBER@TIME, e.g. 1@2s, got %q", value)
	}
	k := len(x.Stack.Failures)
	return []setting{
		{fmt.Sprintf("stack.failures[%d].member", k), member},
		{fmt.Sprintf("stack.failures[%d].at", k), at},
	}, nil
}

// cacheFlag is --cache SIZE, or --cache off for no volume cache.
func cacheFlag(_ *spec.Experiment, value string) ([]setting, error) {
	switch strings.ToLower(strings.TrimSpace(value)) {
	case "off", "none":
		return []setting{{"stack.cache", "none"}}, nil
	}
	return []setting{{"stack.cache.size", value}}, nil
}

// lookupFlag returns the flag of table named name.
func lookupFlag(table []*runFlag, name string) *runFlag {
	for _, f := range table {
		if f.name == name {
			return f
		}
	}
	return nil
}
