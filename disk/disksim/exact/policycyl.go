package exact

// The ioqueue's scheduling policies that order requests by cylinder,
// as src/disksim_ioqueue.c computes them. A queue under one of them
// keeps its list sorted by cylinder, surface and block number, each
// request mapped when it enters the queue by the queue's cylinder
// mapping strategy (ioqueue_get_cylinder_mapping, cylinderOf below),
// and remembers the cylinder and surface of the block it last measured
// from.

// Cylinder policies (disksim_ioqueue.h).
const (
	schedElevatorCyl = 5
	schedCycleCyl    = 6
	schedSSTFCyl     = 7
	schedVScanCyl    = 18
)

// Cylinder mapping strategies (the ioqueue's "Cylinder mapping
// strategy", dm_layout_maptype's values: MAP_NONE 0, MAP_IGNORESPARING
// 1, MAP_ZONEONLY 2, MAP_ADDSLIPS 3, MAP_FULL 4, MAP_FROMTRACE 5,
// MAP_AVGCYLMAP 6).
const (
	cylMapNone = 0
	// cylMapDevice is the highest strategy ioqueue_get_cylinder_mapping
	// passes to device_get_mapping (1-4).
	cylMapDevice = 4
	// cylMapAvg (MAP_AVGCYLMAP) divides by a count DiskSim 4.0 never
	// sets: the first request stops the run.
	cylMapAvg = 6
)

// cylinderPolicy reports whether policy n orders by cylinder.
func cylinderPolicy(n int) bool {
	switch n {
	case schedElevatorCyl, schedSSTFCyl, schedCycleCyl, schedVScanCyl:
		return true
	}
	return false
}

// ValidCylinderMapping reports whether DiskSim 4.0 runs a queue with
// cylinder mapping strategy cylMap: ioqueue_get_cylinder_mapping knows
// 0-6 and exits on any other value ("Unknown cylinder mapping type"),
// which it meets for every policy when it hands a request out
// (ioqueue_get_next_request_from_subqueue and
// ioqueue_get_specific_request_from_subqueue map the last block by the
// queue's strategy). Exact mode simulates all seven (cylinderOf).
func ValidCylinderMapping(cylMap int) bool {
	return cylMap >= cylMapNone && cylMap <= cylMapAvg
}

// cylState is a subqueue's memory for the cylinder policies.
type cylState struct {
	lastCyl, lastSurface int // lastcylno, lastsurface
	numCyls              int // device_get_numcyls
	// mapping, when set, maps a block to its cylinder and surface
	// (strategies 1-4); unset, every block is on cylinder 0, surface 0.
	mapping func(lbn int) (cyl, surface int)
}

// cylinderOf maps lbn by the queue's strategy
// (ioqueue_get_cylinder_mapping).
func (q *ioqueue) cylinderOf(lbn int) (cyl, surface int) {
	if q.mapping == nil {
		return 0, 0
	}
	return q.mapping(lbn)
}

// before reports whether a sorts before b in a cylinder-ordered list.
func before(a, b *iobuf) bool {
	if a.cylinder != b.cylinder {
		return a.cylinder < b.cylinder
	}
	if a.surface != b.surface {
		return a.surface < b.surface
	}
	return a.blkno < b.blkno
}

// onCylinder is ioqueue_identify_request_on_cylinder (surfoverforw is
// never set): the first ready iobuf on the last cylinder at or after
// the last block, else the first on the next cylinder up.
func (q *ioqueue) onCylinder() *iobuf {
	head := q.list.next
	t := head
	if head.cylinder < q.lastCyl && q.lastCyl <= q.list.cylinder {
		for t.next != head && q.lastCyl > t.next.cylinder {
			t = t.next
		}
		t = t.next
	}
	if t.cylinder != q.lastCyl {
		return t
	}
	cylStop := t
	for t.next != head && q.lastCyl == t.next.cylinder && q.lastSurface > t.surface {
		t = t.next
	}
	if q.lastSurface <= t.surface {
		for t.next != head && q.lastCyl == t.next.cylinder && (!q.readyToGo(t) || t.blkno < q.lastBlk) {
			t = t.next
		}
		if q.readyToGo(t) && t.blkno >= q.lastBlk {
			return t
		}
	}
	t = cylStop
	if !q.readyToGo(t) {
		for !q.readyToGo(t) && t.next != head && t.next.cylinder == q.lastCyl {
			t = t.next
		}
		t = t.next
	}
	return t
}

// pickCylScan is ioqueue_get_request_from_cyl_scan_queue (CYCLE_CYL).
func (q *ioqueue) pickCylScan() *iobuf {
	t := q.list.next
	if q.lastCyl >= t.cylinder {
		t = q.onCylinder()
	}
	stop := t
	for !q.readyToGo(t) && t.next != stop {
		t = t.next
	}
	if t.next == stop && !q.readyToGo(t) {
		return nil
	}
	return t
}

// cylBottom finds the candidate below the last block for pickCylVScan
// from t, the last iobuf below it: the first ready one on its cylinder
// unless the last cylinder has a ready request (best).
func (q *ioqueue) cylBottom(t, head *iobuf, best bool) *iobuf {
	bottom := t
	for bottom != head && !q.readyToGo(bottom) {
		bottom = bottom.prev
	}
	if q.readyToGo(bottom) && !best {
		for bottom != head && bottom.prev.cylinder == bottom.cylinder {
			bottom = bottom.prev
		}
		for bottom != t && !q.readyToGo(bottom) {
			bottom = bottom.next
		}
	}
	return bottom
}

// pickCylVScan is ioqueue_get_request_from_cyl_vscan_queue: a ready
// request on the last cylinder, else the nearer by cylinders of the
// candidates above and below the last block, where turning back costs
// value cylinders more (ELEVATOR_CYL: the disk's cylinders; SSTF_CYL
// and VSCAN_CYL: 0). Ties alternate.
func (q *ioqueue) pickCylVScan(value int) *iobuf {
	head := q.list.next
	t := head
	best := q.onCylinder()
	if !q.readyToGo(best) || best.cylinder != q.lastCyl {
		best = nil
	}
	for t.next != head && q.lastBlk > t.next.blkno {
		t = t.next
	}
	var top, bottom, bottom2 *iobuf
	if t.blkno < q.lastBlk {
		bottom = q.cylBottom(t, head, best != nil)
		bottom2 = t
	}
	top = q.above(t, head)
	switch {
	case best != nil:
		t = best
	case top == nil || !q.readyToGo(top):
		t = bottom
	case bottom == nil || !q.readyToGo(bottom):
		t = top
	default:
		t = q.nearerCyl(top, bottom, value)
	}
	if t == nil {
		// the source reads temp->cylinder of a NULL temp here
		abortf("no ready request above or below block %d: DiskSim dereferences NULL (ioqueue_get_request_from_cyl_vscan_queue)", q.lastBlk)
	}
	if t.cylinder != q.lastCyl {
		q.dir = dirDesc
		if t.cylinder > q.lastCyl {
			q.dir = dirAsc
		}
	}
	// the source tests top and the one below (for its mapping-penalty
	// statistic only); the enablement function runs again
	if top != nil {
		q.readyToGo(top)
	}
	if bottom2 != nil {
		q.readyToGo(bottom2)
	}
	return t
}

// nearerCyl chooses between top and bottom, both ready, for
// pickCylVScan: the turn back always costs value more.
func (q *ioqueue) nearerCyl(top, bottom *iobuf, value int) *iobuf {
	d1 := absInt(top.cylinder - q.lastCyl)
	d2 := absInt(q.lastCyl - bottom.cylinder)
	if q.dir == dirAsc {
		d2 += value
	} else {
		d1 += value
	}
	return q.tieBreak(top, bottom, d1, d2)
}

// cylState returns a queue's cylinder state under strategy cylMap,
// its mapping what DiskSim 4.0 computes (ioqueue_get_cylinder_mapping):
//
//   - 0 (MAP_NONE): every block on cylinder 0, surface 0;
//   - 1-4: device_get_mapping(cylMap, devno, blkno, ...), which is
//     src/disksim_disk.c:disk_get_mapping, "an alias for
//     dm_translate_ltop": it calls d->layout->dm_translate_ltop(d,
//     maptype, lbn, &pbn, 0), the block number and the map type
//     swapped against the layout's (d, lbn, maptype, result,
//     remapsector) (diskmodel/layout_g1.c's g1_ltop_*). The binary does
//     the same (disk_get_mapping at 0x08077d47, disksim_disk.c:1133,
//     pushes 0, &pbn, lbn, maptype, d: maptype lands in the lbn
//     argument). So every block maps to where LBN cylMap lies, as
//     translated under the map type equal to the block number: with
//     the zone's slips for blocks 3 (MAP_ADDSLIPS) and 4 (MAP_FULL),
//     its defects for block 4 too, neither for any other block. Under
//     strategy 4 nearly every request is on LBN 4's cylinder and
//     surface (cylinder 0 but for empty space or slips at the front);
//   - 5 (MAP_FROMTRACE): the request's buf pointer as a cylinder, which
//     both trace readers set to 0 (src/disksim_iotrace.c,
//     iotrace_ascii_get_ioreq_event and
//     iotrace_validate_get_ioreq_event: new->buf = 0), surface 0;
//   - 6 (MAP_AVGCYLMAP): divides by zero (Sim.enqueue stops the run).
func (l *layout) cylState(cylMap int) cylState {
	c := cylState{numCyls: l.cylinders}
	if cylMap > cylMapNone && cylMap <= cylMapDevice {
		c.mapping = func(blkno int) (int, int) {
			// the swapped arguments of disk_get_mapping
			p, _ := l.toPhysAs(cylMap, mapType(blkno))
			return p.cyl, p.head
		}
	}
	return c
}
