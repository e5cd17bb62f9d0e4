package exact

// The smart controller's memory cache (src/disksim_cachemem.c) as it
// works with no space ("Cache size" 0, the only size exact mode
// simulates): every read is a miss issued to the disk as it is
// (cache_read_continue), its data moved to the host once the disk has
// it; every write is moved from the host first (cache_write_continue
// finds nothing to do) and then written through to the disk, the
// request completing when the disk has it (cachemem_free_block_dirty).
// Each waiting request sits on the cache's IOwaiters list, newest
// first, until the access for its first block completes
// (cachemem_disk_access_complete).

// Cache event types (cache_mem_event.type) exact mode meets.
const (
	cacheEventRead = 2 // CACHE_EVENT_READ
	cacheEventSync = 4 // CACHE_EVENT_SYNC: a write through
)

// cacheMem is a disksim_cachemem of size 0: the requests waiting for
// the disk. Each waiter is an event (a cache_mem_event, taken from the
// event pool as the source takes it): cause holds its type, info the
// host's request and blkno the block whose access it waits for
// (accblkno).
type cacheMem struct {
	ioWaiters *event
}

// cacheWaitForIO is cache_waitfor_IO: w waits for the access to acc.
func (s *Sim) cacheWaitForIO(w, acc *event) {
	c := &s.smart.cache
	w.next = c.ioWaiters
	c.ioWaiters = w
	w.blkno = acc.blkno
}

// cacheGetBlock is cachemem_get_block with the controller's host
// transfer as its done function: a read waits for the disk, a write
// goes to the host transfer at once.
func (s *Sim) cacheGetBlock(r *event) {
	r.next = nil
	if r.flags&flagRead == 0 {
		// cache_write_continue returns 0 for a cache of size 0
		s.smartHostTransfer(r)
		return
	}
	w := s.alloc()
	w.cause = cacheEventRead
	w.info = r
	s.cacheWaitForIO(w, r)
	r.typ = evAccessArrive
	s.smartIssue(s.copyOf(r))
}

// cacheFreeBlockClean is cachemem_free_block_clean: with no space
// there are no locks to free.
func (s *Sim) cacheFreeBlockClean(*event) {}

// cacheFreeBlockDirty is cachemem_free_block_dirty for a cache of size
// 0: the write goes through to the disk, and the host's request waits
// for it (a SYNC event, done by completing the request).
func (s *Sim) cacheFreeBlockDirty(r *event) {
	w := s.alloc()
	w.cause = cacheEventSync
	w.info = r
	r.typ = evRequestArrive
	r.next = nil
	f := s.copyOf(r)
	f.typ = evAccessArrive
	s.cacheWaitForIO(w, f)
	s.smartIssue(f)
}

// cacheDiskAccessComplete is cachemem_disk_access_complete for a cache
// of size 0: the newest waiter for the completed access's block is
// done: a read's data goes to the host, a write completes.
func (s *Sim) cacheDiskAccessComplete(acc *event) {
	c := &s.smart.cache
	p := &c.ioWaiters
	for *p != nil && (*p).blkno != acc.blkno {
		p = &(*p).next
	}
	w := *p
	if w == nil {
		s.fail("Not yet supporting non-waited for disk accesses in cache")
		return
	}
	*p = w.next
	r := w.info
	s.cacheFreeBlockClean(r)
	if w.cause == cacheEventRead {
		s.smartHostTransfer(r)
	} else {
		s.smartRequestComplete(r)
	}
	s.release(w)
	s.release(acc)
}

// cacheStartTimers is cachemem_initialize's periodic flush timer: a
// TIMER_EXPIRED event at the flush period. A flush that walks nothing
// re-arms it and changes nothing else, so it is left out.
func (s *Sim) cacheStartTimers() {
	k := &s.m.Controller.Smart.Cache
	if k.FlushPolicy != 1 || k.flushesNothing() {
		return
	}
	e := s.alloc()
	e.typ = evTimerExpired
	e.cause = timerPeriodicFlush
	e.time = k.FlushPeriod
	s.schedule(e)
}

// The cache's timers (timer_event.func): the periodic flush, and the
// controller queue's idle detector.
const (
	timerPeriodicFlush = 1
	timerIdle          = 2
)

// cacheTimer is a TIMER_EXPIRED event of the cache's.
func (s *Sim) cacheTimer(e *event) {
	kind := e.cause
	s.release(e)
	if kind == timerIdle {
		s.cacheIdleDetected()
		return
	}
	// cache_periodic_flush on a cache with no space walks the LRU
	// list of segment 0, which is empty, and follows its null head
	s.fail("a null pointer (DiskSim crashes here too): the periodic flush walks the empty cache's LRU list (cache_periodic_flush)")
}

// smartResetIdle is ioqueue_reset_idledetecter(queue, 1), which
// ioqueue_physical_access_done calls on a queue with an idle-work
// function (the cache sets one for a Flush idle delay of 0 or more):
// when the completion leaves the queue empty, the idle timer is
// (re)armed for the delay from now; arrivals do not disarm it.
func (s *Sim) smartResetIdle() {
	c := s.smart
	delay := s.m.Controller.Smart.Cache.FlushIdleDelay
	if delay < 0 || c.queue.listLen > 0 {
		return
	}
	t := c.idleTimer
	if t != nil {
		if !s.q.remove(t) {
			s.fail("existing idledetect event not on intq in ioqueue_reset_idledetecter")
			return
		}
	} else {
		t = s.alloc()
		t.typ = evTimerExpired
		t.cause = timerIdle
		c.idleTimer = t
	}
	t.time = s.now + delay
	s.schedule(t)
}

// cacheIdleDetected is ioqueue_idledetected calling
// cache_idletime_detected: nothing while the controller's queue holds
// a request; otherwise, with no space, the flush walks the empty LRU
// list of segment 0 and follows its null head (DiskSim segfaults),
// but under segmented LRU with no segments, where it walks nothing.
func (s *Sim) cacheIdleDetected() {
	c := s.smart
	c.idleTimer = nil
	if c.queue.listLen > 0 || s.m.Controller.Smart.Cache.flushesNothing() {
		return
	}
	s.fail("a null pointer (DiskSim crashes here too): the idle flush walks the empty cache's LRU list (cache_idletime_detected)")
}
