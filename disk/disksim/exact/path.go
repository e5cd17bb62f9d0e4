package exact

// Buses and controllers between the driver and the disk, as
// src/disksim_bus.c, disksim_controller.c and disksim_ctlrdumb.c move
// events along them.

// Controller types.
const (
	ctlrPassThru = 1
	ctlr53C700   = 2
	ctlrSmart    = 3
)

// passThruDelay is the pass-through controller's per-message delay
// before scaling (ctlrdumb.c PASSTHRU_DELAY), ms.
const passThruDelay = 1.0

// ownershipGet asks for bus b on behalf of the delayed event e (from a
// device of type devtype) and reports whether it was had at once
// (bus_ownership_get): only an interleaved bus grants at once; a free
// exclusive bus is granted after the arbitration time, a busy one when
// released.
func (s *Sim) ownershipGet(b *bus, devtype int, e *event) bool {
	if b.interleaved {
		return true
	}
	g := s.alloc()
	g.typ = evBusGranted
	g.busno = b.id
	g.devtype = devtype
	g.delayed = e
	g.waitStart = s.now
	if !b.owned {
		g.time = s.now + b.arbTime
		b.arbWinner = g
		b.owned = true
		s.schedule(g)
	} else {
		g.slot = 0 // the controller, in the slot above its bus
		if devtype == devDisk {
			g.slot = 1
		}
		b.owners = append(b.owners, g)
	}
	return false
}

// ownershipRelease frees bus b or grants it to a waiter
// (bus_ownership_release): the first (FIFO arbitration) or the one in
// the highest slot, the first of those on a tie (slot priority).
func (s *Sim) ownershipRelease(b *bus) {
	if len(b.owners) == 0 {
		b.owned = false
		return
	}
	if b.otherArb {
		s.fail("unrecognized bus arbitration type (bus_arbitrate_for_ownership exits)")
		return
	}
	k := 0
	if !b.fifo {
		for i, g := range b.owners {
			if g.slot > b.owners[k].slot {
				k = i
			}
		}
	}
	g := b.owners[k]
	b.owners = append(b.owners[:k], b.owners[k+1:]...)
	g.time = s.now + b.arbTime
	b.arbWinner = g
	s.schedule(g)
}

// busDelay schedules the delivery of e over bus busno after delay
// (bus_delay); busno -1 is the controller's line to the driver.
func (s *Sim) busDelay(busno, devtype int, delay float64, e *event) {
	t := s.alloc()
	t.typ = evBusDelayComplete
	t.time = s.now + delay
	t.busno = busno
	t.devtype = devtype
	t.delayed = e
	s.schedule(t)
}

func (s *Sim) busByID(id int) *bus {
	switch {
	case s.diskBus != nil && s.diskBus.id == id:
		return s.diskBus
	case s.topBus != nil && s.topBus.id == id:
		return s.topBus
	}
	return nil
}

// busEvent is bus_event_arrive.
func (s *Sim) busEvent(e *event) {
	if e.typ == evBusGranted {
		if b := s.busByID(e.busno); b != nil {
			b.arbWinner = nil
		}
	}
	switch e.devtype {
	case devController:
		if e.typ == evBusDelayComplete {
			s.ctlrDelayComplete(e.delayed, e.busno)
		} else {
			s.ctlrGranted(e.delayed, e.busno)
		}
	default:
		if e.typ == evBusDelayComplete {
			s.diskBusDelayComplete(e.delayed)
		} else {
			s.diskBusGranted(e.delayed)
		}
	}
	s.release(e)
}

// ctlrArrive is controller_event_arrive for a pass-through controller
// (controller_passthru_event_arrive): requests and interrupt
// completions go down to the disk, interrupts and data transfers go up,
// each after the scaled pass-through delay (none for data).
func (s *Sim) ctlrArrive(e *event) {
	c := s.ctlr
	switch c.typ {
	case ctlr53C700:
		s.c700Arrive(e)
		return
	case ctlrSmart:
		s.smartArrive(e)
		return
	}
	switch e.typ {
	case evInterruptComplete:
		c.outBusOwned = s.diskBus.id
		s.ctlrSendDown(e, passThruDelay)
		c.outBusOwned = -1
	case evAccessArrive:
		s.ctlrSendDown(e, passThruDelay)
	case evInterruptArrive:
		if e.cause == causeReadyToTransfer {
			e.cause = causeReconnect
		}
		s.ctlrSendUp(e, passThruDelay)
	case evDataTransferComplete:
		s.ctlrSendUp(e, 0)
	}
}

// ctlrSendDown is controller_send_event_down_path: onto the disk's bus,
// asking for it unless the controller already has it.
func (s *Sim) ctlrSendDown(e *event, delay float64) {
	c := s.ctlr
	e.next = c.buswait
	c.buswait = e
	e.time = delay * c.timeScale
	b := s.diskBus
	if c.outBusOwned == -1 {
		if s.ownershipGet(b, devController, e) {
			s.busDelay(b.id, devController, e.time, e)
			e.time = -1
		}
		return
	}
	s.busDelay(b.id, devController, e.time, e)
	e.time = -1
}

// ctlrSendDownOwned sends e down on the disk's bus, which the
// controller holds for it while it answers the disk
// (controller_get_downward_busno as outbusowned).
func (s *Sim) ctlrSendDownOwned(e *event, delay float64) {
	c := s.ctlr
	c.outBusOwned = s.diskBus.id
	s.ctlrSendDown(e, delay)
	c.outBusOwned = -1
}

// ctlrSendUp is controller_send_event_up_path: the controller sits at
// depth 0, so its line up goes straight to the driver.
func (s *Sim) ctlrSendUp(e *event, delay float64) {
	c := s.ctlr
	e.next = c.buswait
	c.buswait = e
	e.time = delay * c.timeScale
	s.busDelay(-1, devController, e.time, e)
	e.time = -1
}

// ctlrGranted is controller_bus_ownership_grant.
func (s *Sim) ctlrGranted(e *event, busno int) {
	c := s.ctlr
	switch e.typ {
	case evAccessArrive, evInterruptComplete:
		c.outBusOwned = busno
	default:
		c.inBusOwned = busno
	}
	s.busDelay(busno, devController, e.time, e)
	e.time = -1
	if c.inBusOwned == busno {
		s.ownershipRelease(s.busByID(busno))
		c.inBusOwned = -1
	} else {
		c.outBusOwned = -1
	}
}

// unlink removes e from the list at *head.
func unlink(head **event, e *event) bool {
	for p := head; *p != nil; p = &(*p).next {
		if *p == e {
			*p = e.next
			return true
		}
	}
	return false
}

// ctlrDelayComplete is controller_bus_delay_complete: the event reaches
// the driver (busno -1) or the disk.
func (s *Sim) ctlrDelayComplete(e *event, busno int) {
	c := s.ctlr
	unlink(&c.buswait, e)
	e.next = nil
	e.time = 0
	if busno == -1 {
		s.intrRequest(e)
		if c.inBusOwned != -1 {
			s.ownershipRelease(s.busByID(c.inBusOwned))
			c.inBusOwned = -1
		}
		return
	}
	s.diskArrive(e)
	c.outBusOwned = -1
}

// diskBlkTime is disk_get_blktranstime: the slower of the disk's bus
// (one block, in the request's direction) and the disk itself.
func (s *Sim) diskBlkTime(e *event) float64 {
	t := s.diskBus.writeBlk
	if e.flags&flagRead != 0 {
		t = s.diskBus.readBlk
	}
	return max(t, s.p.BlockTime)
}
