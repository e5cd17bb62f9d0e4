package trace

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// fakeDev serves each request after a fixed latency, however many are
// outstanding, and records what it saw. It can refuse or fail chosen
// offsets and swallow requests (never calling Done).
type fakeDev struct {
	eng         *sim.Engine
	lat         time.Duration
	outstanding int
	maxOut      int
	submits     int
	record      bool
	issued      []sim.Time // submit times, when record is set
	offsets     []int64

	refuse    int64 // Submit returns an error for this offset (if > 0)
	failWith  int64 // requests at this offset complete with Err (if > 0)
	swallowAt int   // the n-th submit (1-based) never completes (if > 0)
}

var errMedia = errors.New("fake: media error")

func (d *fakeDev) Capacity() int64 { return 1 << 30 }
func (d *fakeDev) SectorSize() int { return 512 }

func (d *fakeDev) Submit(r *sim.Request) error {
	if err := sim.CheckRequest(r, d.Capacity(), d.SectorSize()); err != nil {
		return err
	}
	if d.refuse > 0 && r.Offset == d.refuse {
		return fmt.Errorf("fake: %v: %w", r, sim.ErrOutOfRange)
	}
	d.submits++
	if d.record {
		d.issued = append(d.issued, d.eng.Now())
		d.offsets = append(d.offsets, r.Offset)
	}
	r.Issued = d.eng.Now()
	if d.swallowAt > 0 && d.submits == d.swallowAt {
		return nil
	}
	d.outstanding++
	d.maxOut = max(d.maxOut, d.outstanding)
	d.eng.After(d.lat, d, r)
	return nil
}

func (d *fakeDev) HandleEvent(now sim.Time, arg any) {
	r := arg.(*sim.Request)
	d.outstanding--
	r.Completed = now
	if d.failWith > 0 && r.Offset == d.failWith {
		r.Err = errMedia
	}
	r.Done(r)
}

// seqRecords returns n 4 KiB reads at offsets 0, 4096, ... issued every
// gap of trace time starting at t0.
func seqRecords(n int, t0 sim.Time, gap time.Duration) []Record {
	recs := make([]Record, n)
	for i := range recs {
		recs[i] = Record{Time: t0.Add(time.Duration(i) * gap), Op: sim.Read, Offset: int64(i) * 4096, Length: 4096}
	}
	return recs
}

func TestReplayClosedLoop(t *testing.T) {
	for _, tc := range []struct {
		depth, n int
		wantMax  int
	}{
		{0, 10, 1}, {1, 10, 1}, {4, 100, 4}, {32, 1000, 32}, {16, 5, 5},
	} {
		t.Run(fmt.Sprintf("depth=%d/n=%d", tc.depth, tc.n), func(t *testing.T) {
			eng := sim.NewEngine(1)
			dev := &fakeDev{eng: eng, lat: time.Millisecond, record: true}
			// Record times are ignored by a closed loop: give them a
			// huge spread to be sure.
			src := NewSliceReader(seqRecords(tc.n, 0, time.Hour))
			var seen []uint64
			res, err := Replay(eng, dev, src, ReplayOptions{IODepth: tc.depth,
				OnComplete: func(rec *Record, r *sim.Request) {
					if rec.Offset != r.Offset || r.Offset != int64(r.ID-1)*4096 {
						t.Errorf("record %d at %d completed as request %v", r.ID, rec.Offset, r)
					}
					seen = append(seen, r.ID)
				}})
			if err != nil {
				t.Fatal(err)
			}
			if dev.maxOut != tc.wantMax {
				t.Errorf("max outstanding %d, want %d", dev.maxOut, tc.wantMax)
			}
			if res.Issued != int64(tc.n) || res.Completed != int64(tc.n) || res.Failed != 0 || len(seen) != tc.n {
				t.Errorf("result %+v with %d completions, want %d issued and completed", res, len(seen), tc.n)
			}
			// Depth d at 1ms per request: ceil(n/d) ms.
			d := max(tc.depth, 1)
			want := time.Duration((tc.n+d-1)/d) * time.Millisecond
			if res.FirstIssue != 0 || res.Elapsed() != want || eng.Now() != sim.Time(want) {
				t.Errorf("ran from %v to %v (engine at %v), want 0 to %v", res.FirstIssue, res.LastCompletion, eng.Now(), want)
			}
			for i, off := range dev.offsets {
				if off != int64(i)*4096 {
					t.Fatalf("submit %d at offset %d, want records in order", i, off)
				}
			}
		})
	}
}

func TestReplayOpenLoop(t *testing.T) {
	for _, tc := range []struct {
		speed float64
		t0    sim.Time
		gap   time.Duration
		lat   time.Duration
	}{
		{0, 0, time.Millisecond, 500 * time.Microsecond},
		{1, 0, time.Millisecond, 10 * time.Millisecond}, // many outstanding
		{2, 0, time.Millisecond, 10 * time.Millisecond},
		{0.5, 0, 300 * time.Microsecond, time.Millisecond},
		{4, sim.Time(time.Hour), time.Millisecond, time.Millisecond}, // times rebased to the first
	} {
		t.Run(fmt.Sprintf("speed=%g/lat=%v", tc.speed, tc.lat), func(t *testing.T) {
			eng := sim.NewEngine(1)
			eng.RunUntil(sim.Time(time.Second)) // replay starts at the engine's now
			dev := &fakeDev{eng: eng, lat: tc.lat, record: true}
			const n = 50
			res, err := Replay(eng, dev, NewSliceReader(seqRecords(n, tc.t0, tc.gap)),
				ReplayOptions{Mode: OpenLoop, Speed: tc.speed, IODepth: 1})
			if err != nil {
				t.Fatal(err)
			}
			speed := tc.speed
			if speed == 0 {
				speed = 1
			}
			start := sim.Time(time.Second)
			for i, at := range dev.issued {
				want := start + sim.Time(float64(time.Duration(i)*tc.gap)/speed)
				if at != want {
					t.Errorf("record %d issued at %v, want %v", i+1, at, want)
				}
			}
			wantOut := min(n, int(float64(tc.lat)*speed/float64(tc.gap)+0.999))
			if len(dev.issued) != n || res.Issued != n || res.Completed != n {
				t.Errorf("issued %d (result %+v), want %d", len(dev.issued), res, n)
			}
			if dev.maxOut != wantOut {
				t.Errorf("max outstanding %d, want %d", dev.maxOut, wantOut)
			}
			if last := dev.issued[n-1].Add(tc.lat); res.LastCompletion != last || res.FirstIssue != start {
				t.Errorf("result %v..%v, want %v..%v", res.FirstIssue, res.LastCompletion, start, last)
			}
		})
	}
}

// TestReplayOpenLoopOutOfOrder: an open loop stops at a record earlier
// than the one before it, naming it and hinting at a reorder window,
// after running what it issued; a closed loop ignores times.
func TestReplayOpenLoopOutOfOrder(t *testing.T) {
	recs := []Record{
		{Time: 0, Op: sim.Read, Offset: 0, Length: 512},
		{Time: 5000, Op: sim.Read, Offset: 512, Length: 512},
		{Time: 5000, Op: sim.Read, Offset: 512, Length: 512},   // equal times are in order
		{Time: 1000, Op: sim.Write, Offset: 1024, Length: 512}, // earlier than the one before
		{Time: 5000, Op: sim.Flush},
	}
	eng := sim.NewEngine(1)
	dev := &fakeDev{eng: eng, lat: time.Millisecond}
	res, err := Replay(eng, dev, NewSliceReader(recs), ReplayOptions{Mode: OpenLoop})
	const want = "trace: record 4: time 0.000001 s is before the previous record's 0.000005 s (times from the first record): " +
		"the trace is not sorted by time; replay with --reorder-window D (config: reorder_window: D) to sort records up to D late, " +
		"or --reorder N (config: reorder: N) to sort within a window of N records"
	if err == nil || err.Error() != want {
		t.Fatalf("error %v\nwant %s", err, want)
	}
	var oe *OrderError
	if !errors.As(err, &oe) || *oe != (OrderError{Time: 1000, Previous: 5000}) {
		t.Errorf("OrderError %+v", oe)
	}
	if res.Issued != 3 || res.Completed != 3 {
		t.Errorf("result %+v, want the 3 records before it run", res)
	}

	eng = sim.NewEngine(1)
	res, err = Replay(eng, &fakeDev{eng: eng, lat: time.Millisecond}, NewSliceReader(recs), ReplayOptions{Mode: ClosedLoop})
	if err != nil || res.Completed != int64(len(recs)) {
		t.Errorf("closed loop: %+v, %v", res, err)
	}
}

// shuffledTrace returns n records in time order and the same records
// shuffled within consecutive blocks of block records, as raidsim CSV
// files, and the line of the first record of the shuffled file that is
// earlier than the one before it.
func shuffledTrace(t *testing.T, n, block int) (sorted, shuffled string, line int64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(11, 12))
	recs := make([]Record, n)
	at := sim.Time(0)
	for i := range recs {
		at += sim.Time(rng.IntN(2000)+1) * sim.Time(time.Microsecond)
		recs[i] = Record{Time: at, Op: sim.Op(rng.IntN(2)), Offset: rng.Int64N(1<<18) * 4096, Length: 4096}
	}
	sorted = csvText(t, recs)
	for b := 0; b < n; b += block {
		rng.Shuffle(min(block, n-b), func(i, j int) { recs[b+i], recs[b+j] = recs[b+j], recs[b+i] })
	}
	for i := 1; i < n && line == 0; i++ {
		if recs[i].Time < recs[i-1].Time {
			line = int64(i) + 2 // after the header
		}
	}
	shuffled = csvText(t, recs)
	return sorted, shuffled, line
}

// csvText returns recs as a raidsim CSV file.
func csvText(t *testing.T, recs []Record) string {
	t.Helper()
	var b strings.Builder
	w := NewCSVWriter(&b)
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestReplayShuffledTrace: a trace shuffled within blocks of 8 records
// fails in open loop with an error naming its line and the reorder hint;
// through Reorder with a window of 8 it replays exactly as the sorted
// trace does (every request issued and completed at the same times), and
// a window of 2 is an error asking for a larger one.
func TestReplayShuffledTrace(t *testing.T) {
	const block = 8
	sorted, shuffled, line := shuffledTrace(t, 400, block)
	type done struct {
		id               uint64
		op               sim.Op
		offset           int64
		issued, complete sim.Time
	}
	replay := func(r Reader) (ReplayResult, []done, error) {
		eng := sim.NewEngine(1)
		var log []done
		res, err := Replay(eng, &fakeDev{eng: eng, lat: 3 * time.Millisecond}, r, ReplayOptions{Mode: OpenLoop,
			OnComplete: func(_ *Record, q *sim.Request) {
				log = append(log, done{q.ID, q.Op, q.Offset, q.Issued, q.Completed})
			}})
		return res, log, err
	}
	want, wantLog, err := replay(NewCSVReader(strings.NewReader(sorted), "sorted.csv"))
	if err != nil || want.Completed != 400 {
		t.Fatalf("sorted trace: %+v, %v", want, err)
	}

	_, _, err = replay(NewCSVReader(strings.NewReader(shuffled), "shuffled.csv"))
	checkOrderError(t, err, "shuffled.csv", line, 0, "or --reorder N (config: reorder: N) to sort within a window of N records")

	r, _ := Reorder(NewCSVReader(strings.NewReader(shuffled), "shuffled.csv"), block)
	got, gotLog, err := replay(r)
	if err != nil || got != want || !reflect.DeepEqual(gotLog, wantLog) {
		t.Errorf("reordered: %+v, %v; want %+v as the sorted trace (same log: %v)", got, err, want, reflect.DeepEqual(gotLog, wantLog))
	}

	r, _ = Reorder(NewCSVReader(strings.NewReader(shuffled), "shuffled.csv"), 2)
	_, _, err = replay(r)
	checkOrderError(t, err, "shuffled.csv", 0, 2, "the reorder window of 2 records; replay with a larger --reorder N (config: reorder: N)")
}

// checkOrderError checks that err is an *OrderError with window in a
// *ParseError of file (at line, unless 0) whose message ends with hint.
func checkOrderError(t *testing.T, err error, file string, line int64, window int, hint string) {
	t.Helper()
	var pe *ParseError
	var oe *OrderError
	if !errors.As(err, &pe) || !errors.As(err, &oe) {
		t.Fatalf("error %v, want an *OrderError in a *ParseError", err)
	}
	if pe.File != file || (line > 0 && pe.Line != line) || oe.Window != window || oe.Time >= oe.Previous {
		t.Errorf("error at %s:%d (want %s:%d), %+v", pe.File, pe.Line, file, line, oe)
	}
	if !strings.HasSuffix(err.Error(), hint) {
		t.Errorf("error %q\nwant it to end %q", err, hint)
	}
}

// TestReplayErrors: refused records stop the replay naming the record,
// failed completions are counted and reported, and reader errors stop it.
func TestReplayErrors(t *testing.T) {
	t.Run("submit error names the record", func(t *testing.T) {
		for _, mode := range []ReplayMode{ClosedLoop, OpenLoop} {
			eng := sim.NewEngine(1)
			dev := &fakeDev{eng: eng, lat: time.Millisecond, refuse: 16 * 4096}
			res, err := Replay(eng, dev, NewSliceReader(seqRecords(40, 0, time.Microsecond)),
				ReplayOptions{Mode: mode, IODepth: 4})
			if err == nil || !strings.HasPrefix(err.Error(), "trace: record 17: ") || !errors.Is(err, sim.ErrOutOfRange) {
				t.Fatalf("%v: error %v, want it to name record 17 and wrap ErrOutOfRange", mode, err)
			}
			// Nothing after the refused record was issued, and what was
			// outstanding completed.
			if res.Issued != 16 || res.Completed != 16 || dev.submits != 16 {
				t.Errorf("%v: result %+v, %d submits; want 16", mode, res, dev.submits)
			}
		}
	})
	t.Run("bad record", func(t *testing.T) {
		eng := sim.NewEngine(1)
		dev := &fakeDev{eng: eng, lat: time.Millisecond}
		recs := seqRecords(5, 0, 0)
		recs[2].Length = 100
		_, err := Replay(eng, dev, NewSliceReader(recs), ReplayOptions{})
		if err == nil || !strings.Contains(err.Error(), "trace: record 3: ") || !errors.Is(err, sim.ErrMisaligned) {
			t.Fatalf("error %v", err)
		}
	})
	t.Run("failed completions are counted", func(t *testing.T) {
		eng := sim.NewEngine(1)
		dev := &fakeDev{eng: eng, lat: time.Millisecond, failWith: 6 * 4096}
		res, err := Replay(eng, dev, NewSliceReader(seqRecords(20, 0, 0)), ReplayOptions{IODepth: 3})
		if err == nil || !strings.HasPrefix(err.Error(), "trace: record 7: ") || !errors.Is(err, errMedia) {
			t.Fatalf("error %v, want record 7's media error", err)
		}
		if res.Issued != 20 || res.Completed != 20 || res.Failed != 1 {
			t.Errorf("result %+v, want 20 issued and completed, 1 failed", res)
		}
	})
	t.Run("reader error", func(t *testing.T) {
		eng := sim.NewEngine(1)
		dev := &fakeDev{eng: eng, lat: time.Millisecond}
		src := &failingReader{r: NewSliceReader(seqRecords(10, 0, 0)), after: 4}
		res, err := Replay(eng, dev, src, ReplayOptions{IODepth: 2})
		if err == nil || !strings.HasPrefix(err.Error(), "trace: record 5: ") || !errors.Is(err, errBadLine) {
			t.Fatalf("error %v", err)
		}
		if res.Issued != 4 || res.Completed != 4 {
			t.Errorf("result %+v", res)
		}
	})
}

// TestReplayGuards: Replay reports a device that never completes a
// request instead of waiting forever, rejects bad options, and replays
// an empty source to nothing.
func TestReplayGuards(t *testing.T) {
	t.Run("hang guard", func(t *testing.T) {
		for _, mode := range []ReplayMode{ClosedLoop, OpenLoop} {
			eng := sim.NewEngine(1)
			dev := &fakeDev{eng: eng, lat: time.Millisecond, swallowAt: 3}
			res, err := Replay(eng, dev, NewSliceReader(seqRecords(10, 0, time.Millisecond)),
				ReplayOptions{Mode: mode, IODepth: 2})
			if err == nil || !strings.Contains(err.Error(), "stalled") || !strings.Contains(err.Error(), "1 requests outstanding") {
				t.Fatalf("%v: error %v, want a stall report", mode, err)
			}
			if res.Completed != res.Issued-1 {
				t.Errorf("%v: result %+v", mode, res)
			}
		}
	})
	t.Run("bad options", func(t *testing.T) {
		eng := sim.NewEngine(1)
		dev := &fakeDev{eng: eng}
		for _, opt := range []ReplayOptions{{IODepth: -1}, {IODepth: MaxIODepth + 1}, {Speed: -2}, {Mode: 9}, {Mode: OpenLoop, Speed: nan()}} {
			if _, err := Replay(eng, dev, NewSliceReader(nil), opt); err == nil || !strings.Contains(err.Error(), "trace: ReplayOptions.") {
				t.Errorf("Replay with %+v: %v", opt, err)
			}
		}
	})
	t.Run("empty source", func(t *testing.T) {
		eng := sim.NewEngine(1)
		for _, mode := range []ReplayMode{ClosedLoop, OpenLoop} {
			res, err := Replay(eng, &fakeDev{eng: eng}, NewSliceReader(nil), ReplayOptions{Mode: mode})
			if err != nil || res != (ReplayResult{}) {
				t.Errorf("%v: %+v, %v", mode, res, err)
			}
		}
	})
}

func nan() float64 { var z float64; return z / z }

var errBadLine = errors.New("foo.csv:5: bad offset")

type failingReader struct {
	r     Reader
	after int
}

func (f *failingReader) Next() (Record, error) {
	if f.after == 0 {
		return Record{}, errBadLine
	}
	f.after--
	return f.r.Next()
}

// TestReplayLeavesOtherEvents: Replay stops when its own work is done
// even if the engine has unrelated events forever (a periodic timer).
func TestReplayLeavesOtherEvents(t *testing.T) {
	eng := sim.NewEngine(1)
	var tick sim.HandlerFunc
	tick = func(sim.Time, any) { eng.After(time.Millisecond, tick, nil) }
	eng.After(time.Millisecond, tick, nil)
	dev := &fakeDev{eng: eng, lat: 10 * time.Millisecond}
	res, err := Replay(eng, dev, NewSliceReader(seqRecords(5, 0, 0)), ReplayOptions{IODepth: 1})
	if err != nil || res.Completed != 5 || eng.Now() != sim.Time(50*time.Millisecond) {
		t.Fatalf("result %+v, %v, engine at %v", res, err, eng.Now())
	}
	if eng.Pending() != 1 {
		t.Errorf("%d events pending, want the timer's", eng.Pending())
	}
}

func TestReplayObserver(t *testing.T) {
	eng := sim.NewEngine(1)
	dev := &fakeDev{eng: eng, lat: time.Millisecond}
	var subs, comps int
	obs := &sim.Observer{
		Submitted: func(name string, r *sim.Request, now sim.Time) {
			if name != "trace" || r.Issued != now {
				t.Errorf("Submitted(%q, %v, %v)", name, r, now)
			}
			subs++
		},
		Completed: func(name string, r *sim.Request, now sim.Time) { comps++ },
	}
	if _, err := Replay(eng, dev, NewSliceReader(seqRecords(7, 0, 0)), ReplayOptions{IODepth: 2, Observer: obs}); err != nil {
		t.Fatal(err)
	}
	if subs != 7 || comps != 7 {
		t.Errorf("observer saw %d submits and %d completions, want 7", subs, comps)
	}
}

// loopReader returns the same record forever, up to n times.
type loopReader struct {
	rec Record
	n   int
	gap time.Duration
}

func (l *loopReader) Next() (Record, error) {
	if l.n == 0 {
		return Record{}, io.EOF
	}
	l.n--
	l.rec.Time = l.rec.Time.Add(l.gap)
	return l.rec, nil
}

// TestReplayAllocs: after warm-up Replay allocates nothing per record:
// a replay of 20 000 records allocates exactly as much as one of 1 000.
func TestReplayAllocs(t *testing.T) {
	for _, opt := range []ReplayOptions{
		{IODepth: 8},
		{Mode: OpenLoop, Speed: 1},
	} {
		allocs := func(n int) float64 {
			return testing.AllocsPerRun(5, func() {
				eng := sim.NewEngine(1)
				dev := &fakeDev{eng: eng, lat: time.Millisecond}
				src := &loopReader{rec: Record{Op: sim.Write, Offset: 8192, Length: 4096}, n: n, gap: 100 * time.Microsecond}
				var sum int64
				opt.OnComplete = func(_ *Record, r *sim.Request) { sum += r.Length }
				if _, err := Replay(eng, dev, src, opt); err != nil {
					t.Fatal(err)
				}
			})
		}
		small, large := allocs(1000), allocs(20000)
		if large != small {
			t.Errorf("%v loop: %v allocations for 1000 records, %v for 20000: not zero per record", opt.Mode, small, large)
		}
	}
}

// paced stamps the records of r gap apart.
type paced struct {
	r   Reader
	gap time.Duration
	t   sim.Time
}

func (p *paced) Next() (Record, error) {
	rec, err := p.r.Next()
	rec.Time = p.t
	p.t = p.t.Add(p.gap)
	return rec, err
}

// BenchmarkReplay replays a random 70/30 mix generated on the fly onto a
// device with a fixed 1ms latency: the cost of the generator, the replay
// loop and the engine together.
func BenchmarkReplay(b *testing.B) {
	for _, tc := range []struct {
		name string
		opt  ReplayOptions
	}{
		{"mode=closed/depth=1", ReplayOptions{IODepth: 1}},
		{"mode=closed/depth=32", ReplayOptions{IODepth: 32}},
		{"mode=open", ReplayOptions{Mode: OpenLoop}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			eng := sim.NewEngine(1)
			dev := &fakeDev{eng: eng, lat: time.Millisecond}
			w := Workload{RW: RWRandRW, RWMixRead: 70, BS: 4096}
			b.ReportAllocs()
			var n int64
			for b.Loop() {
				w.NumIOs = 1 << 14
				// Synthetic records all have time zero; space them 100µs
				// apart so an open loop keeps about 10 outstanding.
				src := &paced{r: mustSynthetic(b, w, testSeed, dev.Capacity()), gap: 100 * time.Microsecond}
				res, err := Replay(eng, dev, src, tc.opt)
				if err != nil {
					b.Fatal(err)
				}
				n += res.Completed
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "records/s")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/record")
		})
	}
}

// TestReplayOpenLoopOverload: an open-loop trace arriving far faster
// than the device serves it stops at MaxOutstanding with an
// *OverloadError naming the record and the remedy, instead of queueing
// a million requests; a trace the device keeps up with reports its peak.
func TestReplayOpenLoopOverload(t *testing.T) {
	eng := sim.NewEngine(1)
	dev := &fakeDev{eng: eng, lat: time.Second} // 1 s each, 1 µs apart
	src := &loopReader{rec: Record{Op: sim.Read, Offset: 8192, Length: 4096}, n: 1_000_000, gap: time.Microsecond}
	res, err := Replay(eng, dev, src, ReplayOptions{Mode: OpenLoop, MaxOutstanding: 1000})
	var oe *OverloadError
	if !errors.As(err, &oe) {
		t.Fatalf("got %v, want an *OverloadError", err)
	}
	want := "trace: record 1001: 1000 requests outstanding 1ms into an open-loop replay: the trace arrives faster than the stack serves it (replay it slower with speed, or in a closed loop with iodepth)"
	if err.Error() != want {
		t.Errorf("got  %q\nwant %q", err, want)
	}
	if res.Issued != 1000 || res.Completed != 1000 || res.PeakOutstanding != 1000 {
		t.Errorf("issued %d, completed %d, peak %d: want 1000 each (the outstanding ones run to completion)", res.Issued, res.Completed, res.PeakOutstanding)
	}

	eng = sim.NewEngine(1)
	dev = &fakeDev{eng: eng, lat: 250 * time.Microsecond}
	src = &loopReader{rec: Record{Op: sim.Read, Offset: 8192, Length: 4096}, n: 1000, gap: 100 * time.Microsecond}
	res, err = Replay(eng, dev, src, ReplayOptions{Mode: OpenLoop})
	if err != nil || res.PeakOutstanding != 3 {
		t.Errorf("got peak %d, %v; want 3 outstanding (250 µs service, 100 µs apart)", res.PeakOutstanding, err)
	}
}
