package exact

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// table is an estimator with fixed figures per block: positioning
// (servTime) and seek times in ms and distances in cylinders, whatever
// the arm's position. Like the disk's, its estimates stop at maxTime:
// a seek that reaches it prices the request at maxTime+1.
type table struct {
	now        float64
	serv, seek map[int]float64
	cyl        map[int]int
	calls      []int // blocks priced, in order
}

func (e *table) simTime() float64 { return e.now }

func (e *table) servTime(blkno, _, _ int, _ bool, maxTime float64) float64 {
	e.calls = append(e.calls, blkno)
	if !(e.seek[blkno] < maxTime) {
		return maxTime + 1
	}
	return e.serv[blkno]
}

func (e *table) seekTime(blkno, _ int, maxTime float64) float64 {
	if !(e.seek[blkno] < maxTime) {
		return maxTime + 1
	}
	return e.seek[blkno]
}

func (e *table) accTime() float64 {
	abortf("acctime")
	return 0
}

func (e *table) distance(blkno, from int) int {
	c := 0
	if from != -1 {
		c = e.cyl[from]
	}
	return absInt(e.cyl[blkno] - c)
}

// fourQueued returns a queue under policy holding 50, 10, 90 and 30 (in
// arrival order, reads, each added at its time in at) after 60 was
// handed out, with positioning times 4, 1, 3 and 1 ms and seeks of half
// that.
func fourQueued(policy int, at ...float64) (*ioqueue, *table) {
	e := &table{serv: map[int]float64{60: 2, 50: 4, 10: 1, 90: 3, 30: 1}, cyl: map[int]int{60: 6, 50: 5, 10: 1, 90: 9, 30: 3}}
	e.seek = map[int]float64{}
	for b, t := range e.serv {
		e.seek[b] = t / 2
	}
	q := &ioqueue{sched: policy, lbnState: lbnState{dir: dirAsc, numBlocks: 1000},
		posState: posState{est: e, readDelay: 0.5, writeDelay: 0.25, weight: 10}}
	q.add(&event{blkno: 60, bcount: 1, flags: flagRead, opid: 1}, 0)
	q.next(0)
	for i, b := range []int{50, 10, 90, 30} {
		now := 0.0
		if i < len(at) {
			now = at[i]
		}
		q.add(&event{blkno: b, bcount: 1, flags: flagRead, opid: i + 2}, now)
	}
	e.calls = nil
	return q, e
}

// chosen is the block q hands out next.
func chosen(q *ioqueue) int {
	if b := q.pick(); b != nil {
		return b.blkno
	}
	return -1
}

// TestSPTFChoice works ioqueue_get_request_from_opt_sptf_queue by hand.
// The list runs in block order: 10, 30, 50, 90. Each read is priced at
// the read delay (0.5 ms) plus its positioning time, and the best price
// so far bounds the next estimate: 10 costs 1.5; 30 costs 1.5 too (not
// less: the first of equals stays); 50's estimate is asked to stop at
// 1.0 ms, its seek (2 ms) reaches that, and it is priced at 2.5; 90
// likewise. SPTF_OPT takes 10; the order it then serves is 10, 30, 90,
// 50 (each figure fixed here, whatever the arm).
func TestSPTFChoice(t *testing.T) {
	q, e := fourQueued(schedSPTF)
	assert.Equal(t, 10, chosen(q))
	assert.Equal(t, []int{10, 30, 50, 90}, e.calls, "priced from the list's head")
	e.serv[30] = 0.75
	assert.Equal(t, 30, chosen(q), "a lower price wins wherever it is")
	e.serv[30] = 1
	var order []int
	for r := q.next(0); r != nil; r = q.next(0) {
		order = append(order, r.blkno)
		q.done(r)
	}
	assert.Equal(t, []int{10, 30, 90, 50}, order)
}

// TestSPTFWriteDelay: a write pays the write initiation delay (0.25 ms)
// instead of the read's (0.5): a write to 90 costing 3.25 still loses
// to 10's 1.5, but one costing 1.0 + 0.25 wins.
func TestSPTFWriteDelay(t *testing.T) {
	q, e := fourQueued(schedSPTF)
	for b := q.list.next; ; b = b.next {
		if b.blkno == 90 {
			b.flags = 0
			break
		}
	}
	assert.Equal(t, 10, chosen(q))
	e.serv[90], e.seek[90] = 1, 0.5
	assert.Equal(t, 90, chosen(q))
}

// TestAgedSPTFChoice: the aged variants at 8 ms, with 50, 10, 90 and 30
// queued at 0, 7, 7 and 7 ms (ages 8, 1, 1, 1) and weight 10:
//   - ASPTF_OPT subtracts age*weight/1000 ms from the delay: 10 costs
//     0.49 + 1; 50's delay of 0.42 leaves 1.07 ms for its estimate, its
//     2 ms seek reaches that, and it costs 0.42 + 2.07: 10 wins;
//   - WPTF_OPT scales each price by (weight - age)/weight after the
//     estimate: 10's 1.5 becomes 1.35; 50's estimate stops at 0.85 ms
//     (priced 0.5 + 1.85) and becomes 2.35*0.2 = 0.47: 50 wins;
//   - PRI_ASPTF_OPT subtracts only for time-critical requests: SPTF.
func TestAgedSPTFChoice(t *testing.T) {
	at := []float64{0, 7, 7, 7}
	q, e := fourQueued(schedASPTF, at...)
	e.now = 8
	assert.Equal(t, 10, chosen(q))
	q, e = fourQueued(schedWPTF, at...)
	e.now = 8
	assert.Equal(t, 50, chosen(q))
	q, e = fourQueued(schedPriASPTF, at...)
	e.now = 8
	assert.Equal(t, 10, chosen(q))
}

// TestSATFStops: SATF_OPT (and WATF_OPT, ASATF_OPT, TSPS) asks for an
// access-time estimate, which DiskSim 4.0 asserts on
// (disk_buffer_estimate_acctime): the first choice between two requests
// stops the run. A lone request needs no choice.
func TestSATFStops(t *testing.T) {
	for _, p := range []int{schedSATF, schedWATF, schedASATF, schedTSPS} {
		q, _ := fourQueued(p)
		assert.PanicsWithValue(t, abort{"acctime"}, func() { q.pick() }, "policy %d", p)
	}
	e := &table{serv: map[int]float64{7: 1}, seek: map[int]float64{7: 0.5}}
	q := &ioqueue{sched: schedSATF, posState: posState{est: e}}
	q.add(&event{blkno: 7, bcount: 1, flags: flagRead, opid: 1}, 0)
	r := q.next(0)
	require.NotNil(t, r)
	assert.Equal(t, 7, r.blkno)
}

// TestRotationPolicies: with latency_weight 0 (no parameter sets it),
//   - SPTF_ROT_OPT is SPTF_OPT: 10;
//   - SPTF_ROT_WEIGHT takes, among the requests at the least price
//     (10 and 30 at 1.5), the one with the most rotation (positioning
//     less seek), the last of equals: 30 (0.5 each);
//   - SPTF_SEEK_WEIGHT takes, in list order, a request at the least
//     price so far with a shorter seek than the one taken: 10, as 30's
//     seek is not shorter. With 30's seek 0.25 (rotation 0.75), both
//     take 30.
func TestRotationPolicies(t *testing.T) {
	q, _ := fourQueued(schedSPTFRotOpt)
	assert.Equal(t, 10, chosen(q))
	q, _ = fourQueued(schedSPTFRotWeight)
	assert.Equal(t, 30, chosen(q))
	q, _ = fourQueued(schedSPTFSeekWeight)
	assert.Equal(t, 10, chosen(q))
	for _, p := range []int{schedSPTFRotWeight, schedSPTFSeekWeight} {
		q, e := fourQueued(p)
		e.seek[30] = 0.25
		assert.Equal(t, 30, chosen(q), "policy %d", p)
	}
}

// TestSDFChoice: SDF_EXACT measures cylinders from the arm (cylinder 0
// for the table): 10 on cylinder 1; SDF_APPROX from the queue's last
// block, 60 (cylinder 6): 50 on cylinder 5.
func TestSDFChoice(t *testing.T) {
	q, _ := fourQueued(schedSDFExact)
	assert.Equal(t, 10, chosen(q))
	q, _ = fourQueued(schedSDFApprox)
	assert.Equal(t, 50, chosen(q))
}
