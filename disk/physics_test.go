package disk

import (
	"math"
	"math/big"
	"testing"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// TestAngleExact checks the integer rotation arithmetic against exact
// rational arithmetic far into a run, from several initial phases.
func TestAngleExact(t *testing.T) {
	for _, rpm := range []int64{5400, 7200, 10025, 15000} {
		for _, phase := range []int64{0, 1, unitsPerRev / 3, unitsPerRev - 1} {
			if a := angleAt(sim.Time(unitsPerRev), rpm, phase); a != phase {
				t.Errorf("rpm %d phase %d: angle after 60 s = %d, want the phase", rpm, phase, a)
			}
			for _, tt := range []int64{1, 8333333, 123456789012, 864000 * 1e9 * 3, 1<<62 + 12345} {
				// exact: (t*rpm + phase) mod 60e9
				x := new(big.Int).Mul(big.NewInt(tt), big.NewInt(rpm))
				x.Add(x, big.NewInt(phase))
				x.Mod(x, big.NewInt(unitsPerRev))
				if got := angleAt(sim.Time(tt), rpm, phase); got != x.Int64() {
					t.Errorf("rpm %d phase %d t %d: angle %d, want %d", rpm, phase, tt, got, x.Int64())
				}
			}
		}
	}
}

// TestRotationalLatency: over many random reads the rotational wait
// averages half a revolution within 1%.
func TestRotationalLatency(t *testing.T) {
	for _, name := range []string{"deskstar-7k500", "cheetah-15k5"} {
		t.Run(name, func(t *testing.T) {
			d, eng := presetDrive(t, name, nil)
			var rot, n int64
			d.obs = &sim.Observer{Phase: func(_ string, _ *sim.Request, p sim.Phase, s, e sim.Time) {
				if p == sim.PhaseRotate {
					rot += int64(e - s)
				}
			}}
			d.mediaHook = func(int64, int64, bool, sim.Time, sim.Time) { n++ }
			newLoop(t, d, eng, sim.Read, 4096, 1, false).run(0, 40000)
			half := float64(d.Revolution()) / 2
			mean := float64(rot) / float64(n)
			t.Logf("%s: mean rotational wait %.4f ms over %d reads, half a revolution %.4f ms", name, mean/1e6, n, half/1e6)
			if math.Abs(mean/half-1) > 0.01 {
				t.Errorf("mean rotational wait %.4f ms, want %.4f ms within 1%%", mean/1e6, half/1e6)
			}
		})
	}
}

// TestSeekCurve: for every preset the fitted curve passes through the
// track-to-track and full-stroke figures, writes add the settle, and its
// mean over uniformly random start and end cylinders is the spec's
// average within 3% (exact sum and Monte Carlo).
func TestSeekCurve(t *testing.T) {
	for _, name := range PresetNames() {
		t.Run(name, func(t *testing.T) {
			s, _ := PresetSpec(name)
			d, eng := presetDrive(t, name, nil)
			within := func(what string, got, want, tol float64) {
				t.Helper()
				if math.Abs(got/want-1) > tol {
					t.Errorf("%s = %.4f ms, want %.4f ms within %.0f%%", what, got/1e6, want/1e6, tol*100)
				}
			}
			n := d.Cylinders()
			within("seek(1)", float64(d.SeekTime(1, false)), float64(s.TrackToTrack), 0.001)
			within("seek(full stroke)", float64(d.SeekTime(n-1, false)), float64(s.FullStroke), 0.01)
			if got := d.SeekTime(100, true) - d.SeekTime(100, false); got != s.WriteSettle {
				t.Errorf("write seek - read seek = %v, want the settle %v", got, s.WriteSettle)
			}
			if d.SeekTime(0, true) != 0 {
				t.Errorf("seek(0) = %v, want 0", d.SeekTime(0, true))
			}
			for x := 1; x < n; x += n / 97 {
				if d.SeekTime(x+1, false) < d.SeekTime(x, false) {
					t.Fatalf("seek curve decreases at %d cylinders", x)
				}
			}
			f, err := ComputeFigures(d.Params())
			if err != nil {
				t.Fatal(err)
			}
			within("mean seek (exact)", float64(f.AverageSeek), float64(s.AverageSeek), 0.03)
			rng := eng.Rand("seek")
			var sum float64
			const samples = 200000
			for range samples {
				a, b := rng.IntN(n), rng.IntN(n)
				sum += float64(d.SeekTime(max(a-b, b-a), false))
			}
			within("mean seek (sampled)", sum/samples, float64(s.AverageSeek), 0.03)
		})
	}
}

// TestSeekFallback: figures that make Lee's a or b negative fall back to
// a curve that still passes through both ends and never decreases.
func TestSeekFallback(t *testing.T) {
	p, _ := Preset("deskstar-7k500")
	for _, tc := range []struct {
		avg, full float64 // ms
		want      string
	}{
		{2, 17, "linear"}, // average close to track-to-track: a < 0
		{14, 17, "sqrt"},  // average close to full stroke: b < 0
		{8.5, 17, ""},     // Lee fits
	} {
		p.AverageSeek = msDur(tc.avg)
		p.FullStroke = msDur(tc.full)
		m := newSeekModel(&p, int64(p.Cylinders()))
		if want := map[string]string{"": "lee"}[tc.want]; want != "" && m.fit() != want {
			t.Errorf("fit %q, want lee", m.fit())
		}
		if m.fallback != tc.want {
			t.Errorf("avg %v: fallback %q, want %q", tc.avg, m.fallback, tc.want)
		}
		if m.a < 0 || m.b < 0 {
			t.Errorf("avg %v: negative coefficient a=%g b=%g", tc.avg, m.a, m.b)
		}
		n := int64(p.Cylinders())
		if got := m.ns(1, false); got != int64(p.TrackToTrack) {
			t.Errorf("avg %v: seek(1) = %d", tc.avg, got)
		}
		if got := float64(m.ns(n-1, false)); math.Abs(got/float64(p.FullStroke)-1) > 0.01 {
			t.Errorf("avg %v: full stroke %g", tc.avg, got)
		}
	}
}

// TestSeekTable: a table is interpolated linearly between its points.
func TestSeekTable(t *testing.T) {
	p, _ := Preset("deskstar-7k500")
	p.SeekTable = []SeekPoint{{1, msDur(1)}, {11, msDur(2)}, {1000, msDur(10)}}
	m := newSeekModel(&p, int64(p.Cylinders()))
	for _, tc := range []struct {
		d    int64
		want float64
	}{{0, 0}, {1, 1}, {6, 1.5}, {11, 2}, {1000, 10}, {505, 2 + 8*494.0/989}, {50000, 10}} {
		if got := float64(m.ns(tc.d, false)) / 1e6; math.Abs(got-tc.want) > 1e-6 {
			t.Errorf("table seek(%d) = %g ms, want %g", tc.d, got, tc.want)
		}
	}
}

func msDur(x float64) time.Duration { return time.Duration(x * 1e6) }
