package exact

// The smart controller's memory cache (src/disksim_cachemem.c). With
// no space ("Cache size" 0) every read is a miss issued to the disk as
// it is (cache_read_continue), its data moved to the host once the
// disk has it; every write is moved from the host first
// (cache_write_continue finds nothing to do) and then written through
// to the disk, the request completing when the disk has it
// (cachemem_free_block_dirty). With space (cacheline.go, cachelock.go,
// cachealloc.go, cacheio.go) reads hit, and misses fill lines.
// Each waiting request sits on the cache's IOwaiters list, newest
// first, until the access for its first block completes
// (cachemem_disk_access_complete).

// Cache descriptor types (cache_mem_event.type) both sizes meet.
const (
	cacheEventRead = 2 // CACHE_EVENT_READ
	cacheEventSync = 4 // CACHE_EVENT_SYNC: a write through
)

// cacheMem is a disksim_cachemem: the descriptors waiting for the disk
// (IOwaiters, newest first) and the cache's space (none for size 0).
type cacheMem struct {
	ioWaiters *cacheDesc
	space     cacheSpace
}

// cacheStartTimers is cachemem_initialize: the space set up and the
// periodic flush timer armed, a TIMER_EXPIRED event at the flush
// period. A flush that walks no list re-arms it and changes nothing
// else, so it is left out.
func (s *Sim) cacheStartTimers() {
	k := &s.m.Controller.Smart.Cache
	s.smart.cache.space.init(k)
	if k.FlushPolicy != 1 || k.flushesNothing() {
		return
	}
	e := s.alloc()
	e.typ = evTimerExpired
	e.cause = timerPeriodicFlush
	e.time = k.FlushPeriod
	s.schedule(e)
}

// flushListEmpty reports whether a flush (cache_periodic_flush,
// cache_idletime_detected) meets an empty replacement list, whose null
// head it follows: it walks the first list under FIFO and LIFO, each
// SLRU segment's under segmented LRU. Write-through leaves no line
// dirty, so a walk that finds every list non-empty starts nothing.
func (s *Sim) flushListEmpty() bool {
	c := &s.smart.cache.space
	segs := c.flushSegs()
	for j := 0; j < segs && j < cacheMaxSegments; j++ {
		if c.lru[j] == nil {
			return true
		}
	}
	return false
}

// The cache's timers (timer_event.func): the periodic flush, and the
// controller queue's idle detector.
const (
	timerPeriodicFlush = 1
	timerIdle          = 2
)

// cacheTimer is a TIMER_EXPIRED event of the cache's.
func (s *Sim) cacheTimer(e *event) {
	if e.cause == timerIdle {
		s.release(e)
		s.smart.idleTimer = nil
		s.cacheIdleTime()
		return
	}
	if s.flushListEmpty() {
		// cache_periodic_flush walks an empty LRU list (always in a
		// cache with no space) and follows its null head
		s.fail("a null pointer (DiskSim crashes here too): the periodic flush walks an empty LRU list (cache_periodic_flush)")
		return
	}
	s.periodicFlush()
	e.time += s.m.Controller.Smart.Cache.FlushPeriod
	s.schedule(e)
}

// smartResetIdle is ioqueue_reset_idledetecter(queue, timechange):
// ioqueue_physical_access_done calls it with 1 on a queue with an
// idle-work function (the cache sets one for a Flush idle delay of 0
// or more), a write-back write with 0. When the queue is empty the
// idle timer is armed for the delay from now, re-armed only under
// timechange; arrivals do not disarm it.
func (s *Sim) smartResetIdle(timechange bool) {
	c := s.smart
	delay := s.m.Controller.Smart.Cache.FlushIdleDelay
	if delay < 0 || c.queue.listLen > 0 {
		return
	}
	t := c.idleTimer
	if t != nil && !timechange {
		return
	}
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

// cacheIdleTime is cache_idletime_detected (from the idle timer, or
// when an idle flush completes): nothing while the controller's queue
// holds a request; a walk of an empty list follows its null head
// (DiskSim segfaults; with no space the lists are always empty), but
// under segmented LRU with no segments, where it walks nothing;
// otherwise the idle flush.
func (s *Sim) cacheIdleTime() {
	if s.smart.queue.listLen > 0 {
		return
	}
	if s.flushListEmpty() {
		s.fail("a null pointer (DiskSim crashes here too): the idle flush walks an empty LRU list (cache_idletime_detected)")
		return
	}
	s.idleFlush()
}
