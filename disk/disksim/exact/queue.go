package exact

import "fmt"

// An ioqueue as src/disksim_ioqueue.c keeps one: a circular list of
// iobufs (queued requests, possibly concatenated), each WAITING or
// PENDING (handed to the device). Only the base subqueue is modelled:
// the timeout subqueue stays empty (DiskSim's loader ignores the
// timeout scheme, and only the process-flow simulator's clock ticks the
// queues, ioqueue_tick), and so does the priority subqueue (a Request
// is never time-critical or time-limited; see Queue.PriorityScheme).

const (
	iobWaiting = 0
	iobPending = 1
)

// Priority schemes (disksim_ioqueue.c).
const (
	priAllEqual = 0
	priTwoQueue = 1
)

// badPriScheme reports whether DiskSim exits at the first request a
// queue with priority scheme n takes (ioqueue_add_new_request).
func badPriScheme(n int) bool { return n != priAllEqual && n != priTwoQueue }

// iobuf is one queue entry.
type iobuf struct {
	startTime  float64
	state      int
	next, prev *iobuf
	totalSize  int
	blkno      int
	cylinder   int // by the queue's cylinder mapping strategy
	surface    int
	flags      int
	iolist     *event
	reqCnt     int
	opid       int
	arrival    float64 // iob_un.time once handed out
	concat     *event  // iob_un.pend.concat: the request shown for a concatenation
}

// ioqueue is a device's or driver's queue of requests.
type ioqueue struct {
	list           *iobuf // the last inserted; list.next is the head
	iobufCnt       int
	reqOutstanding int
	listLen        int
	numOutstanding int
	current        *iobuf
	sched          int
	absoluteFCFS   bool
	divZero        bool // cylinder mapping 6: adding a request stops DiskSim
	badPriScheme   bool // a priority scheme other than 0 and 1: so does it
	seqStream           // the sequential stream and overlapping request schemes
	lbnState
	cylState
	priState
	posState
	tr func(string)
	// enabled, when set, says whether a request may be chosen now
	// (the disk's enablement function); it may change the disk's state,
	// as the source's does, and is called as often as the source calls it.
	enabled func(*event) bool
}

func (q *ioqueue) readyToGo(b *iobuf) bool {
	return b.state == iobWaiting && (q.enabled == nil || q.enabled(b.iolist))
}

// add queues a new request (ioqueue_add_new_request with ALLEQUAL
// priorities); r.time is set to now.
func (q *ioqueue) add(r *event, now float64) {
	if q.tr != nil {
		q.tr(fmt.Sprintf("Q add blk=%d flags=%x", r.blkno, r.flags&1))
	}
	r.time = now
	b := &iobuf{startTime: -1, state: iobWaiting, totalSize: r.bcount, blkno: r.blkno,
		flags: r.flags, iolist: r, reqCnt: 1, opid: r.opid}
	if cylinderPolicy(q.sched) || positionalPolicy(q.sched) {
		// mapped by the queue's strategy (the LBN policies map with
		// MAP_NONE; FCFS orders nothing by it)
		b.cylinder, b.surface = q.cylinderOf(r.blkno)
	}
	r.next = nil
	q.iobufCnt++
	q.listLen++
	switch {
	case q.list == nil:
		q.list = b
		b.next, b.prev = b, b
	case q.sched != schedFCFS && q.sched != schedPriVScanLBN:
		q.insertOrdered(b)
	default:
		b.next = q.list.next
		b.prev = q.list
		b.next.prev = b
		b.prev.next = b
		q.list = b
	}
	if q.concatMax != 0 {
		t := b.prev
		if !q.concatenate(t, t.next) {
			t = t.next
		}
		q.concatenate(t, t.next)
	}
}

// pending returns the number of requests not yet handed out.
func (q *ioqueue) pending() int { return q.listLen - q.numOutstanding }

// choose returns the iobuf the policy picks among the ready ones
// (the first part of ioqueue_get_next_request_from_subqueue and
// ioqueue_show_next_request_from_subqueue), calling readyToGo as the
// source does.
func (q *ioqueue) choose() *iobuf {
	if q.iobufCnt-q.reqOutstanding == 0 {
		return nil
	}
	if q.iobufCnt == 1 {
		if q.readyToGo(q.list) {
			return q.list
		}
		return nil
	}
	return q.pick()
}

// chooseFCFS is ioqueue_get_request_from_fcfs_queue.
func (q *ioqueue) chooseFCFS() *iobuf {
	t := q.list.next
	for i := 0; i < q.iobufCnt; i++ {
		if q.absoluteFCFS {
			if t.state == iobWaiting {
				if q.readyToGo(t) {
					return t
				}
				return nil
			}
		} else if q.readyToGo(t) {
			return t
		}
		t = t.next
	}
	return nil
}

// showNext returns the request the policy would hand out next, without
// handing it out (ioqueue_show_next_request).
func (q *ioqueue) showNext() *event {
	if q.pending() <= 0 {
		return nil
	}
	dir := q.dir
	t := q.choose()
	q.dir = dir // showing leaves the direction alone, not sstfupdown
	if t == nil {
		return nil
	}
	if !q.readyToGo(t) {
		abortf("selected request is not ready to go (ioqueue_show_next_request_from_subqueue)")
	}
	if t.reqCnt > 1 {
		if t.concat == nil {
			t.concat = q.concatenated(t)
		}
		return t.concat
	}
	return t.iolist
}

// next hands out the next request (ioqueue_get_next_request).
func (q *ioqueue) next(now float64) *event {
	if q.tr != nil {
		q.tr("Q next")
	}
	if q.pending() <= 0 {
		return nil
	}
	t := q.choose()
	if t != nil && q.iobufCnt == 1 {
		q.singleDirection(t)
	}
	if t == nil {
		return nil
	}
	if !q.readyToGo(t) {
		abortf("selected request is not ready to go (ioqueue_get_next_request_from_subqueue)")
	}
	q.setLast(t)
	return q.handOut(t, now)
}

func (q *ioqueue) handOut(t *iobuf, now float64) *event {
	if t.startTime == -1 {
		t.startTime = now
	}
	q.reqOutstanding++
	q.numOutstanding += t.reqCnt
	r := t.iolist
	switch {
	case t.reqCnt == 1:
		t.iolist = nil
		t.arrival = r.time
	case t.concat != nil:
		r, t.concat = t.concat, nil
	default:
		r = q.concatenated(t)
	}
	q.current = t
	t.state = iobPending
	r.time = 0
	return r
}

// match reports whether iobuf b holds request w
// (ioqueue_request_match).
func match(w *event, b *iobuf) bool {
	if b.blkno <= w.blkno && b.blkno+b.totalSize >= w.blkno {
		if b.blkno == w.blkno && b.opid == w.opid && b.flags&flagRead == w.flags&flagRead {
			return true
		}
		for t := b.iolist; t != nil; t = t.next {
			if t.blkno == w.blkno && t.opid == w.opid {
				return true
			}
		}
	}
	return false
}

// find returns the waiting iobuf holding w, searching from the tail as
// the source does, or nil.
func (q *ioqueue) find(w *event) *iobuf {
	if q.iobufCnt-q.reqOutstanding == 0 {
		return nil
	}
	t := q.list
	for t.next != q.list && !match(w, t) {
		t = t.next
	}
	if !match(w, t) {
		return nil
	}
	return t
}

// getSpecific hands out the request matching w
// (ioqueue_get_specific_request).
func (q *ioqueue) getSpecific(w *event, now float64) *event {
	if q.tr != nil {
		q.tr(fmt.Sprintf("Q spec blk=%d", w.blkno))
	}
	if q.pending() <= 0 {
		return nil
	}
	t := q.find(w)
	if t == nil {
		return nil
	}
	// The source asserts that the request is ready to go, calling the
	// disk's enablement function (and its side effects) to see
	// (ioqueue_get_specific_request_from_subqueue).
	if !q.readyToGo(t) {
		abortf("the disk's queue hands out block %d, which is not ready to go (ioqueue_get_specific_request_from_subqueue)", t.blkno)
	}
	q.setLast(t)
	return q.handOut(t, now)
}

// setStartTime marks the start of w's service without handing it out
// (ioqueue_set_starttime).
func (q *ioqueue) setStartTime(w *event, now float64) {
	if q.seqScheme&concatBoth != 0 {
		abortf("ioqueue_set_starttime asserts that the queue does not concatenate (Sequential stream scheme %d)", q.seqScheme)
	}
	if q.pending() <= 0 {
		return
	}
	if t := q.find(w); t != nil && t.startTime == -1 {
		t.startTime = now
	}
}

// done removes a request handed out earlier (ioqueue_physical_access_done)
// and reports whether it was found.
func (q *ioqueue) done(w *event) bool { return q.remove(w) != nil }

// remove takes the pending iobuf holding w out of the queue
// (ioqueue_remove_completed_request) and returns it, or nil.
func (q *ioqueue) remove(w *event) *iobuf {
	if q.tr != nil {
		q.tr(fmt.Sprintf("Q done blk=%d flags=%x", w.blkno, w.flags&1))
	}
	// The source never clears the queue's current iobuf when it
	// removes it (ioqueue_remove_completed_request), so a stale one
	// fails the first test and the list is searched, as here.
	t := q.current
	if t == nil || t.state != iobPending || !match(w, t) {
		if q.list == nil {
			return nil
		}
		t = q.list.next
		tail := q.list
		for t != tail && !match(w, t) {
			t = t.next
		}
		if t.state != iobPending || !match(w, t) {
			return nil
		}
	}
	if t.next == t {
		q.list = nil
	} else {
		t.next.prev = t.prev
		t.prev.next = t.next
		if q.list == t {
			q.list = t.prev
		}
	}
	if q.current == t {
		q.current = nil
	}
	q.iobufCnt--
	q.reqOutstanding--
	q.listLen -= t.reqCnt
	q.numOutstanding -= t.reqCnt
	return t
}
