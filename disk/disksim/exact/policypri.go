package exact

import "math"

// PRI_VSCAN_LBN (19), as src/disksim_ioqueue.c computes it
// (ioqueue_get_request_from_pri_lbn_vscan_queue). The queue keeps its
// list in arrival order (ioqueue_add_new_request inserts FCFS-style for
// it) and hands out the ready request of highest effective priority:
// the disk's block count less its distance in blocks from the last
// block, plus a share of the block count for its priority level, plus
// its age. The source reads three of the queue's parameters for it,
// under names of other schemes:
//
//   - "Timeout scheduling" (the timeout subqueue's policy) chooses the
//     distance: CYCLE_LBN (3) measures upwards, wrapping; ELEVATOR_LBN
//     (2) adds the block count to turning back; SSTF_LBN (4) and every
//     other value add the queue's vscan_cyls, which DiskSim 4.0 never
//     sets (0);
//   - "Priority scheduling" (the priority subqueue's policy) is the
//     priority factor, percent of the block count per priority level;
//     the level (ioqueue_get_priority_level with priority_mix, which
//     disksim_ioqueue_loadparams sets to 1) is 1 for a read or a
//     TIME_CRITICAL request, else 0: the traces exact mode replays
//     carry no TIME_CRITICAL flag;
//   - "Timeout time/weight" is the age factor: factor times the whole
//     ms since the request's start time, /1280. A request not yet
//     started has start time -1, so its age is the simulated time plus
//     1 ms, the same for all such requests.
//
// The arithmetic is C's 32-bit int, truncating, as the source's.

// priState is a queue's PRI_VSCAN_LBN parameters.
type priState struct {
	timeoutPolicy int32 // "Timeout scheduling"
	priFactor     int32 // "Priority scheduling"
	ageFactor     int32 // "Timeout time/weight"
	// clock is the simulated time, ms (nil: 0)
	clock *float64
}

// priState returns q's PRI_VSCAN_LBN parameters with the clock at now.
func (q *Queue) priState(now *float64) priState {
	return priState{timeoutPolicy: int32(q.TimeoutPolicy), priFactor: int32(q.PriorityFactor), ageFactor: int32(q.AgeFactor), clock: now}
}

// cInt is C's (int) conversion of a double on the reference build (x87
// fistp with truncation): out of range it gives the integer indefinite.
func cInt(x float64) int32 {
	if math.IsNaN(x) || x >= 1<<31 || x <= -(1<<31)-1 {
		return math.MinInt32
	}
	return int32(x)
}

// priLevel is ioqueue_get_priority_level with priority_mix 1.
func priLevel(b *iobuf) int32 {
	if b.flags&flagRead != 0 {
		return 1
	}
	return 0
}

// pickPriVScan is ioqueue_get_request_from_pri_lbn_vscan_queue, with
// numlbns the disk's block count and vscan_value the queue's
// vscan_cyls (0).
func (q *ioqueue) pickPriVScan() *iobuf {
	numLBNs := int32(q.numBlocks)
	vscan := int32(0)
	if q.timeoutPolicy == schedElevatorLBN {
		vscan = numLBNs
	}
	now := 0.0
	if q.clock != nil {
		now = *q.clock
	}
	var best *iobuf
	var bestPri int32
	t := q.list.next
	for i := 0; i < q.iobufCnt; i++ {
		if q.readyToGo(t) {
			pri := numLBNs - q.priDistance(t, numLBNs, vscan)
			pri += q.priFactor * numLBNs * priLevel(t) / 100
			pri += q.ageFactor * cInt(now-t.startTime) / 1280
			if best == nil || pri > bestPri {
				best, bestPri = t, pri
			}
		}
		t = t.next
	}
	return best
}

// priDistance is the distance in blocks pickPriVScan measures from the
// last block to t.
func (q *ioqueue) priDistance(t *iobuf, numLBNs, vscan int32) int32 {
	d := int32(t.blkno) - int32(q.lastBlk)
	switch {
	case q.timeoutPolicy == schedCycleLBN:
		if d < 0 {
			d += numLBNs
		}
	case d < 0:
		d = -d
		if q.dir == dirAsc {
			d += vscan
		}
	case d > 0 && q.dir == dirDesc:
		d += vscan
	}
	return d
}
