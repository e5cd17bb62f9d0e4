package disk

import (
	"slices"
	"testing"
)

// TestDirtySetByLBA: after every insert, remove and take of a random
// run, byLBA holds exactly the extents' ranges in LBA order, and covers
// answers as a scan of the extents does.
func TestDirtySetByLBA(t *testing.T) {
	d, eng := presetDrive(t, "deskstar-7k500", nil)
	rng := eng.Rand("dirty")
	s := newDirtySet(32)
	for step := range 20000 {
		lba, n := rng.Int64N(4096), 1+rng.Int64N(64)
		switch k := rng.IntN(10); {
		case k < 6 && len(s.ext) < s.cap:
			s.insert(&d.g, lba, n, 128)
		case k < 8:
			s.remove(&d.g, lba, n)
		case len(s.ext) > 0:
			s.take(rng.IntN(len(s.ext)))
		}
		var want []span
		for _, e := range s.ext {
			want = append(want, span{e.lba, e.lba + e.n})
		}
		slices.SortFunc(want, func(a, b span) int { return int(a.start - b.start) })
		if !slices.Equal(want, s.byLBA) {
			t.Fatalf("step %d: byLBA %v, extents %v", step, s.byLBA, want)
		}
		q, m := rng.Int64N(4200), 1+rng.Int64N(16)
		scan := slices.ContainsFunc(s.ext, func(e extent) bool { return e.lba <= q && q+m <= e.lba+e.n })
		if got := s.covers(q, m); got != scan {
			t.Fatalf("step %d: covers(%d, %d) = %v, a scan says %v", step, q, m, got, scan)
		}
	}
}
