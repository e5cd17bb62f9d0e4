package exact

// The memory cache's locks (disksim_cachemem.c): each lock granule's
// first atom holds a write lock (a request), read locks (requests,
// shared when "Shared read locks" is 1, otherwise taken as write
// locks) and the descriptors waiting for them, woken in order when the
// granule is freed; with no lock waiters, a freed line wakes the first
// allocation waiting for a line.

// lockFree is cache_lock_free.
func (s *Sim) lockFree(t *cacheAtom) {
	c := &s.smart.cache.space
	if t.writeLock != nil {
		abortf("cache_lock_free: a write-locked line given away")
	}
	if tmp := t.lockWaiters; tmp != nil {
		i := 0
		writeLocked := false
		for tmp != nil && !writeLocked && t.writeLock == nil {
			var w *cacheDesc
			if e := tmp.entry[i]; e != nil {
				writeLocked = !c.sharedReadLocks || e.locktype != 0
				if !writeLocked || t.readLocks == nil {
					w = e
					tmp.entry[i] = nil
				}
			}
			i++
			if i == cacheLocksPerStruct {
				t.lockWaiters = tmp.next
				freeLockBlock(&c.waiterPool, tmp)
				tmp = t.lockWaiters
				i = 0
			}
			if w != nil {
				s.cacheWakeup(w)
			}
		}
		return
	}
	if c.lineWaiters == nil {
		return
	}
	ls := max(c.lineSize, 1)
	for t.lbn%ls != 0 {
		t = t.linePrev
	}
	for ; t != nil; t = t.lineNext {
		if t.writeLock != nil || t.readLocks != nil {
			return
		}
	}
	a := c.lineWaiters.next
	if a.next == a {
		c.lineWaiters = nil
	} else {
		c.lineWaiters.next = a.next
	}
	a.next = nil
	s.cacheWakeup(a)
}

// getWriteLock is cache_get_write_lock: the granule's size, or 0 when
// d waits for it.
func (s *Sim) getWriteLock(t *cacheAtom, d *cacheDesc) int {
	c := &s.smart.cache.space
	t = c.granule(t)
	switch {
	case t.writeLock == d.req:
		return c.lockGran
	case t.writeLock != nil || t.readLocks != nil:
		d.locktype = 1
		addToLockBlock(&c.waiterPool, &t.lockWaiters, d)
		return 0
	}
	t.writeLock = d.req
	return c.lockGran
}

// freeWriteLock is cache_free_write_lock.
func (s *Sim) freeWriteLock(t *cacheAtom, owner *event) int {
	c := &s.smart.cache.space
	t = c.granule(t)
	if owner != t.writeLock {
		return 0
	}
	t.writeLock = nil
	s.lockFree(t)
	return c.lockGran
}

// getReadLock is cache_get_read_lock: a read lock taken from one's own
// write lock frees the write lock.
func (s *Sim) getReadLock(t *cacheAtom, d *cacheDesc) int {
	c := &s.smart.cache.space
	if !c.sharedReadLocks {
		return s.getWriteLock(t, d)
	}
	t = c.granule(t)
	if t.writeLock != nil && t.writeLock != d.req {
		d.locktype = 0
		addToLockBlock(&c.waiterPool, &t.lockWaiters, d)
		return 0
	}
	addToLockBlock(&c.holderPool, &t.readLocks, d.req)
	if t.writeLock != nil {
		t.writeLock = nil
		s.lockFree(t)
	}
	return c.lockGran
}

// freeReadLock is cache_free_read_lock. Only the first holder block is
// given back when it empties, as the source does.
func (s *Sim) freeReadLock(t *cacheAtom, owner *event) int {
	c := &s.smart.cache.space
	if !c.sharedReadLocks {
		return s.freeWriteLock(t, owner)
	}
	t = c.granule(t)
	found := false
	for tmp := t.readLocks; tmp != nil && !found; {
		active := false
		for i, e := range tmp.entry {
			if e == owner {
				tmp.entry[i] = nil
				found = true
			} else if e != nil {
				active = true
			}
		}
		if tmp == t.readLocks && !active {
			t.readLocks = tmp.next
			freeLockBlock(&c.holderPool, tmp)
			tmp = t.readLocks
		} else {
			tmp = tmp.next
		}
	}
	if !found {
		return 0
	}
	if t.readLocks == nil {
		s.lockFree(t)
	}
	return c.lockGran
}

// getRWLock is cache_get_rw_lock for one granule (stop 1, as every
// caller passes): locktype 1 a read lock, 2 a write lock, 3 a write
// lock in place of one's read lock. It returns 0 with the lock, 1
// when d waits for it, 2 when the atom changed identity.
func (s *Sim) getRWLock(locktype int, d *cacheDesc, line *cacheAtom, i int) int {
	var gran int
	if locktype == 1 {
		gran = s.getReadLock(line, d)
	} else {
		if locktype == 3 {
			s.freeReadLock(line, d.req)
		}
		gran = s.getWriteLock(line, d)
	}
	if gran == 0 {
		return 1
	}
	if line.lbn != d.req.blkno+i {
		if locktype == 1 {
			s.freeReadLock(line, d.req)
		} else {
			s.freeWriteLock(line, d.req)
		}
		return 2
	}
	return 0
}
