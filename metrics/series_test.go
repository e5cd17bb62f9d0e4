package metrics

import (
	"bytes"
	"testing"
	"time"

	"github.com/raidsim/raidsim/sim"
)

func at(d time.Duration) sim.Time { return sim.Time(d) }

func TestSeries(t *testing.T) {
	s := Series{Interval: 100 * time.Millisecond}
	s.Add(at(10*time.Millisecond), 4096, 2*time.Millisecond)
	s.Add(at(99*time.Millisecond), 4096, 4*time.Millisecond)
	s.Observe(&sim.Request{Op: sim.Write, Length: 8192, Issued: at(200 * time.Millisecond), Completed: at(250 * time.Millisecond)})
	s.Add(-5, 512, 1) // before zero: first interval
	want := []Point{
		{Start: 0, IOs: 3, Bytes: 8704, LatencySum: 6*time.Millisecond + 1, MaxLatency: 4 * time.Millisecond},
		{Start: at(100 * time.Millisecond)},
		{Start: at(200 * time.Millisecond), IOs: 1, Bytes: 8192, LatencySum: 50 * time.Millisecond, MaxLatency: 50 * time.Millisecond},
	}
	got := s.Points()
	if len(got) != len(want) {
		t.Fatalf("Points = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("point %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	var buf bytes.Buffer
	tb := s.Table()
	if err := tb.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	wantText := "" +
		"t s  IOs  IOPS  MB/s  mean ms  max ms\n" +
		"---  ---  ----  ----  -------  ------\n" +
		"0.0    3  30.0  0.09    2.000   4.000\n" +
		"0.1    0   0.0  0.00        0       0\n" +
		"0.2    1  10.0  0.08    50.00   50.00\n"
	if buf.String() != wantText {
		t.Errorf("Table text:\n%s\nwant:\n%s", buf.String(), wantText)
	}
}

func TestSeriesDefaultIntervalAndMerge(t *testing.T) {
	var a, b, one Series // one-second intervals
	r := newRand(t, 30)
	for range 1000 {
		when := at(time.Duration(r.Int64N(int64(5 * time.Second))))
		lat := samplers[1].draw(r)
		one.Add(when, 4096, lat)
		if r.IntN(2) == 0 {
			a.Add(when, 4096, lat)
		} else {
			b.Add(when, 4096, lat)
		}
	}
	if n := len(one.Points()); n != 5 {
		t.Errorf("%d one-second points over 5 s, want 5", n)
	}
	var m Series
	m.Merge(&a)
	m.Merge(&b)
	m.Merge(nil)
	if len(m.Points()) != len(one.Points()) {
		t.Fatalf("merged %d points, want %d", len(m.Points()), len(one.Points()))
	}
	for i, p := range one.Points() {
		if m.Points()[i] != p {
			t.Errorf("merged point %d = %+v, want %+v", i, m.Points()[i], p)
		}
	}
	m.Reset()
	if len(m.Points()) != 0 {
		t.Errorf("Reset kept points")
	}
	defer func() {
		if recover() == nil {
			t.Errorf("merging series of different intervals did not panic")
		}
	}()
	m.Merge(&Series{Interval: time.Millisecond})
}

func TestLevel(t *testing.T) {
	var l Level
	if l.Mean(0) != 0 || l.Peak() != 0 {
		t.Errorf("zero Level: mean %v peak %d", l.Mean(0), l.Peak())
	}
	// Busy from 10 to 30 and from 50 to 60: utilization 30/100.
	l.Set(10, 1)
	l.Set(30, 0)
	l.Set(50, 1)
	l.Set(60, 0)
	if got := l.Mean(100); got != 0.3 {
		t.Errorf("utilization = %v, want 0.3", got)
	}
	// A queue: 0 → 3 at 0, +2 at 10, -5 at 20: area 3·10 + 5·10 = 80 over 40.
	var q Level
	q.Add(0, 3)
	q.Add(10, 2)
	q.Add(20, -5)
	if q.Value() != 0 || q.Peak() != 5 {
		t.Errorf("value %d peak %d, want 0 and 5", q.Value(), q.Peak())
	}
	if got := q.Mean(40); got != 2 {
		t.Errorf("mean queue length = %v, want 2", got)
	}
	if got := q.Mean(5); got != 4 { // before the last change: up to 20
		t.Errorf("Mean before the last change = %v, want 4", got)
	}
	q.Set(30, 7)
	if got := q.Mean(30); got != 80.0/30 {
		t.Errorf("Mean at the change = %v, want %v", got, 80.0/30)
	}
	q.Set(20, 1) // out of order: counts at 30
	if q.Value() != 1 || q.Mean(40) != (80.0+10)/40 {
		t.Errorf("out-of-order Set: value %d mean %v", q.Value(), q.Mean(40))
	}
}
