package exact

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// priQueue is a PRI_VSCAN_LBN queue over 1,000 blocks with the given
// "Timeout scheduling", priority factor and age factor.
func priQueue(timeoutPolicy, priFactor, ageFactor int32) *ioqueue {
	return &ioqueue{sched: schedPriVScanLBN, lbnState: lbnState{dir: dirAsc, numBlocks: 1000},
		priState: priState{timeoutPolicy: timeoutPolicy, priFactor: priFactor, ageFactor: ageFactor}}
}

// TestPriVScanDistances works PRI_VSCAN_LBN's orders by hand. After
// block 60 (its last block is the block itself) the queue holds 50,
// 10, 90 and 30, all reads, in arrival order; without priority or age
// factors the highest 1000 - distance wins, the first in arrival order
// on a tie:
//   - "Timeout scheduling" 4 (SSTF_LBN, as any value but 2 and 3): 50
//     (10 away), then 30 (20 from 50), then 10 (20 from 30, against
//     90's 60), then 90;
//   - 3 (CYCLE_LBN): upwards, wrapping: 90, 10, 30, 50;
//   - 2 (ELEVATOR_LBN): turning back costs 1,000 blocks; the direction
//     is set only when the queue holds one request (ASC after 60), so
//     after 90 every request is behind and the nearest wins: 50, 30,
//     10.
func TestPriVScanDistances(t *testing.T) {
	for _, c := range []struct {
		timeoutPolicy int32
		want          []int
	}{
		{schedSSTFLBN, []int{60, 50, 30, 10, 90}},
		{1, []int{60, 50, 30, 10, 90}},
		{schedCycleLBN, []int{60, 90, 10, 30, 50}},
		{schedElevatorLBN, []int{60, 90, 50, 30, 10}},
	} {
		assert.Equal(t, c.want, serveQueue(priQueue(c.timeoutPolicy, 0, 0), 60, 50, 10, 90, 30), "timeout scheduling %d", c.timeoutPolicy)
	}
}

// TestPriVScanPriority: with a priority factor of 50 a read gains 500
// (50% of 1,000 blocks) over a write. From 60, the write to 61 scores
// 999, the reads of 300 and 200 760 and 860 (+500): 200 first, then
// 300 (900 + 500 against the write's 861), then the write.
func TestPriVScanPriority(t *testing.T) {
	q := priQueue(schedSSTFLBN, 50, 0)
	add := func(blk, flags, opid int) { q.add(&event{blkno: blk, bcount: 1, flags: flags, opid: opid}, 0) }
	add(60, flagRead, 1)
	cur := q.next(0)
	add(61, 0, 2)
	add(300, flagRead, 3)
	add(200, flagRead, 4)
	var order []int
	for cur != nil {
		order = append(order, cur.blkno)
		assert.True(t, q.done(cur))
		cur = q.next(0)
	}
	assert.Equal(t, []int{60, 200, 300, 61}, order)
}

// TestPriVScanAge: with an age factor of 1,280 a request gains one
// point a whole ms since its start time, and a request not yet started
// has start time -1: at 100 ms the unstarted request to 70 (10 away:
// 990 + 101) beats the one to 62 (2 away: 998), started at 95 ms (+5).
func TestPriVScanAge(t *testing.T) {
	now := 0.0
	q := priQueue(schedSSTFLBN, 0, 1280)
	q.clock = &now
	q.add(&event{blkno: 60, bcount: 1, flags: flagRead, opid: 1}, 0)
	cur := q.next(0)
	q.add(&event{blkno: 70, bcount: 1, flags: flagRead, opid: 2}, 0)
	w := &event{blkno: 62, bcount: 1, flags: flagRead, opid: 3}
	q.add(w, 0)
	q.setStartTime(w, 95)
	assert.True(t, q.done(cur))
	now = 100
	assert.Equal(t, 70, q.next(now).blkno)
	assert.Equal(t, int32(-2147483648), cInt(3e9))
	assert.Equal(t, int32(-7), cInt(-7.9))
}
