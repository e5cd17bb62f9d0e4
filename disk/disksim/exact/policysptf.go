package exact

// The ioqueue's positional scheduling policies, as src/disksim_ioqueue.c
// computes them: each ready request is priced by the device's estimate
// of its positioning time (device_get_servtime, with the queue's read
// or write initiation delay added and, for some, the request's age
// weighed in), its seek (device_get_seektime) or its seek distance
// (device_get_distance), and the cheapest is chosen. A queue under one
// of them keeps its list sorted by the cylinder and surface of its
// cylinder mapping strategy, then block number; the price list runs
// from the list's head, and the first of equal prices wins unless the
// policy says otherwise.

// Positional scheduling policies (disksim_ioqueue.h).
const (
	schedSPTF           = 8
	schedSPCTF          = 9
	schedSATF           = 10
	schedWPTF           = 11
	schedWPCTF          = 12
	schedWATF           = 13
	schedASPTF          = 14
	schedASPCTF         = 15
	schedASATF          = 16
	schedPriASPTF       = 20
	schedPriASPCTF      = 21
	schedSDFApprox      = 22
	schedSDFExact       = 23
	schedSPTFRotOpt     = 24
	schedSPTFRotWeight  = 25
	schedSPTFSeekWeight = 26
	schedTSPS           = 27
)

// Request flags the priority-aged policies test (disksim_global.h).
const (
	flagTimeCritical = 0x2
	flagTimeLimited  = 0x4
)

// latencyWeight is the ioqueue's latency_weight, which the
// SPTF_ROT_OPT, SPTF_ROT_WEIGHT and SPTF_SEEK_WEIGHT policies weigh
// rotation by: no parameter loads it, so it stays as calloc leaves it.
const latencyWeight = 0.0

// noPrice is the price every positional policy starts from
// (mintime = 100000.0), ms.
const noPrice = 100000.0

// sptfVariant is how ioqueue_get_request_from_opt_sptf_queue prices
// requests for one policy.
type sptfVariant struct {
	checkCache bool // ask the buffer first (the "C" policies)
	ageWeight  int  // 0 none, 1 scale by age, 2 subtract age, 3 subtract age when critical
	posOnly    bool // positioning time; false asks for the access time
}

var sptfVariants = map[int]sptfVariant{
	schedSPTF:      {false, 0, true},
	schedSPCTF:     {true, 0, true},
	schedSATF:      {false, 0, false},
	schedWPTF:      {false, 1, true},
	schedWPCTF:     {true, 1, true},
	schedWATF:      {false, 1, false},
	schedASPTF:     {false, 2, true},
	schedASPCTF:    {true, 2, true},
	schedASATF:     {false, 2, false},
	schedPriASPTF:  {false, 3, true},
	schedPriASPCTF: {true, 3, true},
}

// positionalPolicy reports whether policy n prices requests by the
// device's estimates.
func positionalPolicy(n int) bool {
	return (n >= schedSPTF && n <= schedASATF) || (n >= schedPriASPTF && n <= schedTSPS)
}

// posState is a subqueue's memory for the positional policies.
type posState struct {
	est estimator // the device the queue schedules for
	// readDelay and writeDelay are the queue's "Read initiation delay"
	// and "Write initiation delay", ms, added to every price.
	readDelay, writeDelay float64
	// weight is the "Timeout time/weight" the aged policies use.
	weight float64
}

// pickPositional chooses among two or more iobufs by a positional
// policy.
func (q *ioqueue) pickPositional() *iobuf {
	switch q.sched {
	case schedSPTFRotOpt:
		return q.pickRotOpt()
	case schedSPTFRotWeight:
		return q.pickRotWeight()
	case schedSPTFSeekWeight:
		return q.pickSeekWeight()
	case schedSDFApprox:
		return q.pickSDF(q.lastBlk)
	case schedSDFExact:
		return q.pickSDF(-1)
	case schedTSPS:
		// ioqueue_get_request_from_opt_tsps_queue prices each order
		// of up to ten requests from device_get_acctime, which
		// asserts; with none ready it aborts on its own
		q.est.accTime()
		return nil
	}
	return q.pickSPTF(sptfVariants[q.sched])
}

// priceable reports whether a positional policy prices t: ready to go
// and, under a sequential stream scheme, the head of its stream
// (READY_TO_GO && ioqueue_seqstream_head, in that order).
func (q *ioqueue) priceable(t *iobuf) bool {
	return q.readyToGo(t) && q.seqHead(q.list.next, t)
}

// initiation returns the delay the queue adds to t's price, less t's
// age where the variant subtracts it, and t's age (0 unless the
// variant weighs it), ms.
func (q *ioqueue) initiation(t *iobuf, ageWeight int) (delay, age float64) {
	delay = q.writeDelay
	if t.flags&flagRead != 0 {
		delay = q.readDelay
	}
	if ageWeight != 0 {
		oldest := t.iolist.time
		for r := t.iolist; r != nil; r = r.next {
			if r.time < oldest {
				oldest = r.time
			}
		}
		age = q.est.simTime() - oldest
	}
	if ageWeight == 2 || (ageWeight == 3 && t.flags&(flagTimeCritical|flagTimeLimited) != 0) {
		delay -= age * q.weight * 0.001
	}
	return delay, age
}

// pickSPTF is ioqueue_get_request_from_opt_sptf_queue: the ready
// request of the least price; a request whose seek alone reaches the
// best price so far is priced past it.
func (q *ioqueue) pickSPTF(v sptfVariant) *iobuf {
	var best *iobuf
	minTime := noPrice
	t := q.list.next
	for i := 0; i < q.listLen; i, t = i+1, t.next {
		if !q.priceable(t) {
			continue
		}
		delay, age := q.initiation(t, v.ageWeight)
		if !(delay < minTime) {
			continue
		}
		if v.posOnly {
			delay += q.est.servTime(t.blkno, t.totalSize, t.flags, v.checkCache, minTime-delay)
		} else {
			delay += q.est.accTime()
		}
		if v.ageWeight == 1 {
			delay *= (q.weight - age) / q.weight
		}
		if delay < minTime {
			best, minTime = t, delay
		}
	}
	return best
}

// pickRotOpt is ioqueue_get_request_from_opt_sptf_rot_weight_queue
// (SPTF_ROT_OPT): SPTF_OPT crediting latency_weight of each request's
// rotational latency.
func (q *ioqueue) pickRotOpt() *iobuf {
	var best *iobuf
	minTime, minSubtract := noPrice, 0.0
	t := q.list.next
	for i := 0; i < q.listLen; i, t = i+1, t.next {
		if !q.priceable(t) {
			continue
		}
		delay, _ := q.initiation(t, 0)
		if !(delay < minTime) {
			continue
		}
		serv := q.est.servTime(t.blkno, t.totalSize, t.flags, false, minTime-delay)
		seek := q.est.seekTime(t.blkno, t.flags, minTime-delay)
		delay += serv
		credit := (serv - seek) * latencyWeight
		if delay-credit < minTime-minSubtract {
			best, minTime, minSubtract = t, delay, credit
		}
	}
	return best
}

// rotWeightPrice prices t for SPTF_ROT_WEIGHT and SPTF_SEEK_WEIGHT,
// whose best price never moves from noPrice: its price, its
// positioning and seek estimates, and whether it is priced at all.
func (q *ioqueue) rotWeightPrice(t *iobuf, withSeek bool) (delay, serv, seek float64, ok bool) {
	if !q.priceable(t) {
		return 0, 0, 0, false
	}
	delay, _ = q.initiation(t, 0)
	if !(delay < noPrice) {
		return 0, 0, 0, false
	}
	serv = q.est.servTime(t.blkno, t.totalSize, t.flags, false, noPrice-delay)
	if withSeek {
		seek = q.est.seekTime(t.blkno, t.flags, noPrice-delay)
	}
	return delay + serv, serv, seek, true
}

// pickRotWeight is ioqueue_get_request_from_opt_sptf_weight_queue
// (SPTF_ROT_WEIGHT): a first pass finds the least price; a second,
// pricing every request again, takes among those within
// latency_weight of it the one with the most rotational latency, the
// last of equals.
func (q *ioqueue) pickRotWeight() *iobuf {
	least := noPrice
	t := q.list.next
	for i := 0; i < q.listLen; i, t = i+1, t.next {
		if delay, _, _, ok := q.rotWeightPrice(t, false); ok && delay < least {
			least = delay
		}
	}
	var best *iobuf
	maxRot := 0.0
	t = q.list.next
	for i := 0; i < q.listLen; i, t = i+1, t.next {
		delay, serv, seek, ok := q.rotWeightPrice(t, true)
		if ok && delay <= least*(1+latencyWeight) && serv-seek >= maxRot {
			best, maxRot = t, serv-seek
		}
	}
	return best
}

// pickSeekWeight is ioqueue_get_request_from_opt_sptf_seek_weight_queue
// (SPTF_SEEK_WEIGHT): in one pass, a request within latency_weight of
// the least price so far is taken when its seek is shorter than the
// taken one's.
func (q *ioqueue) pickSeekWeight() *iobuf {
	var best *iobuf
	least, minSeek := noPrice, noPrice
	t := q.list.next
	for i := 0; i < q.listLen; i, t = i+1, t.next {
		delay, _, seek, ok := q.rotWeightPrice(t, true)
		if !ok {
			continue
		}
		if delay < least {
			least = delay
		}
		if delay <= least*(1+latencyWeight) && seek < minSeek {
			best, minSeek = t, seek
		}
	}
	return best
}

// pickSDF is ioqueue_get_request_from_sdf_queue without direction: the
// ready request the fewest cylinders from block from (SDF_APPROX: the
// queue's last block) or, for -1, from the arm (SDF_EXACT); the first
// of equals.
func (q *ioqueue) pickSDF(from int) *iobuf {
	var best *iobuf
	least := 1000000
	t := q.list.next
	for i := 0; i < q.listLen; i, t = i+1, t.next {
		if !q.priceable(t) {
			continue
		}
		if d := q.est.distance(t.blkno, from); d < least {
			best, least = t, d
		}
	}
	return best
}

// posState returns the positional policies' state for a queue q in
// front of the simulated disk.
func (s *Sim) posState(q Queue) posState {
	return posState{est: s, readDelay: q.ReadDelay, writeDelay: q.WriteDelay, weight: float64(q.AgeFactor)}
}
