package raid

import (
	"errors"
	"fmt"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// rebuild is the state of a rebuild onto a spare.
type rebuild struct {
	active    bool
	member    int
	row       int64 // stripe units below row are on the spare
	rows      int64
	started   sim.Time
	finished  sim.Time
	stepStart sim.Time
	fgAtStep  int64 // foreground requests accepted when the step started
	err       error
}

// Rebuild starts rebuilding the lowest-numbered failed member onto
// spare, which takes that member's slot at once. The rebuild goes one
// stripe unit at a time from the start of the members, each step
// reading the stripe's other members (RAID 5) or a live copy (RAID 1,
// 10) and writing the spare, paced by Config.RebuildRate and competing
// with foreground requests, which wait for a step on their stripe and
// vice versa. Writes to stripes already rebuilt also go to the spare;
// reads there may be served by it. When the last step completes the
// member counts as healthy again; Stats().Rebuild reports progress and
// duration. With Config.RebuildData the spare ends holding exactly the
// bytes the lost member would hold.
//
// Rebuild returns an error (and changes nothing) for RAID 0, when no
// member has failed, when a rebuild is running, when the data is already
// lost, or when the spare is too small or has another sector size.
func (a *Array) Rebuild(spare sim.Device) error {
	if a.cfg.Level == RAID0 {
		return fmt.Errorf("raid: %s: RAID 0 has no redundancy to rebuild from", a.name)
	}
	if a.rb != nil && a.rb.active {
		return fmt.Errorf("raid: %s: a rebuild of member %d is already running", a.name, a.rb.member)
	}
	if spare == nil {
		return fmt.Errorf("raid: %s: Rebuild needs a spare, got nil", a.name)
	}
	f := -1
	for i := range a.mem {
		if a.mem[i].failed {
			f = i
			break
		}
	}
	if f < 0 {
		return fmt.Errorf("raid: %s: no failed member to rebuild", a.name)
	}
	var errs []error
	if ss := spare.SectorSize(); ss != a.ss {
		errs = append(errs, fmt.Errorf("raid: %s: spare has %d-byte sectors, the members %d", a.name, ss, a.ss))
	}
	if need := a.rows * a.u; spare.Capacity() < need {
		errs = append(errs, fmt.Errorf("raid: %s: spare holds %d bytes, the array uses %d of each member", a.name, spare.Capacity(), need))
	}
	lost := false
	switch a.cfg.Level {
	case RAID5:
		lost = len(a.Failed()) > 1
	case RAID6:
		lost = len(a.Failed()) > 2
	case RAID1:
		lost = len(a.Failed()) == a.n
	case RAID10:
		lost = a.mem[f^1].failed
	}
	if lost {
		errs = append(errs, fmt.Errorf("raid: %s: cannot rebuild member %d: members %v have failed: %w", a.name, f, a.Failed(), ErrDataLost))
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	now := a.eng.Now()
	a.rb = &rebuild{active: true, member: f, rows: a.rows, started: now}
	a.mem[f].dev, a.mem[f].kicked = spare, false
	for u := range a.badUnits { // the spare's rows are computed anew
		if u.m == f {
			delete(a.badUnits, u)
		}
	}
	a.eng.After(0, &a.hRebuild, a.rb)
	return nil
}

// rebuildNext starts the next rebuild step (an event).
func (a *Array) rebuildNext(rb *rebuild) {
	if rb != a.rb || !rb.active {
		return
	}
	if rb.row >= rb.rows {
		a.rebuildComplete()
		return
	}
	o := a.getOp()
	o.kind = kRebuild
	o.row = rb.row
	o.rb = rb
	fs := a.m.FullStripe()
	o.lo, o.hi = rb.row*fs, (rb.row+1)*fs
	rb.stepStart = a.eng.Now()
	rb.fgAtStep = a.ct.reads + a.ct.writes
	a.track(o)
}

// startRebuildStep reads the sources of one stripe unit of the spare.
func (a *Array) startRebuildStep(o *op) {
	rb := o.rb
	if rb != a.rb || !rb.active {
		return
	}
	f, row := rb.member, o.row
	a.cand = a.cand[:0]
	switch a.cfg.Level {
	case RAID5:
		for m := range a.n {
			if m != f {
				if !a.avail(m, row) {
					o.fail(a.lost(o, row))
					return
				}
				a.cand = append(a.cand, m)
			}
		}
	case RAID1:
		for m := range a.n {
			if m != f && a.avail(m, row) {
				a.cand = append(a.cand, m)
			}
		}
		if len(a.cand) > 0 {
			a.cand = append(a.cand[:0], a.pickCopy(row*a.u))
		}
	case RAID10:
		if a.avail(f^1, row) {
			a.cand = append(a.cand, f^1)
		}
	case RAID6:
		if !a.sources6(f, row) {
			o.fail(a.lost(o, row))
			return
		}
	}
	if len(a.cand) == 0 {
		o.fail(a.lost(o, row))
		return
	}
	so := a.getSO(o, soRebuild)
	so.stripe, so.member, so.reads = row, f, len(a.cand)
	o.pending++
	for _, m := range a.cand {
		var buf []byte
		if a.cfg.RebuildData {
			so.bufs[m] = a.getBuf()
			buf = so.bufs[m]
		}
		a.issue(o, so, m, sim.Read, row*a.u, a.u, buf)
	}
	if so.pending == 0 {
		so.advance()
	}
}

// rebuildWrite writes the rebuilt stripe unit to the spare.
func (a *Array) rebuildWrite(so *stripeOp) {
	if a.m.Level == RAID6 {
		a.rebuildWrite6(so)
		return
	}
	f := so.member
	var out []byte
	if a.cfg.RebuildData {
		out = a.getBuf()
		clear(out)
		for m, b := range so.bufs {
			if m != f && b != nil {
				xorInto(out, b)
			}
		}
		so.bufs[f] = out
	}
	if a.rebuilding(f) {
		a.issue(so.o, so, f, sim.Write, so.stripe*a.u, a.u, out)
	}
}

// rebuildStepDone records a finished step and paces the next one.
func (a *Array) rebuildStepDone(rb *rebuild, err error) {
	if rb != a.rb || !rb.active {
		return
	}
	now := a.eng.Now()
	if err != nil {
		rb.active = false
		rb.finished = now
		rb.err = fmt.Errorf("raid: %s: rebuild of member %d stopped at %d bytes: %w", a.name, rb.member, rb.row*a.u, err)
		return
	}
	rb.row++
	if rb.row >= rb.rows {
		a.rebuildComplete()
		return
	}
	at := now
	rate := a.cfg.RebuildRate
	if a.cfg.RebuildMinRate > 0 && a.ct.reads+a.ct.writes != rb.fgAtStep {
		rate = a.cfg.RebuildMinRate // not idle: md holds resync to speed_limit_min
	}
	if rate > 0 {
		step := time.Duration(float64(a.u) * 1e9 / float64(rate))
		at = max(now, rb.stepStart.Add(step))
	}
	a.eng.Schedule(at, &a.hRebuild, rb)
}

func (a *Array) rebuildComplete() {
	rb := a.rb
	rb.active = false
	rb.finished = a.eng.Now()
	a.mem[rb.member].failed = false
}
