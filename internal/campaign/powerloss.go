package campaign

import (
	"fmt"

	"github.com/raidsim/raidsim/faults"
	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
)

// afterPowerLoss takes the snapshot of a power loss at this instant:
// what the reports name (the volume cache's Crash, the drive caches'
// Unpersisted, the array's lost ranges and failed members), the members'
// surviving bytes; then restarts the array on them, resyncs it as md
// does after an unclean shutdown when it is whole, reads it back and
// checks the property.
func (r *runner) afterPowerLoss() (*Result, error) {
	res := r.result()
	want, alt := r.expected()
	n := len(want) / sectorSize
	lost, torn := make(sectors, n), make(sectors, n)
	m := r.arr.Mapping()
	// The array-level writes in flight: the cache's destages, or the
	// host's own writes without a cache.
	var flying []raid.Extent
	if r.cache != nil {
		flying = r.tap.inFlight()
		for _, e := range r.cache.LostRanges() {
			torn.addRange(e.Offset, e.Length)
		}
		if !r.s.CacheNV {
			for _, e := range r.cache.Crash() {
				lost.addRange(e.Offset, e.Length)
			}
		}
	} else {
		for _, w := range r.writes {
			if !w.acked && !w.failed {
				flying = append(flying, raid.Extent{Offset: w.off, Length: int64(len(w.data))})
			}
		}
	}
	for _, e := range flying { // they may have landed, wholly or in part
		torn.addRange(e.Offset, e.Length)
	}
	for _, e := range r.arr.LostRanges() {
		lost.addRange(e.Offset, e.Length)
	}
	for i := range lost { // a write in flight may have landed: good again
		lost[i] = lost[i] && !torn[i]
	}
	missing := make([]bool, r.s.Members)
	degraded := false
	for _, mm := range r.arr.Failed() {
		missing[mm], degraded = true, true
	}
	for i, sl := range r.slots {
		if sl.f.Stats().Failed { // a dead drive the array had not noticed yet
			missing[i], degraded = true, true
		}
	}
	r.driveCacheLosses(m, missing, torn)
	if degraded && m.Level != raid.RAID1 && m.Level != raid.RAID10 {
		// The write hole: a missing member's data is rebuilt from parity
		// that rows being written may no longer match.
		r.writeHole(m, missing, flying, torn)
		res.Exceeded = true
	}
	beyondTolerance(m, r.s.Rows, missing, lost)
	res.Volatile = r.s.DriveCache || r.cache != nil && !r.s.CacheNV
	arr, eng, err := r.restart(missing)
	if err != nil {
		return nil, err
	}
	rb := settledReadBack(eng, arr, want, alt)
	for _, e := range arr.LostRanges() { // read errors the restarted array met with no redundancy left
		lost.addRange(e.Offset, e.Length)
	}

	res.Wrong, res.Lost, res.Torn = rb.wrong.count(), lost.count(), torn.count()
	r.compare(res, rb, lost, torn)
	if !res.Exceeded && !res.Volatile && (res.Wrong > 0 || res.Lost > 0) {
		res.violate("within the redundancy and nothing volatile, yet %d sectors read wrong and %d are named lost", res.Wrong, res.Lost)
	}
	return res, nil
}

// driveCacheLosses names torn the logical data the members' volatile
// write caches had not written: on the copy a restart keeps (a parity
// level's data members, a mirror's first copy present). Such a write
// may have carried bytes the member held already (a repair), so it may
// read right.
func (r *runner) driveCacheLosses(m raid.Mapping, missing []bool, torn sectors) {
	for i, sl := range r.slots {
		if missing[i] {
			continue
		}
		for _, e := range sl.f.Unpersisted() {
			for o := e.Offset / m.StripeUnit * m.StripeUnit; o < e.Offset+e.Length; o += m.StripeUnit {
				lo, hi := max(o, e.Offset), min(o+m.StripeUnit, e.Offset+e.Length)
				if !primary(m, missing, i, o/m.StripeUnit) {
					continue
				}
				if off, ok := m.Logical(raid.Addr{Member: i, Offset: lo}); ok {
					torn.addRange(off, hi-lo)
				}
			}
		}
	}
}

// primary reports whether member i holds the copy of row's data a
// restart keeps: every data member of a parity level, the first copy
// present of a mirror.
func primary(m raid.Mapping, missing []bool, i int, row int64) bool {
	switch m.Level {
	case raid.RAID1:
		for o := range m.Members {
			if !missing[o] {
				return o == i
			}
		}
	case raid.RAID10:
		if f := i &^ 1; !missing[f] {
			return f == i
		}
		return true
	}
	return true
}

// writeHole names torn, in every row a write in flight or a drive
// cache's lost write touched, the data of the members missing there and
// of the members with unreadable sectors there: both are rebuilt from
// parity the row may no longer match.
func (r *runner) writeHole(m raid.Mapping, missing []bool, flying []raid.Extent, torn sectors) {
	rows := map[int64]bool{}
	fs := m.FullStripe()
	for _, e := range flying {
		for s := e.Offset / fs; s*fs < e.Offset+e.Length; s++ {
			rows[s] = true
		}
	}
	for i, sl := range r.slots {
		if !missing[i] {
			for _, e := range sl.f.Unpersisted() {
				for row := e.Offset / m.StripeUnit; row*m.StripeUnit < e.Offset+e.Length; row++ {
					rows[row] = true
				}
			}
		}
	}
	unreadable := func(i int, row int64) bool {
		for _, lba := range r.slots[i].f.BadSectors() {
			if lba*sectorSize/m.StripeUnit == row {
				return true
			}
		}
		return false
	}
	for row := range rows {
		for i := range m.Members {
			if off, ok := m.Logical(raid.Addr{Member: i, Offset: row * m.StripeUnit}); ok && (missing[i] || unreadable(i, row)) {
				torn.addRange(off, m.StripeUnit)
			}
		}
	}
}

// restart builds a new array on copies of the members' surviving bytes
// (their unreadable sectors still unreadable), fails the members missing
// at the power loss, and resyncs it when it can, as md does after an
// unclean shutdown.
func (r *runner) restart(missing []bool) (*raid.Array, *sim.Engine, error) {
	eng := sim.NewEngine(r.s.Seed + 1)
	size := r.s.Rows * r.s.StripeUnit
	devs := make([]sim.Device, r.s.Members)
	mems := make([]*simtest.MemDevice, r.s.Members)
	for i, sl := range r.slots {
		mem, err := simtest.NewMemDevice(eng, simtest.MemConfig{Capacity: size})
		if err != nil {
			return nil, nil, err
		}
		buf := make([]byte, size)
		if _, err := sl.mem.ReadAt(buf, 0); err != nil {
			return nil, nil, err
		}
		if _, err := mem.WriteAt(buf, 0); err != nil {
			return nil, nil, err
		}
		f, err := faults.New(eng, mem, faults.Config{BadSectors: sl.f.BadSectors(), Recovery: faults.TLER}, fmt.Sprintf("restart%d", i))
		if err != nil {
			return nil, nil, err
		}
		devs[i], mems[i] = f, mem
	}
	resync(r.arr.Mapping(), size, mems, missing)
	arr, err := raid.New(eng, raid.Config{Level: r.s.Level, StripeUnit: r.s.StripeUnit}, devs, "md0", nil)
	if err != nil {
		return nil, nil, err
	}
	for i, gone := range missing {
		if gone {
			if err := arr.Fail(i); err != nil {
				return nil, nil, err
			}
		}
	}
	return arr, eng, nil
}

// resync makes the redundancy of the members present agree with their
// data, as md's resync after an unclean shutdown: a parity level's P
// (and Q) recomputed from the data when no member is missing, a mirror's
// copies made equal to the first copy present.
func resync(m raid.Mapping, size int64, mems []*simtest.MemDevice, missing []bool) {
	u := m.StripeUnit
	unit := func(i int, row int64) []byte {
		b := make([]byte, u)
		_, _ = mems[i].ReadAt(b, row*u)
		return b
	}
	put := func(i int, row int64, b []byte) { _, _ = mems[i].WriteAt(b, row*u) }
	for row := range size / u {
		switch m.Level {
		case raid.RAID1, raid.RAID10:
			step, group := m.Members, m.Members
			if m.Level == raid.RAID10 {
				step, group = 2, 2
			}
			for g := 0; g < m.Members; g += step {
				src := -1
				for i := g; i < g+group; i++ {
					if !missing[i] && src < 0 {
						src = i
					} else if !missing[i] {
						put(i, row, unit(src, row))
					}
				}
			}
		case raid.RAID5, raid.RAID6:
			if hasMissing(missing) {
				continue
			}
			resyncParity(m, row, unit, put)
		}
	}
}

func hasMissing(missing []bool) bool {
	for _, b := range missing {
		if b {
			return true
		}
	}
	return false
}

// resyncParity recomputes row's parity from its data.
func resyncParity(m raid.Mapping, row int64, unit func(int, int64) []byte, put func(int, int64, []byte)) {
	n := m.Members
	if m.Level == raid.RAID6 {
		data := make([][]byte, n-2)
		for d := range data {
			data[d] = unit(raid.DataMember6(n, row, d), row)
		}
		p, q := make([]byte, m.StripeUnit), make([]byte, m.StripeUnit)
		raid.Syndromes(data, p, q)
		put(raid.ParityMember(raid.LeftSymmetric, n, row), row, p)
		put(raid.QMember(n, row), row, q)
		return
	}
	p := make([]byte, m.StripeUnit)
	for d := range n - 1 {
		for i, b := range unit(raid.DataMember(m.Layout, n, row, d), row) {
			p[i] ^= b
		}
	}
	put(raid.ParityMember(m.Layout, n, row), row, p)
}
