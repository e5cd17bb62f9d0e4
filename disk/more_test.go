package disk

import (
	"math"
	"testing"

	"github.com/raidsim/raidsim/sim"
)

// TestSequentialWrite: cached sequential writes stream at the media's
// sustained rate once the cache is full; write-through writes lose a
// revolution per request at QD1 but stream with NCQ (QD4), whose queued
// data crosses the bus while the previous write is on the platter.
func TestSequentialWrite(t *testing.T) {
	s, _ := PresetSpec("deskstar-7k500")
	for _, tc := range []struct {
		wc     bool
		qd     int
		lo, hi float64 // fraction of the outer sustained rate
	}{
		{true, 1, 0.9, 1.1},
		{false, 1, 0.05, 0.2},
		{false, 4, 0.9, 1.1},
	} {
		d, eng := presetDrive(t, "deskstar-7k500", func(p *Params) { p.WriteCache = tc.wc })
		// Skip the first 32 MiB: the cache absorbs them at bus speed.
		_, bps := newLoop(t, d, eng, sim.Write, 64<<10, tc.qd, true).run(512, 2048)
		r := bps / s.OuterSustained
		t.Logf("write cache %v QD%d: %.1f MB/s (%.2f of sustained)", tc.wc, tc.qd, bps/1e6, r)
		if r < tc.lo || r > tc.hi {
			t.Errorf("write cache %v QD%d: %.1f MB/s, want %.2f-%.2f of %.1f", tc.wc, tc.qd, bps/1e6, tc.lo, tc.hi, s.OuterSustained/1e6)
		}
	}
}

// TestStats: counters and time averages of a saturated QD32 run.
func TestStats(t *testing.T) {
	d, eng := presetDrive(t, "deskstar-7k500", func(p *Params) { p.Scheduler = FCFS })
	newLoop(t, d, eng, sim.Read, 4096, 32, false).run(0, 2000)
	st := d.Stats()
	if st.Reads != 2000 || st.ReadBytes != 2000*4096 || st.Writes != 0 {
		t.Errorf("counts: %+v", st)
	}
	if st.Utilization < 0.99 || st.Utilization > 1 {
		t.Errorf("utilization %.3f, want ~1", st.Utilization)
	}
	if st.MeanTaggedQueue < 28 || st.MeanTaggedQueue > 32 {
		t.Errorf("mean tagged queue %.2f, want ~32 (closed loop of 32, draining at the end)", st.MeanTaggedQueue)
	}
	if st.MeanHostQueue != 0 || st.MeanOutstanding != st.MeanTaggedQueue {
		t.Errorf("host queue %.2f, outstanding %.2f: want 0 and the tagged queue's %.2f (32 outstanding at depth 32)",
			st.MeanHostQueue, st.MeanOutstanding, st.MeanTaggedQueue)
	}
	// FCFS over random LBAs: seek distance near a third of the cylinders
	// (a little less: outer cylinders hold more LBAs).
	n := float64(d.Cylinders())
	if st.Seeks < 1990 || st.MeanSeekDistance < 0.25*n || st.MeanSeekDistance > 0.34*n {
		t.Errorf("%d seeks of mean %.0f cylinders (of %.0f)", st.Seeks, st.MeanSeekDistance, n)
	}
	if math.Abs(st.Elapsed.Seconds()-eng.Now().Seconds()) > 1e-9 {
		t.Errorf("elapsed %v, now %v", st.Elapsed, eng.Now())
	}
}

// TestQueueMeans: with 64 requests outstanding at NCQ depth 8, the tagged
// queue holds at most 8 commands and the other 56 wait in the host queue.
// (The single figure this replaced, MeanQueueLength, counted both and
// reported about 64 "requests in the drive".)
func TestQueueMeans(t *testing.T) {
	d, eng := presetDrive(t, "deskstar-7k500", func(p *Params) { p.QueueDepth = 8 })
	newLoop(t, d, eng, sim.Read, 4096, 64, false).run(0, 3000)
	st := d.Stats()
	t.Logf("tagged %.2f, host %.2f, outstanding %.2f", st.MeanTaggedQueue, st.MeanHostQueue, st.MeanOutstanding)
	if st.MeanTaggedQueue > 8 || st.MeanTaggedQueue < 7 {
		t.Errorf("mean tagged queue %.2f, want at most 8 and near it (depth 8, always full but for the drain)", st.MeanTaggedQueue)
	}
	if st.MeanHostQueue < 45 || st.MeanHostQueue > 56 {
		t.Errorf("mean host queue %.2f, want ~56 (64 outstanding, 8 tags)", st.MeanHostQueue)
	}
	if sum := st.MeanTaggedQueue + st.MeanHostQueue; math.Abs(sum-st.MeanOutstanding) > 1e-9*sum {
		t.Errorf("outstanding %.6f, want tagged + host = %.6f", st.MeanOutstanding, sum)
	}
	if st.MeanOutstanding < 50 {
		t.Errorf("mean outstanding %.2f, want ~64", st.MeanOutstanding)
	}
}

// TestHostQueue: requests beyond the queue depth wait in a FIFO host
// queue; with FCFS everything completes in submission order.
func TestHostQueue(t *testing.T) {
	d, eng := presetDrive(t, "deskstar-7k500", func(p *Params) { p.Scheduler = FCFS; p.QueueDepth = 4 })
	const n = 100
	reqs := make([]sim.Request, n)
	var order []uint64
	rng := eng.Rand("hq")
	for i := range reqs {
		op := sim.Read
		if i%3 == 0 {
			op = sim.Write
		}
		reqs[i] = sim.Request{Op: op, Offset: rng.Int64N(d.Capacity()/4096) * 4096, Length: 4096, ID: uint64(i),
			Done: func(r *sim.Request) { order = append(order, r.ID) }}
		if err := d.Submit(&reqs[i]); err != nil {
			t.Fatal(err)
		}
	}
	eng.Run()
	if len(order) != n {
		t.Fatalf("%d of %d completed", len(order), n)
	}
	for i, id := range order {
		if id != uint64(i) {
			t.Fatalf("completion %d is request %d: FCFS order broken", i, id)
		}
	}
}

// TestReadAheadHit: after a sequential read, the next request is served
// from the buffer; a request elsewhere stops read-ahead and goes to the media.
func TestReadAheadHit(t *testing.T) {
	d, eng := presetDrive(t, "deskstar-7k500", nil)
	var lat []sim.Time
	var r sim.Request
	offs := []int64{1 << 30, 1<<30 + 65536, 1<<30 + 131072, 7 << 30}
	i := 0
	r.Done = func(r *sim.Request) {
		lat = append(lat, sim.Time(r.Latency()))
		i++
		if i < len(offs) {
			r.Offset = offs[i]
			if err := d.Submit(r); err != nil {
				t.Fatal(err)
			}
		}
	}
	r.Op, r.Offset, r.Length = sim.Read, offs[0], 65536
	if err := d.Submit(&r); err != nil {
		t.Fatal(err)
	}
	eng.Run()
	st := d.Stats()
	if st.ReadHits != 2 || st.MediaReads != 2 {
		t.Errorf("hits %d media %d, want 2 and 2", st.ReadHits, st.MediaReads)
	}
	// A hit costs overhead + bus (or waits briefly for read-ahead), far
	// less than a revolution.
	if lat[2] > sim.Time(d.Revolution())/4 {
		t.Errorf("third sequential read took %v", lat[2])
	}
}
