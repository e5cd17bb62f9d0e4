package spec

import (
	"fmt"
	"github.com/raidsim/raidsim/faults"
	"strconv"
	"time"

	"github.com/raidsim/raidsim/cache"
	"github.com/raidsim/raidsim/drive"
	"github.com/raidsim/raidsim/host"
	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/trace"
)

// DefaultPreset is the drive an experiment runs on when it names none:
// the notebook drive of scenario S1.
const DefaultPreset = "travelstar-7k500"

// WorkloadStream is the name of the engine random stream the first
// phase's synthetic workload draws from; later phases draw from
// "workload/phaseN" and background jobs from their phase's stream plus
// "/bgN", so adding a phase or a job never perturbs another's requests.
const WorkloadStream = "workload"

// Bounds on values, so that a typo is an error rather than a run that
// allocates or takes forever.
const (
	// MaxDisks bounds Stack.Disks: each drive is a full model.
	MaxDisks     = 256
	maxCapacity  = 1 << 50 // 1 PiB per drive
	maxCacheSize = 1 << 40 // 1 TiB of volume cache
	// maxCacheBlocks bounds the volume cache's blocks: random writes
	// leave one dirty extent per block, each an index entry of about
	// cacheExtentBytes (measured: cache.TestExtentIndexBytes), so 2^24
	// blocks keep the index under ~3.6 GB.
	maxCacheBlocks   = 1 << 24
	cacheExtentBytes = 220
	maxIOs           = 1 << 32 // requests per job
	maxHeads         = 256
	maxRPM           = 100000
	maxStartDelay    = 24 * time.Hour
	maxFailureTime   = 365 * 24 * time.Hour
	maxPowerLossAt   = 365 * 24 * time.Hour
	maxBackground    = 64 // background jobs of a phase
	maxJobs          = 64 // phases[].jobs entries
	maxNumJobs       = 1024
	maxClones        = 4096 // clones of a phase's jobs, all entries together
	maxReorder       = 1 << 20
)

// Plan is a valid Experiment translated into the layers' own
// configurations, defaults filled: what a runner builds and runs. It is
// computed without building a device: the stack's capacity and stripe
// geometry come from the drive model and the RAID mapping.
type Plan struct {
	// Name and Seed are the experiment's.
	Name string
	Seed uint64
	// Drive is the model of every drive, of any kind (a *disk.Model, an
	// *ssd.Model preconditioned as asked, ...), validated once with its
	// defaults filled.
	Drive drive.Model
	// Disks is the number of drives, at least 1.
	Disks int
	// RAID is the array's configuration (defaults filled), or nil.
	RAID *raid.Config
	// RAIDZ is a ZFS RAIDZ array's configuration and fill, or nil (then
	// RAID is nil too).
	RAIDZ *RAIDZPlan
	// RebuildDrive is the replacement's model when it differs from
	// Drive (stack.rebuild.drive), or nil.
	RebuildDrive drive.Model
	// Failures fail array members at times from the start.
	Failures []raid.Failure
	// Rebuild, when set, rebuilds Rebuild.Member onto a spare Rebuild.At
	// after the start.
	Rebuild *raid.Failure
	// Faults are every drive's media faults (defaults filled), or nil.
	Faults *faults.Config
	// Cache is the volume cache's configuration (stripe geometry filled
	// from the array when aligned to stripes), or nil.
	Cache *cache.Config
	// CacheDevice is the model of the drive the cache keeps its data on,
	// or nil for a cache in memory.
	CacheDevice drive.Model
	// DropFlushes discards Flush requests at the host.
	DropFlushes bool
	// Host is the host model (defaults filled, checked), or nil for no
	// host layer; HostStorage describes the stack to it.
	Host        *host.Params
	HostStorage host.Storage
	// PowerLoss asks for a power-loss snapshot PowerLossAt after the
	// start (zero: at the start).
	PowerLoss   bool
	PowerLossAt time.Duration
	// WarmupIOs leaves the run's first completions out of the report
	// (its latencies, rates and cache figures); WarmupFull, those until
	// the volume cache first fills.
	WarmupIOs  int64
	WarmupFull bool
	// Capacity is the stack's usable capacity in bytes, and SectorSize
	// its sector size in bytes.
	Capacity   int64
	SectorSize int
	// Phases are the phases in order.
	Phases []PhasePlan
}

// PhasePlan is one phase of a Plan.
type PhasePlan struct {
	// Name labels the phase's report.
	Name string
	// StartDelay is idle time before the phase; Runtime, when positive,
	// stops issuing requests that long after the phase starts.
	StartDelay, Runtime time.Duration
	// RampIOs is the number of first completions left out of the report.
	RampIOs int64
	// Stream is the engine random stream the synthetic workload draws
	// from.
	Stream string
	// Workload is the synthetic workload, defaults filled (when Trace is
	// nil).
	Workload trace.Workload
	// Trace, when set, replays a trace file instead.
	Trace *TraceSource
	// Background are workloads run beside Workload until it ends, each
	// drawing from Stream + "/bgN".
	Background []trace.Workload
	// Jobs, when set, are the phase's concurrent jobs, one per clone
	// (phases[].jobs, or the phase's own job with numjobs above 1), in
	// order; Workload and Background are then unused.
	Jobs []JobPlan
}

// JobPlan is one clone of one of a phase's concurrent jobs, checked.
type JobPlan struct {
	// Name labels the job's report; the clones of an entry share it.
	Name string
	// Entry is the phases[].jobs entry it comes from (0 for the phase's
	// own job) and Clone its number among the entry's clones, from 0.
	Entry, Clone int
	// Group is its reporting group in the phase, from 0: the next
	// starts at an entry with new_group (NewGroup), as in fio, unless
	// it is the phase's first.
	Group    int
	NewGroup bool
	// GroupReporting reports it with the jobs of its group that set it
	// too (fio group_reporting).
	GroupReporting bool
	// Stream is the engine random stream it draws from: the phase's for
	// the first clone of the first entry, else Stream + "/jobE.C".
	Stream string
	// Workload is its workload, defaults filled, its region moved by
	// its clone's offset_increment; time_based makes NumIOs unbounded.
	Workload trace.Workload
	// StartDelay is idle time before it starts; Runtime, when positive,
	// stops its issuing that long after it started.
	StartDelay, Runtime time.Duration
	// WaitFor is the entry whose clones must all end before it starts,
	// or -1.
	WaitFor int
}

// TraceSource is a trace replay, checked.
type TraceSource struct {
	// Path is the trace file; .gz and .bz2 files are decompressed on the
	// fly.
	Path string
	// Format is a trace.Formats() name, or "auto" to sniff it.
	Format string
	// Devices keeps only the records of these device numbers; empty
	// keeps every record.
	Devices []int
	// IODepth, when positive, replays in closed loop at that depth; zero
	// replays in open loop at the recorded times.
	IODepth int
	// Speed divides the recorded inter-arrival times in open loop.
	Speed float64
	// Map says what to do with offsets past the stack's capacity;
	// MapGiven reports that the experiment chose it (else a replay takes
	// the format's, trace.DefaultMapMode).
	Map      trace.MapMode
	MapGiven bool
	// SourceCapacity is the traced device's size in bytes, for MapScale.
	SourceCapacity int64
	// Reorder, when positive, sorts records by time within a window of
	// that many records.
	Reorder int
	// ReorderWindow, when positive, sorts records by time within a
	// window of that much time (trace.ReorderWithin); zero takes the
	// format's default (trace.DefaultReorderWindow) unless StrictOrder
	// or Reorder is set.
	ReorderWindow time.Duration
	// StrictOrder replays the trace as it is: a record out of time order
	// stops an open-loop replay.
	StrictOrder bool
}

// Validate reports every problem with x at once in an *Error, each
// naming its key path (`stack.raid.stripe_unit: 3000 is not a multiple
// of 512`), including workloads that do not fit the stack's capacity.
func (x *Experiment) Validate() error {
	_, err := x.Plan()
	return err
}

// Plan checks x and translates it into the layers' configurations. The
// drive model is validated once, and no device is built.
func (x *Experiment) Plan() (*Plan, error) {
	var p problems
	pl := &Plan{Name: x.Name, Seed: x.Seed}
	if x.PowerLossAt != nil {
		pl.PowerLoss, pl.PowerLossAt = true, time.Duration(*x.PowerLossAt)
	}
	p.checkDuration("power_loss_at", pl.PowerLossAt)
	driveOK := planStack(&p, &x.Stack, pl)
	planWarmup(&p, x.Warmup, pl)
	planPhases(&p, x.Phases, pl)
	if !driveOK || p.under("stack") {
		return nil, p.err(x.source)
	}
	pl.Capacity = stackCapacity(pl)
	if pl.Capacity <= 0 {
		p.add("stack", "the stack has no usable capacity (a stripe unit larger than a drive?)")
		return nil, p.err(x.source)
	}
	for i := range pl.Phases {
		checkPhaseFits(&p, fmt.Sprintf("phases[%d]", i), &x.Phases[i], &pl.Phases[i], pl)
	}
	if len(p) > 0 {
		return nil, p.err(x.source)
	}
	return pl, nil
}

// stackCapacity is the usable capacity of the planned stack, as the
// devices will compute it: the drive model's, or the array mapping's
// over drives of that size.
func stackCapacity(pl *Plan) int64 {
	c := pl.DriveCapacity()
	if pl.RAID == nil {
		return c
	}
	return pl.mapping().Capacity(c)
}

// DriveCapacity is one drive's capacity in bytes, of whatever kind.
func (pl *Plan) DriveCapacity() int64 { return pl.Drive.Capacity() }

// mapping is the planned array's address mapping.
func (pl *Plan) mapping() raid.Mapping {
	return raid.Mapping{Level: pl.RAID.Level, Layout: pl.RAID.Layout, Members: pl.Disks, StripeUnit: pl.RAID.StripeUnit}
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

// checkRange reports an integer outside lo..hi.
func checkRange(p *problems, path string, v, lo, hi int64) {
	if v < lo || v > hi {
		p.add(path, "%d is outside %d..%d", v, lo, hi)
	}
}

// PlanStack checks a stack description on its own (no phases) and plans
// it, for code that builds a stack and drives it itself.
func PlanStack(st *Stack) (*Plan, error) {
	var p problems
	pl := &Plan{}
	if !planStack(&p, st, pl) || len(p) > 0 {
		return nil, p.err("")
	}
	if pl.Capacity = stackCapacity(pl); pl.Capacity <= 0 {
		p.add("stack", "the stack has no usable capacity (a stripe unit larger than a drive?)")
		return nil, p.err("")
	}
	return pl, nil
}

// planWarmup checks the warm-up: a number of requests, or "full", which
// needs a volume cache.
func planWarmup(p *problems, w string, pl *Plan) {
	switch {
	case w == "":
	case w == "full":
		if pl.Cache == nil {
			p.add("warmup", "\"full\" waits for the volume cache to fill: the stack has none (stack.cache)")
		}
		pl.WarmupFull = true
	default:
		n, err := strconv.ParseInt(w, 10, 64)
		if err != nil || n < 0 {
			p.add("warmup", "%q: want a number of requests or \"full\"", w)
			return
		}
		p.checkBounds("warmup", n)
		pl.WarmupIOs = n
	}
}
