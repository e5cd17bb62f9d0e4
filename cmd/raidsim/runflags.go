package main

import (
	"fmt"
	"strings"

	"github.com/raidsim/raidsim/spec"
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
	{name: "name", group: groupExperiment, metavar: "NAME", path: "name", example: "mine"},
	{name: "seed", aliases: []string{"randseed"}, group: groupExperiment, metavar: "N", path: "seed", example: "7"},
	{name: "power-loss-at", group: groupExperiment, metavar: "DURATION", path: "power_loss_at", example: "300ms"},

	{name: "rw", group: groupWorkload, metavar: "PATTERN", path: "phases[0].rw", needs: synthetic, example: "randwrite"},
	{name: "rwmixread", group: groupWorkload, metavar: "PERCENT", path: "phases[0].rwmixread", needs: synthetic, example: "70"},
	{name: "bs", group: groupWorkload, metavar: "SIZE", path: "phases[0].bs", needs: synthetic, example: "64KiB",
		usage: "e.g. 4KiB, 64k, 1MiB"},
	{name: "bssplit", group: groupWorkload, metavar: "MIX", path: "phases[0].bssplit", needs: synthetic, example: "4k/70:64k/30"},
	{name: "iodepth", group: groupWorkload, metavar: "N", path: "phases[0].iodepth", tracePath: "phases[0].trace.iodepth", example: "32"},
	{name: "ios", aliases: []string{"number_ios"}, group: groupWorkload, metavar: "N", path: "phases[0].ios", needs: synthetic, example: "5000"},
	{name: "offset", group: groupWorkload, metavar: "SIZE", path: "phases[0].offset", needs: synthetic, example: "10GiB"},
	{name: "size", group: groupWorkload, metavar: "SIZE", path: "phases[0].size", needs: synthetic, example: "1GiB"},
	{name: "random-distribution", aliases: []string{"random_distribution"}, group: groupWorkload, metavar: "DIST", path: "phases[0].random_distribution", needs: synthetic, example: "zipf:1.2"},
	{name: "percentage-random", aliases: []string{"percentage_random"}, group: groupWorkload, metavar: "PERCENT", path: "phases[0].percentage_random", needs: synthetic, example: "20"},
	{name: "fsync", group: groupWorkload, metavar: "N", path: "phases[0].fsync", needs: synthetic, example: "8"},
	{name: "rate", group: groupWorkload, metavar: "BYTES/S", path: "phases[0].rate", needs: synthetic, example: "1MiB,512KiB"},
	{name: "rate-iops", group: groupWorkload, metavar: "N", path: "phases[0].rate_iops", needs: synthetic, example: "100"},
	{name: "rate-process", group: groupWorkload, metavar: "PROCESS", path: "phases[0].rate_process", needs: synthetic, example: "poisson"},
	{name: "io-submit-mode", group: groupWorkload, metavar: "MODE", path: "phases[0].io_submit_mode", needs: synthetic, example: "offload"},
	{name: "thinktime", group: groupWorkload, metavar: "DURATION", path: "phases[0].thinktime", needs: synthetic, example: "2ms"},
	{name: "thinktime-spin", group: groupWorkload, metavar: "DURATION", path: "phases[0].thinktime_spin", needs: synthetic, example: "1ms"},
	{name: "thinktime-blocks", group: groupWorkload, metavar: "N", path: "phases[0].thinktime_blocks", needs: synthetic, example: "8"},
	{name: "thinktime-blocks-type", group: groupWorkload, metavar: "TYPE", path: "phases[0].thinktime_blocks_type", needs: synthetic, example: "issue"},
	{name: "numjobs", group: groupWorkload, metavar: "N", path: "phases[0].numjobs", needs: synthetic, example: "4"},
	{name: "offset-increment", group: groupWorkload, metavar: "SIZE", path: "phases[0].offset_increment", needs: synthetic, example: "1GiB"},
	{name: "group-reporting", group: groupWorkload, path: "phases[0].group_reporting", needs: synthetic, example: "true"},
	{name: "time-based", group: groupWorkload, path: "phases[0].time_based", needs: synthetic, example: "true"},
	{name: "runtime", group: groupWorkload, metavar: "DURATION", path: "phases[0].runtime", needs: synthetic, example: "10s"},

	{name: "drive", group: groupDrive, metavar: "PRESET", path: "stack.drive.preset", example: "deskstar-7k500"},
	{name: "precondition", group: groupDrive, metavar: "STATE", path: "stack.drive.precondition", example: "steady"},
	{name: "write-cache", group: groupDrive, metavar: "on|off", path: "stack.drive.write_cache", example: "off"},
	{name: "spindle-sync", group: groupDrive, path: "stack.drive.spindle_sync", example: "true"},
	{name: "scheduler", group: groupDrive, metavar: "NAME", path: "stack.drive.scheduler", example: "fcfs"},
	{name: "ncq", group: groupDrive, metavar: "N", path: "stack.drive.queue_depth", example: "8"},

	{name: "raid", group: groupRAID, metavar: "LEVEL", path: "stack.raid.level", example: "5",
		usage: "makes an array of the drives"},
	{name: "disks", group: groupRAID, metavar: "N", path: "stack.disks", needs: raidSec, example: "4"},
	{name: "stripe", group: groupRAID, metavar: "SIZE", path: "stack.raid.stripe_unit", needs: raidSec, example: "128KiB"},
	{name: "layout", group: groupRAID, metavar: "NAME", path: "stack.raid.layout", needs: raidSec, example: "left-asymmetric"},
	{name: "raid5-write", group: groupRAID, metavar: "NAME", path: "stack.raid.raid5_write", needs: raidSec, example: "rmw"},
	{name: "fail-disk", group: groupRAID, metavar: "I@TIME", settings: failDiskFlag, needs: raidSec, example: "1@1s",
		usage: "fail array member I at virtual time TIME, e.g. 1@1s (repeatable); sets stack.failures[k].member and .at"},
	{name: "rebuild", group: groupRAID, metavar: "I@TIME", settings: rebuildFlag, needs: raidSec, example: "1@2s",
		usage: "rebuild failed member I onto a spare drive at TIME, e.g. 0@1ms; the run goes on until the rebuild ends and reports its time, lost data and the foreground's slowdown; sets stack.rebuild"},
	{name: "rebuild-drive", group: groupRAID, metavar: "PRESET", path: "stack.rebuild.drive", needs: raidSec, example: "wd40efax"},
	{name: "recordsize", group: groupRAID, metavar: "SIZE", path: "stack.raid.recordsize", needs: raidSec, example: "1MiB"},
	{name: "fill", group: groupRAID, metavar: "FRACTION", path: "stack.raid.fill", needs: raidSec, example: "0.5"},
	{name: "fill-streams", group: groupRAID, metavar: "N", path: "stack.raid.fill_streams", needs: raidSec, example: "8"},
	{name: "scan-batch", group: groupRAID, metavar: "N", path: "stack.raid.scan_batch", needs: raidSec, example: "100000"},
	{name: "speed-limit-max", group: groupRAID, metavar: "RATE", path: "stack.raid.rebuild_rate", needs: raidSec, example: "50MiB"},
	{name: "speed-limit-min", group: groupRAID, metavar: "RATE", path: "stack.raid.speed_limit_min", needs: raidSec, example: "1000KiB"},
	{name: "ure", group: groupDrive, metavar: "RATE", path: "stack.faults.ure", example: "1e-14"},
	{name: "erc", group: groupDrive, metavar: "DURATION", path: "stack.faults.erc", example: "7s"},

	{name: "cache", group: groupCache, metavar: "SIZE|off", path: "stack.cache.size", settings: cacheFlag, example: "64MiB",
		usage: "a volume write-back cache of this size on top of the stack; off removes it"},
	{name: "cache-mode", group: groupCache, metavar: "MODE", path: "stack.cache.mode", needs: cacheSec, example: "write-through"},
	{name: "destage", group: groupCache, metavar: "POLICY", path: "stack.cache.policy", needs: cacheSec, example: "idle"},
	{name: "destage-order", group: groupCache, metavar: "ORDER", path: "stack.cache.order", needs: cacheSec, example: "lrw"},
	{name: "cache-max-dirty", group: groupCache, metavar: "SIZE", path: "stack.cache.max_dirty", needs: cacheSec, example: "8MiB"},
	{name: "high-water", group: groupCache, metavar: "FRACTION", path: "stack.cache.high_water", needs: cacheSec, example: "0.7"},
	{name: "low-water", group: groupCache, metavar: "FRACTION", path: "stack.cache.low_water", needs: cacheSec, example: "0.3"},
	{name: "flush-interval", group: groupCache, metavar: "DURATION", path: "stack.cache.interval", needs: cacheSec, example: "500ms"},
	{name: "cache-nv", group: groupCache, path: "stack.cache.non_volatile", needs: cacheSec, example: "true"},
	{name: "cache-align", group: groupCache, metavar: "stripe|none", path: "stack.cache.align", needs: cacheSec, example: "none"},
	{name: "cache-policy", group: groupCache, metavar: "POLICY", path: "stack.cache.replacement", needs: cacheSec, example: "arc"},
	{name: "cache-device", group: groupCache, metavar: "PRESET", path: "stack.cache.device.preset", needs: cacheSec, example: "intel-x25m-g2"},
	{name: "sequential-cutoff", group: groupCache, metavar: "SIZE|off", path: "stack.cache.sequential_cutoff", needs: cacheSec, example: "8MiB"},
	{name: "warmup", group: groupCache, metavar: "N|full", path: "warmup", example: "1000"},

	{name: "host", group: groupHost, metavar: "PRESET|none", path: "stack.host.preset", example: "nas-1gb"},
	{name: "page-cache", group: groupHost, metavar: "SIZE|off", path: "stack.host.page_cache", needs: hostSec, example: "256MiB"},
	{name: "direct", group: groupHost, path: "stack.host.direct", needs: hostSec, example: "true"},

	{name: "trace", group: groupTrace, metavar: "FILE", path: "phases[0].trace.path", example: "t.csv"},
	{name: "format", group: groupTrace, metavar: "NAME", path: "phases[0].trace.format", needs: traceSec, example: "msr"},
	{name: "trace-device", group: groupTrace, metavar: "N", path: "phases[0].trace.device", needs: traceSec, example: "0"},
	{name: "speed", group: groupTrace, metavar: "FACTOR", path: "phases[0].trace.speed", needs: traceSec, example: "2"},
	{name: "map", group: groupTrace, metavar: "MODE", path: "phases[0].trace.map", needs: traceSec, example: "wrap",
		usage: "--map scale needs --trace-capacity"},
	{name: "trace-capacity", group: groupTrace, metavar: "SIZE", path: "phases[0].trace.capacity", needs: traceSec, example: "16GiB"},
	{name: "reorder", group: groupTrace, metavar: "N", path: "phases[0].trace.reorder", needs: traceSec, example: "64"},
	{name: "reorder-window", group: groupTrace, metavar: "DURATION", path: "phases[0].trace.reorder_window", needs: traceSec, example: "5s"},
	{name: "strict-order", group: groupTrace, path: "phases[0].trace.strict_order", needs: traceSec, example: "true"},

	{name: "json", group: groupOutput, example: "true", usage: "print the report as JSON"},
	{name: "output-format", group: groupOutput, metavar: "normal|json", example: "json",
		usage: "fio's spelling: json is --json, normal the text report"},
	{name: "timeline", group: groupOutput, metavar: "N", example: "6",
		usage: fmt.Sprintf("also print the life of the first N requests (up to %d), phase by phase, with the requests each sent below (text only)", maxTimeline)},
	{name: "timeline-summary", group: groupOutput, example: "true",
		usage: "also print the mean time per request in each phase (queue, overhead, seek, rotate, media, bus, cache, other) over the whole run (text only)"},
}

func init() {
	runFlags = append(runFlags, traceEventFlags...)
	runFlags = append(runFlags, runLimitFlags...)
	runFlags = append(runFlags, &runFlag{name: "force", group: groupOutput, example: "true", usage: forceUsage})
}

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
