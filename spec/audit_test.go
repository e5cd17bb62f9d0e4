package spec

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/cache"
	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/faults"
	"github.com/raidsim/raidsim/host"
	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/ssd"
	"github.com/raidsim/raidsim/trace"
)

// reach says, for every parameter of every layer's configuration, the
// key path a file or --set reaches it by, or (after "no key: ") why no
// key does. A parameter added to a layer fails TestEveryParameterIsReachable
// until it is given a key (spec.Fields) or a reason here.
var reach = map[reflect.Type]map[string]string{
	reflect.TypeFor[disk.Params](): {
		"Name": "stack.drive.spec.name", "SectorSize": "stack.drive.spec.sector_size", "Capacity": "stack.drive.spec.capacity",
		"RPM": "stack.drive.spec.rpm", "Surfaces": "stack.drive.spec.heads", "TrackToTrack": "stack.drive.spec.track_to_track",
		"AverageSeek": "stack.drive.spec.average_seek", "FullStroke": "stack.drive.spec.full_stroke",
		"WriteSettle": "stack.drive.spec.write_settle", "HeadSwitch": "stack.drive.spec.head_switch",
		"ReadOverhead": "stack.drive.spec.read_overhead", "WriteOverhead": "stack.drive.spec.write_overhead",
		"InterfaceRate": "stack.drive.spec.interface_rate", "BufferSize": "stack.drive.buffer_size",
		"SpindleSync": "stack.drive.spindle_sync", "Segments": "stack.drive.segments", "ReadAhead": "stack.drive.read_ahead",
		"ReadAheadBytes": "stack.drive.read_ahead_bytes", "WriteCache": "stack.drive.write_cache",
		"WriteCacheBytes": "stack.drive.write_cache_bytes", "QueueDepth": "stack.drive.queue_depth", "Scheduler": "stack.drive.scheduler",
		"Zones":              "no key: derived from the data sheet (stack.drive.spec zones and rates); a DiskSim model's from Go (disk/disksim)",
		"SeekTable":          "no key: DiskSim's extracted seek curves, loaded from Go (disk/disksim); a file gives the three-point curve",
		"Sparing":            "no key: DiskSim's sparing schemes, loaded from Go (disk/disksim)",
		"AccessTime":         "no key: DiskSim's access-time modes, loaded from Go (disk/disksim); disk gives them no names",
		"ConstantAccessTime": "no key: with AccessTime, from Go (disk/disksim)",
		"Mapping":            "no key: DiskSim's track orders, loaded from Go (disk/disksim); disk gives them no names",
		"Overheads":          "no key: DiskSim's per-case command overheads, loaded from Go (disk/disksim); a file gives read and write overheads",
	},
	// The rest of disk.Params: stack.drive.disk, by name (below).
	reflect.TypeFor[ssd.Params](): {"QueueDepth": "stack.drive.queue_depth"}, // the rest: stack.drive.ssd, by name
	reflect.TypeFor[raid.Config](): {
		"Level": "stack.raid.level", "StripeUnit": "stack.raid.stripe_unit", "Layout": "stack.raid.layout",
		"Raid5Write": "stack.raid.raid5_write", "ParityRate": "stack.raid.parity_rate", "ReadPolicy": "stack.raid.read_policy",
		"RebuildRate": "stack.raid.rebuild_rate", "RebuildMinRate": "stack.raid.speed_limit_min",
		"RebuildData": "no key: rebuilds real bytes, for Go tests and teaching with data; a file's runs carry none",
		"Raid6Write":  "stack.raid.raid6_write",
		"Page":        "no key: md's stripe cache page, 4 KiB (PAGE_SIZE) on the platforms md runs on; Go may set another",
	},
	reflect.TypeFor[cache.Config](): {
		"Size": "stack.cache.size", "Block": "stack.cache.block", "Mode": "stack.cache.mode", "NoReadCache": "stack.cache.read_cache",
		"ReadAhead": "stack.cache.read_ahead", "HitLatency": "stack.cache.hit_latency", "CopyRate": "stack.cache.copy_rate",
		"Policy": "stack.cache.policy", "MaxDirty": "stack.cache.max_dirty", "HighWater": "stack.cache.high_water",
		"LowWater": "stack.cache.low_water", "Interval": "stack.cache.interval", "Wakeup": "stack.cache.wakeup", "Idle": "stack.cache.idle",
		"Order": "stack.cache.order", "MaxDestageBytes": "stack.cache.max_destage", "MaxOutstandingDestages": "stack.cache.max_outstanding",
		"Align": "stack.cache.align", "NonVolatile": "stack.cache.non_volatile", "NVIgnoresFlush": "stack.cache.nv_ignores_flush",
		"StripeUnit":       "no key: the array's (stack.raid), with align: stripe",
		"DataMembers":      "no key: the array's (stack.raid), with align: stripe",
		"FullStripe":       "no key: the array's (stack.raid), with align: stripe",
		"Replacement":      "stack.cache.replacement",
		"SequentialCutoff": "stack.cache.sequential_cutoff",
	},
	reflect.TypeFor[host.Params](): {
		"Name": "stack.host.preset", "Cores": "stack.host.cores", "SyscallCost": "stack.host.syscall_cost", "CopyRate": "stack.host.copy_rate",
		"CommandCost": "stack.host.command_cost", "DriverPerKiB": "stack.host.driver_per_kib", "XORRate": "stack.host.xor_rate",
		"StripeCachePerPage": "stack.host.stripe_cache_per_page", "RAIDReadBypass": "stack.host.raid_read_bypass",
		"RAIDReadAheadStripes": "stack.host.raid_read_ahead_stripes", "VolumeCacheLookup": "stack.host.volume_cache_lookup",
		"VolumeCacheCopyRate": "stack.host.volume_cache_copy_rate", "RAM": "stack.host.ram", "Reserve": "stack.host.reserve",
		"PageCache": "stack.host.page_cache", "Direct": "stack.host.direct", "Network": "stack.host.network",
	},
	reflect.TypeFor[host.PageCache](): {
		"Off": "stack.host.page_cache", "Size": "stack.host.page_cache", "DirtyRatio": "stack.host.dirty_ratio",
		"DirtyBackgroundRatio": "stack.host.dirty_background_ratio", "DirtyExpire": "stack.host.dirty_expire",
		"WritebackInterval": "stack.host.writeback_interval", "ReadAhead": "stack.host.read_ahead",
		"MaxWriteback": "stack.host.max_writeback", "MaxInFlight": "stack.host.max_in_flight",
	},
	reflect.TypeFor[host.Link](): {
		"Rate": "stack.host.link_rate", "Latency": "stack.host.link_latency", "Overhead": "stack.host.link_overhead",
		"CPUPerRequest": "stack.host.link_cpu_per_request", "CPUPerKiB": "stack.host.link_cpu_per_kib",
	},
	reflect.TypeFor[faults.Config](): {
		"UREPerBit": "stack.faults.ure", "ERC": "stack.faults.erc", "Timeout": "stack.faults.timeout", "Recovery": "stack.faults.recovery",
		"SlowFraction": "stack.faults.slow_fraction", "SlowDelay": "stack.faults.slow_delay", "BadSectors": "stack.faults.bad_sectors",
		"FailAt":       "no key: it would fail every drive at once; stack.failures fails array members one by one",
		"FailAfterIOs": "no key: it would fail every drive at once; stack.failures fails array members one by one",
		"Rules":        "no key: predicates are Go functions",
		"WriteCache":   "no key: the stack's drives model their own write cache (stack.drive.write_cache)",
	},
	reflect.TypeFor[trace.Workload](): {
		"RW": "phases[].rw", "RWMixRead": "phases[].rwmixread", "BS": "phases[].bs", "BSSplit": "phases[].bssplit",
		"IODepth": "phases[].iodepth", "Offset": "phases[].offset", "Size": "phases[].size", "NumIOs": "phases[].ios",
		"RandomDistribution": "phases[].random_distribution", "PercentageRandom": "phases[].percentage_random", "Fsync": "phases[].fsync",
		"NoScatter": "no key: Go only (the root's benchmark emulations)",
		"Pacing":    "phases[].rate",
	},
	reflect.TypeFor[trace.Pacing](): {
		"Rate": "phases[].rate", "RateIOPS": "phases[].rate_iops", "Poisson": "phases[].rate_process",
		"Offload": "phases[].io_submit_mode", "ThinkTime": "phases[].thinktime", "ThinkTimeSpin": "phases[].thinktime_spin",
		"ThinkTimeBlocks": "phases[].thinktime_blocks", "ThinkOnIssue": "phases[].thinktime_blocks_type",
	},
}

// TestEveryParameterIsReachable: every parameter of every layer's
// configuration is reachable from a file and --set (its key is a key of
// the field table) or has a stated reason why not; every SSD parameter
// and of the disk beyond its data sheet is a key of stack.drive.ssd or
// stack.drive.disk of the same name.
func TestEveryParameterIsReachable(t *testing.T) {
	byName := map[reflect.Type]struct {
		keys map[string]string
		at   string
	}{
		reflect.TypeFor[ssd.Params]():  {keysByField[SSDSpec](), ssdAt},
		reflect.TypeFor[disk.Params](): {keysByField[DiskParams](), diskAt},
	}
	for typ, fields := range reach {
		for _, f := range reflect.VisibleFields(typ) {
			if !f.IsExported() || len(f.Index) > 1 {
				continue
			}
			where, ok := fields[f.Name]
			if section, bySection := byName[typ]; !ok && bySection {
				var key string
				key, ok = section.keys[f.Name]
				where = section.at + key
			}
			if !assert.True(t, ok, "%s.%s: no key and no reason (add one to spec.Fields, or a reason to reach)", typ, f.Name) {
				continue
			}
			if strings.HasPrefix(where, "no key") {
				continue
			}
			_, isKey := FieldAt(strings.ReplaceAll(where, "[]", "[0]"))
			assert.True(t, isKey, "%s.%s: %s is not a key", typ, f.Name, where)
		}
		for name := range fields {
			_, ok := typ.FieldByName(name)
			assert.True(t, ok, "%s has no field %s any more", typ, name)
		}
	}
}

// perturb returns a value near def that differs from it, for a key of
// kind k, or "" when it cannot say one.
func perturb(f Field, def string) string {
	if len(f.Values) > 1 {
		for _, v := range f.Values {
			if v != def {
				return v
			}
		}
	}
	switch f.Kind() {
	case "boolean":
		return map[string]string{"true": "false", "false": "true"}[def]
	case "integer":
		if n, err := strconv.ParseInt(def, 10, 64); err == nil {
			if f.Bounds != nil && float64(n+1) > f.Bounds.Max {
				return strconv.FormatInt(n-1, 10)
			}
			return strconv.FormatInt(n+1, 10)
		}
	case "size":
		if n, err := trace.ParseSize(def); err == nil {
			return strconv.FormatInt(n+4096, 10)
		}
	case "duration":
		if d, err := time.ParseDuration(def); err == nil || def == "0" {
			return (d + time.Millisecond).String()
		}
	case "number":
		if v, err := strconv.ParseFloat(def, 64); err == nil {
			if v == 0 {
				return "0.01"
			}
			return strconv.FormatFloat(v*0.9, 'g', -1, 64)
		}
	}
	return ""
}

// TestEveryKeyReachesThePlan: setting a key to another valid value than
// its default changes the plan, so every key is wired to the layer it
// names (TestDefaultsAreWhatThePlanUses checks the default itself).
func TestEveryKeyReachesThePlan(t *testing.T) {
	checked := 0
	var unchecked []string
	for _, f := range fields {
		if f.Default == "" && f.defaultOf == nil || f.Path == "name" || f.Path == "phases[].name" {
			continue
		}
		path := instance(f)
		x := context(t, path, false)
		pl, err := x.Plan()
		require.NoError(t, err, path)
		def := f.Default
		if f.defaultOf != nil {
			def = f.defaultOf(x, pl)
		}
		v := perturb(f, def)
		if v == "" || Set(x, path, v) != nil {
			unchecked = append(unchecked, path)
			continue
		}
		pl2, err := x.Plan()
		if err != nil {
			unchecked = append(unchecked, path+"="+v)
			continue
		}
		assert.NotEqual(t, effective(pl), effective(pl2), "%s: %s -> %s changes nothing", path, def, v)
		checked++
	}
	t.Logf("%d keys change the plan; not checked (no nearby valid value): %v", checked, unchecked)
	assert.Greater(t, checked, 150)
}
