package exact

// disk is the state of DiskSim's disk controller (struct disk).
type disk struct {
	mechState           state
	trackLow, trackHigh int
	queue               *ioqueue
	lastFlags           int
	outState            int
	pendXfer            *diskreq // requests waiting to use the bus
	currentHDA          *diskreq
	effectiveHDA        *diskreq
	currentBus          *diskreq
	effectiveBus        *diskreq
	blksDone            int
	startTrans          float64
	busOwned            int // the bus id, or -1
	busWait             *event
	outWait             *event
	segs                *segment
	writeSeg            *segment // the dedicated write segment, if any
	numDirty            int
	extraDiscReq        *diskreq
	currTime            float64
	currTimeI           int64
	immed               bool
	immedStart          int
	immedEnd            int
	fpcheck             int
	seekStopTime        float64 // disk_seek_stoptime
}

// timeScaled multiplies an overhead by the disk's time scale.
func (s *Sim) scaled(ov float64) float64 { return ov * s.p.TimeScale }

// diskEvent handles the disk's events from the time queue
// (disk_event_arrive).
func (s *Sim) diskEvent(e *event) {
	switch e.typ {
	case evOverheadComplete:
		s.requestArrive(e)
	case evSeekDone:
		s.seekDone(e)
	case evSectorDone:
		s.sectorDone(e)
	case evGotoRemapped:
		s.gotoRemapped(e)
	case evGotRemapped:
		s.gotRemapped(e)
	case evPrepareTransfer:
		d := e.dr
		if d.flags&finalWriteReconn1 != 0 {
			d.flags |= finalWriteReconn2
		}
		s.release(e)
		s.checkBus(d)
	case evDataTransferComplete:
		s.reconnectOrTransferDone(e)
	default:
		s.fail("unexpected disk event %d", e.typ)
	}
}

// diskArrive handles what arrives at the disk over its bus: a request,
// or the host's answer to an interrupt (disk_event_arrive).
func (s *Sim) diskArrive(e *event) {
	switch e.typ {
	case evAccessArrive:
		if s.p.Overhead > 0 {
			e.time = s.now + s.scaled(s.p.Overhead)
			e.typ = evOverheadComplete
			s.schedule(e)
			return
		}
		s.requestArrive(e)
	case evInterruptComplete:
		switch e.cause {
		case causeReconnect:
			s.reconnectOrTransferDone(e)
		case causeDisconnect:
			s.disconnect(e)
		case causeCompletion:
			s.completion(e)
		default:
			s.fail("unrecognized interrupt cause %d at the disk", e.cause)
		}
	default:
		s.fail("unexpected event %d delivered to the disk", e.typ)
	}
}

// sendUp sends e up the path after delay, getting the bus first if the
// disk has let go of it (disk_send_event_up_path).
func (s *Sim) sendUp(e *event, delay float64) {
	d := &s.d
	e.next = d.busWait
	d.busWait = e
	e.time = delay
	b := s.diskBus
	if d.busOwned == -1 {
		if s.ownershipGet(b, devDisk, e) {
			s.busDelay(b.id, devDisk, delay, e)
		}
		return
	}
	s.busDelay(b.id, devDisk, delay, e)
}

// diskBusGranted is disk_bus_ownership_grant.
func (s *Sim) diskBusGranted(e *event) {
	d := &s.d
	found := false
	for t := d.busWait; t != nil; t = t.next {
		if t == e {
			found = true
			break
		}
	}
	if !found {
		s.fail("bus granted to an unknown disk request")
		return
	}
	d.busOwned = s.diskBus.id
	s.busDelay(s.diskBus.id, devDisk, e.time, e)
}

// diskBusDelayComplete is disk_bus_delay_complete: the event reaches
// the controller above the disk, or the driver.
func (s *Sim) diskBusDelayComplete(e *event) {
	if !unlink(&s.d.busWait, e) {
		s.fail("bus delay complete for an unknown disk request")
		return
	}
	e.next = nil
	e.time = 0
	if s.ctlr != nil {
		s.ctlrArrive(e)
		return
	}
	s.intrRequest(e)
}
