package exact

// A request's way through the memory cache (disksim_cachemem.c's
// cache_read_continue, cache_write_continue, cachemem_free_block_*,
// cachemem_disk_access_complete): a read locks its blocks (a write
// lock for each granule not yet valid), allocating lines it misses,
// and fills what is not valid with one disk read, restarting when the
// fill completes; a write takes write locks, filling first only what
// a valid bit covers beyond the request; after the host's data moved,
// a write is marked valid, read-locked and written through.

// readContinue is cache_read_continue: 0 when every block is valid
// and locked, 1 when d waits (for a line, a lock or a fill).
func (s *Sim) readContinue(d *cacheDesc) int {
	c := &s.smart.cache.space
	r := d.req
	if c.size == 0 {
		s.cacheWaitForIO(d, r)
		r.typ = evAccessArrive
		f := s.copyOf(r)
		f.next = nil
		s.smartIssue(f)
		return 1
	}
	ls := max(1, c.lineSize)
	lbn, size := r.blkno, r.bcount
	validpoint := d.validpoint
	i := d.lockstop
	var line *cacheAtom
	stop := 0
restart:
	for i < size {
		line = c.findAtom(lbn + i)
		if line == nil {
			if s.allocateSpace(lbn+i, 1, d) != nil {
				d.lockstop = i
				return 1
			}
			continue
		}
		stop = min(rounduptomult(size-i, c.atomsPerBit), ls-(lbn+i)%ls)
		tmp := line
		curlock, gran := 2, 0
		for j := 0; j < stop; j++ {
			locktype := 2
			if tmp.state&atomValid != 0 {
				locktype = 1
			}
			if locktype > curlock {
				curlock, gran, locktype = 2, 0, 3
			} else {
				curlock = locktype
			}
			if gran == 0 || (lbn+i+j)%gran == 0 {
				switch s.getRWLock(locktype, d, tmp, i+j) {
				case 1:
					d.lockstop = i + j
					return 1
				case 2:
					continue restart
				}
			}
			gran = c.lockGran
			if tmp.state&atomValid == 0 {
				tmp.state |= atomValid
				if validpoint == -1 {
					validpoint = tmp.lbn
					d.validpoint = validpoint
				}
			} else if validpoint != -1 {
				// a fill of the line's front part
				d.allocstop |= 2
				d.lockstop = -(r.blkno % c.atomsPerBit)
				s.issueFill(validpoint, tmp.lbn-1, d, c.readPrefetch)
				d.validpoint = -1
				return 1
			}
			tmp = tmp.lineNext
		}
		if validpoint != -1 && (c.lineByLine || !c.concatOK(validpoint, validpoint+1, line.lbn+stop-validpoint)) {
			d.allocstop |= 1
			s.issueFill(validpoint, line.lbn+stop-1, d, c.readPrefetch)
			d.validpoint = -1
			return 1
		}
		i += ls - (lbn+i)%ls
	}
	if validpoint != -1 {
		d.allocstop |= 1
		d.lockstop = -(r.blkno % c.atomsPerBit)
		d.validpoint = -1
		s.issueFill(validpoint, line.lbn+stop-1, d, c.readPrefetch)
		return 1
	}
	if d.flags&flagWasBlocked != 0 {
		s.cacheDone(d.done, r)
		c.freeDesc(d)
	}
	return 0
}

// writeContinue is cache_write_continue: 0 when every block is
// allocated and write-locked, 1 when d waits.
func (s *Sim) writeContinue(d *cacheDesc) int {
	c := &s.smart.cache.space
	if c.size == 0 {
		return 0
	}
	r := d.req
	lbn, size := r.blkno, r.bcount
	ls := max(c.lineSize, 1)
	i := d.lockstop
restart:
	for i < size {
		line := c.findAtom(lbn + i)
		if line == nil {
			if s.allocateSpace(lbn+i, 1, d) != nil {
				d.lockstop = i
				return 1
			}
			continue
		}
		stop := min(rounduptomult(size-i, c.atomsPerBit), ls-(lbn+i)%ls)
		tmp := line
		gran := 0
		startFill, startFillStop, endFill, endFillStop := -1, 0, -1, 0
		for j := 0; j < stop; j++ {
			if gran == 0 || (lbn+i+j)%gran == 0 {
				switch s.getRWLock(2, d, tmp, i+j) {
				case 1:
					d.lockstop = i
					return 1
				case 2:
					continue restart
				}
			}
			gran = c.lockGran
			switch {
			case tmp.lbn < lbn && tmp.state&atomValid == 0:
				d.allocstop |= 2
				tmp.state |= atomValid
				if startFill == -1 {
					startFill = tmp.lbn
				}
				startFillStop = tmp.lbn
			case tmp.state&atomValid == 0:
				v := tmp.lbn - (lbn + size - 1)
				d.allocstop |= 2
				if v > 0 && v < c.atomsPerBit-(lbn+size-1)%c.atomsPerBit {
					tmp.state |= atomValid
					if endFill == -1 {
						endFill = tmp.lbn
					}
					endFillStop = tmp.lbn
				}
			case tmp.state&atomDirty != 0:
				d.allocstop |= 4
			}
			tmp = tmp.lineNext
		}
		if startFill != -1 || endFill != -1 {
			blk := endFill
			if startFill != -1 {
				blk = startFill
			}
			n := 1 - blk
			if startFill != -1 && endFill == -1 {
				n += startFillStop
			} else {
				n += endFillStop
			}
			s.issueFill(blk, blk+n-1, d, c.writePrefetch)
			return 1
		}
		i += ls - (lbn+i)%ls
	}
	if d.flags&flagWasBlocked != 0 {
		s.cacheDone(d.done, r)
		c.freeDesc(d)
	}
	return 0
}

// cacheGetBlock is cachemem_get_block with the controller's host
// transfer as its done function.
func (s *Sim) cacheGetBlock(r *event) {
	c := &s.smart.cache.space
	d := c.newDesc()
	d.typ = cacheEventWrite
	if r.flags&flagRead != 0 {
		d.typ = cacheEventRead
	}
	d.done = doneHostTransfer
	d.req = r
	r.next = nil
	d.validpoint = -1
	if c.size != 0 {
		d.lockstop = -(r.blkno % c.atomsPerBit)
	}
	var ret int
	if d.typ == cacheEventRead {
		ret = s.readContinue(d)
	} else {
		ret = s.writeContinue(d)
	}
	if ret == 0 {
		s.cacheDone(doneHostTransfer, r)
		c.freeDesc(d)
		return
	}
	d.flags |= flagWasBlocked
}

// cacheDone calls a descriptor's done function.
func (s *Sim) cacheDone(done int, r *event) {
	switch done {
	case doneHostTransfer:
		s.smartHostTransfer(r)
	case doneRequestComplete:
		s.smartRequestComplete(r)
	default:
		s.release(r)
	}
}

// cacheFreeBlockClean is cachemem_free_block_clean: each line the
// request touches counts as accessed (unless the request's type is 0)
// and its read locks are freed.
func (s *Sim) cacheFreeBlockClean(r *event) {
	c := &s.smart.cache.space
	if c.size == 0 {
		return
	}
	var line *cacheAtom
	freed := 0
	for i := 0; i < r.bcount; i++ {
		if line == nil {
			if line = c.findAtom(r.blkno + i); line == nil {
				abortf("cachemem_free_block_clean: block %d not in the cache", r.blkno+i)
			}
			if r.typ != evNone {
				c.access(line)
			}
		}
		if line.lbn%c.lockGran == c.lockGran-1 || i == r.bcount-1 {
			freed += s.freeReadLock(line, r)
		}
		line = line.lineNext
	}
	if freed < r.bcount {
		abortf("cachemem_free_block_clean: %d blocks unlocked of %d", freed, r.bcount)
	}
}

// cacheFreeBlockDirty is cachemem_free_block_dirty (write-back in
// markDirty): under write-through the written blocks become valid and
// read-locked, and a write of them (widened to the valid bits) goes to
// the disk; write scheme 1 completes the request when the disk has it,
// 2 at once.
func (s *Sim) cacheFreeBlockDirty(r *event) {
	c := &s.smart.cache.space
	if c.size != 0 && c.writeScheme == writeBack {
		s.markDirty(r)
		return
	}
	d := c.newDesc()
	d.typ = cacheEventSync
	d.done = doneRequestComplete
	d.req = r
	r.typ = evRequestArrive
	r.next, r.prev = nil, nil
	f := s.copyOf(r)
	f.typ = evAccessArrive
	if c.size == 0 {
		s.cacheWaitForIO(d, f)
		s.smartIssue(f)
		return
	}
	blk, n := c.bitSpan(r)
	var line *cacheAtom
	gran := 0
	for i := 0; i < n; i++ {
		if line == nil {
			if gran != 0 && (c.lineByLine || !c.concatOK(blk, blk+1, i)) {
				abortf("cachemem_free_block_dirty: a line-by-line write (not ported)")
			}
			if line = c.findAtom(blk + i); line == nil {
				abortf("cachemem_free_block_dirty: block %d not in the cache", blk+i)
			}
			c.access(line)
		}
		line.state |= atomValid
		if line.lbn%c.lockGran == c.lockGran-1 || i == n-1 {
			gran += s.getReadLock(line, d)
		}
		line = line.lineNext
	}
	if gran < n {
		abortf("cachemem_free_block_dirty: %d blocks locked of %d", gran, n)
	}
	f.blkno, f.bcount = blk, n
	s.cacheWaitForIO(d, f)
	s.smartIssue(f)
	if c.writeScheme == writeSyncOnly {
		return
	}
	r.typ = -1
	d.done = doneEmpty
	s.smartRequestComplete(s.copyOf(r))
}

// cacheWaitForIO is cache_waitfor_IO: d waits, newest first, for the
// access starting at acc's block.
func (s *Sim) cacheWaitForIO(d *cacheDesc, acc *event) {
	c := &s.smart.cache
	d.next = c.ioWaiters
	d.prev = nil
	if d.next != nil {
		d.next.prev = d
	}
	c.ioWaiters = d
	d.accblkno = acc.blkno
}

// cacheDiskAccessComplete is cachemem_disk_access_complete followed by
// the controller's wakeup: the newest waiter for the access is found
// (one waiting for its first block, or a flush descriptor with the
// access's block in its list); a write through or flush is done (or
// its descriptor waits for the rest of its flushes), a fill's waiter
// restarts its read or write, and an allocation restarts its read or
// write when the last write of a replaced dirty line completes.
func (s *Sim) cacheDiskAccessComplete(acc *event) {
	c := &s.smart.cache
	d, r := c.accessWaiter(acc.blkno)
	if d == nil {
		s.fail("Not yet supporting non-waited for disk accesses in cache")
		return
	}
	if d.prev != nil {
		d.prev.next = d.next
	} else {
		c.ioWaiters = d.next
	}
	if d.next != nil {
		d.next.prev = d.prev
	}
	s.release(acc)
	switch d.typ {
	case cacheEventRead:
		if c.space.size != 0 {
			// nothing to do but wake it
			s.cacheWakeup(d)
			return
		}
		s.flushDone(d, s.unlinkReq(d, r))
	case cacheEventSync, cacheEventIdleSync:
		s.flushDone(d, s.unlinkReq(d, r))
	case cacheEventAllocate:
		// the write of a replaced dirty line
		s.unlinkReq(d, r)
		r.typ = evNone
		s.cacheFreeBlockClean(r)
		s.release(r)
		if d.req != d.waitees.req {
			s.cacheWaitForIO(d, d.req)
			d.accblkno = -1
			return
		}
		s.cacheWakeup(d)
	case cacheEventReadExtra:
		d.typ = cacheEventRead
		s.unlockPrefetch(d)
		s.cacheWakeup(d)
	case cacheEventWriteFillExtra:
		d.typ = cacheEventWrite
		s.unlockPrefetch(d)
		s.cacheWakeup(d)
	default:
		abortf("Unknown type at cache_disk_access_complete: %d", d.typ)
	}
}

// accessWaiter finds the waiter cachemem_disk_access_complete matches
// to an access starting at blkno, and the request of its list matched.
func (c *cacheMem) accessWaiter(blkno int) (*cacheDesc, *event) {
	for d := c.ioWaiters; d != nil; d = d.next {
		for r := d.req; r != nil; r = r.next {
			if blkno == d.accblkno {
				return d, r
			}
			if d.accblkno == -1 && (r.next != nil || d.typ == cacheEventSync || d.typ == cacheEventIdleSync) && blkno == r.blkno {
				return d, r
			}
		}
	}
	return nil, nil
}

// unlinkReq takes r off d's request list and returns it.
func (s *Sim) unlinkReq(d *cacheDesc, r *event) *event {
	if r.next != nil {
		r.next.prev = r.prev
	}
	if r.prev != nil {
		r.prev.next = r.next
	} else {
		d.req = r.next
	}
	return r
}

// cacheWakeup is controller_smart_wakeup calling
// cachemem_wakeup_complete.
func (s *Sim) cacheWakeup(d *cacheDesc) {
	switch d.typ {
	case cacheEventRead:
		s.readContinue(d)
	case cacheEventWrite:
		s.writeContinue(d)
	case cacheEventAllocate:
		s.allocateContinue(d)
	case cacheEventSync:
		s.cacheDone(d.done, d.req)
		s.smart.cache.space.freeDesc(d)
	default:
		abortf("No such cachemem event type: %d", d.typ)
	}
}
