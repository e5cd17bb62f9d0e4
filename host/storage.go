package host

import (
	"fmt"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// Storage says, as numbers, what the host drives below it, so that the
// host charges software RAID and a host-memory volume cache without
// importing the raid package.
type Storage struct {
	// Parity is the number of parity chunks per stripe of a software
	// parity RAID (1 for RAID 5, 2 for RAID 6), zero otherwise.
	Parity int
	// StripeUnit is the bytes one member holds per stripe (the chunk),
	// and DataMembers the members holding data in each stripe; both are
	// needed with Parity.
	StripeUnit  int64
	DataMembers int
	// VolumeCache reports a volume write-back cache in host memory at
	// the top of the storage (chipset RAID's driver cache).
	VolumeCache bool
}

// validate checks st.
func (st Storage) validate() error {
	if st.Parity < 0 || st.Parity > 2 {
		return fmt.Errorf("host: Storage.Parity must be 0, 1 or 2, got %d", st.Parity)
	}
	if st.Parity > 0 && (st.StripeUnit <= 0 || st.DataMembers <= 0 || st.StripeUnit > 1<<30 || st.DataMembers > 1<<10) {
		return fmt.Errorf("host: Storage with parity needs StripeUnit in 1..1GiB and DataMembers in 1..1024, got %d and %d", st.StripeUnit, st.DataMembers)
	}
	return nil
}

// ParityBytes returns the bytes software RAID XORs to write length
// bytes at off, per parity chunk: whole stripes XOR their data once; a
// partial stripe XORs the cheaper of read-modify-write (old and new
// data into the parity: twice the piece) and reconstruct-write (every
// data chunk of the stripe), as Linux md chooses. It multiplies by
// Parity for RAID 6's second syndrome.
func (st Storage) ParityBytes(off, length int64) int64 {
	if st.Parity == 0 || length <= 0 {
		return 0
	}
	s := st.StripeUnit * int64(st.DataMembers)
	partial := func(n int64) int64 { return min(2*n, s) }
	end := off + length
	first := (off/s + 1) * s // end of the first stripe
	if end <= first {
		if length == s {
			return s * int64(st.Parity)
		}
		return partial(length) * int64(st.Parity)
	}
	var x int64
	if off%s != 0 {
		x += partial(first - off)
	} else {
		first = off
	}
	last := end / s * s // start of the last partial stripe
	x += last - first   // whole stripes
	if end > last {
		x += partial(end - last)
	}
	return x * int64(st.Parity)
}

// pages returns the 4 KiB pages [off, off+n) touches.
func pages(off, n int64) int64 {
	if n <= 0 {
		return 0
	}
	return (off+n+PageSize-1)/PageSize - off/PageSize
}

// shim kinds.
const (
	shimDriver  = iota // in front of one drive: per-command driver cost
	shimStorage        // in front of the storage: software RAID, volume cache
)

// shim is a sim.Device in front of another that makes each request wait
// for the host CPU work it costs before passing it on unchanged; the
// request's Done goes straight to its submitter.
type shim struct {
	h     *Host
	below sim.Device
	kind  uint8
	name  string
	st    Storage
	ev    shimHandler
	c     cost // scratch
}

type shimHandler struct{ s *shim }

// HandleEvent passes a request on once its CPU work is done.
func (e shimHandler) HandleEvent(now sim.Time, arg any) { e.s.pass(now, arg.(*sim.Request)) }

// Name returns the name the shim was given: the drive's, for a driver
// shim, so that an array above names its members as without a host.
func (s *shim) Name() string { return s.name }

// Capacity returns the capacity of the device below, in bytes.
func (s *shim) Capacity() int64 { return s.below.Capacity() }

// SectorSize returns the sector size of the device below, in bytes.
func (s *shim) SectorSize() int { return s.below.SectorSize() }

// Submit charges r's CPU work and passes r below when it is done.
func (s *shim) Submit(r *sim.Request) error {
	now := s.h.eng.Now()
	if err := sim.CheckRequest(r, s.below.Capacity(), s.below.SectorSize()); err != nil {
		return fmt.Errorf("host %s: %w", s.name, err)
	}
	s.cost(r)
	start, end := s.h.cpu.run(now, &s.c)
	r.Issued = now
	s.h.obs.OnPhase(s.name, r, sim.PhaseQueue, now, start)
	s.h.obs.OnPhase(s.name, r, sim.PhaseOverhead, start, end)
	if end == now {
		return s.below.Submit(r)
	}
	s.h.eng.Schedule(end, &s.ev, r)
	return nil
}

// pass submits r below; a refusal completes r with the error.
func (s *shim) pass(now sim.Time, r *sim.Request) {
	issued := r.Issued
	if err := s.below.Submit(r); err != nil {
		r.Err, r.Completed = fmt.Errorf("host %s: %w", s.name, err), now
		r.Issued = issued
		r.Done(r)
		return
	}
	r.Issued = issued
}

// cost fills s.c with r's CPU work.
func (s *shim) cost(r *sim.Request) {
	p := &s.h.p
	s.c = cost{}
	if s.kind == shimDriver {
		s.c[KindDriver] = satAdd(p.CommandCost, perKiB(dataLen(r), p.DriverPerKiB))
		return
	}
	if r.Op == sim.Flush {
		return
	}
	if s.st.Parity > 0 {
		if r.Op == sim.Write {
			s.c[KindParity] = perRate(s.st.ParityBytes(r.Offset, r.Length), p.XORRate)
		}
		if r.Op != sim.Read || !p.RAIDReadBypass {
			s.c[KindStripeCache] = time.Duration(pages(r.Offset, r.Length)) * p.StripeCachePerPage
		}
	}
	if s.st.VolumeCache {
		s.c[KindVolumeCache] = satAdd(p.VolumeCacheLookup, perRate(r.Length, p.VolumeCacheCopyRate))
	}
}
