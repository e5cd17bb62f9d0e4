package exact

import "fmt"

// The ioqueue's scheduling policies that order requests by logical
// block number, as src/disksim_ioqueue.c computes them. A queue under
// one of them keeps its list sorted by block number (the cylinder and
// surface the source also compares are 0: it maps these policies'
// requests with MAP_NONE), and remembers the last block handed out and
// the direction of travel.

// Scheduling policies (disksim_ioqueue.h).
const (
	schedFCFS        = 1
	schedElevatorLBN = 2
	schedCycleLBN    = 3
	schedSSTFLBN     = 4
	schedVScanLBN    = 17
	schedPriVScanLBN = 19
)

// Directions of travel (ASC and DESC).
const (
	dirAsc  = 1
	dirDesc = 2
)

// SimulatedPolicies lists the scheduling policies SimulatedPolicy
// accepts, for error messages.
const SimulatedPolicies = "1 FCFS, 2 ELEVATOR_LBN, 3 CYCLE_LBN, 4 SSTF_LBN, 5 ELEVATOR_CYL, 6 CYCLE_CYL, 7 SSTF_CYL, " +
	"8-16 SPTF_OPT to ASATF_OPT, 17 VSCAN_LBN, 18 VSCAN_CYL, 19 PRI_VSCAN_LBN, 20 PRI_ASPTF_OPT, 21 PRI_ASPCTF_OPT, " +
	"22 SDF_APPROX, 23 SDF_EXACT, 24 SPTF_ROT_OPT, 25 SPTF_ROT_WEIGHT, 26 SPTF_SEEK_WEIGHT, 27 TSPS"

// schedBatchFCFS is BATCH_FCFS (disksim_ioqueue.h).
const schedBatchFCFS = 28

// PolicyRefusal says why exact mode does not simulate scheduling
// policy n, or "" when it does.
func PolicyRefusal(n int) string {
	switch {
	case SimulatedPolicy(n):
		return ""
	case n == schedBatchFCFS:
		// READY_TO_GO wants iobuf->batch_complete under BATCH_FCFS;
		// only iotrace_batch_get_ioreq_event sets it, and getfromextraq
		// clears nothing but an event's links
		return "BATCH_FCFS hands out a request only once its batch is complete (READY_TO_GO), which only DiskSim's batch trace format records; the ASCII and validate trace readers leave a request's batch number and batch_complete flag as DiskSim's recycled event memory holds them (getfromextraq clears only the links), so DiskSim's order depends on its allocator (on a generated ASCII stream it completed none of 2,009 requests): exact mode does not model it"
	}
	return fmt.Sprintf("exact mode does not model it yet (it simulates %s)", SimulatedPolicies)
}

// SimulatedPolicy reports whether exact mode simulates scheduling
// policy n (the ioqueue's "Scheduling policy") as DiskSim 4.0 does.
func SimulatedPolicy(n int) bool {
	switch n {
	case schedFCFS, schedElevatorLBN, schedCycleLBN, schedSSTFLBN, schedVScanLBN,
		schedElevatorCyl, schedSSTFCyl, schedCycleCyl, schedVScanCyl, schedPriVScanLBN:
		return true
	}
	return positionalPolicy(n)
}

// lbnState is a subqueue's memory for the LBN policies.
type lbnState struct {
	lastBlk    int  // lastblkno
	dir        int  // dir: dirAsc or dirDesc (ASC initially)
	sstfUpDown bool // sstfupdown: which way the next tie goes
	numBlocks  int  // the device's block count (device_get_number_of_blocks)
}

// insertOrdered puts b into the list sorted by cylinder, surface and
// block number, after any equal ones (ioqueue_insert_ordered_to_queue;
// the LBN policies' cylinders and surfaces are 0). The list is not
// empty.
func (q *ioqueue) insertOrdered(b *iobuf) {
	head := q.list.next
	switch {
	case before(b, head):
		b.next, b.prev = head, q.list
		head.prev = b
		q.list.next = b
	case !before(b, q.list):
		b.next, b.prev = head, q.list
		head.prev = b
		q.list.next = b
		q.list = b
	default:
		run := head
		for !before(b, run.next) {
			run = run.next
		}
		b.next, b.prev = run.next, run
		b.next.prev = b
		run.next = b
	}
}

// pick chooses among two or more iobufs by the queue's policy.
func (q *ioqueue) pick() *iobuf {
	switch q.sched {
	case schedElevatorLBN:
		return q.pickLBNVScan(q.numBlocks)
	case schedCycleLBN:
		return q.pickLBNScan()
	case schedPriVScanLBN:
		return q.pickPriVScan()
	case schedSSTFLBN, schedVScanLBN:
		// VSCAN_LBN's value is the queue's vscan_cyls, which DiskSim 4.0
		// never sets (its computation in ioqueue_subqueue_initialize is
		// commented out): 0, as for SSTF_LBN.
		return q.pickLBNVScan(0)
	case schedElevatorCyl:
		return q.pickCylVScan(q.numCyls)
	case schedCycleCyl:
		return q.pickCylScan()
	case schedSSTFCyl, schedVScanCyl:
		// VSCAN_CYL's value is vscan_cyls, never set: 0
		return q.pickCylVScan(0)
	}
	if positionalPolicy(q.sched) {
		return q.pickPositional()
	}
	return q.chooseFCFS()
}

// singleDirection is the direction update ioqueue_get_next_request
// makes when the queue holds a single iobuf.
func (q *ioqueue) singleDirection(t *iobuf) {
	switch q.sched {
	case schedElevatorLBN, schedVScanLBN, schedPriVScanLBN:
		if q.lastBlk != t.blkno {
			q.dir = dirDesc
			if q.lastBlk < t.blkno {
				q.dir = dirAsc
			}
		}
	case schedElevatorCyl, schedVScanCyl:
		if q.lastCyl != t.cylinder {
			q.dir = dirDesc
			if q.lastCyl < t.cylinder {
				q.dir = dirAsc
			}
		}
	}
}

// setLast records the block the queue's policy measures from after
// handing out t (the switch in ioqueue_get_next_request_from_subqueue
// and ioqueue_get_specific_request_from_subqueue), and for the
// cylinder policies its cylinder and surface.
func (q *ioqueue) setLast(t *iobuf) {
	switch q.sched {
	case schedElevatorLBN, schedCycleLBN, schedPriVScanLBN, schedElevatorCyl, schedCycleCyl:
		q.lastBlk = t.blkno
	case schedSSTFLBN, schedVScanLBN:
		// VSCAN_LBN with vscan_cyls 0 falls through to SSTF_LBN's case
		q.lastBlk = t.blkno + t.totalSize
	case schedVScanCyl:
		// with vscan_cyls 0 the source's switch passes over VSCAN_CYL
		// in SSTF_LBN's case and leaves the last block as it was
	default:
		q.lastBlk = t.blkno + t.totalSize - 1
	}
	if cylinderPolicy(q.sched) {
		q.lastCyl, q.lastSurface = q.cylinderOf(q.lastBlk)
	}
}

// pickLBNScan is ioqueue_get_request_from_lbn_scan_queue (CYCLE_LBN):
// the first ready iobuf at or after the last block, wrapping around.
func (q *ioqueue) pickLBNScan() *iobuf {
	t := q.list.next
	stop := t
	if q.lastBlk > t.blkno {
		for t.next != stop && q.lastBlk > t.next.blkno {
			t = t.next
		}
		t = t.next
	}
	stop = t
	for t.next != stop && !q.readyToGo(t) {
		t = t.next
	}
	if t.next == stop && !q.readyToGo(t) {
		return nil
	}
	return t
}

// lbnBottom finds the nearest ready iobuf below the last block, from
// t, the last one below it (the bottom half of
// ioqueue_get_request_from_lbn_vscan_queue).
func (q *ioqueue) lbnBottom(t, head *iobuf) *iobuf {
	bottom := t
	for bottom != head && !q.readyToGo(bottom) {
		bottom = bottom.prev
	}
	if bottom == head && !q.readyToGo(bottom) {
		return nil
	}
	best := bottom
	for bottom != head && (bottom.prev.blkno == best.blkno || !q.seqHead(head, bottom)) {
		bottom = bottom.prev
		if q.readyToGo(bottom) {
			best = bottom
		}
	}
	return best
}

// pickLBNVScan is ioqueue_get_request_from_lbn_vscan_queue: the nearer
// of the nearest ready iobufs above and below the last block, where
// turning back costs value blocks more (ELEVATOR_LBN: the disk's
// size; SSTF_LBN: 0). Ties alternate.
func (q *ioqueue) pickLBNVScan(value int) *iobuf {
	head := q.list.next
	t := head
	var top, bottom *iobuf
	for t.next != head && q.lastBlk > t.next.blkno {
		t = t.next
	}
	if t.blkno < q.lastBlk {
		bottom = q.lbnBottom(t, head)
	}
	top = q.above(t, head)
	switch {
	case top == nil || !q.readyToGo(top) || !q.seqHead(head, top):
		t = bottom
	case bottom == nil || !q.readyToGo(bottom):
		t = top
	default:
		t = q.nearer(top, bottom, value)
	}
	if t == nil {
		// the source reads temp->blkno of a NULL temp here
		abortf("no ready request above or below block %d: DiskSim dereferences NULL (ioqueue_get_request_from_lbn_vscan_queue)", q.lastBlk)
	}
	if t.blkno != q.lastBlk {
		q.dir = dirDesc
		if t.blkno > q.lastBlk {
			q.dir = dirAsc
		}
	}
	other := top
	if t == top {
		other = bottom
	}
	if other != nil {
		// the source tests the other one (for its mapping-penalty
		// statistic only); the enablement function runs again
		q.readyToGo(other)
	}
	return t
}

// nearer chooses between top and bottom, both ready, for pickLBNVScan.
func (q *ioqueue) nearer(top, bottom *iobuf, value int) *iobuf {
	d1 := absInt(top.blkno - q.lastBlk) // diff()
	d2 := absInt(q.lastBlk - bottom.blkno)
	if q.dir == dirAsc {
		if d2 != 0 {
			d2 += value
		}
	} else if d1 != 0 {
		d1 += value
	}
	return q.tieBreak(top, bottom, d1, d2)
}

// above returns the candidate at or above the last block, from t, the
// last iobuf below it (or the head): the first ready one up to the
// list's end, else the last; nil when t is the last.
func (q *ioqueue) above(t, head *iobuf) *iobuf {
	if t.next == head {
		return nil
	}
	top := t
	if t.blkno < q.lastBlk {
		top = t.next
	}
	for top.next != head && !q.readyToGo(top) {
		top = top.next
	}
	return top
}

// tieBreak takes top (d1 away) or bottom (d2 away), whichever is
// nearer; a tie goes the way sstfupdown says and flips it.
func (q *ioqueue) tieBreak(top, bottom *iobuf, d1, d2 int) *iobuf {
	t := top
	if d1 > d2 || (d1 == d2 && q.sstfUpDown) {
		t = bottom
	}
	if d1 == d2 {
		q.sstfUpDown = !q.sstfUpDown
	}
	return t
}

func absInt(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
