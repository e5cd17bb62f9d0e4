package oracle

import (
	"strconv"
)

// Runner runs one simulator on a pair.
type Runner func(files map[string]string, spec StreamSpec, recs []Record) Outcome

// Minimizer shrinks a pair on which two simulators disagree to a small
// one on which they still do: fewer requests, fewer zones, no defects,
// overheads and options set to zero, the controller gone, as long as the
// disagreement stays.
type Minimizer struct {
	// Want is the reference (DiskSim), Got the simulator under test.
	Want, Got Runner
	// Budget caps the pairs run (each runs both); 0 means 2000.
	Budget int
	runs   int
}

// Disagree reports whether the two simulators disagree on the pair.
func (mz *Minimizer) Disagree(m *Model, spec StreamSpec, recs []Record) (bool, Verdict) {
	mz.runs++
	files := m.Files()
	v := Compare(mz.Want(files, spec, recs), mz.Got(files, spec, recs))
	return !v.Agree, v
}

func (mz *Minimizer) spent() bool {
	b := mz.Budget
	if b == 0 {
		b = 2000
	}
	return mz.runs >= b
}

// Minimize returns the smallest disagreeing pair it finds from m and
// recs (which must disagree), and the verdict on it.
func (mz *Minimizer) Minimize(m *Model, spec StreamSpec, recs []Record) (*Model, []Record, Verdict) {
	m = m.Clone()
	for changed := true; changed && !mz.spent(); {
		changed = false
		if r, ok := mz.shrinkStream(m, spec, recs); ok {
			recs, changed = r, true
		}
		if mm, ok := mz.shrinkModel(m, spec, recs); ok {
			m, changed = mm, true
		}
	}
	_, v := mz.Disagree(m, spec, recs)
	return m, recs, v
}

// shrinkStream cuts the stream after the first disagreeing request, then
// drops chunks of requests (delta debugging), then makes requests one
// block long.
func (mz *Minimizer) shrinkStream(m *Model, spec StreamSpec, recs []Record) ([]Record, bool) {
	changed := false
	if bad, v := mz.Disagree(m, spec, recs); bad && v.First >= 0 && v.First+1 < len(recs) {
		if ok, _ := mz.Disagree(m, spec, recs[:v.First+1]); ok {
			recs, changed = recs[:v.First+1], true
		}
	}
	for chunk := len(recs) / 2; chunk >= 1 && !mz.spent(); {
		progress := false
		for at := 0; at+chunk <= len(recs) && len(recs) > 1 && !mz.spent(); {
			try := append(append([]Record(nil), recs[:at]...), recs[at+chunk:]...)
			if ok, _ := mz.Disagree(m, spec, try); ok {
				recs, changed, progress = try, true, true
				continue
			}
			at += chunk
		}
		if !progress {
			chunk /= 2
		}
	}
	if low := minBlock(recs); low > 0 && !mz.spent() {
		// the same requests from block 0: earlier zones may then do
		try := append([]Record(nil), recs...)
		for i := range try {
			try[i].Blkno -= low
		}
		if ok, _ := mz.Disagree(m, spec, try); ok {
			recs, changed = try, true
		}
	}
	for i := range recs {
		if recs[i].Bcount == 1 || mz.spent() {
			continue
		}
		try := append([]Record(nil), recs...)
		try[i].Bcount = 1
		if ok, _ := mz.Disagree(m, spec, try); ok {
			recs, changed = try, true
		}
	}
	return recs, changed
}

// shrinkModel tries each simplification of the model once, keeping
// those after which the pair still disagrees.
func (mz *Minimizer) shrinkModel(m *Model, spec StreamSpec, recs []Record) (*Model, bool) {
	changed := false
	try := func(edit func(*Model) bool) {
		if mz.spent() {
			return
		}
		c := m.Clone()
		if !edit(c) {
			return
		}
		if ok, _ := mz.Disagree(c, spec, recs); ok {
			m, changed = c, true
		}
	}
	// fewer zones, from the last
	for len(m.Zones) > 1 {
		before := len(m.Zones)
		try(func(c *Model) bool { return c.dropLastZone() })
		if len(m.Zones) == before {
			break
		}
	}
	for zi := range m.Zones {
		for _, kv := range []KV{{"slips", "[ ]"}, {"defects", "[ ]"}, {"Number of spares", "0"}, {"Empty space at zone front", "0"},
			{"Offset of first block", "0.000000"}, {"Skew for track switch", "0.000000"}, {"Skew for cylinder switch", "0.000000"}} {
			try(func(c *Model) bool { return c.setZone(zi, kv.Key, kv.Val) })
		}
	}
	for _, kv := range m.Disk {
		if kv.Val == "0" || kv.Val == "0.000000" || kv.Val == "0.0" {
			continue
		}
		zero := "0"
		if _, err := strconv.Atoi(kv.Val); err != nil {
			zero = "0.000000"
		}
		switch kv.Key {
		case "Segment size (in blks)", "Number of buffer segments", "Maximum number of write segments", "Avg sectors per cylinder", "Time scale for overheads", "Max queue length":
			continue
		}
		key := kv.Key
		try(func(c *Model) bool { c.Disk = Set(c.Disk, key, zero); return true })
	}
	for _, kv := range []KV{{"Head switch time", "0.000000"}, {"Add. write settling delay", "0.000000"}, {"Percent error in rpms", "0.0"}} {
		if Get(m.Mech, kv.Key) != kv.Val {
			try(func(c *Model) bool { c.Mech = Set(c.Mech, kv.Key, kv.Val); return true })
		}
	}
	if m.Ctlr != nil {
		try(func(c *Model) bool { c.Ctlr, c.TopBus, c.DiskBus = nil, c.DiskBus, nil; return true })
	}
	return m, changed
}

// Clone returns a deep copy of m.
func (m *Model) Clone() *Model {
	c := *m
	cp := func(kvs []KV) []KV { return append([]KV(nil), kvs...) }
	c.Driver, c.DriverSched, c.TopBus, c.DiskBus = cp(m.Driver), cp(m.DriverSched), cp(m.TopBus), cp(m.DiskBus)
	if m.Ctlr != nil {
		c.Ctlr = cp(m.Ctlr)
	}
	c.Disk, c.DiskSched, c.Mech, c.Layout = cp(m.Disk), cp(m.DiskSched), cp(m.Mech), cp(m.Layout)
	c.Curve = append([][2]float64(nil), m.Curve...)
	c.Zones = make([]Zone, len(m.Zones))
	for i, z := range m.Zones {
		c.Zones[i] = Zone{KV: cp(z.KV)}
	}
	return &c
}

// dropLastZone removes the last zone, ending the disk's cylinders and
// blocks with the zone before it.
func (m *Model) dropLastZone() bool {
	if len(m.Zones) < 2 {
		return false
	}
	m.Zones = m.Zones[:len(m.Zones)-1]
	last, _ := strconv.Atoi(Get(m.Zones[len(m.Zones)-1].KV, "Last cylinder number"))
	m.Cyls = last + 1
	total := 0
	for _, z := range m.Zones {
		total += m.slotsOf(z)
	}
	m.BlockCount = total
	return true
}

func (m *Model) setZone(zi int, key, val string) bool {
	if Get(m.Zones[zi].KV, key) == val {
		return false
	}
	m.Zones[zi].KV = Set(m.Zones[zi].KV, key, val)
	return true
}

func minBlock(recs []Record) int {
	low := -1
	for _, r := range recs {
		if low < 0 || r.Blkno < low {
			low = r.Blkno
		}
	}
	return max(low, 0)
}
