package exact

// The memory cache's allocation and fills (disksim_cachemem.c): a
// request's missing lines are taken from the free list, or replaced
// from the head of the first replacement list when no granule of the
// line is locked (a dirty line is flushed first, cacheflush.go); with
// none to take, the allocation waits for a line. Blocks not yet valid are
// filled by one read of the disk.

// Cache descriptor types (CACHE_EVENT_*).
const (
	cacheEventAllocate       = 1
	cacheEventWrite          = 3
	cacheEventReadExtra      = 6
	cacheEventWriteFillExtra = 7
)

// rounduptomult is disksim_global.h's rounduptomult, C's truncating
// remainder and all.
func rounduptomult(v, m int) int { return v + (m - (v-1)%m) - 1 }

// replaceLine is cache_replace: 0 when a line is free (or was freed),
// -1 when a waits for one, otherwise the number of writes of a dirty
// line's blocks started (a waiting for them) before it can be freed.
// Under the "Allocation policy" that prefers clean lines, dirty lines
// met are flushed (their completions discarded) and the walk goes on.
func (s *Sim) replaceLine(a *cacheDesc) int {
	c := &s.smart.cache.space
	if c.lineFree() {
		return 0
	}
	line := c.replaceStart()
	if line == nil {
		c.waitForLine(a)
		return -1
	}
	flush := a
	if c.allocNonDirty {
		flush = nil
	}
	stop := line
	locked, dirty := false, false
	for {
		if locked || dirty {
			if c.replace == replaceLIFO {
				line = line.lruPrev
			} else {
				line = line.lruNext
			}
		}
		if line == stop && locked {
			if flush != nil && c.allocNonDirty {
				c.cleanupFlushDesc(flush)
			}
			c.waitForLine(a)
			return -1
		}
		locked, dirty = lineLocked(line), false
		if locked {
			continue
		}
		for t := line; t != nil; t = t.lineNext {
			if t.state&atomDirty == 0 {
				continue
			}
			dirty = true
			if flush == nil {
				flush = c.newFlushDesc()
			}
			n := s.initiateFlush(t, flush)
			if !c.allocNonDirty {
				return n
			}
			break
		}
		if !dirty {
			break
		}
	}
	c.unmapLine(line)
	return 0
}

// lineLocked reports whether any atom of line is locked.
func lineLocked(line *cacheAtom) bool {
	for t := line; t != nil; t = t.lineNext {
		if t.readLocks != nil || t.writeLock != nil {
			return true
		}
	}
	return false
}

// getFreeAtom is cache_get_free_atom: the writes to wait for (-1 for
// a line) and the free line taken, if any.
func (s *Sim) getFreeAtom(a *cacheDesc) (int, *cacheAtom) {
	c := &s.smart.cache.space
	w := 0
	if !c.lineFree() {
		w = s.replaceLine(a)
	}
	if !c.lineFree() {
		return w, nil
	}
	return w, c.takeFreeLine()
}

// allocateContinue is cache_allocate_space_continue for lines of a
// fixed size: a woken allocation restarts its read or write; otherwise
// each line from lockstop to allocstop is taken (LOCKDOWN, in the
// hash), and a nil result means all were.
func (s *Sim) allocateContinue(a *cacheDesc) *cacheDesc {
	c := &s.smart.cache.space
	if rw := a.waitees; rw != nil {
		if rw.typ == cacheEventRead {
			s.readContinue(rw)
		} else {
			s.writeContinue(rw)
		}
		c.freeDesc(a)
		return nil
	}
	lbn, stop := a.lockstop, a.allocstop
	newLine := a.cleaned
	ls := max(c.lineSize, 1)
	writes := 0
	for lbn < stop {
		if newLine == nil {
			var w int
			w, newLine = s.getFreeAtom(a)
			writes += w
		}
		if writes != 0 {
			a.lockstop = lbn
			a.cleaned = newLine
			return a
		}
		if newLine == nil {
			abortf("cache_allocate_space_continue: no line allocated")
		}
		for {
			if newLine.writeLock != nil || newLine.readLocks != nil {
				abortf("cache_allocate_space_continue: a reallocated atom still locked")
			}
			newLine.lbn = lbn
			newLine.state = atomLockdown
			c.hashInsert(newLine)
			lbn++
			if lbn%ls == 0 {
				break
			}
			newLine = newLine.lineNext
		}
		newLine = nil
	}
	c.freeDesc(a)
	return nil
}

// allocateSpace is cache_allocate_space: the lines holding lbn to
// lbn+size-1; a non-nil result is the allocation rw waits on.
func (s *Sim) allocateSpace(lbn, size int, rw *cacheDesc) *cacheDesc {
	c := &s.smart.cache.space
	ls := max(1, c.lineSize)
	a := c.newDesc()
	a.typ = cacheEventAllocate
	a.req = rw.req
	a.flags = rw.flags & flagLineLocked
	a.lockstop = lbn - lbn%ls
	a.allocstop = lbn + size + (ls - 1 - (lbn+size-1)%ls)
	a.rw = rw
	if a = s.allocateContinue(a); a != nil {
		a.waitees = rw
		rw.flags |= a.flags & flagLineLocked
	}
	return a
}

// issueFill is cache_issue_fillreq: a read of start to end (extended
// to the line's front or rest by the prefetch type, as far as the
// blocks are not valid and their locks are free) that d waits for.
func (s *Sim) issueFill(start, end int, d *cacheDesc, prefetch int) int {
	c := &s.smart.cache.space
	ls := max(c.lineSize, 1)
	if prefetch&prefetchFront != 0 {
		line := c.findAtom(start)
		gran := c.lockGran
		for start%ls != 0 {
			line = line.linePrev
			if line.state&atomValid != 0 {
				break
			}
			if line.lbn%gran == gran-1 {
				if s.atomLocked(line) {
					break
				}
				if gran = s.getWriteLock(line, d); gran == 0 {
					return 0
				}
			}
			start--
			line.state |= atomValid
		}
	}
	if prefetch&prefetchRest != 0 {
		line := c.findAtom(end)
		gran := c.lockGran
		for (end+1)%ls != 0 {
			line = line.lineNext
			if line.state&atomValid != 0 {
				break
			}
			if line.lbn%gran == 0 {
				if s.atomLocked(line) {
					break
				}
				if gran = s.getWriteLock(line, d); gran == 0 {
					return 0
				}
			}
			end++
			line.state |= atomValid
		}
	}
	f := s.copyOf(d.req)
	f.next = nil
	f.blkno = start
	f.bcount = end - start + 1
	f.typ = evAccessArrive
	f.flags |= flagRead
	d.fillStart, d.fillEnd = start, end
	if d.typ == cacheEventRead {
		d.typ = cacheEventReadExtra
	} else {
		d.typ = cacheEventWriteFillExtra
	}
	s.cacheWaitForIO(d, f)
	s.smartIssue(f)
	return end - start + 1
}

// atomLocked is cache_atom_islocked.
func (s *Sim) atomLocked(t *cacheAtom) bool {
	t = s.smart.cache.space.granule(t)
	return t.readLocks != nil || t.writeLock != nil
}

// unlockPrefetch is cache_unlock_attached_prefetch: the write locks a
// fill took beyond the request are freed.
func (s *Sim) unlockPrefetch(d *cacheDesc) {
	c := &s.smart.cache.space
	fillStart, fillEnd := d.fillStart, d.fillEnd+1
	reqStart := d.req.blkno
	reqEnd := reqStart + d.req.bcount
	if fillStart < reqStart {
		gran := c.lockGran
		for reqStart%c.lockGran != 0 {
			reqStart--
		}
		reqStart--
		if fillStart <= reqStart {
			line := c.findAtom(reqStart)
			for {
				if line.lbn%gran == gran-1 {
					if gran = s.freeWriteLock(line, d.req); gran == 0 {
						abortf("cache_unlock_attached_prefetch: a lock freed that is not held")
					}
				}
				line = line.linePrev
				reqStart--
				if fillStart > reqStart {
					break
				}
			}
		}
	}
	if fillEnd > reqEnd {
		gran := c.lockGran
		for reqEnd%c.lockGran != 0 {
			reqEnd++
		}
		if fillEnd > reqEnd {
			line := c.findAtom(reqEnd)
			for {
				if line.lbn%gran == 0 {
					if gran = s.freeWriteLock(line, d.req); gran == 0 {
						abortf("cache_unlock_attached_prefetch: a lock freed that is not held")
					}
				}
				line = line.lineNext
				reqEnd++
				if fillEnd <= reqEnd {
					break
				}
			}
		}
	}
}

// concatOK is cache_concatok.
func (c *cacheSpace) concatOK(blkno1, blkno2, bcount2 int) bool {
	if c.size != 0 && c.maxGather != 0 {
		ls := max(c.lineSize, 1)
		if (blkno2+bcount2-1)/ls-blkno1/ls > c.maxGather {
			return false
		}
	}
	return true
}
