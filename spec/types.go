package spec

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/drive"
	"github.com/raidsim/raidsim/ssd"

	"github.com/raidsim/raidsim/trace"
)

// Experiment is the one description of an experiment: a storage stack
// and a list of phases run in order on it, as a benchmark runs its tests
// one after the other on the same disk. It is plain data: Go code fills
// it, Parse and Load decode YAML or JSON into it (keys in snake_case,
// sizes as "128KiB" or plain byte counts, durations as "5ms"), Set
// changes one field by its key path (every `raidsim run` flag is such a
// path), and Validate checks it once, reporting every problem with its
// key path. Zero fields take their defaults. The one definition of every
// key (its doc, unit, default and bounds) is in Fields, rendered as
// docs/config-keys.md; the field comments here say what each is.
type Experiment struct {
	// Name labels the run in reports; left empty, Parse takes the
	// source name it is given (the file name without extension).
	Name string `yaml:"name,omitempty" json:"name,omitempty"`
	// Seed seeds every random stream of the run: the same Experiment and Seed
	// give byte-identical reports.
	Seed uint64 `yaml:"seed,omitempty" json:"seed,omitempty"`
	// Stack is the storage stack every phase runs on.
	Stack Stack `yaml:"stack" json:"stack"`
	// Phases run in order on the same stack (the same engine and devices:
	// caches keep their contents from one phase to the next).
	Phases []Phase `yaml:"phases" json:"phases"`
	// PowerLossAt, when set (0 included: a failure at the start), adds
	// to the total report what a power failure that long after the start
	// would lose in each layer.
	PowerLossAt *Duration `yaml:"power_loss_at,omitempty" json:"power_loss_at,omitempty"`
	// Warmup leaves the start of the run out of the report: a number of
	// requests, or "full" (until the volume cache first fills).
	Warmup string `yaml:"warmup,omitempty" json:"warmup,omitempty"`
	// Sweep is read by `raidsim sweep` (the fields to vary); Run ignores
	// it and Parse keeps it as decoded.
	Sweep any `yaml:"sweep,omitempty" json:"sweep,omitempty"`

	source string // file or source name, prefixed to errors
}

// Stack describes the devices: drives of one model, optionally
// striped into an array, optionally under a volume cache, and what the
// host does with flushes.
type Stack struct {
	// Drive is the model of every drive.
	Drive Drive `yaml:"drive" json:"drive"`
	// Disks is the number of drives; zero means one, or with RAID the
	// fewest the level needs.
	Disks int `yaml:"disks,omitempty" json:"disks,omitempty"`
	// RAID, when set, makes an array of the drives.
	RAID *RAID `yaml:"raid,omitempty" json:"raid,omitempty"`
	// Failures fail array members at virtual times from the start of the
	// run.
	Failures []Failure `yaml:"failures,omitempty" json:"failures,omitempty"`
	// Rebuild, when set, rebuilds a failed member onto a spare (a new
	// drive of the same model) at a time from the start; the run goes on
	// until the rebuild ends.
	Rebuild *Rebuild `yaml:"rebuild,omitempty" json:"rebuild,omitempty"`
	// Faults, when set, injects media errors into every drive.
	Faults *Faults `yaml:"faults,omitempty" json:"faults,omitempty"`
	// Cache, when set, puts a volume write-back cache on top.
	Cache *Cache `yaml:"cache,omitempty" json:"cache,omitempty"`
	// Host is what the host does before requests reach the stack.
	Host Host `yaml:"host,omitempty" json:"host,omitempty"`
}

// Drive chooses a drive model: a preset, or data-sheet figures
// (Spec) on their own or overriding a preset's, then overrides of
// individual drive parameters.
type Drive struct {
	// Preset is a built-in drive or SSD (`raidsim drives`); without one
	// Spec gives the whole drive.
	Preset string `yaml:"preset,omitempty" json:"preset,omitempty"`
	// Spec gives data-sheet figures: with a preset, the non-zero ones
	// replace the preset's; without, they are the whole drive.
	Spec *DriveSpec `yaml:"spec,omitempty" json:"spec,omitempty"`
	// SSD gives an SSD's parameters: with an SSD preset, those given
	// replace the preset's; without a preset, they are the whole drive.
	SSD *SSDSpec `yaml:"ssd,omitempty" json:"ssd,omitempty"`
	// Disk sets a disk model's finer parameters (DiskSim's), over the
	// preset or data sheet.
	Disk *DiskParams `yaml:"disk,omitempty" json:"disk,omitempty"`
	// WriteCache turns the drive's write cache on or off; unset keeps the
	// model's setting (on for every preset).
	WriteCache *bool `yaml:"write_cache,omitempty" json:"write_cache,omitempty"`
	// WriteCacheBytes is the buffer share that holds cached writes, in
	// bytes.
	WriteCacheBytes Size `yaml:"write_cache_bytes,omitempty" json:"write_cache_bytes,omitempty"`
	// SpindleSync synchronizes the drives' spindles: every drive's platter
	// is at angle 0 at the start, so an array's members turn in lockstep,
	// as arrays wired for spindle synchronization do. Off, each drive
	// starts at its own angle, drawn from the run's seed.
	SpindleSync bool `yaml:"spindle_sync,omitempty" json:"spindle_sync,omitempty"`
	// Scheduler is the queue scheduler: satf, fcfs, sstf or clook.
	Scheduler string `yaml:"scheduler,omitempty" json:"scheduler,omitempty"`
	// QueueDepth is the drive's tagged queue depth, bounded by its
	// interface.
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
	// Precondition prepares an SSD before the run, as users of real SSDs
	// do before measuring: none (fresh out of box), fill (every page
	// written once) or steady (then random-overwritten until write
	// amplification settles). Only SSDs take it.
	Precondition string `yaml:"precondition,omitempty" json:"precondition,omitempty"`
	// Model, when set, is the whole drive model (for Go users with a
	// model of their own, such as one loaded by disk/disksim): Preset and
	// Spec must then be empty; the overrides above still apply. Files and
	// flags cannot set it.
	Model *disk.Params `yaml:"-" json:"-"`
	// SSDModel, when set, is a whole SSD model (for Go users): Preset and
	// Model must then be empty; write_cache, queue_depth and precondition
	// still apply. Files and flags cannot set it.
	SSDModel *ssd.Params `yaml:"-" json:"-"`
	// Custom, when set, is a checked model of a kind of drive of your own
	// (a drive.Model, for Go users): the stack is built of it and reports
	// it, and every other key must be empty. Files and flags cannot set
	// it.
	Custom drive.Model `yaml:"-" json:"-"`
}

// DriveSpec is disk.Spec with rates in MB/s (10^6 bytes per
// second), as data sheets give them.
type DriveSpec struct {
	// Name is the model name.
	Name string `yaml:"name,omitempty" json:"name,omitempty"`
	// Capacity is the addressable size in bytes.
	Capacity Size `yaml:"capacity,omitempty" json:"capacity,omitempty"`
	// SectorSize is 512 or 4096 bytes.
	SectorSize int `yaml:"sector_size,omitempty" json:"sector_size,omitempty"`
	// RPM is the spindle speed.
	RPM int `yaml:"rpm,omitempty" json:"rpm,omitempty"`
	// Heads is the number of data surfaces.
	Heads int `yaml:"heads,omitempty" json:"heads,omitempty"`
	// Zones is the number of recording zones.
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
	// InterfaceRate is the host interface rate, MB/s.
	InterfaceRate float64 `yaml:"interface_rate,omitempty" json:"interface_rate,omitempty"`
	// BufferSize is the buffer in bytes.
	BufferSize Size `yaml:"buffer_size,omitempty" json:"buffer_size,omitempty"`
}

// DiskParams are the parameters of disk.Params that neither a data sheet
// (DriveSpec) nor the drive keys set, by key: DiskSim's finer knobs of
// the buffer, the write cache, the bus and the queue. Each field is
// named as the disk.Params field it sets; a key given replaces the
// model's value, an explicit zero too. Rates are MB/s.
type DiskParams struct {
	// CylinderCount is the physical cylinders the seek curve spans.
	CylinderCount *int `yaml:"cylinder_count,omitempty" json:"cylinder_count,omitempty"`
	// RPMErrorPercent varies the spindle speed from drive to drive by up
	// to this percent.
	RPMErrorPercent *float64 `yaml:"rpm_error_percent,omitempty" json:"rpm_error_percent,omitempty"`
	// CylinderSwitch is the time to move to the next cylinder mid-transfer.
	CylinderSwitch *Duration `yaml:"cylinder_switch,omitempty" json:"cylinder_switch,omitempty"`
	// ZeroLatencyRead, ReadAnyFree and ZeroLatencyWrite read or write a
	// track's sectors as they pass under the head.
	ZeroLatencyRead  *bool `yaml:"zero_latency_read,omitempty" json:"zero_latency_read,omitempty"`
	ReadAnyFree      *bool `yaml:"read_any_free,omitempty" json:"read_any_free,omitempty"`
	ZeroLatencyWrite *bool `yaml:"zero_latency_write,omitempty" json:"zero_latency_write,omitempty"`
	// WriteInterfaceRate is the bus rate of write data, MB/s.
	WriteInterfaceRate *float64 `yaml:"write_interface_rate,omitempty" json:"write_interface_rate,omitempty"`
	// ReadBusWatermark is the fraction of a read in the buffer before
	// its data starts across the bus; ReadBusWatermarkOfSegment makes it
	// a fraction of the segment.
	ReadBusWatermark          *float64 `yaml:"read_bus_watermark,omitempty" json:"read_bus_watermark,omitempty"`
	ReadBusWatermarkOfSegment *bool    `yaml:"read_bus_watermark_of_segment,omitempty" json:"read_bus_watermark_of_segment,omitempty"`
	// ReadHitsOnWrites, NoAlmostHits, NoReadAheadOnHit, PartialHits,
	// PartialHitWait, NoBufferCache, ReadAheadKeepsRequest and
	// WriteHitStopsReadAhead are the buffer's policies (disk.Params).
	ReadHitsOnWrites       *bool `yaml:"read_hits_on_writes,omitempty" json:"read_hits_on_writes,omitempty"`
	NoAlmostHits           *bool `yaml:"no_almost_hits,omitempty" json:"no_almost_hits,omitempty"`
	NoReadAheadOnHit       *bool `yaml:"no_read_ahead_on_hit,omitempty" json:"no_read_ahead_on_hit,omitempty"`
	PartialHits            *bool `yaml:"partial_hits,omitempty" json:"partial_hits,omitempty"`
	PartialHitWait         *bool `yaml:"partial_hit_wait,omitempty" json:"partial_hit_wait,omitempty"`
	NoBufferCache          *bool `yaml:"no_buffer_cache,omitempty" json:"no_buffer_cache,omitempty"`
	ReadAheadKeepsRequest  *bool `yaml:"read_ahead_keeps_request,omitempty" json:"read_ahead_keeps_request,omitempty"`
	WriteHitStopsReadAhead *bool `yaml:"write_hit_stops_read_ahead,omitempty" json:"write_hit_stops_read_ahead,omitempty"`
	// MinReadAheadBytes is the read-ahead read before another command.
	MinReadAheadBytes *Size `yaml:"min_read_ahead_bytes,omitempty" json:"min_read_ahead_bytes,omitempty"`
	// WriteCacheEntries, WriteCacheAppendOnly, FlushBeforeOther and
	// NoWriteMerge are the write cache's limits and policies.
	WriteCacheEntries    *int  `yaml:"write_cache_entries,omitempty" json:"write_cache_entries,omitempty"`
	WriteCacheAppendOnly *bool `yaml:"write_cache_append_only,omitempty" json:"write_cache_append_only,omitempty"`
	FlushBeforeOther     *bool `yaml:"flush_before_other,omitempty" json:"flush_before_other,omitempty"`
	NoWriteMerge         *bool `yaml:"no_write_merge,omitempty" json:"no_write_merge,omitempty"`
	// Preseek lets the arm start for the next command early; MaxQueueAge
	// serves a command that has waited this long next.
	Preseek     *bool     `yaml:"preseek,omitempty" json:"preseek,omitempty"`
	MaxQueueAge *Duration `yaml:"max_queue_age,omitempty" json:"max_queue_age,omitempty"`
}

// SSDSpec is ssd.Params by key, as stack.drive.ssd gives it: with an SSD
// preset the keys given replace the preset's values (an explicit zero
// too: slc_cache: 0 takes the cache away); without a preset they are
// the whole drive. Each field is named as the ssd.Params field it sets;
// rates are MB/s (10^6 bytes per second), as data sheets give them.
type SSDSpec struct {
	// Name is the model's name.
	Name string `yaml:"name,omitempty" json:"name,omitempty"`
	// Capacity is the user-addressable size in bytes.
	Capacity *Size `yaml:"capacity,omitempty" json:"capacity,omitempty"`
	// SectorSize is the logical block size in bytes, 512 or 4096.
	SectorSize *int `yaml:"sector_size,omitempty" json:"sector_size,omitempty"`
	// Interface is the host interface, sata or nvme.
	Interface string `yaml:"interface,omitempty" json:"interface,omitempty"`
	// LinkRate is the host link's payload rate, MB/s.
	LinkRate *float64 `yaml:"link_rate,omitempty" json:"link_rate,omitempty"`
	// LinkCommandTime is a command's protocol exchange on the link.
	LinkCommandTime *Duration `yaml:"link_command_time,omitempty" json:"link_command_time,omitempty"`
	// CommandLatency is a fixed, pipelined firmware latency per command.
	CommandLatency *Duration `yaml:"command_latency,omitempty" json:"command_latency,omitempty"`
	// ReadCost, WriteCost and TrimCost are the controller's serialized
	// time per read, write and trim command.
	ReadCost  *Duration `yaml:"read_cost,omitempty" json:"read_cost,omitempty"`
	WriteCost *Duration `yaml:"write_cost,omitempty" json:"write_cost,omitempty"`
	TrimCost  *Duration `yaml:"trim_cost,omitempty" json:"trim_cost,omitempty"`
	// WriteBuffer is the DRAM holding written data before it is
	// programmed, in bytes (0: no write cache).
	WriteBuffer *Size `yaml:"write_buffer,omitempty" json:"write_buffer,omitempty"`
	// PowerLossProtection makes the write buffer durable.
	PowerLossProtection *bool `yaml:"power_loss_protection,omitempty" json:"power_loss_protection,omitempty"`
	// Channels, WaysPerChannel (chips on a channel), DiesPerChip and
	// PlanesPerDie give the flash array.
	Channels       *int `yaml:"channels,omitempty" json:"channels,omitempty"`
	WaysPerChannel *int `yaml:"ways_per_channel,omitempty" json:"ways_per_channel,omitempty"`
	DiesPerChip    *int `yaml:"dies_per_chip,omitempty" json:"dies_per_chip,omitempty"`
	PlanesPerDie   *int `yaml:"planes_per_die,omitempty" json:"planes_per_die,omitempty"`
	// BlocksPerPlane, as MQSim gives the geometry, sets the capacity
	// instead of Capacity: the flash it makes, less the spare space of
	// OverProvisioning.
	BlocksPerPlane *int `yaml:"blocks_per_plane,omitempty" json:"blocks_per_plane,omitempty"`
	// PagesPerBlock is the pages of an erase block; PageSize a flash
	// page in bytes.
	PagesPerBlock *int  `yaml:"pages_per_block,omitempty" json:"pages_per_block,omitempty"`
	PageSize      *Size `yaml:"page_size,omitempty" json:"page_size,omitempty"`
	// ReadTime, ProgramTime and EraseTime are the flash array's page
	// read, page program and block erase times; ProgramTimeSlow the
	// program time of MLC's slow pages (0: every page at ProgramTime).
	ReadTime        *Duration `yaml:"read_time,omitempty" json:"read_time,omitempty"`
	ProgramTime     *Duration `yaml:"program_time,omitempty" json:"program_time,omitempty"`
	ProgramTimeSlow *Duration `yaml:"program_time_slow,omitempty" json:"program_time_slow,omitempty"`
	EraseTime       *Duration `yaml:"erase_time,omitempty" json:"erase_time,omitempty"`
	// ChannelRate is one channel's transfer rate, MB/s.
	ChannelRate *float64 `yaml:"channel_rate,omitempty" json:"channel_rate,omitempty"`
	// MapUnit is the FTL's mapping granularity in bytes.
	MapUnit *Size `yaml:"map_unit,omitempty" json:"map_unit,omitempty"`
	// OverProvisioning is the spare flash as a fraction of the user
	// capacity.
	OverProvisioning *float64 `yaml:"over_provisioning,omitempty" json:"over_provisioning,omitempty"`
	// GC is the garbage collector's victim policy, greedy or
	// cost-benefit.
	GC string `yaml:"gc,omitempty" json:"gc,omitempty"`
	// GCLowBlocks and GCBackgroundBlocks are the foreground and
	// background triggers of garbage collection, in free blocks per die.
	GCLowBlocks        *int `yaml:"gc_low_blocks,omitempty" json:"gc_low_blocks,omitempty"`
	GCBackgroundBlocks *int `yaml:"gc_background_blocks,omitempty" json:"gc_background_blocks,omitempty"`
	// SLCCache is the pseudo-SLC write cache in bytes (0: none);
	// SLCProgramTime a page program in SLC mode.
	SLCCache       *Size     `yaml:"slc_cache,omitempty" json:"slc_cache,omitempty"`
	SLCProgramTime *Duration `yaml:"slc_program_time,omitempty" json:"slc_program_time,omitempty"`
	// UBER is the data sheet's uncorrectable bit error rate per bit
	// read, MTBFHours its mean time between failures in hours
	// (reliability estimates; 0: not known).
	UBER      *float64 `yaml:"uber,omitempty" json:"uber,omitempty"`
	MTBFHours *float64 `yaml:"mtbf_hours,omitempty" json:"mtbf_hours,omitempty"`
}

// RAID is raid.Config with names for the enumerations.
type RAID struct {
	// Level is 0, 1, 5, 6, 10, or raidz1, raidz2, raidz3 (ZFS).
	Level string `yaml:"level" json:"level"`
	// StripeUnit is the bytes each member holds of one stripe, a
	// multiple of the sector size.
	StripeUnit Size `yaml:"stripe_unit,omitempty" json:"stripe_unit,omitempty"`
	// Layout is the RAID 5 parity layout (md's names).
	Layout string `yaml:"layout,omitempty" json:"layout,omitempty"`
	// RAID5Write is how RAID 5 updates parity: auto, rmw or rcw.
	RAID5Write string `yaml:"raid5_write,omitempty" json:"raid5_write,omitempty"`
	// RAID6Write is how RAID 6 updates P and Q: auto, rmw or rcw.
	RAID6Write string `yaml:"raid6_write,omitempty" json:"raid6_write,omitempty"`
	// ReadPolicy balances RAID 1 and 10 reads.
	ReadPolicy string `yaml:"read_policy,omitempty" json:"read_policy,omitempty"`
	// ParityRate is the parity engine's speed in bytes per second (zero:
	// free).
	ParityRate Size `yaml:"parity_rate,omitempty" json:"parity_rate,omitempty"`
	// RebuildRate caps rebuild in bytes per second, as md's
	// speed_limit_max (zero: as fast as possible).
	RebuildRate Size `yaml:"rebuild_rate,omitempty" json:"rebuild_rate,omitempty"`
	// SpeedLimitMin is md's speed_limit_min in bytes per second: while
	// foreground requests arrive the rebuild is held to it (zero: the
	// rebuild competes with them unthrottled).
	SpeedLimitMin Size `yaml:"speed_limit_min,omitempty" json:"speed_limit_min,omitempty"`
	// RecordSize is RAIDZ's largest record in bytes (ZFS's recordsize).
	RecordSize Size `yaml:"recordsize,omitempty" json:"recordsize,omitempty"`
	// Ashift is RAIDZ's sector shift (12: 4 KiB).
	Ashift int `yaml:"ashift,omitempty" json:"ashift,omitempty"`
	// Fill is the fraction of a RAIDZ volume's records allocated before
	// the run, as a pool already holding data; FillStreams the files
	// written side by side that filled it.
	Fill        float64 `yaml:"fill,omitempty" json:"fill,omitempty"`
	FillStreams int     `yaml:"fill_streams,omitempty" json:"fill_streams,omitempty"`
	// ScanBatch is the records a RAIDZ resilver or scrub sorts at a
	// time (0: all, -1: none, the legacy scan).
	ScanBatch int `yaml:"scan_batch,omitempty" json:"scan_batch,omitempty"`
}

// Failure fails array member Member At after the start.
type Failure struct {
	Member int      `yaml:"member" json:"member"`
	At     Duration `yaml:"at" json:"at"`
}

// Rebuild rebuilds failed member Member onto a spare At after the start
// (at or after the member's failure).
type Rebuild struct {
	Member int      `yaml:"member" json:"member"`
	At     Duration `yaml:"at" json:"at"`
	// Drive is the replacement's preset; empty: a drive of the stack's
	// model.
	Drive string `yaml:"drive,omitempty" json:"drive,omitempty"`
}

// Faults are the media faults of every drive (package faults).
type Faults struct {
	// URE is the unrecoverable read error rate per bit read (1e-14 on
	// desktop data sheets); each error leaves a sector
	// unreadable until it is written.
	URE float64 `yaml:"ure,omitempty" json:"ure,omitempty"`
	// ERC caps a drive's error recovery (TLER, 7s); zero means a desktop
	// drive's 2 minutes.
	ERC Duration `yaml:"erc,omitempty" json:"erc,omitempty"`
	// Timeout is the host's command timer (Linux: 30s); zero means none.
	Timeout Duration `yaml:"timeout,omitempty" json:"timeout,omitempty"`
	// Recovery is how long a drive retries an unreadable sector before
	// failing the read (ERC caps it).
	Recovery Duration `yaml:"recovery,omitempty" json:"recovery,omitempty"`
	// SlowFraction of the requests, chosen at random, take SlowDelay
	// longer.
	SlowFraction float64  `yaml:"slow_fraction,omitempty" json:"slow_fraction,omitempty"`
	SlowDelay    Duration `yaml:"slow_delay,omitempty" json:"slow_delay,omitempty"`
	// BadSectors are sectors (LBAs, in the drive's sectors) of every
	// drive unreadable from the start, until written.
	BadSectors []int64 `yaml:"bad_sectors,omitempty" json:"bad_sectors,omitempty"`
}

// Cache is cache.Config with names for the enumerations.
type Cache struct {
	// Size is the cache memory in bytes.
	Size Size `yaml:"size,omitempty" json:"size,omitempty"`
	// Block is the unit of cache memory in bytes.
	Block Size `yaml:"block,omitempty" json:"block,omitempty"`
	// Mode is write-back, write-through or off.
	Mode string `yaml:"mode,omitempty" json:"mode,omitempty"`
	// ReadCache keeps clean data for reads.
	ReadCache *bool `yaml:"read_cache,omitempty" json:"read_cache,omitempty"`
	// ReadAhead is how far the cache reads ahead of a sequential stream.
	ReadAhead Size `yaml:"read_ahead,omitempty" json:"read_ahead,omitempty"`
	// HitLatency is the time of a hit.
	HitLatency Duration `yaml:"hit_latency,omitempty" json:"hit_latency,omitempty"`
	// CopyRate is the memory copy rate in bytes per second.
	CopyRate Size `yaml:"copy_rate,omitempty" json:"copy_rate,omitempty"`
	// Policy is the destage policy: wm, interval, idle or linear.
	Policy string `yaml:"policy,omitempty" json:"policy,omitempty"`
	// MaxDirty bounds the dirty data, destages in flight included; the
	// rest of Size caches clean data.
	MaxDirty Size `yaml:"max_dirty,omitempty" json:"max_dirty,omitempty"`
	// HighWater and LowWater are fractions of MaxDirty: destaging
	// starts above the first and stops below the second.
	HighWater float64 `yaml:"high_water,omitempty" json:"high_water,omitempty"`
	LowWater  float64 `yaml:"low_water,omitempty" json:"low_water,omitempty"`
	// Interval is the interval policy's period.
	Interval Duration `yaml:"interval,omitempty" json:"interval,omitempty"`
	// Wakeup, when positive, makes the interval policy look for aged
	// data only at its multiples, as Linux's flusher wakes up.
	Wakeup Duration `yaml:"wakeup,omitempty" json:"wakeup,omitempty"`
	// Idle is the idle policy's quiet time.
	Idle Duration `yaml:"idle,omitempty" json:"idle,omitempty"`
	// Order is the destage order: lba, lrw or wow.
	Order string `yaml:"order,omitempty" json:"order,omitempty"`
	// MaxDestage is the largest destage write in bytes.
	MaxDestage Size `yaml:"max_destage,omitempty" json:"max_destage,omitempty"`
	// MaxOutstanding bounds destages in flight.
	MaxOutstanding int `yaml:"max_outstanding,omitempty" json:"max_outstanding,omitempty"`
	// Align is stripe (destages shaped to the array's stripes) or none.
	Align string `yaml:"align,omitempty" json:"align,omitempty"`
	// NonVolatile makes the cache battery- or flash-backed.
	NonVolatile bool `yaml:"non_volatile,omitempty" json:"non_volatile,omitempty"`
	// NVIgnoresFlush lets a non-volatile cache acknowledge flushes at once.
	NVIgnoresFlush bool `yaml:"nv_ignores_flush,omitempty" json:"nv_ignores_flush,omitempty"`
	// Replacement is the replacement policy of clean data.
	Replacement string `yaml:"replacement,omitempty" json:"replacement,omitempty"`
	// SequentialCutoff is the length after which a sequential stream
	// bypasses the cache: zero takes the default (4 MiB on a device,
	// none in memory), CutoffOff ("off") turns the cutoff off.
	SequentialCutoff Cutoff `yaml:"sequential_cutoff,omitempty" json:"sequential_cutoff,omitempty"`
	// Device, when set, keeps the cache's data on a drive (an SSD cache
	// tier) instead of in memory.
	Device *CacheDevice `yaml:"device,omitempty" json:"device,omitempty"`
}

// CacheDevice is the drive a cache keeps its data on: a preset with
// overrides.
type CacheDevice struct {
	// Preset is a built-in SSD or drive (`raidsim drives`).
	Preset string `yaml:"preset,omitempty" json:"preset,omitempty"`
	// WriteCache turns the device's write cache (an SSD's write buffer)
	// on or off.
	WriteCache *bool `yaml:"write_cache,omitempty" json:"write_cache,omitempty"`
	// PowerLossProtection makes an SSD's write buffer durable.
	PowerLossProtection *bool `yaml:"power_loss_protection,omitempty" json:"power_loss_protection,omitempty"`
}

// Host is what the host does with requests: with a Preset, a modelled
// host (package host: CPU cost, page cache, network link) with the
// overrides below; without one (or "none"), requests go straight to the
// stack.
type Host struct {
	// Flushes, when false, drops Flush requests at the host (an OS with
	// write-cache buffer flushing turned off).
	Flushes *bool `yaml:"flushes,omitempty" json:"flushes,omitempty"`
	// Preset is the host model: desktop-ich8r, desktop-jmicron, nas-1gb,
	// server, or none (no host layer).
	Preset string `yaml:"preset,omitempty" json:"preset,omitempty"`
	// Cores overrides the preset's CPU cores.
	Cores int `yaml:"cores,omitempty" json:"cores,omitempty"`
	// RAM overrides the preset's memory in bytes.
	RAM Size `yaml:"ram,omitempty" json:"ram,omitempty"`
	// PageCache is the page cache's size ("512MiB") or "off".
	PageCache string `yaml:"page_cache,omitempty" json:"page_cache,omitempty"`
	// Direct bypasses the page cache for every request (O_DIRECT).
	Direct bool `yaml:"direct,omitempty" json:"direct,omitempty"`
	// DirtyRatio and DirtyBackgroundRatio are Linux's vm.dirty_ratio and
	// vm.dirty_background_ratio as fractions.
	DirtyRatio           float64 `yaml:"dirty_ratio,omitempty" json:"dirty_ratio,omitempty"`
	DirtyBackgroundRatio float64 `yaml:"dirty_background_ratio,omitempty" json:"dirty_background_ratio,omitempty"`
	// DirtyExpire and WritebackInterval are vm.dirty_expire_centisecs and
	// vm.dirty_writeback_centisecs as durations.
	DirtyExpire       Duration `yaml:"dirty_expire,omitempty" json:"dirty_expire,omitempty"`
	WritebackInterval Duration `yaml:"writeback_interval,omitempty" json:"writeback_interval,omitempty"`
	// ReadAhead is the file read-ahead window in bytes.
	ReadAhead Size `yaml:"read_ahead,omitempty" json:"read_ahead,omitempty"`
	// Network is the link from the benchmark client: none, gigabit or
	// 10gbe.
	Network string `yaml:"network,omitempty" json:"network,omitempty"`
	// SyscallCost, CommandCost and StripeCachePerPage override the
	// preset's CPU time per file request, per drive command and per page
	// through software RAID's stripe cache (host.Params).
	SyscallCost        *Duration `yaml:"syscall_cost,omitempty" json:"syscall_cost,omitempty"`
	CommandCost        *Duration `yaml:"command_cost,omitempty" json:"command_cost,omitempty"`
	StripeCachePerPage *Duration `yaml:"stripe_cache_per_page,omitempty" json:"stripe_cache_per_page,omitempty"`
	// RAIDReadBypass overrides whether software RAID reads bypass the
	// stripe cache (Linux md's chunk-aligned reads, since 2.6.20;
	// host.Params.RAIDReadBypass): false for nas-1gb, true for server.
	RAIDReadBypass *bool `yaml:"raid_read_bypass,omitempty" json:"raid_read_bypass,omitempty"`
	// CopyRate and XORRate override the preset's memory copy and software
	// parity rates in bytes per second (xor_rate 0: parity costs no host
	// CPU, as with a hardware RAID controller).
	CopyRate *Size `yaml:"copy_rate,omitempty" json:"copy_rate,omitempty"`
	XORRate  *Size `yaml:"xor_rate,omitempty" json:"xor_rate,omitempty"`
	// DriverPerKiB overrides the core time per KiB a drive command moves
	// beyond DMA set-up (host.Params.DriverPerKiB).
	DriverPerKiB *Duration `yaml:"driver_per_kib,omitempty" json:"driver_per_kib,omitempty"`
	// RAIDReadAheadStripes overrides the whole stripes of a software RAID
	// 5 or 6 the read-ahead is raised to (md: 2).
	RAIDReadAheadStripes *int `yaml:"raid_read_ahead_stripes,omitempty" json:"raid_read_ahead_stripes,omitempty"`
	// VolumeCacheLookup and VolumeCacheCopyRate override the cost of a
	// volume cache kept in host memory: core time per request, and its
	// copy rate in bytes per second.
	VolumeCacheLookup   *Duration `yaml:"volume_cache_lookup,omitempty" json:"volume_cache_lookup,omitempty"`
	VolumeCacheCopyRate *Size     `yaml:"volume_cache_copy_rate,omitempty" json:"volume_cache_copy_rate,omitempty"`
	// Reserve overrides the memory in bytes the kernel and programs keep;
	// the page cache gets RAM less it.
	Reserve *Size `yaml:"reserve,omitempty" json:"reserve,omitempty"`
	// MaxWriteback and MaxInFlight override the largest write the
	// flusher sends down (bytes) and the writeback writes in flight.
	MaxWriteback *Size `yaml:"max_writeback,omitempty" json:"max_writeback,omitempty"`
	MaxInFlight  *int  `yaml:"max_in_flight,omitempty" json:"max_in_flight,omitempty"`
	// LinkRate, LinkLatency, LinkOverhead, LinkCPUPerRequest and
	// LinkCPUPerKiB override the network link's payload rate (bytes/s),
	// one-way latency, protocol bytes per message and the server's CPU
	// time per request and per KiB (host.Link).
	LinkRate          *Size     `yaml:"link_rate,omitempty" json:"link_rate,omitempty"`
	LinkLatency       *Duration `yaml:"link_latency,omitempty" json:"link_latency,omitempty"`
	LinkOverhead      *Size     `yaml:"link_overhead,omitempty" json:"link_overhead,omitempty"`
	LinkCPUPerRequest *Duration `yaml:"link_cpu_per_request,omitempty" json:"link_cpu_per_request,omitempty"`
	LinkCPUPerKiB     *Duration `yaml:"link_cpu_per_kib,omitempty" json:"link_cpu_per_kib,omitempty"`
}

// Phase is one phase of an experiment: its own job (a synthetic
// workload in fio's vocabulary, or a trace replay), given inline, and
// optional background jobs that run at the same time, like fio job
// sections started together. The phase ends when its own job ends.
type Phase struct {
	// Name labels the phase's report.
	Name string `yaml:"name,omitempty" json:"name,omitempty"`
	// StartDelay is idle time before the phase (fio startdelay): caches
	// destage meanwhile. At most 24h.
	StartDelay Duration `yaml:"startdelay,omitempty" json:"startdelay,omitempty"`
	// Runtime, when positive, stops issuing the phase's requests once
	// that much virtual time has passed since it started (fio runtime);
	// requests outstanding then still complete. A guard against phases
	// that would run far longer than meant. At most 24h.
	Runtime Duration `yaml:"runtime,omitempty" json:"runtime,omitempty"`
	// RampIOs leaves the phase's first RampIOs completions out of its
	// report, and measures its rate from the last of them on, as
	// IOMeter's ramp-up leaves a cache's filling out of its figures.
	// Synthetic jobs only; less than the job's ios.
	RampIOs int64 `yaml:"ramp_ios,omitempty" json:"ramp_ios,omitempty"`
	// Job is the phase's own job, its keys given inline in the phase.
	Job `yaml:",inline"`
	// Background lists synthetic jobs run at the same time as Job, each
	// with its own iodepth, until Job ends (as other fio jobs running
	// beside it): reads measured while writes go on. Their ios must be
	// left out (they run until the phase ends); at most 64.
	Background []Job `yaml:"background,omitempty" json:"background,omitempty"`
	// Jobs, instead of the inline job, are the phase's concurrent jobs,
	// as the job sections of an fio job file between two stonewalls:
	// they start together (each after its startdelay or the job it waits
	// for), each runs to its own end, and the phase ends when all have;
	// each is reported on its own, or with the others of its reporting
	// group (group_reporting). At most 64.
	Jobs []PhaseJob `yaml:"jobs,omitempty" json:"jobs,omitempty"`
}

// PhaseJob is one of a phase's concurrent jobs: a job with its name,
// start, end and reporting group.
type PhaseJob struct {
	// Name labels the job's report (fio's job name); clones of numjobs
	// share it.
	Name string `yaml:"name,omitempty" json:"name,omitempty"`
	// StartDelay is idle time before the job starts (fio startdelay).
	StartDelay Duration `yaml:"startdelay,omitempty" json:"startdelay,omitempty"`
	// Runtime stops issuing the job's requests that long after it
	// started (fio runtime).
	Runtime Duration `yaml:"runtime,omitempty" json:"runtime,omitempty"`
	// WaitFor names an earlier job of the phase: this one starts when
	// all its clones have ended (fio wait_for).
	WaitFor string `yaml:"wait_for,omitempty" json:"wait_for,omitempty"`
	// NewGroup starts a new reporting group with this job (fio
	// new_group).
	NewGroup bool `yaml:"new_group,omitempty" json:"new_group,omitempty"`
	// Job is the job's workload, its keys inline.
	Job `yaml:",inline"`
}

// Job is one stream of requests: a synthetic workload in fio's
// vocabulary, or a trace replay when Trace is set (the synthetic keys
// must then be absent).
type Job struct {
	// RW is the fio access pattern: read, write, randread, randwrite, rw
	// or randrw.
	RW string `yaml:"rw,omitempty" json:"rw,omitempty"`
	// RWMixRead is the read percentage of rw and randrw.
	RWMixRead *int `yaml:"rwmixread,omitempty" json:"rwmixread,omitempty"`
	// BS is the block size in bytes, a multiple of the sector size.
	BS Size `yaml:"bs,omitempty" json:"bs,omitempty"`
	// BSSplit is a block size mix, "4KiB/70:64KiB/30" (instead of BS).
	BSSplit string `yaml:"bssplit,omitempty" json:"bssplit,omitempty"`
	// IODepth is the requests kept outstanding.
	IODepth int `yaml:"iodepth,omitempty" json:"iodepth,omitempty"`
	// Offset is where the region starts, bytes.
	Offset Size `yaml:"offset,omitempty" json:"offset,omitempty"`
	// Size is the region length, bytes; zero means to the end of the
	// stack.
	Size Size `yaml:"size,omitempty" json:"size,omitempty"`
	// IOs is the number of requests, at most 2^32; zero means one pass
	// over Size (fio's io_size = size).
	IOs int64 `yaml:"ios,omitempty" json:"ios,omitempty"`
	// RandomDistribution is uniform, zipf:THETA, pareto:H or normal:PCT.
	RandomDistribution string `yaml:"random_distribution,omitempty" json:"random_distribution,omitempty"`
	// PercentageRandom is the share, in percent, of random requests in a
	// sequential pattern.
	PercentageRandom int `yaml:"percentage_random,omitempty" json:"percentage_random,omitempty"`
	// Fsync sends a Flush after every Fsync writes (0: never).
	Fsync int `yaml:"fsync,omitempty" json:"fsync,omitempty"`
	// Rate caps bytes per second: one size for every direction, or
	// "READS,WRITES[,TRIMS]" ("1MiB,500KiB"; an empty one is uncapped).
	Rate string `yaml:"rate,omitempty" json:"rate,omitempty"`
	// RateIOPS caps requests per second, as Rate ("100", ",50").
	RateIOPS string `yaml:"rate_iops,omitempty" json:"rate_iops,omitempty"`
	// RateProcess is linear (even gaps) or poisson.
	RateProcess string `yaml:"rate_process,omitempty" json:"rate_process,omitempty"`
	// IOSubmitMode is inline (a rated job ahead of schedule first waits
	// for its requests in flight, as fio's default) or offload.
	IOSubmitMode string `yaml:"io_submit_mode,omitempty" json:"io_submit_mode,omitempty"`
	// ThinkTime stalls the job after every ThinkTimeBlocks blocks.
	ThinkTime Duration `yaml:"thinktime,omitempty" json:"thinktime,omitempty"`
	// ThinkTimeSpin is the part of each stall spent spinning on a CPU.
	ThinkTimeSpin Duration `yaml:"thinktime_spin,omitempty" json:"thinktime_spin,omitempty"`
	// ThinkTimeBlocks is the blocks between stalls.
	ThinkTimeBlocks int `yaml:"thinktime_blocks,omitempty" json:"thinktime_blocks,omitempty"`
	// ThinkTimeBlocksType counts the blocks completed or issued.
	ThinkTimeBlocksType string `yaml:"thinktime_blocks_type,omitempty" json:"thinktime_blocks_type,omitempty"`
	// NumJobs runs that many clones of the job at once, each with its
	// own random stream (fio numjobs).
	NumJobs int `yaml:"numjobs,omitempty" json:"numjobs,omitempty"`
	// OffsetIncrement moves clone k's region by k times this many bytes
	// (fio offset_increment).
	OffsetIncrement Size `yaml:"offset_increment,omitempty" json:"offset_increment,omitempty"`
	// GroupReporting reports the job's clones, and the jobs of its
	// reporting group that set it too, as one (fio group_reporting).
	GroupReporting bool `yaml:"group_reporting,omitempty" json:"group_reporting,omitempty"`
	// TimeBased repeats the workload until the runtime ends (fio
	// time_based).
	TimeBased bool `yaml:"time_based,omitempty" json:"time_based,omitempty"`
	// Trace, when set, replays a trace file instead.
	Trace *Trace `yaml:"trace,omitempty" json:"trace,omitempty"`
}

// Trace is a trace replay.
type Trace struct {
	// Path is the trace file, relative to the config file's directory
	// when loaded with Load or DecodeFile.
	Path string `yaml:"path" json:"path"`
	// Format is auto or a trace format name.
	Format string `yaml:"format,omitempty" json:"format,omitempty"`
	// Device keeps only this device number's records.
	Device *int `yaml:"device,omitempty" json:"device,omitempty"`
	// IODepth, when positive, replays in closed loop at that depth;
	// zero replays at the recorded times.
	IODepth int `yaml:"iodepth,omitempty" json:"iodepth,omitempty"`
	// Speed divides recorded gaps.
	Speed float64 `yaml:"speed,omitempty" json:"speed,omitempty"`
	// Map is reject, wrap or scale for offsets past the end.
	Map string `yaml:"map,omitempty" json:"map,omitempty"`
	// Capacity is the traced device's size, for map scale.
	Capacity Size `yaml:"capacity,omitempty" json:"capacity,omitempty"`
	// Reorder sorts records by time within a window of that many.
	Reorder int `yaml:"reorder,omitempty" json:"reorder,omitempty"`
	// ReorderWindow sorts records by time within a window of that much
	// time; zero takes the format's (trace.DefaultReorderWindow).
	ReorderWindow Duration `yaml:"reorder_window,omitempty" json:"reorder_window,omitempty"`
	// StrictOrder refuses a trace out of time order instead of sorting
	// it within the format's default window.
	StrictOrder bool `yaml:"strict_order,omitempty" json:"strict_order,omitempty"`
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

// Cutoff is the length in bytes after which a sequential stream
// bypasses a cache (bcache's sequential_cutoff). A config gives it as a
// Size or as "off" (CutoffOff): no stream bypasses the cache. Zero, as
// for every key, takes the default; unlike bcache's sysfs, where 0
// turns the cutoff off.
type Cutoff int64

// CutoffOff is the Cutoff "off": no sequential stream bypasses the
// cache (cache.Config.SequentialCutoff negative).
const CutoffOff Cutoff = -1

// MarshalText writes "off" for CutoffOff, else the size as Size does.
func (c Cutoff) MarshalText() ([]byte, error) {
	if c < 0 {
		return []byte(cutoffOffWord), nil
	}
	return Size(c).MarshalText()
}

// UnmarshalText parses "off" or a size with trace.ParseSize.
func (c *Cutoff) UnmarshalText(b []byte) error {
	n, err := parseCutoff(string(b))
	if err != "" {
		return errors.New(err)
	}
	*c = Cutoff(n)
	return nil
}

// durationShape is a duration's text: numbers each with a unit.
var durationShape = regexp.MustCompile(`^[-+]?([0-9]*\.?[0-9]+(ns|us|µs|ms|s|m|h))+$`)

// Duration is a virtual time span, given in a config as a Go duration
// string ("5ms", "1.5s").
type Duration time.Duration

// MarshalText writes the duration as time.Duration does ("5ms").
func (d Duration) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

// UnmarshalText parses a Go duration string.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(strings.TrimSpace(string(b)))
	if err != nil {
		if strings.Contains(err.Error(), "invalid duration") && durationShape.MatchString(strings.TrimSpace(string(b))) {
			return fmt.Errorf("duration %q is too long: want at most 2562047h (about 292 years)", b)
		}
		return fmt.Errorf("duration %q: want a number with a unit, such as 5ms or 1.5s (units ns, us, ms, s, m, h; no exponent)", b)
	}
	*d = Duration(v)
	return nil
}
