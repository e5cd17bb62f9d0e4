package exact

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// serve hands out first alone, then queues rest while first is
// pending, completes first and hands out and completes the rest one at
// a time, as a driver without queueing in the subsystem does. It
// returns the blocks in the order handed out.
func serve(policy, first int, rest ...int) []int {
	return serveQueue(&ioqueue{sched: policy, lbnState: lbnState{dir: dirAsc, numBlocks: 1000}}, first, rest...)
}

// serveQueue is serve on queue q.
func serveQueue(q *ioqueue, first int, rest ...int) []int {
	opid := 0
	add := func(blk int) {
		opid++
		q.add(&event{blkno: blk, bcount: 1, flags: flagRead, opid: opid}, 0)
	}
	add(first)
	cur := q.next(0)
	for _, b := range rest {
		add(b)
	}
	var order []int
	for cur != nil {
		order = append(order, cur.blkno)
		if !q.done(cur) {
			return nil
		}
		cur = q.next(0)
	}
	return order
}

// TestLBNPolicies checks each policy's order against the hand-worked
// rules of src/disksim_ioqueue.c. After block 60 the queue holds 50,
// 10, 90 and 30 (in arrival order):
//   - FCFS serves them as they came;
//   - SSTF_LBN measures from the block after the last one served (61):
//     50 (11 away) before 90 (29), then 30 and 10, then 90;
//   - VSCAN_LBN is SSTF_LBN, its vscan_cyls never being set;
//   - ELEVATOR_LBN measures from the last block served (60) and adds
//     the disk's size (1,000 blocks) to turning back: 90, then down;
//   - CYCLE_LBN goes up from 60 and wraps to the lowest block.
func TestLBNPolicies(t *testing.T) {
	for _, c := range []struct {
		name   string
		policy int
		want   []int
	}{
		{"FCFS", schedFCFS, []int{60, 50, 10, 90, 30}},
		{"SSTF_LBN", schedSSTFLBN, []int{60, 50, 30, 10, 90}},
		{"VSCAN_LBN", schedVScanLBN, []int{60, 50, 30, 10, 90}},
		{"ELEVATOR_LBN", schedElevatorLBN, []int{60, 90, 50, 30, 10}},
		{"CYCLE_LBN", schedCycleLBN, []int{60, 90, 10, 30, 50}},
	} {
		assert.Equal(t, c.want, serve(c.policy, 60, 50, 10, 90, 30), c.name)
	}
}

// TestSSTFTiesAlternate: with 51 and 71 both 10 blocks from 61, the
// first tie goes up (sstfupdown starts at 0) and the next one down.
func TestSSTFTiesAlternate(t *testing.T) {
	assert.Equal(t, []int{60, 71, 51}, serve(schedSSTFLBN, 60, 51, 71))
	// after 60: 71 is the tie's upward choice; from 72, 51 and 93 tie
	// at 21 and the second tie goes down
	assert.Equal(t, []int{60, 71, 51, 93}, serve(schedSSTFLBN, 60, 51, 71, 93))
}

// TestSimulatedPolicy lists what exact mode models.
func TestSimulatedPolicy(t *testing.T) {
	for n := -1; n <= 30; n++ {
		want := n >= 1 && n <= 27
		assert.Equal(t, want, SimulatedPolicy(n), "policy %d", n)
	}
}

// tenPerCylinder is a queue under policy whose cylinder mapping puts
// ten blocks on each of 100 cylinders, on one surface.
func tenPerCylinder(policy int) *ioqueue {
	return &ioqueue{sched: policy, lbnState: lbnState{dir: dirAsc, numBlocks: 1000},
		cylState: cylState{numCyls: 100, mapping: func(lbn int) (int, int) { return lbn / 10, 0 }}}
}

// TestCylinderPolicies checks the cylinder policies' orders against
// the hand-worked rules of src/disksim_ioqueue.c, ten blocks a
// cylinder. After block 60 (cylinder 6) the queue holds 50, 10, 90, 30
// and 65 (in arrival order):
//   - all but VSCAN_CYL first take 65, the ready request on the last
//     cylinder at or after the last block
//     (ioqueue_identify_request_on_cylinder);
//   - SSTF_CYL then measures cylinders from 65's: 50 (1 away) before
//     90 (3), then down to 30 and 10, then 90;
//   - ELEVATOR_CYL adds the disk's 100 cylinders to turning back: 90,
//     then down;
//   - CYCLE_CYL goes up and wraps to the lowest cylinder;
//   - VSCAN_CYL never moves its last block (0, cylinder 0): it always
//     takes the lowest block.
func TestCylinderPolicies(t *testing.T) {
	for _, c := range []struct {
		name   string
		policy int
		want   []int
	}{
		{"SSTF_CYL", schedSSTFCyl, []int{60, 65, 50, 30, 10, 90}},
		{"ELEVATOR_CYL", schedElevatorCyl, []int{60, 65, 90, 50, 30, 10}},
		{"CYCLE_CYL", schedCycleCyl, []int{60, 65, 90, 10, 30, 50}},
		{"VSCAN_CYL", schedVScanCyl, []int{60, 10, 30, 50, 65, 90}},
	} {
		assert.Equal(t, c.want, serveQueue(tenPerCylinder(c.policy), 60, 50, 10, 90, 30, 65), c.name)
	}
}

// TestSSTFCylTiesByCylinder: 51 and 79 are one cylinder either side of
// 60's, a tie the first time going up (SSTF_LBN takes 51, 10 blocks
// from 61 against 79's 18).
func TestSSTFCylTiesByCylinder(t *testing.T) {
	assert.Equal(t, []int{60, 79, 51}, serveQueue(tenPerCylinder(schedSSTFCyl), 60, 51, 79))
	assert.Equal(t, []int{60, 51, 79}, serve(schedSSTFLBN, 60, 51, 79))
}

// TestCylinderPolicyUnmapped: under cylinder mapping 0 every block is
// on cylinder 0, so SSTF_CYL takes the first ready block at or after
// the last one served and wraps to the lowest.
func TestCylinderPolicyUnmapped(t *testing.T) {
	q := &ioqueue{sched: schedSSTFCyl, lbnState: lbnState{dir: dirAsc, numBlocks: 1000}}
	assert.Equal(t, []int{60, 90, 10, 30, 50}, serveQueue(q, 60, 50, 10, 90, 30))
}

// TestValidCylinderMapping: DiskSim 4.0 knows strategies 0-6.
func TestValidCylinderMapping(t *testing.T) {
	for m := -2; m <= 8; m++ {
		assert.Equal(t, m >= 0 && m <= 6, ValidCylinderMapping(m), "mapping %d", m)
	}
}
