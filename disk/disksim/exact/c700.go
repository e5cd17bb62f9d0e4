package exact

// The 53C700-based controller (controller type 2) and the driver's side
// of it, as src/disksim_ctlrdumb.c (controller_53c700_*) and
// disksim_iodriver.c (its DRIVER_C700 handling) move requests through
// it. The controller serves one connection at a time: it passes a
// request down, and answers the disk's ready-to-transfer, disconnect,
// completion and data transfers itself, sending only reconnections,
// disconnections and completions up to the driver; the driver keeps
// requests it could not hand over and offers the first again whenever
// the controller is freed.

// 53C700 controller states (disksim_controller.h).
const (
	c700Free = iota
	c700RequestPending
	c700Reconnecting
	c700ReadTransfer
	c700WriteTransfer
	c700CompletionPending
	c700DisconnectPending
)

// c700Overhead is each of the 53C700's ten propagation overheads before
// scaling: disksim_ctlr_loadparams sets every ovrhd_* field to 0.5, ms.
const c700Overhead = 0.5

// c700Arrive is controller_53c700_event_arrive.
func (s *Sim) c700Arrive(e *event) {
	switch e.typ {
	case evAccessArrive:
		s.c700RequestArrive(e)
	case evInterruptArrive:
		switch e.cause {
		case causeCompletion:
			s.c700Finish(e, c700CompletionPending, "Completing request not transfering in controller_53c700_request_complete")
		case causeReconnect:
			s.c700Reconnect(e)
		case causeDisconnect:
			s.c700Finish(e, c700DisconnectPending, "disconnecting request not transfering (controller_53c700_disconnect)")
		case causeReadyToTransfer:
			s.c700ReadyToTransfer(e)
		default:
			s.fail("Unknown interrupt cause in 53c700_interrupt_arrive")
		}
	case evInterruptComplete:
		switch e.cause {
		case causeCompletion, causeDisconnect:
			s.c700ResetComplete(e)
		case causeReconnect:
			s.c700ReconnectionComplete(e)
		default:
			s.fail("Unknown interrupt cause in 53c700_interrupt_complete")
		}
	case evDataTransferComplete:
		s.c700DataTransfer(e)
	default:
		s.fail("Unknown event type arriving at 53c700 controller: %d", e.typ)
	}
}

// c700RequestArrive is controller_53c700_request_arrive: a request
// goes down when the controller is free and is dropped while it
// reconnects (the driver offers it again).
func (s *Sim) c700RequestArrive(e *event) {
	c := s.ctlr
	switch c.state {
	case c700Free:
	case c700Reconnecting:
		s.release(e)
		return
	default:
		s.fail("Request arriving at non-FREE controller")
		return
	}
	s.ctlrSendDown(e, c700Overhead)
	c.state = c700RequestPending
}

// c700SendDownOwned sends e down on the disk's bus, which the
// controller holds for it.
func (s *Sim) c700SendDownOwned(e *event) { s.ctlrSendDownOwned(e, c700Overhead) }

// c700ReadyToTransfer is controller_53c700_ready_to_transfer: the
// controller answers the disk itself, telling it to go on.
func (s *Sim) c700ReadyToTransfer(e *event) {
	c := s.ctlr
	if c.state != c700RequestPending {
		s.fail("ready to transfer at a 53C700 in state %d (controller_53c700_ready_to_transfer asserts)", c.state)
		return
	}
	c.state = c700WriteTransfer
	if e.flags&flagRead != 0 {
		c.state = c700ReadTransfer
	}
	e.typ = evInterruptComplete
	e.cause = causeReconnect
	s.c700SendDownOwned(e)
}

// c700Finish is controller_53c700_request_complete (a completion) and
// controller_53c700_disconnect: the disk is answered at once, the
// interrupt goes up, and the controller waits for the driver's answer.
func (s *Sim) c700Finish(e *event, next int, bad string) {
	c := s.ctlr
	switch c.state {
	case c700ReadTransfer, c700WriteTransfer:
	case c700RequestPending:
		if next == c700DisconnectPending {
			break
		}
		fallthrough
	default:
		s.fail("%s", bad)
		return
	}
	ret := s.copyOf(e)
	ret.typ = evInterruptComplete
	s.c700SendDownOwned(ret)
	c.state = next
	s.ctlrSendUp(e, c700Overhead)
}

// c700Reconnect is controller_53c700_reconnect_to_transfer: a
// reconnection waits while the driver has not answered the last
// completion or disconnection, and takes the place of a request not yet
// on the disk's bus.
func (s *Sim) c700Reconnect(e *event) {
	c := s.ctlr
	switch c.state {
	case c700CompletionPending, c700DisconnectPending:
		e.next = c.connections
		c.connections = e
		return
	case c700RequestPending:
		if !s.c700DropRequest() {
			return
		}
	case c700Free:
	default:
		s.fail("Received reconnection request in invalid state %d", c.state)
		return
	}
	c.state = c700Reconnecting
	s.ctlrSendUp(e, c700Overhead)
}

// c700DropRequest is controller_remove_type_from_buswait for the
// request waiting for the disk's bus: it leaves the bus's arbitration
// and is dropped.
func (s *Sim) c700DropRequest() bool {
	c := s.ctlr
	p := &c.buswait
	for *p != nil && (*p).typ != evAccessArrive {
		p = &(*p).next
	}
	e := *p
	if e == nil {
		s.fail("no request waiting for the bus (controller_remove_type_from_buswait asserts)")
		return false
	}
	*p = e.next
	if e.time == -1 {
		s.fail("In remove_type_from_buswait, the event is in transit")
		return false
	}
	if !s.removeFromArbitration(s.diskBus, e) {
		return false
	}
	s.release(e)
	return true
}

// removeFromArbitration is bus_remove_from_arbitration: the bus event
// delivering e is cancelled, the bus passing on if e had won it.
func (s *Sim) removeFromArbitration(b *bus, e *event) bool {
	if w := b.arbWinner; w != nil && w.delayed == e {
		if !s.q.remove(w) {
			s.fail("Ongoing arbwinner not in internal queue, at bus_remove_from_arbitration")
			return false
		}
		s.release(w)
		b.arbWinner = nil
		s.ownershipRelease(b)
		return true
	}
	for i, g := range b.owners {
		if g.delayed == e {
			b.owners = append(b.owners[:i], b.owners[i+1:]...)
			s.release(g)
			return true
		}
	}
	s.fail("request not waiting for the bus (bus_remove_from_arbitration asserts)")
	return false
}

// c700ResetComplete is controller_53c700_reset_complete: the driver
// has answered a completion or disconnection; the newest reconnection
// waiting goes up.
func (s *Sim) c700ResetComplete(e *event) {
	c := s.ctlr
	if c.state != c700CompletionPending && c.state != c700DisconnectPending {
		s.fail("Controller not in appropriate state for reset completion")
		return
	}
	c.state = c700Free
	s.release(e)
	if t := c.connections; t != nil {
		c.connections = t.next
		c.state = c700Reconnecting
		s.ctlrSendUp(t, c700Overhead)
	}
}

// c700ReconnectionComplete is controller_53c700_reconnection_complete:
// the driver took the reconnection; the disk is told to go on.
func (s *Sim) c700ReconnectionComplete(e *event) {
	c := s.ctlr
	if c.state != c700Reconnecting {
		s.fail("reconnection complete at a 53C700 in state %d (controller_53c700_reconnection_complete asserts)", c.state)
		return
	}
	read := e.flags&flagRead != 0
	s.c700SendDownOwned(e)
	c.state = c700WriteTransfer
	if read {
		c.state = c700ReadTransfer
	}
}

// c700DataTransfer is controller_53c700_data_transfer: the controller
// moves the disk's blocks itself, at the slower of the disk's and its
// own block time, and hands the event back to the disk when done.
func (s *Sim) c700DataTransfer(e *event) {
	c := s.ctlr
	e.time = max(s.diskBlkTime(e), c.blkTime)
	e.next = c.transfers
	c.transfers = e
	t := s.alloc()
	t.time = s.now + e.time*float64(e.bcount)
	t.typ = evCtlrTransferComplete
	t.blkno, t.bcount = e.blkno, e.bcount
	t.info = e
	s.schedule(t)
}

// ctlrTransferDone is controller_53c700_data_transfer_complete.
func (s *Sim) ctlrTransferDone(t *event) {
	c := s.ctlr
	o := t.info
	o.bcount -= t.bcount
	s.release(t)
	switch {
	case o.bcount < 0:
		s.fail("Transfered more than requested at controller_data_transfer_done")
	case o.bcount > 0:
		s.fail("Haven't required less than all out transfer at controller_data_transfer_done")
	default:
		unlink(&c.transfers, o)
		o.next = nil
		o.time = s.now
		s.schedule(o)
	}
}

// ctlrTransferring reports whether a 53C700 is moving the disk's
// data. The disk then asks it how many blocks it has moved
// (bus_get_data_transfered), and controller_get_data_transfered reads
// the answer through the transfer's tempptr1, a field the 53C700 never
// sets on the disk's event (it keeps its own completion event in buf):
// the count is whatever that memory held (the disk's device header
// read as a request, a pointer left by an earlier use of the event,
// or an invalid address, on which DiskSim crashes).
func (s *Sim) ctlrTransferring() bool {
	return s.ctlr != nil && s.ctlr.transfers != nil
}

// c700Schedule is iodriver_schedule's DRIVER_C700 part: it reports
// whether e goes down to the controller now. A request other than the
// first one the driver is offering waits behind it; the first is kept
// (a copy) until the controller answers it, and waits while the
// controller is busy.
func (s *Sim) c700Schedule(e *event) bool {
	if len(s.pendio) > 0 {
		h := s.pendio[0]
		if e.opid != h.opid || e.blkno != h.blkno {
			s.pendio = append(s.pendio, e)
			return false
		}
	} else {
		s.pendio = append(s.pendio, s.copyOf(e))
	}
	if s.ctlrBusy {
		s.release(e)
		return false
	}
	return true
}

// c700Status is iodriver_check_c700_based_status: an interrupt arriving
// for the first request offered means the controller took it; any
// interrupt makes the controller busy, and the driver's answer to a
// completion or disconnection frees it and offers the first waiting
// request again.
func (s *Sim) c700Status(cause, blkno int, arrive bool) {
	switch cause {
	case causeCompletion, causeDisconnect, causeReconnect, causeReadyToTransfer:
	default:
		s.fail("Unknown interrupt cause at iodriver_check_c700_based_status - cause %d", cause)
		return
	}
	if arrive {
		if len(s.pendio) > 0 && s.pendio[0].blkno == blkno {
			s.release(s.pendio[0])
			s.pendio = append(s.pendio[:0], s.pendio[1:]...)
		}
		s.ctlrBusy = true
		return
	}
	if cause == causeReconnect || cause == causeReadyToTransfer {
		s.ctlrBusy = true
		return
	}
	s.ctlrBusy = false
	if len(s.pendio) > 0 {
		t := s.copyOf(s.pendio[0])
		t.next = nil
		t.time = s.now
		s.schedule(t)
	}
}
