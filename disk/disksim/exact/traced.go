package exact

import "fmt"

// The driver's constant and traced times (iodriver_schedule,
// check_send_out_request, iodriver_request, iodriver_trace_request_start
// and iodriver_access_complete in src/disksim_iodriver.c).

// Special constant access times (disksim_iodriver.h): the access time,
// the queue time or both taken from the trace. Any other negative value
// takes the access time from the trace too, as traced access times do:
// iodriver_schedule tests for 0 and for tracedQueue only.
const (
	tracedAccess = -1.0
	tracedQueue  = -2.0
	tracedBoth   = -3.0
)

// constTimed reports whether requests complete after a constant or
// traced access time, never reaching the device.
func (s *Sim) constTimed() bool {
	ct := s.m.DriverConstTime
	return ct != 0 && ct != tracedQueue
}

// tracedQueueing reports whether the trace says when each request
// leaves the driver's queue.
func (s *Sim) tracedQueueing() bool {
	ct := s.m.DriverConstTime
	return ct == tracedQueue || ct == tracedBoth
}

// accessTime is the time a constant-timed request takes: the constant,
// or the trace's access time (the record's tempint2 / 1000), which
// DiskSim's validate reader sets to 0.
func (s *Sim) accessTime() float64 {
	if ct := s.m.DriverConstTime; ct > 0 {
		return ct
	}
	return 0
}

// checkTraced refuses traced times with ASCII streams: DiskSim's ASCII
// reader sets neither tempint1 (the queue time) nor tempint2 (the
// access time), so the times are what the recycled event last held
// (getfromextraq does not clear it). Its validate reader sets both to
// 0.
func (s *Sim) checkTraced() error {
	if ct := s.m.DriverConstTime; ct < 0 && !s.validate {
		return fmt.Errorf("exact: driver Constant access time = %g takes times from the trace, and DiskSim's ASCII trace reader leaves them unset (left over from a recycled event); exact mode simulates traced times with validate traces only", ct)
	}
	return nil
}

// scheduleTraceStart is iodriver_request's part for traced queue times:
// a copy of e starts it after its traced queue time (tempint1 / 1000,
// 0 in validate traces).
func (s *Sim) scheduleTraceStart(e *event) {
	t := s.copyOf(e)
	t.next = nil
	t.typ = evTraceRequestStart
	t.time = s.now
	s.schedule(t)
}

// traceRequestStart is iodriver_trace_request_start: the request leaves
// the driver's queue and is scheduled.
func (s *Sim) traceRequestStart(t *event) {
	r := s.drvQueue.getSpecific(t, s.now)
	s.release(t)
	if r == nil {
		s.fail("traced request not in the driver's queue (iodriver_trace_request_start asserts)")
		return
	}
	s.drvOut++
	r.time = s.now
	r.typ = evAccessArrive
	s.driverSchedule(r)
}
