package raidsim

import (
	"fmt"
	"strings"
	"time"

	"github.com/raidsim/raidsim/trace"
)

// Config is a declarative experiment: a storage stack and a list of
// phases run in order on it, as a benchmark runs its tests one after
// the other on the same disk. It is plain data, loaded from YAML or JSON
// by ParseConfig (keys in snake_case, sizes as "128KiB" or plain byte
// counts, durations as "5ms"); examples/configs/README.md documents
// every key. Zero fields take the defaults documented there.
type Config struct {
	// Name labels the run in reports; ParseConfig defaults it to the
	// source name it is given (the file name without extension).
	Name string `yaml:"name,omitempty" json:"name,omitempty"`
	// Seed seeds every random stream of the run: the same Config and Seed
	// give byte-identical reports.
	Seed uint64 `yaml:"seed,omitempty" json:"seed,omitempty"`
	// Stack is the storage stack every phase runs on.
	Stack StackConfig `yaml:"stack" json:"stack"`
	// Phases run in order on the same stack (the same engine and devices:
	// caches keep their contents from one phase to the next).
	Phases []PhaseConfig `yaml:"phases" json:"phases"`
	// PowerLossAt, when set, adds to the total report what a power
	// failure that long after the start would lose in each layer.
	PowerLossAt Duration `yaml:"power_loss_at,omitempty" json:"power_loss_at,omitempty"`
	// Sweep is read by `raidsim sweep` (the fields to vary); Run ignores
	// it and ParseConfig keeps it as decoded.
	Sweep any `yaml:"sweep,omitempty" json:"sweep,omitempty"`

	source string // file or source name, prefixed to errors
}

// StackConfig describes the devices: drives of one model, optionally
// striped into an array, optionally under a volume cache, and what the
// host does with flushes.
type StackConfig struct {
	// Drive is the model of every drive.
	Drive DriveConfig `yaml:"drive" json:"drive"`
	// Disks is the number of drives; zero means one, or with RAID the
	// fewest the level needs.
	Disks int `yaml:"disks,omitempty" json:"disks,omitempty"`
	// RAID, when set, makes an array of the drives.
	RAID *RAIDConfig `yaml:"raid,omitempty" json:"raid,omitempty"`
	// Failures fail array members at virtual times from the start of the
	// run.
	Failures []FailureConfig `yaml:"failures,omitempty" json:"failures,omitempty"`
	// Cache, when set, puts a volume write-back cache on top.
	Cache *CacheConfig `yaml:"cache,omitempty" json:"cache,omitempty"`
	// Host is what the host does before requests reach the stack.
	Host HostConfig `yaml:"host,omitempty" json:"host,omitempty"`
}

// DriveConfig chooses a drive model: a preset, or data-sheet figures
// (Spec) on their own or overriding a preset's, then overrides of
// individual drive parameters.
type DriveConfig struct {
	// Preset is a built-in drive (`raidsim drives`); default
	// "travelstar-7k500" unless Spec gives a full drive.
	Preset string `yaml:"preset,omitempty" json:"preset,omitempty"`
	// Spec gives data-sheet figures: with a preset, the non-zero ones
	// replace the preset's; without, they are the whole drive.
	Spec *DriveSpecConfig `yaml:"spec,omitempty" json:"spec,omitempty"`
	// WriteCache turns the drive's write cache on or off; unset keeps the
	// model's setting (on for every preset).
	WriteCache *bool `yaml:"write_cache,omitempty" json:"write_cache,omitempty"`
	// WriteCacheBytes is the buffer share that holds cached writes, in
	// bytes (default three quarters of the buffer).
	WriteCacheBytes Size `yaml:"write_cache_bytes,omitempty" json:"write_cache_bytes,omitempty"`
	// Scheduler is the queue scheduler: satf, fcfs, sstf or clook.
	Scheduler string `yaml:"scheduler,omitempty" json:"scheduler,omitempty"`
	// QueueDepth is the drive's tagged queue depth, 1..32 (default 32).
	QueueDepth int `yaml:"queue_depth,omitempty" json:"queue_depth,omitempty"`
	// ReadAhead is the read-ahead policy: segment, fixed, off, track,
	// cylinder or next-track.
	ReadAhead string `yaml:"read_ahead,omitempty" json:"read_ahead,omitempty"`
	// ReadAheadBytes is the fixed read-ahead, or the cap of the track
	// policies, in bytes.
	ReadAheadBytes Size `yaml:"read_ahead_bytes,omitempty" json:"read_ahead_bytes,omitempty"`
	// BufferSize is the drive's buffer in bytes.
	BufferSize Size `yaml:"buffer_size,omitempty" json:"buffer_size,omitempty"`
	// Segments is the number of read segments of the buffer.
	Segments int `yaml:"segments,omitempty" json:"segments,omitempty"`
}

// DriveSpecConfig is disk.Spec with rates in MB/s (10^6 bytes per
// second), as data sheets give them.
type DriveSpecConfig struct {
	// Name is the model name.
	Name string `yaml:"name,omitempty" json:"name,omitempty"`
	// Capacity is the addressable size in bytes.
	Capacity Size `yaml:"capacity,omitempty" json:"capacity,omitempty"`
	// SectorSize is 512 (default) or 4096 bytes.
	SectorSize int `yaml:"sector_size,omitempty" json:"sector_size,omitempty"`
	// RPM is the spindle speed.
	RPM int `yaml:"rpm,omitempty" json:"rpm,omitempty"`
	// Heads is the number of data surfaces.
	Heads int `yaml:"heads,omitempty" json:"heads,omitempty"`
	// Zones is the number of recording zones (default 16).
	Zones int `yaml:"zones,omitempty" json:"zones,omitempty"`
	// OuterSustained and InnerSustained are the sustained media rates of
	// the outer and inner zones, MB/s.
	OuterSustained float64 `yaml:"outer_sustained,omitempty" json:"outer_sustained,omitempty"`
	InnerSustained float64 `yaml:"inner_sustained,omitempty" json:"inner_sustained,omitempty"`
	// OuterInstant and InnerInstant are the one-track media rates, MB/s.
	OuterInstant float64 `yaml:"outer_instant,omitempty" json:"outer_instant,omitempty"`
	InnerInstant float64 `yaml:"inner_instant,omitempty" json:"inner_instant,omitempty"`
	// TrackToTrack, AverageSeek and FullStroke are the read seek times.
	TrackToTrack Duration `yaml:"track_to_track,omitempty" json:"track_to_track,omitempty"`
	AverageSeek  Duration `yaml:"average_seek,omitempty" json:"average_seek,omitempty"`
	FullStroke   Duration `yaml:"full_stroke,omitempty" json:"full_stroke,omitempty"`
	// WriteSettle is the extra time of a write seek.
	WriteSettle Duration `yaml:"write_settle,omitempty" json:"write_settle,omitempty"`
	// HeadSwitch is the head switch time.
	HeadSwitch Duration `yaml:"head_switch,omitempty" json:"head_switch,omitempty"`
	// ReadOverhead and WriteOverhead are per-command controller times.
	ReadOverhead  Duration `yaml:"read_overhead,omitempty" json:"read_overhead,omitempty"`
	WriteOverhead Duration `yaml:"write_overhead,omitempty" json:"write_overhead,omitempty"`
	// InterfaceRate is the host interface rate, MB/s (default 300).
	InterfaceRate float64 `yaml:"interface_rate,omitempty" json:"interface_rate,omitempty"`
	// BufferSize is the buffer in bytes.
	BufferSize Size `yaml:"buffer_size,omitempty" json:"buffer_size,omitempty"`
}

// RAIDConfig is raid.Config with names for the enumerations.
type RAIDConfig struct {
	// Level is 0, 1, 5 or 10.
	Level string `yaml:"level" json:"level"`
	// StripeUnit is the bytes each member holds of one stripe (default
	// 64KiB), a multiple of the sector size.
	StripeUnit Size `yaml:"stripe_unit,omitempty" json:"stripe_unit,omitempty"`
	// Layout is the RAID 5 parity layout (default left-symmetric).
	Layout string `yaml:"layout,omitempty" json:"layout,omitempty"`
	// RAID5Write is auto (default), rmw or rcw.
	RAID5Write string `yaml:"raid5_write,omitempty" json:"raid5_write,omitempty"`
	// ReadPolicy balances RAID 1 and 10 reads.
	ReadPolicy string `yaml:"read_policy,omitempty" json:"read_policy,omitempty"`
	// ParityRate is the parity engine's speed in bytes per second (zero:
	// free).
	ParityRate Size `yaml:"parity_rate,omitempty" json:"parity_rate,omitempty"`
	// RebuildRate caps rebuild in bytes per second (zero: as fast as
	// possible).
	RebuildRate Size `yaml:"rebuild_rate,omitempty" json:"rebuild_rate,omitempty"`
}

// FailureConfig fails array member Member At after the start.
type FailureConfig struct {
	Member int      `yaml:"member" json:"member"`
	At     Duration `yaml:"at" json:"at"`
}

// CacheConfig is cache.Config with names for the enumerations.
type CacheConfig struct {
	// Size is the cache memory in bytes (default 64MiB).
	Size Size `yaml:"size,omitempty" json:"size,omitempty"`
	// Block is the unit of cache memory in bytes (default 4KiB).
	Block Size `yaml:"block,omitempty" json:"block,omitempty"`
	// Mode is write-back (default), write-through or off.
	Mode string `yaml:"mode,omitempty" json:"mode,omitempty"`
	// ReadCache keeps clean data for reads (default true).
	ReadCache *bool `yaml:"read_cache,omitempty" json:"read_cache,omitempty"`
	// ReadAhead is how far the cache reads ahead of a sequential stream.
	ReadAhead Size `yaml:"read_ahead,omitempty" json:"read_ahead,omitempty"`
	// HitLatency is the time of a hit (default 2µs).
	HitLatency Duration `yaml:"hit_latency,omitempty" json:"hit_latency,omitempty"`
	// CopyRate is the memory copy rate in bytes per second (default 2e9).
	CopyRate Size `yaml:"copy_rate,omitempty" json:"copy_rate,omitempty"`
	// Policy is wm (default), interval, idle or linear.
	Policy string `yaml:"policy,omitempty" json:"policy,omitempty"`
	// MaxDirty bounds the dirty data, destages in flight included
	// (default: Size); the rest of Size caches clean data.
	MaxDirty Size `yaml:"max_dirty,omitempty" json:"max_dirty,omitempty"`
	// HighWater and LowWater are fractions of MaxDirty (defaults 0.5,
	// 0.45).
	HighWater float64 `yaml:"high_water,omitempty" json:"high_water,omitempty"`
	LowWater  float64 `yaml:"low_water,omitempty" json:"low_water,omitempty"`
	// Interval is the interval policy's period (default 1s).
	Interval Duration `yaml:"interval,omitempty" json:"interval,omitempty"`
	// Idle is the idle policy's quiet time (default 100ms).
	Idle Duration `yaml:"idle,omitempty" json:"idle,omitempty"`
	// Order is lba (default), lrw or wow.
	Order string `yaml:"order,omitempty" json:"order,omitempty"`
	// MaxDestage is the largest destage write in bytes (default 1MiB).
	MaxDestage Size `yaml:"max_destage,omitempty" json:"max_destage,omitempty"`
	// MaxOutstanding bounds destages in flight (default 20).
	MaxOutstanding int `yaml:"max_outstanding,omitempty" json:"max_outstanding,omitempty"`
	// Align is stripe or none; default stripe over RAID, none otherwise.
	Align string `yaml:"align,omitempty" json:"align,omitempty"`
	// NonVolatile makes the cache battery- or flash-backed.
	NonVolatile bool `yaml:"non_volatile,omitempty" json:"non_volatile,omitempty"`
	// NVIgnoresFlush lets a non-volatile cache acknowledge flushes at once.
	NVIgnoresFlush bool `yaml:"nv_ignores_flush,omitempty" json:"nv_ignores_flush,omitempty"`
}

// HostConfig is what the host does with requests.
type HostConfig struct {
	// Flushes, when false, drops Flush requests at the host (an OS with
	// write-cache buffer flushing turned off); default true.
	Flushes *bool `yaml:"flushes,omitempty" json:"flushes,omitempty"`
}

// PhaseConfig is one phase: a synthetic workload in fio's vocabulary, or
// a trace replay when Trace is set (the workload keys must then be
// absent).
type PhaseConfig struct {
	// Name labels the phase's report (default "phase N", from 1).
	Name string `yaml:"name,omitempty" json:"name,omitempty"`
	// StartDelay is idle time before the phase (fio startdelay): caches
	// destage meanwhile.
	StartDelay Duration `yaml:"startdelay,omitempty" json:"startdelay,omitempty"`
	// Runtime, when positive, stops issuing the phase's requests once
	// that much virtual time has passed since it started (fio runtime);
	// requests outstanding then still complete. A guard against phases
	// that would run far longer than meant.
	Runtime Duration `yaml:"runtime,omitempty" json:"runtime,omitempty"`
	// RW is the fio access pattern (default read).
	RW string `yaml:"rw,omitempty" json:"rw,omitempty"`
	// RWMixRead is the read percentage of rw and randrw (default 50).
	RWMixRead *int `yaml:"rwmixread,omitempty" json:"rwmixread,omitempty"`
	// BS is the block size in bytes (default 4KiB).
	BS Size `yaml:"bs,omitempty" json:"bs,omitempty"`
	// BSSplit is a block size mix, "4KiB/70:64KiB/30".
	BSSplit string `yaml:"bssplit,omitempty" json:"bssplit,omitempty"`
	// IODepth is the requests kept outstanding (default 1).
	IODepth int `yaml:"iodepth,omitempty" json:"iodepth,omitempty"`
	// Offset is where the region starts, bytes.
	Offset Size `yaml:"offset,omitempty" json:"offset,omitempty"`
	// Size is the region length, bytes (default: to the end).
	Size Size `yaml:"size,omitempty" json:"size,omitempty"`
	// IOs is the number of requests (default: one pass over Size).
	IOs int64 `yaml:"ios,omitempty" json:"ios,omitempty"`
	// RandomDistribution is uniform, zipf:T, pareto:H or normal:P.
	RandomDistribution string `yaml:"random_distribution,omitempty" json:"random_distribution,omitempty"`
	// PercentageRandom is the share, 0..100, of random requests in a
	// sequential pattern.
	PercentageRandom int `yaml:"percentage_random,omitempty" json:"percentage_random,omitempty"`
	// Fsync sends a Flush after every Fsync writes (0: never).
	Fsync int `yaml:"fsync,omitempty" json:"fsync,omitempty"`
	// Trace, when set, replays a trace file instead.
	Trace *TracePhaseConfig `yaml:"trace,omitempty" json:"trace,omitempty"`
	// Background lists workloads run at the same time as this one, each
	// with its own iodepth, until this phase's workload ends (as other
	// fio jobs running beside it): reads measured while writes go on.
	// Entries take the workload keys only (no name, ios, trace,
	// startdelay or background).
	Background []PhaseConfig `yaml:"background,omitempty" json:"background,omitempty"`
}

// TracePhaseConfig is a trace replay.
type TracePhaseConfig struct {
	// Path is the trace file, relative to the config file's directory
	// when loaded with LoadConfig.
	Path string `yaml:"path" json:"path"`
	// Format is auto (default) or a trace format name.
	Format string `yaml:"format,omitempty" json:"format,omitempty"`
	// Device keeps only this device number's records (default all).
	Device *int `yaml:"device,omitempty" json:"device,omitempty"`
	// IODepth, when positive, replays in closed loop at that depth;
	// zero replays at the recorded times.
	IODepth int `yaml:"iodepth,omitempty" json:"iodepth,omitempty"`
	// Speed divides recorded gaps (default 1).
	Speed float64 `yaml:"speed,omitempty" json:"speed,omitempty"`
	// Map is reject (default), wrap or scale for offsets past the end.
	Map string `yaml:"map,omitempty" json:"map,omitempty"`
	// Capacity is the traced device's size, for map scale.
	Capacity Size `yaml:"capacity,omitempty" json:"capacity,omitempty"`
	// Reorder sorts records by time within a window of that many.
	Reorder int `yaml:"reorder,omitempty" json:"reorder,omitempty"`
}

// Size is a byte count. A config gives it as a whole number of bytes or
// a string with a binary unit ("128KiB", "4k", "1GiB"), see
// trace.ParseSize.
type Size int64

// MarshalText writes the size with the largest exact binary unit.
func (s Size) MarshalText() ([]byte, error) { return []byte(trace.FormatSize(int64(s))), nil }

// UnmarshalText parses a size with trace.ParseSize.
func (s *Size) UnmarshalText(b []byte) error {
	n, err := trace.ParseSize(string(b))
	if err != nil {
		return err
	}
	*s = Size(n)
	return nil
}

// Duration is a virtual time span, given in a config as a Go duration
// string ("5ms", "1.5s").
type Duration time.Duration

// MarshalText writes the duration as time.Duration does ("5ms").
func (d Duration) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

// UnmarshalText parses a Go duration string.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(strings.TrimSpace(string(b)))
	if err != nil {
		return fmt.Errorf("duration %q: want a number with a unit, such as 5ms or 1.5s", b)
	}
	*d = Duration(v)
	return nil
}

// FieldError is one problem with a config, at a key path such as
// "stack.raid.stripe_unit" or "phases[1].bs".
type FieldError struct {
	// Path is the key path; empty for the whole config.
	Path string
	// Msg says what is wrong, with the value.
	Msg string
}

// Error returns "path: msg".
func (e *FieldError) Error() string {
	if e.Path == "" {
		return e.Msg
	}
	return e.Path + ": " + e.Msg
}

// ConfigError lists every problem found in a config.
type ConfigError struct {
	// Source is the file or source name given to ParseConfig, if any.
	Source string
	// Fields are the problems, in the order of the keys.
	Fields []*FieldError
}

// Error returns one problem per line, each prefixed with the source.
func (e *ConfigError) Error() string {
	var b strings.Builder
	for i, f := range e.Fields {
		if i > 0 {
			b.WriteByte('\n')
		}
		if e.Source != "" {
			b.WriteString(e.Source + ": ")
		}
		b.WriteString(f.Error())
	}
	return b.String()
}

// Unwrap returns the field errors, for errors.As.
func (e *ConfigError) Unwrap() []error {
	out := make([]error, len(e.Fields))
	for i, f := range e.Fields {
		out[i] = f
	}
	return out
}

// problems collects FieldErrors.
type problems []*FieldError

func (p *problems) add(path, format string, args ...any) {
	*p = append(*p, &FieldError{Path: path, Msg: fmt.Sprintf(format, args...)})
}

// under reports whether a problem was found at path or below it.
func (p problems) under(path string) bool {
	for _, e := range p {
		if e.Path == path || strings.HasPrefix(e.Path, path+".") || strings.HasPrefix(e.Path, path+"[") {
			return true
		}
	}
	return false
}

// related reports whether one of a and b is a prefix path of the other.
func related(a, b string) bool {
	if a == b || a == "" || b == "" {
		return true
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	return strings.HasPrefix(b, a) && (b[len(a)] == '.' || b[len(a)] == '[')
}

// err returns nil or a *ConfigError for source.
func (p problems) err(source string) error {
	if len(p) == 0 {
		return nil
	}
	return &ConfigError{Source: source, Fields: p}
}
