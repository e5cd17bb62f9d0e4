package exact

// The smart controller (controller type 3) as src/disksim_ctlrsmart.c
// moves requests through it: every request from the driver goes to its
// cache (cachemem.go), which issues the disk accesses it needs into the
// controller's own queue for the disk; at most "Max per-disk pending
// count" of them are on the disk at once. The controller answers the
// disk's interrupts itself, moves the disk's data at the slower of its
// own and the disk's block time, moves the host's data (one request at
// a time, at its own block time) and sends only completions up to the
// driver, which keeps up to "Maximum queue length" + 1 requests on it.

// smartOverhead is each of the smart controller's propagation
// overheads before scaling: disksim_ctlr_loadparams sets every ovrhd_*
// field to 0.5, ms.
const smartOverhead = 0.5

// smartCtlr is a smart controller's state beside the common ctlr: its
// queue for the disk, its cache and its host transfers.
type smartCtlr struct {
	queue   *ioqueue
	pending int // Max per-disk pending count (maxoutstanding per disk)
	// hostBusy is hosttransfer: a host DMA is under way; hostFirst
	// and hostLast the requests waiting for it (hostwaiters), oldest
	// first.
	hostBusy            bool
	hostFirst, hostLast *event
	cache               cacheMem
	// idleTimer is the queue's idle detector (idledetect), armed or nil
	idleTimer *event
	// oversized is the driver's list of the requests it split for this
	// controller (ctlr->oversized, circular through next)
	oversized *event
}

// newSmart builds the smart controller c around its queue q
// (controller_smart_initialize).
func newSmart(c *SmartController, q *ioqueue) *smartCtlr {
	return &smartCtlr{pending: c.PendingCount, queue: q}
}

// smartArrive is controller_smart_event_arrive.
func (s *Sim) smartArrive(e *event) {
	switch e.typ {
	case evAccessArrive:
		// controller_smart_request_arrive: the cache calls the host
		// transfer when the request does not block
		s.cacheGetBlock(e)
	case evInterruptArrive:
		s.smartInterrupt(e)
	case evInterruptComplete:
		if e.cause != causeCompletion {
			s.fail("Unknown interrupt cause in smart_interrupt_complete: %d", e.cause)
			return
		}
		s.release(e)
	case evDataTransferComplete:
		// controller_smart_disk_data_transfer moves the disk's blocks
		// as the 53C700 does
		s.c700DataTransfer(e)
	default:
		s.fail("Unknown event type arriving at smart controller: %d", e.typ)
	}
}

// smartInterrupt is controller_smart_interrupt_arrive: a completion
// ends a disk access; the controller answers every other interrupt
// itself (ready to transfer as a reconnection), holding the disk's bus.
func (s *Sim) smartInterrupt(e *event) {
	switch e.cause {
	case causeCompletion:
		s.smartAccessComplete(e)
	case causeReadyToTransfer:
		e.cause = causeReconnect
		fallthrough
	case causeReconnect, causeDisconnect:
		e.typ = evInterruptComplete
		s.ctlrSendDownOwned(e, smartOverhead)
	default:
		s.fail("Unknown interrupt cause in smart_interrupt_arrive: %d", e.cause)
	}
}

// smartIssue is controller_smart_issue_access: a disk access from the
// cache joins the controller's queue and goes down if the disk has
// fewer than the pending count.
func (s *Sim) smartIssue(e *event) {
	c := s.smart
	out := c.queue.reqOutstanding
	if !s.enqueue(c.queue, e) {
		return
	}
	if out < c.pending {
		s.smartSendNext()
	}
}

// smartSendNext sends the controller queue's next request down.
func (s *Sim) smartSendNext() {
	r := s.smart.queue.next(s.now)
	if r == nil {
		abortf("a null pointer (DiskSim crashes here too): the smart controller's queue has no request to send (controller_smart_issue_access)")
	}
	s.ctlrSendDown(r, smartOverhead)
}

// smartAccessComplete is controller_smart_access_complete: the disk is
// answered, the access leaves the queue and goes back to the cache
// (which completes the host's request, or moves its data), and the next
// queued access goes down.
func (s *Sim) smartAccessComplete(e *event) {
	c := s.smart
	done := s.copyOf(e)
	done.typ = evInterruptComplete
	s.ctlrSendDownOwned(done, smartOverhead)
	if !c.queue.done(e) {
		s.fail("completed access for block %d not pending at the smart controller", e.blkno)
		return
	}
	s.smartResetIdle(true)
	s.cacheDiskAccessComplete(e)
	if c.queue.reqOutstanding < c.pending {
		if r := c.queue.next(s.now); r != nil {
			s.ctlrSendDown(r, smartOverhead)
		}
	}
}

// smartRequestComplete is controller_smart_request_complete: the host's
// request is done; the completion goes up to the driver.
func (s *Sim) smartRequestComplete(r *event) {
	r.typ = evInterruptArrive
	r.cause = causeCompletion
	s.ctlrSendUp(r, smartOverhead)
}

// smartHostTransfer is controller_smart_host_data_transfer: the
// request's data moves between the host and the controller at the
// controller's block time, one request at a time, the others waiting
// in arrival order.
func (s *Sim) smartHostTransfer(r *event) {
	c := s.smart
	r.typ = evCtlrTransferComplete
	r.info = nil // tempptr1: a host transfer
	r.next = nil
	if c.hostBusy {
		if c.hostLast != nil {
			c.hostLast.next = r
		} else {
			c.hostFirst = r
		}
		c.hostLast = r
		return
	}
	r.time = s.now + float64(r.bcount)*s.ctlr.blkTime
	c.hostBusy = true
	s.schedule(r)
}

// smartHostTransferDone is controller_smart_host_data_transfer_complete:
// a read is complete, a write goes to the cache to be written; the next
// waiting host transfer starts.
func (s *Sim) smartHostTransferDone(r *event) {
	c := s.smart
	if r.flags&flagRead != 0 {
		s.cacheFreeBlockClean(r)
		s.smartRequestComplete(r)
	} else {
		s.cacheFreeBlockDirty(r)
	}
	if w := c.hostFirst; w != nil {
		c.hostFirst = w.next
		if c.hostFirst == nil {
			c.hostLast = nil
		}
		w.next = nil
		w.time = s.now + float64(w.bcount)*s.ctlr.blkTime
		s.schedule(w)
		return
	}
	c.hostBusy = false
}

// smartTransferDone is a CONTROLLER_DATA_TRANSFER_COMPLETE at a smart
// controller: the end of a disk transfer (tempptr1 set) or of a host
// one.
func (s *Sim) smartTransferDone(t *event) {
	if t.info != nil {
		s.ctlrTransferDone(t)
		return
	}
	s.smartHostTransferDone(t)
}

// smartMoved is controller_get_data_transfered for the smart controller:
// the blocks of the disk transfer under way moved so far, counted from
// the time its completion event has left to run, truncated toward zero
// as C's cast does, or -1 when none is under way. A transfer taking no
// time divides 0 by 0: the x87 converts the NaN to the 32-bit integer
// indefinite, as here.
func (s *Sim) smartMoved() int {
	o := s.ctlr.transfers
	if o == nil {
		return -1
	}
	var t *event
	for _, e := range s.q.evs {
		if e.typ == evCtlrTransferComplete && e.info == o {
			t = e
			break
		}
	}
	if t == nil {
		abortf("a disk transfer under way without its completion event (controller_get_data_transfered)")
	}
	left := (t.time - s.now) / o.time
	moved := float64(t.blkno-o.blkno+t.bcount) - left
	if moved != moved || moved >= 1<<31 || moved < -(1<<31) {
		return -1 << 31
	}
	return int(int32(moved))
}
