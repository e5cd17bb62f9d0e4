package exact

import "sort"

// Event types (disksim_global.h, disksim_iosim.h, disksim_bus.h). An
// event's meaning depends on who receives it, as in DiskSim: an
// evAccessArrive in the time queue is the driver's, one delivered over a
// bus is the device's or controller's.
const (
	evNone = iota // NULL_EVENT: an idle segment access
	evRequestArrive
	evAccessArrive
	evInterruptArrive
	evInterruptComplete
	evOverheadComplete
	evSeekDone
	evSectorDone
	evGotoRemapped
	evGotRemapped
	evPrepareTransfer
	evDataTransferComplete
	evBusGranted
	evBusDelayComplete
	evCtlrTransferComplete
	evTraceRequestStart
	evTimerExpired
)

// Device types on a bus slot.
const (
	devController = 1
	devDisk       = 2
)

// event is DiskSim's ioreq_event (and bus_event, intr_event): one
// struct for all, as the source shares one event size. Lists (a
// diskreq's requests, a component's bus waiters) use next; the time
// queue keeps events apart from them.
type event struct {
	time   float64
	typ    int
	next   *event
	prev   *event // the cache's flush lists (cache_issue_flushreq)
	blkno  int
	bcount int
	flags  int
	cause  int
	opid   int
	id     int // the host request's index
	dr     *diskreq
	// bus events
	busno     int
	devtype   int
	delayed   *event
	waitStart float64
	slot      int
	// the driver's interrupt, and the controller's transfers
	info *event
}

// copyOf returns a copy of e (ioreq_copy): every field, the list link
// included.
func (s *Sim) copyOf(e *event) *event {
	c := s.alloc()
	*c = *e
	return c
}

func (s *Sim) alloc() *event {
	if n := len(s.free); n > 0 {
		e := s.free[n-1]
		s.free = s.free[:n-1]
		*e = event{}
		return e
	}
	return &event{}
}

// release returns e to the free list (addtoextraq).
func (s *Sim) release(e *event) {
	if e != nil {
		s.free = append(s.free, e)
	}
}

// timeQueue holds scheduled events by time; events of equal time run in
// the order they were added (addtointq inserts after them).
type timeQueue struct{ evs []*event }

func (q *timeQueue) add(e *event) {
	i := sort.Search(len(q.evs), func(i int) bool { return q.evs[i].time > e.time })
	q.evs = append(q.evs, nil)
	copy(q.evs[i+1:], q.evs[i:])
	q.evs[i] = e
}

func (q *timeQueue) pop() *event {
	if len(q.evs) == 0 {
		return nil
	}
	e := q.evs[0]
	copy(q.evs, q.evs[1:])
	q.evs = q.evs[:len(q.evs)-1]
	return e
}

// remove takes e out of the queue (removefromintq) and reports whether
// it was there.
func (q *timeQueue) remove(e *event) bool {
	for i, x := range q.evs {
		if x == e {
			copy(q.evs[i:], q.evs[i+1:])
			q.evs = q.evs[:len(q.evs)-1]
			return true
		}
	}
	return false
}
