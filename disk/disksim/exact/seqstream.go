package exact

// The ioqueue's sequential stream scheme (concatenating adjacent
// requests, and telling the scheduler which requests continue a
// stream) and its overlapping request scheme, as src/disksim_ioqueue.c
// does them.

// Sequential stream scheme bits (disksim_ioqueue.c).
const (
	concatReads  = 1
	concatWrites = 2
	concatBoth   = concatReads | concatWrites
	seqReads     = 4
	seqWrites    = 8
	seqEither    = 16
)

// seqStream holds a queue's "Sequential stream scheme" (a bit set),
// "Maximum concat size" (blocks; 0: none), "Sequential stream diff
// maximum" (blocks) and "Overlapping request scheme".
type seqStream struct {
	seqScheme, concatMax, seqDiff int
	overlaps                      int
	// alloc takes an event from the pool for a concatenation handed
	// out (getfromextraq); undefinedConcat, set for the disk's queue,
	// says why handing one out leaves DiskSim's result undefined.
	alloc           func() *event
	undefinedConcat string
}

// seqStream returns q's schemes for a queue taking events from alloc.
func (q *Queue) seqStream(alloc func() *event, undefinedConcat string) seqStream {
	return seqStream{seqScheme: q.SeqScheme, concatMax: q.ConcatMax, seqDiff: q.SeqDiff, overlaps: q.Overlaps,
		alloc: alloc, undefinedConcat: undefinedConcat}
}

// concatenate merges req2 into req1, the iobuf before it, when the
// scheme concatenates their kind, both are ready, req2 starts where
// req1 ends and the two fit in the maximum (ioqueue_check_concat; no
// queue owner here sets a concatok function).
func (q *ioqueue) concatenate(req1, req2 *iobuf) bool {
	if req1.flags&flagRead != 0 {
		if q.seqScheme&concatReads == 0 || req2.flags&flagRead == 0 {
			return false
		}
	} else if q.seqScheme&concatWrites == 0 || req2.flags&flagRead != 0 {
		return false
	}
	if req1 == q.list || req1 == req2 || !q.readyToGo(req1) || !q.readyToGo(req2) ||
		req1.blkno+req1.totalSize != req2.blkno || req1.totalSize+req2.totalSize > q.concatMax {
		return false
	}
	if t := req1.iolist; t == nil {
		req1.iolist = req2.iolist
	} else {
		for t.next != nil {
			t = t.next
		}
		t.next = req2.iolist
	}
	req1.next = req2.next
	req1.next.prev = req1
	req1.reqCnt += req2.reqCnt
	req1.totalSize += req2.totalSize
	if q.list == req2 {
		q.list = req1
	}
	q.iobufCnt--
	return true
}

// concatenated returns a new request for iobuf t's concatenation, as
// ioqueue_get_next_request_from_subqueue builds it: the first request's
// fields, t's block, size and flags. Its other fields are what the
// event pool held; the disk reads its diskreq from one of them.
func (q *ioqueue) concatenated(t *iobuf) *event {
	if q.undefinedConcat != "" {
		panic(undefinedAt{q.undefinedConcat})
	}
	first := t.iolist
	r := q.alloc()
	r.typ = first.typ
	r.bcount = t.totalSize
	r.blkno = t.blkno
	r.flags = t.flags
	r.busno = first.busno
	r.opid = t.opid
	r.id = first.id
	return r
}

// seqHead reports whether cur starts a stream: true unless the scheme
// detects streams and cur continues the ready request before it, of a
// kind the scheme streams, starting at its first block or within the
// diff maximum after its end (reads) or right at its end (writes)
// (ioqueue_seqstream_head).
func (q *ioqueue) seqHead(head, cur *iobuf) bool {
	if q.seqScheme&(seqReads|seqWrites|seqEither) == 0 {
		return true
	}
	if cur == head || !q.readyToGo(cur.prev) {
		return true
	}
	prev := cur.prev
	head1 := false
	if cur.flags&flagRead != 0 {
		if prev.flags&flagRead != 0 {
			head1 = q.seqScheme&(seqReads|seqEither) == 0
		} else {
			head1 = q.seqScheme&seqEither == 0
		}
		if prev.blkno != cur.blkno && prev.blkno+prev.totalSize+q.seqDiff < cur.blkno {
			head1 = true
		}
		return head1
	}
	if prev.flags&flagRead != 0 {
		head1 = q.seqScheme&seqEither == 0
	} else {
		head1 = q.seqScheme&(seqWrites|seqEither) == 0
	}
	if prev.blkno != cur.blkno && prev.blkno+prev.totalSize != cur.blkno {
		head1 = true
	}
	return head1
}

// accessDone is ioqueue_physical_access_done for the driver's queue:
// it removes the iobuf holding w and returns the requests it completes,
// linked by next: w alone, or a concatenation's requests, followed by
// the waiting requests the overlapping request scheme combines with
// them. It returns nil when w is not pending.
func (q *ioqueue) accessDone(w *event, now float64) *event {
	t := q.remove(w)
	if t == nil {
		return nil
	}
	ret := t.iolist
	if t.reqCnt == 1 {
		ret = w
		w.bcount = t.totalSize
		w.time = t.startTime
		w.next = nil
	}
	if q.overlaps != 0 {
		arrMax := ret.time
		if q.overlaps == 1 {
			arrMax = now
		}
		q.combineOverlaps(ret, arrMax, now)
	}
	return ret
}

// combineOverlaps completes, with ret, every waiting request for the
// same blocks (and, when ret reads, reading) that arrived by arrMax:
// each is handed out and removed as the source does
// (ioqueue_clobber_overlaps_subqueue, which looks at the newest first,
// then from the oldest on) and linked after ret.
func (q *ioqueue) combineOverlaps(ret *event, arrMax, now float64) {
	read := ret.flags&flagRead != 0
	overlaps := func(t *iobuf) bool {
		return t.state == iobWaiting && t.blkno == ret.blkno && t.totalSize == ret.bcount &&
			(!read || t.flags&flagRead != 0) && t.iolist.time <= arrMax
	}
	for q.list != nil {
		t := q.list
		if !overlaps(t) {
			for t = t.next; t != q.list && !overlaps(t); t = t.next {
			}
			if t == q.list {
				return
			}
		}
		if t.reqCnt != 1 {
			abortf("an overlapping request is a concatenation (ioqueue_clobber_overlaps_subqueue asserts reqcnt == 1)")
		}
		done := q.getSpecific(t.iolist, now)
		if done == nil || q.remove(done) == nil {
			abortf("an overlapping request is not found (ioqueue_clobber_overlaps_subqueue)")
		}
		done.next = ret.next
		ret.next = done
	}
}
