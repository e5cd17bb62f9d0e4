package trace

import (
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// varDev completes each request after a latency that depends on its
// offset (1 ms plus 0.1 ms per block modulo 7), so order matters, and
// logs every submission and completion.
type varDev struct {
	eng  *sim.Engine
	log  []string
	subs []sim.Time
}

func (d *varDev) Capacity() int64 { return 1 << 30 }
func (d *varDev) SectorSize() int { return 512 }
func (d *varDev) Submit(r *sim.Request) error {
	if err := sim.CheckRequest(r, d.Capacity(), d.SectorSize()); err != nil {
		return err
	}
	r.Issued = d.eng.Now()
	d.subs = append(d.subs, r.Issued)
	lat := time.Millisecond + time.Duration(r.Offset/4096%7)*100*time.Microsecond
	d.eng.After(lat, d, r)
	return nil
}
func (d *varDev) HandleEvent(now sim.Time, arg any) {
	r := arg.(*sim.Request)
	r.Completed = now
	d.log = append(d.log, r.String()+"@"+now.String())
	r.Done(r)
}

// randomRecords returns n reads and writes of 4 KiB at random blocks.
func randomRecords(n int, seed uint64) []Record {
	rng := rand.New(rand.NewPCG(seed, 1))
	recs := make([]Record, n)
	for i := range recs {
		op := sim.Read
		if rng.IntN(2) == 0 {
			op = sim.Write
		}
		recs[i] = Record{Op: op, Offset: rng.Int64N(1<<18) * 4096, Length: 4096}
	}
	return recs
}

// TestOneJobIsReplaysClosedLoop: an unpaced job of depth N issues and
// completes exactly what Replay's closed loop at depth N does, at the
// same times, with the same request numbers.
func TestOneJobIsReplaysClosedLoop(t *testing.T) {
	for _, depth := range []int{1, 4, 32} {
		recs := randomRecords(500, uint64(depth))
		run := func(jobs bool) (ReplayResult, []string, []uint64) {
			eng := sim.NewEngine(1)
			dev := &varDev{eng: eng}
			var ids []uint64
			note := func(_ *Record, q *sim.Request) { ids = append(ids, q.ID) }
			var res ReplayResult
			var err error
			if jobs {
				res, _, err = RunJobs(eng, dev, []Job{{Source: NewSliceReader(recs), IODepth: depth}},
					JobsOptions{OnComplete: func(_ int, rec *Record, q *sim.Request) { note(rec, q) }})
			} else {
				res, err = Replay(eng, dev, NewSliceReader(recs), ReplayOptions{IODepth: depth, OnComplete: note})
			}
			if err != nil {
				t.Fatal(err)
			}
			return res, dev.log, ids
		}
		a, alog, aids := run(false)
		b, blog, bids := run(true)
		if a != b || !reflect.DeepEqual(alog, blog) || !reflect.DeepEqual(aids, bids) {
			t.Errorf("depth %d: RunJobs %+v differs from Replay %+v (same log %v, ids %v)", depth, b, a,
				reflect.DeepEqual(alog, blog), reflect.DeepEqual(aids, bids))
		}
	}
}

// issueTimes runs one job of n 4 KiB reads on a fakeDev of latency lat
// and returns the submission times in ms.
func issueTimes(t *testing.T, n int, lat time.Duration, job Job) ([]float64, JobResult) {
	t.Helper()
	eng := sim.NewEngine(1)
	dev := &fakeDev{eng: eng, lat: lat, record: true}
	job.Source = NewSliceReader(seqRecords(n, 0, 0))
	if job.MinBlock == 0 {
		job.MinBlock = 4096
	}
	_, res, err := RunJobs(eng, dev, []Job{job}, JobsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, len(dev.issued))
	for i, at := range dev.issued {
		out[i] = float64(at) / 1e6
	}
	return out, res[0]
}

// TestRateLinear: rate_iops=100 issues every 10 ms while the device
// keeps up; rate in bytes does the same; behind schedule, fio's inline
// mode first waits for the request in flight then the time it was
// ahead (0, then 30+10), and catches up; offload mode keeps the
// schedule exactly.
func TestRateLinear(t *testing.T) {
	iops := [3]int64{100, 100, 100}
	got, _ := issueTimes(t, 5, time.Millisecond, Job{Pacing: Pacing{RateIOPS: iops}})
	want := []float64{0, 10, 20, 30, 40}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rate_iops=100: issued at %v ms, want %v", got, want)
	}
	got, _ = issueTimes(t, 5, time.Millisecond, Job{Pacing: Pacing{Rate: [3]int64{409600, 409600, 409600}}})
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rate=400KiB: issued at %v ms, want %v", got, want)
	}
	// 30 ms a request, depth 4: #1 at 0; #2 ahead by 10 ms: waits for
	// #1 (30) then 10 ms: 40; #3, #4, #5 are due (20, 30, 40): 40; the
	// depth is full until #2 completes at 70: #6 (due 50) at 70.
	got, _ = issueTimes(t, 6, 30*time.Millisecond, Job{IODepth: 4, Pacing: Pacing{RateIOPS: iops}})
	want = []float64{0, 40, 40, 40, 40, 70}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("inline behind schedule: issued at %v ms, want %v", got, want)
	}
	got, _ = issueTimes(t, 6, 30*time.Millisecond, Job{IODepth: 4, Pacing: Pacing{RateIOPS: iops, Offload: true}})
	want = []float64{0, 10, 20, 30, 40, 50}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("offload: issued at %v ms, want %v", got, want)
	}
}

// TestRatePoisson: Poisson pacing at 1000 requests/s gives exponential
// gaps: their mean within 3 standard errors of 1 ms and their
// coefficient of variation near 1.
func TestRatePoisson(t *testing.T) {
	const n = 20000
	got, _ := issueTimes(t, n, 10*time.Microsecond, Job{IODepth: 64,
		Pacing: Pacing{RateIOPS: [3]int64{1000, 1000, 1000}, Poisson: true, Offload: true},
		Rand:   rand.New(rand.NewPCG(5, 5))})
	var sum, sq float64
	for i := 1; i < n; i++ {
		g := got[i] - got[i-1]
		sum += g
		sq += g * g
	}
	mean := sum / (n - 1)
	cv := math.Sqrt(sq/(n-1)-mean*mean) / mean
	if math.Abs(mean-1) > 3/math.Sqrt(n) || math.Abs(cv-1) > 0.05 {
		t.Errorf("mean gap %.4f ms (want 1 within %.3f), CV %.3f (want 1)", mean, 3/math.Sqrt(n), cv)
	}
}

// TestThinkTime: think time 5 ms every 2 blocks at depth 1 with 1 ms
// requests: issues at 0, 1, then 2 + 5 = 7, 8, then 14, 15; each stall
// spins 2 ms.
func TestThinkTime(t *testing.T) {
	for _, onIssue := range []bool{false, true} {
		got, res := issueTimes(t, 6, time.Millisecond, Job{Pacing: Pacing{ThinkTime: 5 * time.Millisecond,
			ThinkTimeBlocks: 2, ThinkTimeSpin: 2 * time.Millisecond, ThinkOnIssue: onIssue}})
		want := []float64{0, 1, 7, 8, 14, 15}
		if !reflect.DeepEqual(got, want) || res.Spin != 6*time.Millisecond {
			t.Errorf("on issue %v: issued at %v ms, want %v; spun %v, want 6ms", onIssue, got, want, res.Spin)
		}
	}
	// Depth 4, think every block issued: after each issue the job waits
	// for its request, then 5 ms: issues every 6 ms, one at a time (the
	// iodepth made redundant, as fio's HOWTO says). Counting completed
	// blocks (fio's default), none has completed when the three are
	// issued at 0.
	got, _ := issueTimes(t, 3, time.Millisecond, Job{IODepth: 4, Pacing: Pacing{ThinkTime: 5 * time.Millisecond, ThinkOnIssue: true}})
	if want := []float64{0, 6, 12}; !reflect.DeepEqual(got, want) {
		t.Errorf("depth 4, think every block issued: issued at %v ms, want %v", got, want)
	}
	got, _ = issueTimes(t, 3, time.Millisecond, Job{IODepth: 4, Pacing: Pacing{ThinkTime: 5 * time.Millisecond}})
	if want := []float64{0, 0, 0}; !reflect.DeepEqual(got, want) {
		t.Errorf("depth 4, think every block completed: issued at %v ms, want %v", got, want)
	}
}

// TestJobsTogether: jobs fill their depths in order, a job After
// another starts (after its delay) when that one ended, Runtime and the
// Deadline stop issuing, and a job Beside job 0 stops with it.
func TestJobsTogether(t *testing.T) {
	eng := sim.NewEngine(1)
	dev := &fakeDev{eng: eng, lat: time.Millisecond, record: true}
	jobs := []Job{
		{Source: NewSliceReader(seqRecords(4, 0, 0)), IODepth: 2},
		{Source: NewSliceReader(seqRecords(100, 0, 0)), Beside: true},
		{Source: NewSliceReader(seqRecords(100, 0, 0)), After: []int{0}, StartDelay: 3 * time.Millisecond, Runtime: 5 * time.Millisecond},
	}
	res, per, err := RunJobs(eng, dev, jobs, JobsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Job 0: 4 requests two at a time, ending at 2 ms; job 1 beside it
	// issues at 0 and 1 ms (stopped when job 0's source ran out at 1 ms
	// with its last two requests); job 2 starts at 2 + 3 = 5 ms and
	// issues one a millisecond until 10 ms.
	if per[0].Issued != 4 || per[0].End != sim.Time(2*time.Millisecond) {
		t.Errorf("job 0: %+v", per[0])
	}
	if per[1].Issued != 2 || per[1].RuntimeReached {
		t.Errorf("job 1 (beside): %+v", per[1])
	}
	if per[2].Start != sim.Time(5*time.Millisecond) || per[2].Issued != 5 || !per[2].RuntimeReached {
		t.Errorf("job 2 (after job 0, delay 3ms, runtime 5ms): %+v", per[2])
	}
	if res.Issued != 11 || res.Completed != 11 || res.PeakOutstanding != 3 {
		t.Errorf("all: %+v", res)
	}
	if per[0].Depth != [7]int64{1, 3} {
		t.Errorf("job 0 depth bins %v, want one at 1 and three at 2-3", per[0].Depth)
	}

	eng = sim.NewEngine(1)
	dev = &fakeDev{eng: eng, lat: time.Millisecond}
	res, per, err = RunJobs(eng, dev, []Job{{Source: NewSliceReader(seqRecords(100, 0, 0))}}, JobsOptions{Deadline: 10 * time.Millisecond})
	if err != nil || res.Issued != 10 || !per[0].RuntimeReached {
		t.Errorf("deadline 10ms: %+v %+v %v", res, per[0], err)
	}
}

// TestMixedRateSwitches: a mixed job whose writes alone are rated
// issues reads while its writes are ahead of schedule.
func TestMixedRateSwitches(t *testing.T) {
	recs := make([]Record, 100)
	for i := range recs {
		recs[i] = Record{Op: sim.Write, Offset: int64(i) * 4096, Length: 4096}
	}
	eng := sim.NewEngine(1)
	dev := &fakeDev{eng: eng, lat: time.Millisecond}
	var reads, writes int
	_, _, err := RunJobs(eng, dev, []Job{{Source: NewSliceReader(recs), MinBlock: 4096, Mixed: true,
		Pacing: Pacing{RateIOPS: [3]int64{0, 50, 0}}}}, JobsOptions{OnComplete: func(_ int, _ *Record, q *sim.Request) {
		if q.Op == sim.Read {
			reads++
		} else {
			writes++
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	// A write is due every 20 ms; between them the 1 ms reads go: 19
	// reads a write, after the first write at 0.
	if writes != 5 || reads != 95 {
		t.Errorf("%d writes and %d reads, want 5 and 95", writes, reads)
	}
}

// TestRunJobsErrors: bad jobs are refused, every problem named.
func TestRunJobsErrors(t *testing.T) {
	eng := sim.NewEngine(1)
	dev := &fakeDev{eng: eng, lat: time.Millisecond}
	_, _, err := RunJobs(eng, dev, []Job{
		{Beside: true},
		{Source: NewSliceReader(nil), IODepth: -1, After: []int{1}},
		{Source: NewSliceReader(nil), Pacing: Pacing{RateIOPS: [3]int64{1}, Poisson: true}},
	}, JobsOptions{})
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"jobs[0]: no Source", "jobs[0]: job 0 cannot be Beside", "jobs[1]: IODepth -1",
		"jobs[1]: After names job 1", "jobs[2]: a rated job needs MinBlock", "jobs[2]: Poisson pacing needs Rand"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}
