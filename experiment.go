package raidsim

import (
	"errors"
	"fmt"
	"time"

	"github.com/raidsim/raidsim/cache"
	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/trace"
)

// Experiment is one synthetic workload replayed on one storage stack:
// drives of one model, optionally striped into a RAID array. It is the
// unit of work of `raidsim run` and of each row of the demo. It is plain
// data, so a what-if is a copy with one field changed.
type Experiment struct {
	// Drive is the drive model of every drive, usually from disk.Preset
	// with fields overridden (WriteCache, Scheduler, QueueDepth, ...).
	Drive disk.Params
	// Disks is the number of drives. Zero means one drive, or with RAID
	// the fewest the level needs.
	Disks int
	// RAID, when set, makes an array of the drives; nil runs on a single
	// drive.
	RAID *raid.Config
	// Failures fail array members at virtual times from the start (RAID
	// only).
	Failures []raid.Failure
	// Cache, when set, puts a volume write-back cache on top of the
	// drive or array. With Align set to cache.AlignStripe over an array
	// and no stripe geometry given, the array's geometry is used.
	Cache *cache.Config
	// Workload is the fio-style workload. Its IODepth sets how many
	// requests closed-loop replay keeps outstanding.
	Workload trace.Workload
	// Trace, when set, replays a trace file instead of Workload.
	Trace *TraceSource
	// Seed seeds every random stream of the run; the same Experiment and
	// Seed give a byte-identical Report.
	Seed uint64
	// Observer, when set, receives every layer's hooks (phases of every
	// request) for timelines and logs.
	Observer *sim.Observer
	// PowerLossAt, when positive, adds to the report what a power failure
	// that long after the start would lose in each layer
	// (Report.PowerLoss). The run goes on unchanged; if it ends sooner,
	// the stack idles (destaging) until then.
	PowerLossAt time.Duration
}

// Stack is an Experiment's devices, built on one engine: drives, the
// array over them, the volume cache on top, as the Experiment asks.
type Stack struct {
	// Top is the device requests go to: the cache, else the array, else
	// the one drive.
	Top sim.Device
	// Drives are the stack's drives, in array member order.
	Drives []*disk.Drive
	// Array is the RAID array, or nil.
	Array *raid.Array
	// Cache is the volume cache, or nil.
	Cache *cache.Cache
}

// BuildStack makes x's devices on eng (its Drive, Disks, RAID, Failures
// and Cache; the workload is left to the caller), reporting every
// configuration problem at once. prefix starts every device's name
// ("disk0", "array", "cache"), so several stacks can share one engine:
// a copy from one stack to another, say.
func (x *Experiment) BuildStack(eng *sim.Engine, prefix string) (*Stack, error) {
	p := x.Drive
	p.FillDefaults()
	var errs []error
	if err := p.Validate(); err != nil {
		errs = append(errs, err)
	}
	n := x.Disks
	switch {
	case n < 0:
		errs = append(errs, fmt.Errorf("raidsim: Disks: %d is negative", n))
	case x.RAID == nil && n > 1:
		errs = append(errs, fmt.Errorf("raidsim: Disks: %d drives need a RAID level", n))
	case x.RAID == nil && len(x.Failures) > 0:
		errs = append(errs, errors.New("raidsim: Failures: failing a member needs a RAID array"))
	case n > maxDisks:
		errs = append(errs, fmt.Errorf("raidsim: Disks: %d is more than %d", n, maxDisks))
	}
	if n == 0 {
		n = 1
		if x.RAID != nil {
			n = raid.MinMembers(x.RAID.Level)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	s := &Stack{Drives: make([]*disk.Drive, n)}
	members := make([]sim.Device, n)
	for i := range n {
		d, err := disk.New(eng, p, fmt.Sprintf("%sdisk%d", prefix, i), x.Observer)
		if err != nil {
			return nil, err
		}
		s.Drives[i], members[i] = d, d
	}
	s.Top = s.Drives[0]
	if x.RAID != nil {
		cfg := x.RAID.WithDefaults()
		if err := cfg.Validate(members...); err != nil {
			return nil, err
		}
		a, err := raid.New(eng, cfg, members, prefix+"array", x.Observer)
		if err != nil {
			return nil, err
		}
		var ferrs []error
		for _, f := range x.Failures {
			if err := a.FailAt(eng.Now().Add(f.At), f.Member); err != nil {
				ferrs = append(ferrs, fmt.Errorf("raidsim: Failures: %v: %w", f, err))
			}
		}
		if len(ferrs) > 0 {
			return nil, errors.Join(ferrs...)
		}
		s.Array, s.Top = a, a
	}
	if x.Cache != nil {
		cfg := *x.Cache
		if cfg.Align == cache.AlignStripe && cfg.StripeUnit == 0 && cfg.FullStripe == 0 {
			if s.Array == nil {
				return nil, errors.New("raidsim: Cache.Align: stripe alignment needs a RAID array below or a stripe geometry")
			}
			g := s.Array.Geometry()
			cfg.StripeUnit, cfg.DataMembers = g.StripeUnit, g.DataMembers
		}
		c, err := cache.New(eng, cfg, s.Top, prefix+"cache", x.Observer)
		if err != nil {
			return nil, err
		}
		s.Cache, s.Top = c, c
	}
	return s, nil
}

// WorkloadStream is the name of the engine random stream a synthetic
// workload draws from: Generate uses the same one, so a generated trace
// replays exactly the requests of the in-memory workload.
const WorkloadStream = "workload"

// maxDisks bounds Disks: each drive is a full model, and a typo should
// not allocate thousands of them.
const maxDisks = 256

// Run simulates the experiment to completion and returns its report.
// Every problem with the stack or the workload is reported at once.
// Requests that fail in service (a RAID 5 array that lost two members)
// do not stop the run: the report counts them and keeps the first error.
func (x Experiment) Run() (*Report, error) {
	_, total, err := x.runPhases([]phase{{workload: x.Workload, trace: x.Trace, stream: WorkloadStream}}, hostOptions{})
	return total, err
}

// Generate writes the synthetic workload x would run, record by record,
// to w, and returns how many it wrote. The records are exactly those Run
// replays for the same stack, Workload and Seed, so replaying the written
// trace in closed loop at the workload's iodepth reproduces Run's report.
func (x Experiment) Generate(w trace.Writer) (int64, error) {
	eng := sim.NewEngine(x.Seed)
	s, err := x.BuildStack(eng, "")
	if err != nil {
		return 0, err
	}
	wl := x.Workload.WithDefaults()
	if err := wl.Validate(s.Top.Capacity(), s.Top.SectorSize()); err != nil {
		return 0, err
	}
	src, err := trace.NewSynthetic(wl, eng.Rand(WorkloadStream), s.Top.Capacity(), s.Top.SectorSize())
	if err != nil {
		return 0, err
	}
	n, err := trace.Copy(w, src)
	if err != nil {
		return n, fmt.Errorf("raidsim: generate: %w", err)
	}
	return n, nil
}
