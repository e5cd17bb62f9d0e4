package exact

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lbnQueue is an SSTF_LBN queue of a 1,000-block disk with sequential
// stream scheme seq and diff maximum diff.
func lbnQueue(seq, diff int) *ioqueue {
	return &ioqueue{sched: schedSSTFLBN, lbnState: lbnState{dir: dirAsc, numBlocks: 1000},
		seqStream: seqStream{seqScheme: seq, seqDiff: diff}}
}

// TestSeqStreamHead works ioqueue_seqstream_head by hand. After block
// 50 (one block) SSTF_LBN measures from 51 and the queue holds 50 and
// 51: 51 is nearer, but under stream detection for reads (4, or 16 for
// either) it continues the ready read of 50 before it and is passed
// over, so 50 goes first; detection for writes (8) leaves reads alone.
// After block 54 the queue holds 50 and 55: 55 starts a stream unless
// the diff maximum reaches from 51 to it (4 blocks).
func TestSeqStreamHead(t *testing.T) {
	for _, c := range []struct {
		seq, diff, first int
		rest, want       []int
	}{
		{0, 0, 50, []int{50, 51}, []int{50, 51, 50}},
		{seqReads, 0, 50, []int{50, 51}, []int{50, 50, 51}},
		{seqEither, 0, 50, []int{50, 51}, []int{50, 50, 51}},
		{seqWrites, 0, 50, []int{50, 51}, []int{50, 51, 50}},
		{seqReads, 0, 54, []int{50, 55}, []int{54, 55, 50}},
		{seqReads, 3, 54, []int{50, 55}, []int{54, 55, 50}},
		{seqReads, 4, 54, []int{50, 55}, []int{54, 50, 55}},
	} {
		assert.Equal(t, c.want, serveQueue(lbnQueue(c.seq, c.diff), c.first, c.rest...), "scheme %d, diff %d", c.seq, c.diff)
	}
}

// concatQueue is a queue under policy with concatenation scheme seq
// and a maximum of max blocks, taking events from the heap.
func concatQueue(policy, seq, max int) *ioqueue {
	return &ioqueue{sched: policy, lbnState: lbnState{dir: dirAsc, numBlocks: 1000},
		seqStream: seqStream{seqScheme: seq, concatMax: max, alloc: func() *event { return &event{} }}}
}

// queueAll hands out a request for block 500 and queues reqs behind it.
func queueAll(q *ioqueue, reqs ...event) *event {
	q.add(&event{blkno: 500, bcount: 8, flags: flagRead, opid: 99}, 0)
	first := q.next(0)
	for i := range reqs {
		e := reqs[i]
		e.opid = i + 1
		q.add(&e, 0)
	}
	return first
}

// TestConcatenation works ioqueue_check_concat by hand: behind a
// pending request, reads of blocks 20-27 and 28-35 become one request
// of 16 blocks when the scheme concatenates reads and the maximum
// allows 16; writes, a maximum of 12 or a read after a write stay
// apart. Handed out, the concatenation is a new request for blocks
// 20-35 with the first request's operation; completed, it completes
// both. Under FCFS a request arriving before its neighbour (28 then 20)
// is not joined to it (the newest iobuf, the list's tail, is never the
// first of a pair); ELEVATOR_LBN sorts 20 before 28 and joins them.
func TestConcatenation(t *testing.T) {
	rd := func(blk int) event { return event{blkno: blk, bcount: 8, flags: flagRead} }
	wr := func(blk int) event { return event{blkno: blk, bcount: 8} }
	for _, c := range []struct {
		name               string
		policy, seq, max   int
		reqs               []event
		wantBufs, wantSize int
	}{
		{"reads", schedFCFS, concatReads, 16, []event{rd(20), rd(28)}, 1, 16},
		{"reads, no scheme", schedFCFS, concatWrites, 16, []event{rd(20), rd(28)}, 2, 8},
		{"writes", schedFCFS, concatWrites, 16, []event{wr(20), wr(28)}, 1, 16},
		{"over the maximum", schedFCFS, concatBoth, 12, []event{rd(20), rd(28)}, 2, 8},
		{"write then read", schedFCFS, concatBoth, 64, []event{wr(20), rd(28)}, 2, 8},
		{"FCFS, later block first", schedFCFS, concatReads, 16, []event{rd(28), rd(20)}, 2, 8},
		{"ELEVATOR_LBN, later block first", schedElevatorLBN, concatReads, 16, []event{rd(28), rd(20)}, 1, 16},
	} {
		q := concatQueue(c.policy, c.seq, c.max)
		first := queueAll(q, c.reqs...)
		require.True(t, q.done(first), c.name)
		assert.Equal(t, c.wantBufs, q.iobufCnt, c.name)
		r := q.next(0)
		require.NotNil(t, r, c.name)
		assert.Equal(t, c.wantSize, r.bcount, c.name)
		if c.wantBufs == 1 {
			assert.Equal(t, 20, r.blkno, c.name)
			list := q.accessDone(r, 1)
			var got []int
			for e := list; e != nil; e = e.next {
				got = append(got, e.blkno)
			}
			assert.ElementsMatch(t, []int{20, 28}, got, c.name)
			assert.Equal(t, 0, q.listLen, c.name)
		}
	}
}

// TestOverlaps works ioqueue_clobber_overlaps_subqueue by hand: a read
// of blocks 10-17 handed out at 0 ms completes at 5 ms; waiting behind
// it are a read of the same blocks that arrived at 1 ms, a write of
// them, and a read of 10-13. Scheme 1 completes the read that arrived
// by now with it, another scheme only what arrived by its start (none);
// a completed write also completes reads of its blocks.
func TestOverlaps(t *testing.T) {
	for _, c := range []struct {
		scheme int
		read   bool
		want   []int // opids completed
	}{
		{0, true, []int{0}},
		{1, true, []int{0, 1}},
		{2, true, []int{0}},
		{1, false, []int{0, 2, 1}},
	} {
		q := &ioqueue{sched: schedFCFS, seqStream: seqStream{overlaps: c.scheme}}
		first := &event{blkno: 10, bcount: 8}
		if c.read {
			first.flags = flagRead
		}
		q.add(first, 0)
		require.Equal(t, first, q.next(0))
		q.add(&event{blkno: 10, bcount: 8, flags: flagRead, opid: 1}, 1)
		q.add(&event{blkno: 10, bcount: 8, opid: 2}, 2)
		q.add(&event{blkno: 10, bcount: 4, flags: flagRead, opid: 3}, 3)
		var got []int
		for e := q.accessDone(first, 5); e != nil; e = e.next {
			got = append(got, e.opid)
		}
		assert.Equal(t, c.want, got, "scheme %d, read %v", c.scheme, c.read)
		assert.Equal(t, 4-len(c.want), q.listLen)
	}
}

// TestDiskQueueOverlaps: exact mode refuses combining overlapping
// requests on the disk's queue (DiskSim asserted in
// ioqueue_get_specific_request_from_subqueue after 117 requests of a
// generated pair whose driver sends one request at a time), unless the
// driver computes every time and the disk gets no request.
func TestDiskQueueOverlaps(t *testing.T) {
	m := c700Model(ctlrPassThru, 0.01, 0)
	m.Queue.Overlaps = 1
	assert.ErrorContains(t, m.Check(), "Overlapping request scheme = 1: exact mode simulates it on the driver's queue only")
	m.DriverConstTime = 2.5
	assert.NoError(t, m.Check())
}
