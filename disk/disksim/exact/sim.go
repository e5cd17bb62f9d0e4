package exact

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
)

// Sim simulates one DiskSim disk behind its buses and controller, as
// DiskSim 4.0's event loop does, with time as DiskSim keeps it: a
// float64 count of milliseconds.
type Sim struct {
	m    *Model
	lay  *layout
	mech *mech
	p    Disk

	now  float64
	q    timeQueue
	free []*event
	err  error

	// the path from the driver to the disk
	topBus   *bus  // the driver's bus (depth 0)
	diskBus  *bus  // the disk's bus
	ctlr     *ctlr // nil when the disk sits on the driver's bus
	drvQueue *ioqueue
	drvOut   int // requests handed to the device (the controller count)
	// the driver's side of a 53C700-based controller (DRIVER_C700):
	// the requests it offers, the first being tried (ctl->pendio), and
	// whether the controller is busy (DRIVER_CTLR_BUSY)
	c700     bool
	pendio   []*event
	ctlrBusy bool
	// the smart controller's queue, cache and host transfers (type 3)
	smart *smartCtlr

	d disk

	// the host's requests and what happened to them
	reqs     []Request
	res      []Result
	validate bool
	nextReq  int
	gap      float64 // the previous validate record's gap, ms
	gapUs    float64 // the same in µs, when given
	stopped  bool
	onDone   func(id int, at float64)
	overall  []int // requests outstanding, in arrival order (the driver's overall queue)
	trace    func(string)
	// probe is the test request the positional policies' cache check
	// reads (the source's event from the extra queue)
	probe event
}

// Request is one host request.
type Request struct {
	// Arrival is the arrival time in ms (ASCII traces); validate replays
	// ignore it.
	Arrival float64
	// Blkno and Bcount are the first block and the block count.
	Blkno, Bcount int
	// Read is true for a read.
	Read bool
	// Gap is the idle time after this request completes before the
	// next is issued, in ms (validate replays), unless GapUs is set.
	Gap float64
	// GapUs, when not 0, is that gap in microseconds as a validate
	// record's last field gives it, and is used instead of Gap: DiskSim
	// adds GapUs / 1000 to the completion time with the quotient in an
	// x87 register (iotrace_validate_get_ioreq_event), and so does Run,
	// to the last bit.
	GapUs float64
}

// Result is what DiskSim's per-request log records for one request.
type Result struct {
	// Arrival is the simulated arrival time (ms).
	Arrival float64
	// Response is the completion time less Arrival (ms).
	Response float64
	// Done is false for a request still outstanding when the trace
	// ended (DiskSim stops at the last arrival and logs none of them).
	Done bool
	// Hit is true when the disk took the request into its buffer on
	// arrival: a read found whole in a segment, or a write under a
	// fast write level.
	Hit bool
}

// ErrDiskSimAbort wraps the conditions under which DiskSim 4.0 itself
// stops with an assertion or an error: the source's checks, reproduced.
var ErrDiskSimAbort = errors.New("DiskSim stops here")

// ErrUndefined wraps the conditions under which DiskSim 4.0's source
// reads memory it never set, so that what it computes next depends on
// the history of its event pool (or it crashes): exact mode stops there.
var ErrUndefined = errors.New("DiskSim's result is undefined here")

// undefined stops the run with an error wrapping ErrUndefined.
func (s *Sim) undefined(format string, args ...any) {
	if s.err == nil {
		s.err = fmt.Errorf("exact: at %.6f ms: %w: "+format, append([]any{s.now, ErrUndefined}, args...)...)
	}
}

// abort is a DiskSim assertion that fails deep in a computation: it
// unwinds to the event loop, which ends the run with ErrDiskSimAbort.
type abort struct{ msg string }

func abortf(format string, args ...any) {
	panic(abort{fmt.Sprintf(format, args...)})
}

// undefinedAt unwinds like abort where the source reads memory it never
// set; the run ends with ErrUndefined.
type undefinedAt struct{ msg string }

func (s *Sim) fail(format string, args ...any) {
	if s.err == nil {
		s.err = fmt.Errorf("exact: at %.6f ms: %w: "+format, append([]any{s.now, ErrDiskSimAbort}, args...)...)
	}
}

// enqueue adds e to q, or stops the run where DiskSim does.
func (s *Sim) enqueue(q *ioqueue, e *event) bool {
	if q.badPriScheme {
		s.fail("unknown priority scheme: DiskSim exits (ioqueue_add_new_request)")
		return false
	}
	if q.divZero {
		s.fail("cylinder mapping strategy 6 divides by zero (ioqueue_get_cylinder_mapping)")
		return false
	}
	q.add(e, s.now)
	return true
}

// schedule adds e to the time queue (addtointq).
func (s *Sim) schedule(e *event) { s.q.add(e) }

// bus is a disksim_bus.
type bus struct {
	id          int
	interleaved bool
	arbTime     float64
	readBlk     float64
	writeBlk    float64
	owned       bool
	owners      []*event // bus events waiting for ownership, FIFO
	arbWinner   *event
	fifo        bool
	otherArb    bool // an arbitration type DiskSim does not know
}

// ctlr is a disksim_ctlr on the path (pass-through or 53C700-based).
type ctlr struct {
	typ         int
	timeScale   float64
	blkTime     float64
	buswait     *event
	inBusOwned  int
	outBusOwned int
	// the 53C700's connection state, the reconnections waiting for it
	// (newest first) and its data transfers under way
	state       int
	connections *event
	transfers   *event
}

// Run replays reqs and returns one result per request, in request
// order. With validate the requests are issued one at a time as
// DiskSim's validate format does: the first at time 0, each later one
// at the previous one's completion plus the previous record's gap.
// Otherwise each arrives at its Arrival time (DiskSim's ASCII format);
// requests outstanding when the last one arrives are left undone, as
// DiskSim stops there.
func (m *Model) Run(reqs []Request, validate bool) ([]Result, error) {
	s, err := newSim(m)
	if err != nil {
		return nil, err
	}
	return s.run(reqs, validate)
}

// RunTrace is Run, calling trace with a line for every event taken
// from the time queue (time, DiskSim's event type number, block, count,
// cause, flags), in the form a debugger's trace of DiskSim gives.
func (m *Model) RunTrace(reqs []Request, validate bool, trace func(string)) ([]Result, error) {
	s, err := newSim(m)
	if err != nil {
		return nil, err
	}
	s.trace = trace
	s.d.queue.tr = trace
	return s.run(reqs, validate)
}

// traceType maps event types to DiskSim's numbers.
var traceType = [...]int{evNone: 0, evRequestArrive: 100, evAccessArrive: 101, evInterruptArrive: 102,
	evInterruptComplete: 105, evOverheadComplete: 106, evSeekDone: 110, evSectorDone: 112,
	evGotoRemapped: 114, evGotRemapped: 113, evPrepareTransfer: 108, evDataTransferComplete: 109,
	evBusGranted: 115, evBusDelayComplete: 116, evCtlrTransferComplete: 117, evTraceRequestStart: 119, evTimerExpired: 121}

func (s *Sim) run(reqs []Request, validate bool) (res []Result, err error) {
	s.reqs, s.validate = reqs, validate
	s.res = make([]Result, len(reqs))
	if len(reqs) == 0 {
		return s.res, nil
	}
	if err := s.checkRequests(); err != nil {
		return nil, err
	}
	if err := s.checkTraced(); err != nil {
		return nil, err
	}
	defer func() {
		if r := recover(); r != nil {
			if u, isU := r.(undefinedAt); isU {
				s.undefined("%s", u.msg)
				res, err = s.res, s.err
				return
			}
			a, ok := r.(abort)
			if re, isRT := r.(runtime.Error); isRT && strings.Contains(re.Error(), "nil pointer") {
				// The simulator's lists and pointers are the source's:
				// where one is nil here, the source follows a null
				// pointer and DiskSim crashes.
				a, ok = abort{"a null pointer (DiskSim crashes here too): " + re.Error()}, true
			}
			if !ok {
				panic(r)
			}
			s.fail("%s", a.msg)
			res, err = s.res, s.err
		}
	}()
	if s.smart != nil {
		// controller_smart_initialize arms the cache's timers before
		// the first request is read
		s.cacheStartTimers()
	}
	s.issueNext(0)
	for !s.stopped && s.err == nil {
		e := s.q.pop()
		if e == nil {
			break
		}
		s.now = e.time
		if s.trace != nil {
			s.trace(fmt.Sprintf("EV t=%.9f type=%d blk=%d bc=%d cause=%d flags=%x", e.time, traceType[e.typ], e.blkno, e.bcount, e.cause, e.flags))
		}
		s.dispatch(e)
	}
	if s.err != nil {
		return s.res, s.err
	}
	return s.res, nil
}

func (s *Sim) checkRequests() error {
	for i, r := range s.reqs {
		if r.Blkno < 0 || r.Bcount <= 0 || r.Blkno+r.Bcount > s.lay.sectors {
			return fmt.Errorf("exact: request %d: blocks %d+%d outside the disk's %d: %w", i, r.Blkno, r.Bcount, s.lay.sectors, ErrDiskSimAbort)
		}
		if !s.validate && i > 0 && r.Arrival < s.reqs[i-1].Arrival {
			return fmt.Errorf("exact: request %d arrives at %g ms, before request %d", i, r.Arrival, i-1)
		}
	}
	return nil
}

// issueNext schedules the host's next request: in validate mode at now
// plus the previous record's gap, otherwise at its arrival time.
func (s *Sim) issueNext(now float64) {
	if s.nextReq >= len(s.reqs) {
		// DiskSim reads the trace one record ahead and stops when it
		// finds none: after the last arrival (ASCII) or after the
		// last completion (validate).
		s.stopped = true
		return
	}
	i := s.nextReq
	s.nextReq++
	r := s.reqs[i]
	e := s.alloc()
	e.typ = evRequestArrive
	e.id = i
	// iodriver_request numbers the requests it takes: the disk's queue
	// tells requests to the same block apart by it.
	e.opid = i
	e.blkno, e.bcount = r.Blkno, r.Bcount
	if r.Read {
		e.flags = flagRead
	}
	if s.validate {
		if s.gapUs != 0 {
			e.time = addQuoX87(now, s.gapUs, 1000)
		} else {
			e.time = addX87(now, s.gap)
		}
		s.gap, s.gapUs = r.Gap, r.GapUs
	} else {
		e.time = r.Arrival
	}
	s.schedule(e)
}

// dispatch handles an event taken from the time queue
// (disksim_simulate_event and io_internal_event).
func (s *Sim) dispatch(e *event) {
	switch e.typ {
	case evRequestArrive:
		s.driverRequest(e)
	case evAccessArrive:
		s.driverSchedule(e)
	case evInterruptArrive:
		s.driverInterruptArrive(e)
	case evInterruptComplete:
		s.driverInterruptComplete(e)
	case evBusGranted, evBusDelayComplete:
		s.busEvent(e)
	case evCtlrTransferComplete:
		if s.smart != nil {
			s.smartTransferDone(e)
			return
		}
		s.ctlrTransferDone(e)
	case evTraceRequestStart:
		s.traceRequestStart(e)
	case evTimerExpired:
		s.cacheTimer(e)
	default:
		s.diskEvent(e)
	}
}

// driverRequest is iodriver_request for a STANDALONE driver, whose
// processing takes no time: the request joins the device's queue and,
// if the device may take another, goes down at once.
func (s *Sim) driverRequest(e *event) {
	s.res[e.id].Arrival = s.now
	s.overall = append(s.overall, e.id)
	if !s.validate {
		s.issueNext(0)
	}
	e.typ = evAccessArrive
	if s.tracedQueueing() {
		s.scheduleTraceStart(e)
	}
	if !s.enqueue(s.drvQueue, e) {
		return
	}
	if s.drvCanSend() {
		if r := s.drvQueue.next(s.now); r != nil {
			s.drvOut++
			r.typ = evAccessArrive
			s.driverSchedule(r)
		}
	}
}

// drvCanSend is check_send_out_request: with queueing in the subsystem
// the device may hold up to its queue length, otherwise one request.
func (s *Sim) drvCanSend() bool {
	if s.tracedQueueing() {
		return false
	}
	out := s.drvQueue.reqOutstanding
	if s.m.DriverQueueing {
		if s.smart != nil {
			// the smart controller's queue length bounds the requests
			// the driver has out on it (ctlrs[queuectlr].numoutstanding)
			return s.drvOut < s.m.Controller.Smart.MaxOutstanding
		}
		return out < s.p.MaxQueue
	}
	return out == 0
}

// driverSchedule is iodriver_schedule: the request goes down the path,
// or, with a constant or traced access time, completes that long after
// as an interrupt that never reaches the device. Before a 53C700-based
// controller the driver offers one request at a time (c700Schedule).
func (s *Sim) driverSchedule(e *event) {
	if s.constTimed() {
		e.typ = evInterruptArrive
		e.cause = causeCompletion
		i := s.alloc()
		i.typ = evInterruptArrive
		i.info = e
		i.time = s.now + s.accessTime() // intr_request: simtime + curr->time
		s.schedule(i)
		return
	}
	if s.c700 && !s.c700Schedule(e) {
		return
	}
	if s.smart != nil {
		s.splitOversized(e)
	}
	e.typ = evAccessArrive
	s.deliverDown(e)
}

// deliverDown hands e from the driver to the component on its bus
// (bus_deliver_event): the controller, or the disk.
func (s *Sim) deliverDown(e *event) {
	if s.ctlr != nil {
		s.ctlrArrive(e)
		return
	}
	s.diskArrive(e)
}

// intrRequest is intr_request: an interrupt for the driver, at once;
// a data transfer reaching the top instead takes the transfer time
// (io_catch_stray_events) and returns to the disk.
func (s *Sim) intrRequest(e *event) {
	if e.typ != evInterruptArrive {
		e.time = s.now + s.diskBlkTime(e)*float64(e.bcount)
		s.schedule(e)
		return
	}
	i := s.alloc()
	i.typ = evInterruptArrive
	i.info = e
	i.time = s.now
	s.schedule(i)
}

// driverInterruptArrive is iodriver_interrupt_arrive for a STANDALONE
// driver: it handles the interrupt in no time.
func (s *Sim) driverInterruptArrive(i *event) {
	if s.c700 && !s.constTimed() {
		s.c700Status(i.info.cause, i.info.blkno, true)
	}
	i.typ = evInterruptComplete
	i.time = s.now
	s.schedule(i)
}

// driverInterruptComplete is iodriver_interrupt_complete: a completion
// finishes the host request; then the driver answers the device.
func (s *Sim) driverInterruptComplete(i *event) {
	r := i.info
	if r.cause == causeCompletion {
		s.accessComplete(r)
	}
	if s.constTimed() {
		// iodriver_respond_to_device answers no device
		s.release(i)
		return
	}
	cause, blkno := r.cause, r.blkno
	switch r.cause {
	case causeCompletion:
		c := s.copyOf(r)
		c.typ = evInterruptComplete
		s.deliverDown(c)
	case causeDisconnect, causeReconnect:
		r.typ = evInterruptComplete
		s.deliverDown(r)
	}
	if s.c700 {
		s.c700Status(cause, blkno, false)
	}
	s.release(i)
}

// logged returns the request DiskSim's statistics (and its per-request
// log) count as completed when r completes: the driver finds it in its
// overall queue by block number alone, as every entry there has the
// same operation id (iodriver_access_complete, ioqueue_get_specific_request
// and ioqueue_request_match), looking at the newest entry first and then
// from the oldest on. Two outstanding requests for the same block may
// thus swap their response times.
func (s *Sim) logged(r *event) int {
	k := len(s.overall) - 1
	if s.reqs[s.overall[k]].Blkno != r.blkno {
		for k = 0; k < len(s.overall) && s.reqs[s.overall[k]].Blkno != r.blkno; k++ {
		}
		if k == len(s.overall) {
			abortf("completed request for block %d not in the driver's overall queue", r.blkno)
		}
	}
	id := s.overall[k]
	s.overall = append(s.overall[:k], s.overall[k+1:]...)
	return id
}

// accessComplete is iodriver_access_complete: the request is done;
// validate replays issue the next; the driver sends its next queued
// request down.
func (s *Sim) accessComplete(r *event) {
	// a STANDALONE driver works on a copy (ioreq_copy), which the
	// queue completes together with the requests concatenated with it
	// or combined with it as overlapping
	req := s.copyOf(r)
	if s.smart != nil {
		whole, part := s.oversizedPart(req)
		if part || whole != req {
			s.release(req)
		}
		if part {
			return
		}
		req = whole
	}
	list := s.drvQueue.accessDone(req, s.now)
	if list == nil {
		s.release(req)
		s.fail("completed request %d not pending at the driver", r.blkno)
		return
	}
	if list != req {
		s.release(req) // a concatenation's: its requests complete
	}
	s.drvOut--
	for e := list; e != nil; {
		id := s.logged(e)
		s.res[id].Response = s.now - s.res[id].Arrival
		s.res[id].Done = true
		if s.onDone != nil {
			s.onDone(e.id, s.now)
		}
		next := e.next
		s.release(e)
		e = next
	}
	if s.validate {
		s.issueNext(s.now)
	}
	if s.tracedQueueing() {
		// the trace says when each request starts
		return
	}
	if n := s.drvQueue.next(s.now); n != nil {
		n.typ = evAccessArrive
		s.drvOut++
		n.time = s.now
		s.schedule(n)
	}
}
