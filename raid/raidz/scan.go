package raidz

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/sim"
)

// scan is a resilver or a scrub: a walk over the records allocated when
// it started, in logical (slot) order gathered into batches of
// Config.ScanBatch records, each issued sorted by vdev offset, as
// OpenZFS's sorted scan issues what its memory holds.
type scan struct {
	resilver bool
	member   int // the child being resilvered
	order    []int64
	next     int
	inFlight int
	active   bool
	started  sim.Time
	finished sim.Time
	err      error
	// total and bytes: the column bytes to write to the new child, and
	// those written (resilver); the bytes read and the records whose
	// parity disagreed with their data (scrub).
	total, bytes int64
	records      int64
	mismatches   int64
}

// Rebuild resilvers the lowest-numbered failed member onto spare, which
// takes its place at once: the walk visits every record allocated now
// (not the whole disk), reads what rebuilds the record's column on the
// failed child (its other data columns, and parity when that column is
// data), reconstructs it and writes it to the spare, one request per
// record, as ZFS's resilver does. Records written meanwhile go to the
// spare whole and are not visited again. When the walk ends the member
// is healthy.
func (a *Array) Rebuild(spare sim.Device) error {
	if a.scan != nil && a.scan.active {
		return fmt.Errorf("raidz: %s: a scan is already running", a.name)
	}
	f := slices.Index(a.failed, true)
	switch {
	case f < 0:
		return fmt.Errorf("raidz: %s: no failed member to resilver", a.name)
	case spare == nil:
		return fmt.Errorf("raidz: %s: Rebuild needs a spare, got nil", a.name)
	case int64(spare.SectorSize()) != a.ss:
		return fmt.Errorf("raidz: %s: spare has %d-byte sectors, the members %d", a.name, spare.SectorSize(), a.ss)
	case spare.Capacity() < a.child:
		return fmt.Errorf("raidz: %s: spare holds %d bytes, the vdev uses %d of each child", a.name, spare.Capacity(), a.child)
	case len(a.Failed()) > a.g.Parity:
		return fmt.Errorf("raidz: %s: members %v have failed: %w", a.name, a.Failed(), raid.ErrDataLost)
	}
	s := &scan{resilver: true, member: f}
	a.slots.each(func(slot int64, r *record) {
		for _, c := range a.g.Map(r.off, r.psize) {
			if c.Disk == f {
				r.stale = true
				s.total += c.Size
				s.order = append(s.order, slot)
			}
		}
	})
	a.members[f] = spare
	a.start(s)
	return nil
}

// Scrub reads every allocated record whole, parity included, and, when
// the array keeps bytes (Config.Data), checks each record's parity
// against its data (ScanStats.Mismatches).
func (a *Array) Scrub() error {
	if a.scan != nil && a.scan.active {
		return fmt.Errorf("raidz: %s: a scan is already running", a.name)
	}
	s := &scan{}
	a.slots.each(func(slot int64, _ *record) { s.order = append(s.order, slot) })
	a.start(s)
	return nil
}

func (a *Array) start(s *scan) {
	s.active, s.started = true, a.eng.Now()
	b := a.cfg.ScanBatch
	switch {
	case b == 0:
		b = len(s.order)
	case b < 0:
		b = 0
	}
	for i := 0; b > 0 && i < len(s.order); i += b {
		batch := s.order[i:min(i+b, len(s.order))]
		slices.SortStableFunc(batch, func(x, y int64) int {
			ox, oy := a.slots.get(x).off, a.slots.get(y).off
			switch {
			case ox < oy:
				return -1
			case ox > oy:
				return 1
			}
			return 0
		})
	}
	a.scan = s
	a.eng.After(0, &a.hZero, &task{then: func(error) { a.scanFill(s) }})
}

// scanFill starts records until ScanInFlight are in flight.
func (a *Array) scanFill(s *scan) {
	for s.active && s.inFlight < a.cfg.ScanInFlight && s.next < len(s.order) {
		slot := s.order[s.next]
		s.next++
		s.inFlight++
		a.lockFn(slot, func() { a.scanRecord(s, slot) })
	}
	if s.active && s.inFlight == 0 && s.next == len(s.order) {
		a.scanDone(s)
	}
}

// scanRecord resilvers or scrubs one slot's record (the slot is locked).
func (a *Array) scanRecord(s *scan, slot int64) {
	r := a.slots.get(slot)
	finish := func(err error) {
		if err != nil && s.err == nil {
			s.err = err
		}
		a.unlock(slot)
		s.inFlight--
		a.scanFill(s)
	}
	if r.psize == 0 || s.resilver && !r.stale {
		a.eng.After(0, &a.hZero, &task{then: finish})
		return
	}
	s.records++
	if s.resilver {
		a.resilverRecord(s, slot, r, finish)
		return
	}
	a.scrubRecord(s, r, finish)
}

// resilverRecord rebuilds r's column on the new child and writes it.
func (a *Array) resilverRecord(s *scan, slot int64, r record, finish func(error)) {
	cols := a.g.Map(r.off, r.psize)
	lost := slices.IndexFunc(cols, func(c Column) bool { return c.Disk == s.member })
	a.readRecordFor(r, a.cfg.Data, false, func(buf []byte, err error) {
		if err != nil {
			finish(err)
			return
		}
		var col []byte
		if buf != nil {
			units := a.units(cols, buf)
			if lost < a.g.Parity {
				Generate(units, a.g.Parity)
			}
			col = units[lost]
		}
		t := a.newTask(func(err error) {
			if err == nil {
				a.slots.ptr(slot).stale = false
				s.bytes += cols[lost].Size
			}
			finish(err)
		})
		a.io(t, a.members[s.member], sim.Write, cols[lost].Offset, cols[lost].Size, col)
		a.armTask(t)
	})
}

// scrubRecord reads r whole and checks its parity.
func (a *Array) scrubRecord(s *scan, r record, finish func(error)) {
	cols := a.g.Map(r.off, r.psize)
	var units [][]byte
	if a.cfg.Data {
		units = make([][]byte, len(cols))
		for i, c := range cols {
			units[i] = make([]byte, c.Size)
		}
	}
	t := a.newTask(func(err error) {
		if err == nil && units != nil {
			want := make([][]byte, len(units))
			copy(want, units)
			for p := range a.g.Parity {
				want[p] = make([]byte, len(units[p]))
			}
			Generate(want, a.g.Parity)
			for p := range a.g.Parity {
				if !bytes.Equal(want[p], units[p]) {
					s.mismatches++
					break
				}
			}
		}
		finish(err)
	})
	for i, c := range cols {
		if a.usable(r, c) {
			s.bytes += c.Size
			a.io(t, a.members[c.Disk], sim.Read, c.Offset, c.Size, unit(units, i))
		}
	}
	a.armTask(t)
}

func (a *Array) scanDone(s *scan) {
	s.active, s.finished = false, a.eng.Now()
	if s.resilver && s.err == nil {
		a.failed[s.member] = false
	}
	a.last, a.scan = s, nil
}

// ScanStats is the progress of the current or last resilver or scrub.
type ScanStats struct {
	// Resilver tells a resilver from a scrub; Active that it is running.
	Resilver, Active bool
	// Member is the child resilvered.
	Member int
	// Records counts records visited so far; Bytes the column bytes
	// written to the new child (resilver) or read (scrub), of Total
	// (resilver).
	Records, Bytes, Total int64
	// Mismatches counts records whose parity disagreed with their data
	// (a scrub with Config.Data).
	Mismatches int64
	// Start and End bound the scan in virtual time (End is zero while it
	// runs).
	Start, End sim.Time
	// Err is why it stopped early, if it did.
	Err error
}

// Scan returns the current scan's progress, else the last one's, and
// false when there has been none.
func (a *Array) Scan() (ScanStats, bool) {
	s := a.scan
	if s == nil {
		s = a.last
	}
	if s == nil {
		return ScanStats{}, false
	}
	return ScanStats{Resilver: s.resilver, Active: s.active, Member: s.member, Records: s.records,
		Bytes: s.bytes, Total: s.total, Mismatches: s.mismatches, Start: s.started, End: s.finished, Err: s.err}, true
}
