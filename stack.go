package raidsim

import (
	"errors"
	"fmt"
	"github.com/raidsim/raidsim/faults"

	"github.com/raidsim/raidsim/cache"
	"github.com/raidsim/raidsim/drive"
	"github.com/raidsim/raidsim/host"
	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/raid/raidz"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/spec"
)

// Stack is a built storage stack on one engine: drives, the array over
// them, the volume cache on top, as its plan asks.
type Stack struct {
	// Top is the device requests go to: the cache, else the array, else
	// the one drive.
	Top sim.Device
	// Drives are the stack's drives (disks, SSDs, any kind of
	// drive.Device), in array member order, a planned rebuild's spare
	// last.
	Drives []drive.Device
	// Array is the RAID array (md's levels), or nil.
	Array *raid.Array
	// RAIDZ is the ZFS RAIDZ array, or nil.
	RAIDZ *raidz.Array
	// Spare is the planned rebuild's replacement as the array sees it,
	// metered (its write sizes and progress over time), or nil.
	Spare *SpareMeter
	// Cache is the volume cache, or nil.
	Cache *cache.Cache
	// CacheDevice is the drive the volume cache keeps its data on (an
	// SSD cache tier), or nil.
	CacheDevice drive.Device
	// Host is the host layer in front of everything (then Top), or nil.
	Host *host.Host
	// Faults are the fault wrappers over the drives, in the same order
	// (a planned rebuild's spare last), when the plan injects faults.
	Faults []*faults.Device

	rebuild *rebuildEvent
}

// NewStack checks the stack description st and builds its devices on
// eng, for code that drives them itself (two stacks sharing an engine,
// a copy from one to the other). prefix starts every device's name
// ("disk0", "array", "cache"), so several stacks can share one engine.
// obs, when set, receives every layer's hooks.
func NewStack(eng *sim.Engine, st spec.Stack, prefix string, obs *sim.Observer) (*Stack, error) {
	pl, err := spec.PlanStack(&st)
	if err != nil {
		return nil, err
	}
	return Build(eng, pl, prefix, obs)
}

// Build makes the devices of a plan (from spec.Experiment.Plan or
// spec.PlanStack) on eng: each drive once from the plan's checked model,
// then the array and the cache over them.
func Build(eng *sim.Engine, pl *spec.Plan, prefix string, obs *sim.Observer) (*Stack, error) {
	s := &Stack{}
	if pl.Host != nil {
		h, err := host.New(eng, *pl.Host, prefix+"host", obs)
		if err != nil {
			return nil, err
		}
		s.Host = h
	}
	if err := s.buildBelow(eng, pl, prefix, obs); err != nil {
		return nil, err
	}
	if s.Host != nil {
		if err := s.Host.Attach(s.Top, pl.HostStorage); err != nil {
			return nil, err
		}
		s.Top = s.Host
	}
	return s, nil
}

// buildBelow makes the devices under the host: the drives (behind the
// host's driver when there is a host), the array, the volume cache; Top
// is the highest of them.
func (s *Stack) buildBelow(eng *sim.Engine, pl *spec.Plan, prefix string, obs *sim.Observer) error {
	members, err := s.buildDrives(eng, pl, prefix, obs)
	if err != nil {
		return err
	}
	s.Top = members[0]
	if pl.RAIDZ != nil {
		if err := s.buildRAIDZ(eng, pl, members, prefix, obs); err != nil {
			return err
		}
	}
	if pl.RAID != nil {
		a, err := raid.New(eng, *pl.RAID, members, prefix+"array", obs)
		if err != nil {
			return err
		}
		var errs []error
		for _, f := range pl.Failures {
			if err := a.FailAt(eng.Now().Add(f.At), f.Member); err != nil {
				errs = append(errs, fmt.Errorf("raidsim: failure %v: %w", f, err))
			}
		}
		if err := errors.Join(errs...); err != nil {
			return err
		}
		s.Array, s.Top = a, a
		if err := s.scheduleRebuild(eng, pl, prefix, obs); err != nil {
			return err
		}
	}
	if pl.Cache != nil {
		c, err := s.buildCache(eng, pl, prefix, obs)
		if err != nil {
			return err
		}
		s.Cache, s.Top = c, c
	}
	return nil
}

// buildCache makes the volume cache over Top: in memory, or on its
// cache device.
func (s *Stack) buildCache(eng *sim.Engine, pl *spec.Plan, prefix string, obs *sim.Observer) (*cache.Cache, error) {
	if pl.CacheDevice == nil {
		return cache.New(eng, *pl.Cache, s.Top, prefix+"cache", obs)
	}
	dev, err := pl.CacheDevice.NewDevice(eng, prefix+"cachedev", obs)
	if err != nil {
		return nil, err
	}
	s.CacheDevice = dev
	return cache.NewOnDevice(eng, *pl.Cache, s.Top, dev, prefix+"cache", obs)
}

// NewHostStacks checks each stack description and builds them on eng
// behind one host described by h (as stack.host describes one): a
// computer with several volumes, one CPU and one page cache for all.
// Each returned Stack's Top is its volume as the host serves it, and
// Host the shared host. The stacks' own Host must be unset; device
// names start "v0", "v1", ...
func NewHostStacks(eng *sim.Engine, h spec.Host, stacks []spec.Stack, obs *sim.Observer) ([]*Stack, error) {
	if len(stacks) == 0 || len(stacks) > 256 {
		return nil, fmt.Errorf("raidsim: NewHostStacks needs 1 to 256 stacks, got %d", len(stacks))
	}
	var hs *host.Host
	vols := make([]host.Volume, len(stacks))
	out := make([]*Stack, len(stacks))
	for i, st := range stacks {
		if st.Host != (spec.Host{}) {
			return nil, fmt.Errorf("raidsim: stack %d: its host is NewHostStacks' h, leave stack.host unset", i)
		}
		st.Host = h
		pl, err := spec.PlanStack(&st)
		if err != nil {
			return nil, fmt.Errorf("raidsim: stack %d: %w", i, err)
		}
		if pl.Host == nil {
			return nil, errors.New("raidsim: NewHostStacks needs a host model (h.Preset)")
		}
		if hs == nil {
			if hs, err = host.New(eng, *pl.Host, "host", obs); err != nil {
				return nil, err
			}
		}
		s := &Stack{Host: hs}
		if err := s.buildBelow(eng, pl, fmt.Sprintf("v%d", i), obs); err != nil {
			return nil, err
		}
		vols[i], out[i] = host.Volume{Dev: s.Top, Storage: pl.HostStorage}, s
	}
	if err := hs.AttachVolumes(vols...); err != nil {
		return nil, err
	}
	for i, s := range out {
		s.Top = hs.Volume(i)
	}
	return out, nil
}

// buildDrives makes the plan's drives (disks, or SSDs preconditioned as
// asked) and returns them as array members, each behind its fault
// wrapper when the plan injects faults and the host's driver when there
// is a host.
func (s *Stack) buildDrives(eng *sim.Engine, pl *spec.Plan, prefix string, obs *sim.Observer) ([]sim.Device, error) {
	members := make([]sim.Device, pl.Disks)
	for i := range pl.Disks {
		d, err := s.newDrive(eng, pl, fmt.Sprintf("%sdisk%d", prefix, i), obs)
		if err != nil {
			return nil, err
		}
		members[i] = d
	}
	return members, nil
}

// newDrive makes one drive of the plan's model (appended to Drives) and
// returns it as the array sees it: behind its fault wrapper (appended to
// Faults) and the host's driver.
func (s *Stack) newDrive(eng *sim.Engine, pl *spec.Plan, name string, obs *sim.Observer) (sim.Device, error) {
	return s.newDriveOf(eng, pl, pl.Drive, name, obs)
}

// newDriveOf is newDrive with a drive of model m.
func (s *Stack) newDriveOf(eng *sim.Engine, pl *spec.Plan, m drive.Model, name string, obs *sim.Observer) (sim.Device, error) {
	dd, err := m.NewDevice(eng, name, obs)
	if err != nil {
		return nil, err
	}
	s.Drives = append(s.Drives, dd)
	var d sim.Device = dd
	if pl.Faults != nil {
		f, err := faults.New(eng, d, *pl.Faults, name)
		if err != nil {
			return nil, err
		}
		s.Faults, d = append(s.Faults, f), f
	}
	if s.Host != nil {
		d = s.Host.Driver(d, name)
	}
	return d, nil
}

// RebuildErr is the error the planned rebuild met when it was to start
// (the array refused the spare), or nil: none planned, not yet due, or
// started (its progress and outcome are in Array.Stats).
func (s *Stack) RebuildErr() error {
	if s.rebuild == nil {
		return nil
	}
	return s.rebuild.err
}

// rebuildEvent starts the planned rebuild onto the spare.
type rebuildEvent struct {
	s   *Stack
	dev sim.Device
	err error
}

func (e *rebuildEvent) HandleEvent(sim.Time, any) {
	if e.s.RAIDZ != nil {
		e.err = e.s.RAIDZ.Rebuild(e.dev)
		return
	}
	e.err = e.s.Array.Rebuild(e.dev)
}

// scheduleRebuild makes the spare (the last of Drives) and
// schedules the planned rebuild.
func (s *Stack) scheduleRebuild(eng *sim.Engine, pl *spec.Plan, prefix string, obs *sim.Observer) error {
	if pl.Rebuild == nil {
		return nil
	}
	model := pl.Drive
	if pl.RebuildDrive != nil {
		model = pl.RebuildDrive
	}
	dev, err := s.newDriveOf(eng, pl, model, prefix+"spare", obs) // behind the host's driver, once
	if err != nil {
		return err
	}
	s.Spare = newSpareMeter(eng, dev, s.Drives[len(s.Drives)-1])
	s.rebuild = &rebuildEvent{s: s, dev: s.Spare}
	eng.Schedule(eng.Now().Add(pl.Rebuild.At), s.rebuild, nil)
	return nil
}

// buildRAIDZ makes the RAIDZ array over members, fills it as planned
// and schedules the planned failures.
func (s *Stack) buildRAIDZ(eng *sim.Engine, pl *spec.Plan, members []sim.Device, prefix string, obs *sim.Observer) error {
	a, err := raidz.New(eng, pl.RAIDZ.Config, members, prefix+"array")
	if err != nil {
		return err
	}
	if pl.RAIDZ.Fill > 0 {
		if err := a.Fill(pl.RAIDZ.Fill, pl.RAIDZ.FillStreams); err != nil {
			return err
		}
	}
	var errs []error
	for _, f := range pl.Failures {
		if err := a.FailAt(eng.Now().Add(f.At), f.Member); err != nil {
			errs = append(errs, fmt.Errorf("raidsim: failure %v: %w", f, err))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	s.RAIDZ, s.Top = a, a
	return s.scheduleRebuild(eng, pl, prefix, obs)
}

// RebuildStats is the planned rebuild's progress, on md's array or
// RAIDZ (zero without an array).
func (s *Stack) RebuildStats() raid.RebuildStats {
	if s.RAIDZ != nil {
		return s.RAIDZ.RebuildStats()
	}
	if s.Array != nil {
		return s.Array.Stats().Rebuild
	}
	return raid.RebuildStats{}
}
