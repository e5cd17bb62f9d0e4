package disk

import (
	"math"
	"testing"

	"github.com/raidsim/raidsim/sim"
)

// TestSequentialRead: QD1 reads of 64 KiB and 256 KiB at the start and
// the end of every preset stream at the outer and inner sustained rates
// of its spec within 10% (read-ahead keeps the media busy between
// requests), and never faster than the interface.
func TestSequentialRead(t *testing.T) {
	for _, name := range PresetNames() {
		s, _ := PresetSpec(name)
		for _, size := range []int64{64 << 10, 256 << 10} {
			for _, end := range []bool{false, true} {
				d, eng := presetDrive(t, name, nil)
				l := newLoop(t, d, eng, sim.Read, size, 1, true)
				want := s.OuterSustained
				if end {
					l.lo = d.Capacity() - 128<<20
					want = s.InnerSustained
				}
				_, bps := l.run(20, 20+int(64<<20/size))
				t.Logf("%s %dKiB end=%v: %.1f MB/s (spec %.1f)", name, size>>10, end, bps/1e6, want/1e6)
				if math.Abs(bps/want-1) > 0.10 {
					t.Errorf("%s %d KiB at end=%v: %.1f MB/s, want %.1f MB/s within 10%%", name, size>>10, end, bps/1e6, want/1e6)
				}
				if bps > d.Params().InterfaceRate {
					t.Errorf("%s: %.1f MB/s exceeds the interface rate %.1f MB/s", name, bps/1e6, d.Params().InterfaceRate/1e6)
				}
			}
		}
	}
}

// TestSequentialReadLargerThanSegment: reads larger than a buffer
// segment (512 KiB on the 7K160) still stream at the sustained rate
// instead of losing a revolution per request.
func TestSequentialReadLargerThanSegment(t *testing.T) {
	s, _ := PresetSpec("deskstar-7k160")
	for _, size := range []int64{1 << 20, 4 << 20} {
		d, eng := presetDrive(t, "deskstar-7k160", nil)
		if seg := d.Params().BufferSize / int64(d.Params().Segments); size <= seg {
			t.Fatalf("%d KiB reads fit a %d KiB segment: the test needs larger reads", size>>10, seg>>10)
		}
		_, bps := newLoop(t, d, eng, sim.Read, size, 1, true).run(4, 4+int(64<<20/size))
		t.Logf("%d KiB reads: %.1f MB/s (outer sustained %.1f)", size>>10, bps/1e6, s.OuterSustained/1e6)
		if math.Abs(bps/s.OuterSustained-1) > 0.10 {
			t.Errorf("%d KiB reads: %.1f MB/s, want %.1f MB/s within 10%%", size>>10, bps/1e6, s.OuterSustained/1e6)
		}
	}
}

// TestInterfaceBottleneck: with a 20 MB/s interface, sequential reads
// and cached writes run at (not above) the interface rate.
func TestInterfaceBottleneck(t *testing.T) {
	const rate = 20e6
	for _, op := range []sim.Op{sim.Read, sim.Write} {
		d, eng := presetDrive(t, "deskstar-7k500", func(p *Params) { p.InterfaceRate = rate })
		_, bps := newLoop(t, d, eng, op, 64<<10, 4, true).run(10, 400)
		t.Logf("%v: %.2f MB/s through a %.0f MB/s interface", op, bps/1e6, rate/1e6)
		if bps > rate*1.0001 || bps < rate*0.9 {
			t.Errorf("%v: %.2f MB/s, want just under the %.0f MB/s interface", op, bps/1e6, rate/1e6)
		}
	}
}

// TestRandomRead on deskstar-7k500: 4 KiB reads over the whole disk give
// 65-85 IOPS at QD1 (the data sheet's 4096 random reads in 55.5 s is
// ~77), SATF at QD32 gains at least 1.4x, FCFS at QD32 gains nothing.
func TestRandomRead(t *testing.T) {
	run := func(s Scheduler, qd int) float64 {
		d, eng := presetDrive(t, "deskstar-7k500", func(p *Params) { p.Scheduler = s })
		iops, _ := newLoop(t, d, eng, sim.Read, 4096, qd, false).run(200, 4200)
		t.Logf("%v qd=%d: %.1f IOPS", s, qd, iops)
		return iops
	}
	qd1 := run(SATF, 1)
	if qd1 < 65 || qd1 > 85 {
		t.Errorf("QD1: %.1f IOPS, want 65-85", qd1)
	}
	if satf := run(SATF, 32); satf < 1.4*qd1 {
		t.Errorf("SATF QD32: %.1f IOPS, want >= 1.4 x %.1f", satf, qd1)
	}
	if fcfs := run(FCFS, 32); math.Abs(fcfs/qd1-1) > 0.10 {
		t.Errorf("FCFS QD32: %.1f IOPS, want within 10%% of QD1's %.1f", fcfs, qd1)
	}
	for _, s := range []Scheduler{SSTF, CLOOK} {
		if x := run(s, 32); x < 1.2*qd1 {
			t.Errorf("%v QD32: %.1f IOPS, want well above QD1's %.1f", s, x, qd1)
		}
	}
}

// TestRandomWrite on deskstar-7k500: at QD1 the write cache gives at
// least 1.3x the IOPS of write-through; write-through random writes and
// random reads are within 20% of each other.
func TestRandomWrite(t *testing.T) {
	run := func(op sim.Op, wc bool) (float64, Stats) {
		d, eng := presetDrive(t, "deskstar-7k500", func(p *Params) { p.WriteCache = wc })
		iops, _ := newLoop(t, d, eng, op, 4096, 1, false).run(500, 4500)
		st := d.Stats()
		t.Logf("%v wc=%v: %.1f IOPS, %d destages, dirty peak %d bytes", op, wc, iops, st.Destages, st.DirtyBytesPeak)
		return iops, st
	}
	on, st := run(sim.Write, true)
	off, _ := run(sim.Write, false)
	rd, _ := run(sim.Read, false)
	if on < 1.3*off {
		t.Errorf("write cache on: %.1f IOPS, want >= 1.3 x %.1f (off)", on, off)
	}
	if math.Abs(off/rd-1) > 0.20 {
		t.Errorf("write-through writes %.1f IOPS vs reads %.1f: want within 20%%", off, rd)
	}
	if st.WriteCacheHits == 0 || st.Destages == 0 || st.DirtyBytesPeak == 0 {
		t.Errorf("write cache stats not counted: %+v", st)
	}
}

// TestCachedRandomWritesSeed003: the write-cache sizes of the two seed 003
// drives reproduce its IOMeter 32 KiB random writes at one outstanding
// I/O (113.7 and 121.7 ops/s) within 10%.
func TestCachedRandomWritesSeed003(t *testing.T) {
	for _, tc := range []struct {
		preset string
		want   float64
	}{{"deskstar-7k160", 113.7}, {"wd-1600ajs", 121.7}} {
		d, eng := presetDrive(t, tc.preset, nil)
		iops, _ := newLoop(t, d, eng, sim.Write, 32<<10, 1, false).run(500, 4500)
		t.Logf("%s: %.1f random 32 KiB writes/s at depth 1 (seed 003: %.1f)", tc.preset, iops, tc.want)
		if math.Abs(iops/tc.want-1) > 0.10 {
			t.Errorf("%s: %.1f writes/s, want %.1f within 10%%", tc.preset, iops, tc.want)
		}
	}
}
