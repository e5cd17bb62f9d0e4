package exact

// Write-back (write scheme 3, disksim_cachemem.c): a write marks its
// blocks valid and dirty and completes at once; dirty blocks go to the
// disk when a replacement meets them (the allocation waits for the
// write), when the periodic flush walks the replacement lists, or one
// run at a time while the controller's queue stays idle. A flush takes
// the dirty run's read locks for the write and clusters it with dirty
// neighbouring lines up to "Flush max line cluster" lines.

// cacheEventIdleSync is CACHE_EVENT_IDLESYNC: an idle flush.
const cacheEventIdleSync = 8

// newFlushDesc is cache_get_flushdesc: a descriptor for flushes whose
// completions are discarded.
func (c *cacheSpace) newFlushDesc() *cacheDesc {
	d := c.newDesc()
	d.typ = cacheEventSync
	d.done = doneEmpty
	return d
}

// cleanupFlushDesc is cache_cleanup_flushdesc: a descriptor that
// started no flush is freed; one that started a single flush waits for
// that flush's block.
func (c *cacheSpace) cleanupFlushDesc(d *cacheDesc) {
	if d.req == nil {
		c.freeDesc(d)
		return
	}
	if d.req.next == nil {
		d.accblkno = d.req.blkno
	}
}

// readLockRange is cache_get_read_lock_range: read locks on start to
// end for w's newest flush, which must get them.
func (s *Sim) readLockRange(start, end int, first *cacheAtom, w *cacheDesc) {
	c := &s.smart.cache.space
	var line *cacheAtom
	if first.lbn == start {
		line = first
	}
	gran := 1
	for i := start; i <= end; i++ {
		if line == nil {
			if line = c.findAtom(i); line == nil {
				abortf("cache_get_read_lock_range: block %d not in the cache", i)
			}
		}
		if line.lbn%gran == 0 {
			if gran = s.getReadLock(line, w); gran == 0 {
				abortf("cache_get_read_lock_range: a flush's read lock on block %d not granted", line.lbn)
			}
		}
		line = line.lineNext
	}
}

// issueFlush is cache_issue_flushreq: a write of start to end goes to
// the disk; w remembers it by a stand-in request at the head of its
// list and waits on the cache's IOwaiters (unless already at their
// head) for any block of its list.
func (s *Sim) issueFlush(start, end int, first *cacheAtom, w *cacheDesc) {
	waiting := s.smart.cache.ioWaiters == w
	f := s.alloc()
	f.blkno, f.bcount = start, end-start+1
	f.typ = evAccessArrive
	stand := s.alloc()
	stand.typ = evRequestArrive
	stand.blkno, stand.bcount = f.blkno, f.bcount
	stand.next = w.req
	if w.req != nil {
		w.req.prev = stand
	}
	w.req = stand
	if !waiting {
		s.cacheWaitForIO(w, stand)
	}
	w.accblkno = -1
	s.readLockRange(start, end, first, w)
	s.smartIssue(f)
}

// flushCluster is cache_flush_cluster: from the line beside blkno in
// direction dir (1 or -1), dirty blocks not write-locked join the flush
// (their dirty bits cleared) while the cluster has at most "Flush max
// line cluster" lines; it returns the cluster's last block that way.
func (s *Sim) flushCluster(blkno, linecnt, dir int) int {
	c := &s.smart.cache.space
	var line *cacheAtom
	lastClean := false
	for linecnt <= c.flushMaxCluster {
		if line == nil {
			line = c.findAtom(blkno + dir)
			if line == nil || lastClean {
				break
			}
			linecnt++
			continue
		}
		wl := s.atomWriteLocked(line)
		switch {
		case line.state&atomDirty != 0 && !wl:
			line.state &^= atomDirty
			lastClean = false
			blkno = line.lbn
		case wl || line.state&atomValid == 0:
			return blkno
		default:
			lastClean = true
		}
		if dir == 1 {
			line = line.lineNext
		} else {
			line = line.linePrev
		}
	}
	return blkno
}

// atomWriteLocked is cache_atom_iswritelocked.
func (s *Sim) atomWriteLocked(t *cacheAtom) bool {
	return s.smart.cache.space.granule(t).writeLock != nil
}

// initiateFlush is cache_initiate_dirty_block_flush: each run of dirty
// blocks not write-locked from dirty to its line's end is written (a
// run reaching the line's end clustered with the next lines, one
// starting at dirty with the previous ones), w waiting for the writes;
// it returns their number.
func (s *Sim) initiateFlush(dirty *cacheAtom, w *cacheDesc) int {
	c := &s.smart.cache.space
	var first *cacheAtom
	start, end, n := -1, 0, 0
	for t := dirty; t != nil; t = t.lineNext {
		wl := s.atomWriteLocked(t)
		if t.state&atomDirty != 0 && !wl {
			t.state &^= atomDirty
			if start == -1 {
				first, start = t, t.lbn
			}
			end = t.lbn
		} else if start != -1 && (t.state&atomValid == 0 || wl) {
			if c.flushMaxCluster > 1 && start == dirty.lbn {
				start = s.flushCluster(start, 1, -1)
			}
			s.issueFlush(start, end, first, w)
			start = -1
			n++
		}
	}
	if start == -1 {
		return n
	}
	ls := max(c.lineSize, 1)
	if c.flushMaxCluster > 1 && start == dirty.lbn {
		start = s.flushCluster(start, 1, -1)
	}
	linecnt := 1 + (dirty.lbn-start)/ls
	if linecnt < c.flushMaxCluster && end == dirty.lbn+ls-1 {
		end = s.flushCluster(end, linecnt, 1)
	}
	s.issueFlush(start, end, first, w)
	return n + 1
}

// periodicFlush is cache_periodic_flush over lists none of which is
// empty (flushListEmpty): every dirty block of every line on them is
// written.
func (s *Sim) periodicFlush() {
	c := &s.smart.cache.space
	segs := c.flushSegs()
	d := c.newFlushDesc()
	for j := 0; j < segs; j++ {
		line := c.lru[j]
		stop := line
		for start := true; start || line != stop; start = false {
			for t := line; t != nil; t = t.lineNext {
				if t.state&atomDirty != 0 {
					s.initiateFlush(t, d)
				}
			}
			line = line.lruNext
		}
	}
	c.cleanupFlushDesc(d)
}

// idleFlush is cache_idletime_detected past its checks: the first
// dirty run met from the replacement start point is written, and the
// next idle flush follows its completion.
func (s *Sim) idleFlush() {
	c := &s.smart.cache.space
	segs := c.flushSegs()
	line := c.replaceStart()
	stop := line
	d := c.newFlushDesc()
	d.typ = cacheEventIdleSync
walk:
	for i := 0; i < segs; i++ {
		if i != 0 {
			line = c.lru[i]
			stop = line
		}
		for start := true; start || line != stop; start = false {
			for t := line; t != nil; t = t.lineNext {
				if t.state&atomDirty != 0 {
					s.initiateFlush(t, d)
					if d.req != nil {
						break walk
					}
				}
			}
			line = line.lruNext
		}
	}
	c.cleanupFlushDesc(d)
}

// markDirty is cachemem_free_block_dirty under write-back: the written
// blocks become valid and dirty and their write locks are freed; the
// idle detector is armed if it is not, and the request completes.
func (s *Sim) markDirty(r *event) {
	c := &s.smart.cache.space
	blk, n := c.bitSpan(r)
	var line *cacheAtom
	gran := 0
	for i := 0; i < n; i++ {
		if line == nil {
			if line = c.findAtom(blk + i); line == nil {
				abortf("cachemem_free_block_dirty: block %d not in the cache", blk+i)
			}
			c.access(line)
		}
		line.state |= atomValid | atomDirty
		if line.lbn%c.lockGran == c.lockGran-1 || i == n-1 {
			gran += s.freeWriteLock(line, r)
		}
		line = line.lineNext
	}
	if gran < n {
		abortf("cachemem_free_block_dirty: %d blocks locked of %d", gran, n)
	}
	if s.m.Controller.Smart.Cache.FlushIdleDelay >= 0 {
		s.smartResetIdle(false)
	}
	s.smartRequestComplete(r)
}

// flushDone is cachemem_disk_access_complete for a flush's or write
// through's descriptor d, whose request r (unlinked from d's list) the
// access completed: r's read locks are freed; with more of d's flushes
// outstanding d waits again; the last of an idle flush starts the next.
// It returns d for the controller's wakeup, or nil.
func (s *Sim) flushDone(d *cacheDesc, r *event) *cacheDesc {
	c := &s.smart.cache
	typ := r.typ
	r.typ = evNone
	s.cacheFreeBlockClean(r)
	r.typ = typ
	if typ != -1 {
		s.cacheDone(d.done, r)
	}
	if d.req != nil {
		s.cacheWaitForIO(d, d.req)
		d.accblkno = d.req.blkno
		if d.req.next != nil {
			d.accblkno = -1
		}
		if typ != -1 {
			return nil
		}
		abortf("cachemem_disk_access_complete: a write through's descriptor with flushes outstanding")
	}
	if d.typ == cacheEventIdleSync {
		s.cacheIdleTime()
	}
	if typ != -1 {
		c.space.freeDesc(d)
		return nil
	}
	// write scheme 2: the request already completed; the controller's
	// wakeup frees the copy the cache kept
	c.space.freeDesc(d)
	s.release(r)
	return nil
}

// bitSpan is the request's blocks widened to whole valid bits
// (cachemem_free_block_dirty's flushblkno and flushbcount).
func (c *cacheSpace) bitSpan(r *event) (blk, n int) {
	blk = r.blkno - r.blkno%c.atomsPerBit
	n = r.bcount + r.blkno%c.atomsPerBit
	end := blk + n
	n += rounduptomult(end, c.atomsPerBit) - end
	return blk, n
}

// flushSegs is the number of replacement lists a flush walks: the
// first, or each SLRU segment's under segmented LRU.
func (c *cacheSpace) flushSegs() int {
	if c.replace == replaceSLRU {
		return c.numSegs
	}
	return 1
}
