package trace

import (
	"encoding/json"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/raidsim/raidsim/sim"
)

const testSeed = 20261129

func newSrc(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x7472616365)) }

// mustSynthetic builds a generator or fails the test.
func mustSynthetic(t testing.TB, w Workload, seed uint64, capacity int64) *Synthetic {
	t.Helper()
	s, err := NewSynthetic(w, newSrc(seed), capacity, 512)
	if err != nil {
		t.Fatalf("NewSynthetic(%+v): %v", w, err)
	}
	return s
}

// drain returns every record of r, failing on any error but io.EOF.
func drain(t testing.TB, r Reader) []Record {
	t.Helper()
	var out []Record
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("Next after %d records: %v", len(out), err)
		}
		out = append(out, rec)
		if len(out) > 1e7 {
			t.Fatal("generator does not stop")
		}
	}
}

func TestValidate(t *testing.T) {
	const capacity = 1 << 30
	ok := DefaultWorkload()
	if err := ok.Validate(capacity, 512); err != nil {
		t.Fatalf("DefaultWorkload: %v", err)
	}
	cases := []struct {
		name string
		edit func(*Workload)
		msg  string
	}{
		{"unknown rw", func(w *Workload) { w.RW = 9 }, "Workload.RW: unknown rw 9"},
		{"mix below", func(w *Workload) { w.RW = RWRandRW; w.RWMixRead = -1 }, "Workload.RWMixRead: -1 is outside 0..100"},
		{"mix above", func(w *Workload) { w.RW = RWReadWrite; w.RWMixRead = 101 }, "Workload.RWMixRead: 101"},
		{"bs misaligned", func(w *Workload) { w.BS = 3000 }, "trace: Workload.BS: 3000 is not a multiple of the 512-byte sector"},
		{"bs zero", func(w *Workload) { w.BS = 0 }, "Workload.BS: 0 is not a positive"},
		{"bs negative", func(w *Workload) { w.BS = -4096 }, "Workload.BS: -4096"},
		{"bssplit sum", func(w *Workload) { w.BSSplit = []BSSplitEntry{{4096, 50}, {8192, 40}} }, "Workload.BSSplit: percents sum to 90, not 100"},
		{"bssplit size", func(w *Workload) { w.BSSplit = []BSSplitEntry{{1000, 50}, {8192, 50}} }, "Workload.BSSplit[0].Size: 1000 is not a multiple"},
		{"bssplit zero size", func(w *Workload) { w.BSSplit = []BSSplitEntry{{4096, 50}, {0, 50}} }, "Workload.BSSplit[1].Size: 0"},
		{"bssplit percent", func(w *Workload) { w.BSSplit = []BSSplitEntry{{4096, 150}, {8192, -50}} }, "Workload.BSSplit[0].Percent: 150"},
		{"iodepth", func(w *Workload) { w.IODepth = 0 }, "Workload.IODepth: 0 is outside 1..65536"},
		{"iodepth huge", func(w *Workload) { w.IODepth = 1 << 30 }, "Workload.IODepth: 1073741824 is outside 1..65536"},
		{"offset negative", func(w *Workload) { w.Offset = -512 }, "Workload.Offset: -512 is outside"},
		{"offset past end", func(w *Workload) { w.Offset = capacity }, "Workload.Offset: 1073741824 is outside"},
		{"offset misaligned", func(w *Workload) { w.Offset = 100 }, "Workload.Offset: 100 is not a multiple"},
		{"size negative", func(w *Workload) { w.Size = -1 }, "Workload.Size: -1 is negative"},
		{"size misaligned", func(w *Workload) { w.Size = 1000 }, "Workload.Size: 1000 is not a multiple"},
		{"region past capacity", func(w *Workload) { w.Offset = capacity / 2; w.Size = capacity }, "ends past the 1073741824-byte device"},
		{"region too small", func(w *Workload) { w.BS = 1 << 20; w.Size = 512 << 10 }, "region of 524288 bytes is smaller than the 1048576-byte block size"},
		{"numios", func(w *Workload) { w.NumIOs = -3 }, "Workload.NumIOs: -3 is negative"},
		{"theta", func(w *Workload) { w.RandomDistribution = Distribution{Zipf, 0} }, "Workload.RandomDistribution: zipf theta 0 out of range"},
		{"pareto", func(w *Workload) { w.RandomDistribution = Distribution{Pareto, 1.5} }, "pareto h 1.5 out of range"},
		{"normal", func(w *Workload) { w.RandomDistribution = Distribution{Normal, -2} }, "normal deviation -2% out of range"},
		{"kind", func(w *Workload) { w.RandomDistribution = Distribution{Kind: 7} }, "unknown distribution kind 7"},
		{"percentage random below", func(w *Workload) { w.PercentageRandom = -1 }, "Workload.PercentageRandom: -1 is outside 0..100"},
		{"percentage random above", func(w *Workload) { w.PercentageRandom = 101 }, "Workload.PercentageRandom: 101 is outside 0..100"},
		{"fsync negative", func(w *Workload) { w.Fsync = -2 }, "Workload.Fsync: -2 is negative"},
	}
	var all Workload
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := DefaultWorkload()
			tc.edit(&w)
			err := w.Validate(capacity, 512)
			if err == nil || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("Validate = %v, want it to contain %q", err, tc.msg)
			}
			if _, err := NewSynthetic(w, newSrc(1), capacity, 512); err == nil && tc.name != "iodepth" && tc.name != "bs zero" {
				t.Errorf("NewSynthetic accepted %+v", w)
			}
		})
	}
	// Several problems are all reported, each on its own line.
	all = Workload{RW: RWRandRW, RWMixRead: 200, BS: 1000, IODepth: -1, Offset: 7, NumIOs: -1,
		RandomDistribution: Distribution{Zipf, -1}}
	err := all.Validate(capacity, 512)
	for _, field := range []string{"RWMixRead", "BS", "IODepth", "Offset", "NumIOs", "RandomDistribution"} {
		if err == nil || !strings.Contains(err.Error(), "Workload."+field+":") {
			t.Errorf("Validate of many problems = %v, missing %s", err, field)
		}
	}
	if n := strings.Count(err.Error(), "\n") + 1; n != 6 {
		t.Errorf("Validate reported %d problems, want 6:\n%v", n, err)
	}
	if err := ok.Validate(0, 0); err == nil || !strings.Contains(err.Error(), "capacity") || !strings.Contains(err.Error(), "sector size") {
		t.Errorf("Validate on a bad device = %v", err)
	}
	if _, err := NewSynthetic(ok, nil, capacity, 512); err == nil {
		t.Error("NewSynthetic accepted a nil source")
	}
}

func TestWithDefaults(t *testing.T) {
	w := Workload{}.WithDefaults()
	if w.BS != 4096 || w.IODepth != 1 {
		t.Errorf("WithDefaults = %+v", w)
	}
	w = Workload{BSSplit: []BSSplitEntry{{8192, 100}}, IODepth: 8}.WithDefaults()
	if w.BS != 0 || w.IODepth != 8 {
		t.Errorf("WithDefaults changed set fields: %+v", w)
	}
}

func TestSequentialOffsets(t *testing.T) {
	const k = 1024
	cases := []struct {
		name string
		w    Workload
		want []int64 // offsets in KiB
		ops  string  // r/w per record; empty means all of one kind
	}{
		{"read wraps", Workload{RW: RWRead, BS: 4 * k, Offset: 8 * k, Size: 12 * k, NumIOs: 7},
			[]int64{8, 12, 16, 8, 12, 16, 8}, "rrrrrrr"},
		{"write leaves a tail", Workload{RW: RWWrite, BS: 8 * k, Offset: 0, Size: 20 * k, NumIOs: 5},
			[]int64{0, 8, 0, 8, 0}, "wwwww"},
		{"one pass by default", Workload{RW: RWRead, BS: 4 * k, Offset: 4 * k, Size: 16 * k},
			[]int64{4, 8, 12, 16}, "rrrr"},
		{"mixed shares one offset", Workload{RW: RWReadWrite, RWMixRead: 50, BS: 4 * k, Size: 16 * k, NumIOs: 6},
			[]int64{0, 4, 8, 12, 0, 4}, ""},
		{"bssplit sizes advance", Workload{RW: RWRead, BSSplit: []BSSplitEntry{{4 * k, 50}, {8 * k, 50}}, Size: 64 * k, NumIOs: 40},
			nil, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			recs := drain(t, mustSynthetic(t, tc.w, testSeed, 1<<20))
			if tc.want != nil && len(recs) != len(tc.want) {
				t.Fatalf("got %d records, want %d", len(recs), len(tc.want))
			}
			var reads, writes int
			next := tc.w.Offset
			for i, r := range recs {
				if tc.want != nil && r.Offset != tc.want[i]*k {
					t.Errorf("record %d at %d KiB, want %d KiB", i, r.Offset/k, tc.want[i])
				}
				// Sequential: each record follows the previous one, or
				// starts the region again when the next would not fit.
				if next+r.Length > tc.w.Offset+tc.w.Size {
					next = tc.w.Offset
				}
				if r.Offset != next {
					t.Errorf("record %d at %d, want %d", i, r.Offset, next)
				}
				next = r.Offset + r.Length
				if tc.ops != "" && (r.Op == sim.Read) != (tc.ops[i] == 'r') {
					t.Errorf("record %d is a %v, want %c", i, r.Op, tc.ops[i])
				}
				if r.Op == sim.Read {
					reads++
				} else {
					writes++
				}
			}
			if tc.w.RW == RWReadWrite && (reads == 0 || writes == 0) {
				t.Errorf("mixed workload gave %d reads and %d writes", reads, writes)
			}
		})
	}
}

// checkInRegion fails unless every record is aligned and inside w's region.
func checkInRegion(t *testing.T, recs []Record, w Workload, align int64) {
	t.Helper()
	for i, r := range recs {
		if (r.Offset-w.Offset)%align != 0 || r.Offset < w.Offset || r.End() > w.Offset+w.Size {
			t.Fatalf("record %d (%d+%d) misaligned or outside region %d+%d", i, r.Offset, r.Length, w.Offset, w.Size)
		}
	}
}

// bucketCounts counts records by which of n equal parts of the region
// they start in.
func bucketCounts(recs []Record, w Workload, n int) []int {
	c := make([]int, n)
	for _, r := range recs {
		c[int((r.Offset-w.Offset)*int64(n)/w.Size)]++
	}
	return c
}

func TestRandomUniform(t *testing.T) {
	w := Workload{RW: RWRandRead, BS: 4096, Offset: 1 << 20, Size: 64 << 20, NumIOs: 64000}
	recs := drain(t, mustSynthetic(t, w, testSeed, 1<<30))
	if len(recs) != 64000 {
		t.Fatalf("got %d records", len(recs))
	}
	checkInRegion(t, recs, w, 4096)
	// Chi-square over 32 buckets: 31 degrees of freedom, 0.1% critical
	// value 61.1.
	counts := bucketCounts(recs, w, 32)
	exp := float64(len(recs)) / 32
	var chi float64
	for _, c := range counts {
		chi += (float64(c) - exp) * (float64(c) - exp) / exp
	}
	if chi > 61.1 {
		t.Errorf("chi-square %.1f over 32 buckets, not uniform: %v", chi, counts)
	}
	// The first and the last block of the region are both reachable.
	small := Workload{RW: RWRandWrite, BS: 4096, Size: 4 * 4096, NumIOs: 400}
	seen := map[int64]bool{}
	for _, r := range drain(t, mustSynthetic(t, small, testSeed, 1<<30)) {
		seen[r.Offset] = true
		if r.Op != sim.Write {
			t.Fatalf("randwrite gave a %v", r.Op)
		}
	}
	if len(seen) != 4 {
		t.Errorf("4-block region: offsets %v, want all 4 blocks", seen)
	}
}

func TestRandomSkew(t *testing.T) {
	const blocks = 1 << 14
	for _, tc := range []struct {
		dist    Distribution
		minTop  float64 // share of accesses to the hottest 10% of blocks
		noScat  bool
		inOrder bool // hottest blocks first in the region
	}{
		{Distribution{Zipf, 1.2}, 0.8, false, false},
		{Distribution{Zipf, 0.8}, 0.35, false, false},
		{Distribution{Zipf, 1.2}, 0.8, true, true},
		{Distribution{Pareto, 0.2}, 0.6, false, false},
		{Distribution{Pareto, 0.1}, 0.75, true, true},
	} {
		t.Run(tc.dist.String(), func(t *testing.T) {
			w := Workload{RW: RWRandRead, BS: 4096, Offset: 4096, Size: blocks * 4096, NumIOs: 100000,
				RandomDistribution: tc.dist, NoScatter: tc.noScat}
			recs := drain(t, mustSynthetic(t, w, testSeed, 1<<30))
			checkInRegion(t, recs, w, 4096)
			hits := make([]int, blocks)
			for _, r := range recs {
				hits[(r.Offset-w.Offset)/4096]++
			}
			sorted := append([]int(nil), hits...)
			sortDesc(sorted)
			top := 0
			for _, h := range sorted[:blocks/10] {
				top += h
			}
			share := float64(top) / float64(len(recs))
			if share < tc.minTop {
				t.Errorf("hottest 10%% of blocks got %.2f of accesses, want at least %.2f", share, tc.minTop)
			}
			// With NoScatter the first tenth of the region is the hot
			// tenth; scattered, the hot blocks are spread so no tenth
			// of the region holds most of them.
			first := 0
			for _, h := range hits[:blocks/10] {
				first += h
			}
			firstShare := float64(first) / float64(len(recs))
			if tc.inOrder && firstShare < tc.minTop {
				t.Errorf("NoScatter: first tenth got %.2f of accesses, want the hot set there", firstShare)
			}
			if !tc.inOrder {
				for i, c := range bucketCounts(recs, w, 10) {
					if float64(c)/float64(len(recs)) > 0.5 {
						t.Errorf("scattered: tenth %d of the region got %.2f of accesses", i, float64(c)/float64(len(recs)))
					}
				}
			}
			// The same seed gives the same sequence.
			again := drain(t, mustSynthetic(t, w, testSeed, 1<<30))
			for i := range recs {
				if recs[i] != again[i] {
					t.Fatalf("record %d differs between runs with one seed", i)
				}
			}
		})
	}
}

func sortDesc(a []int) {
	slices.Sort(a)
	slices.Reverse(a)
}

// TestZipfExact compares the sampler with the exact probabilities
// k^-theta / sum over a small population.
func TestZipfExact(t *testing.T) {
	const n, draws = 20, 200000
	for _, theta := range []float64{0.3, 0.8, 0.99, 1, 1.01, 1.2, 2.5} {
		z := newZipfSampler(n, theta)
		src := newSrc(testSeed)
		counts := make([]float64, n+1)
		for range draws {
			k := z.next(src)
			if k < 1 || k > n {
				t.Fatalf("theta %g: rank %d outside 1..%d", theta, k, n)
			}
			counts[k]++
		}
		var norm float64
		for k := 1; k <= n; k++ {
			norm += math.Pow(float64(k), -theta)
		}
		var chi float64
		for k := 1; k <= n; k++ {
			exp := draws * math.Pow(float64(k), -theta) / norm
			chi += (counts[k] - exp) * (counts[k] - exp) / exp
		}
		// 19 degrees of freedom: 0.1% critical value 43.8.
		if chi > 43.8 {
			t.Errorf("theta %g: chi-square %.1f against the exact pmf", theta, chi)
		}
	}
}

// TestZipfExtremes: very flat and very steep thetas stay in range and
// terminate.
func TestZipfExtremes(t *testing.T) {
	for _, theta := range []float64{1e-9, 1e-3, 50, 1e4} {
		for _, n := range []uint64{1, 2, 1 << 40} {
			z := newZipfSampler(n, theta)
			src := newSrc(testSeed)
			ones := 0
			for range 1000 {
				k := z.next(src)
				if k < 1 || k > n {
					t.Fatalf("theta %g, n %d: rank %d", theta, n, k)
				}
				if k == 1 {
					ones++
				}
			}
			if theta >= 50 && ones != 1000 {
				t.Errorf("theta %g, n %d: rank 1 drawn %d of 1000 times, want all", theta, n, ones)
			}
		}
	}
}

func TestNormal(t *testing.T) {
	w := Workload{RW: RWRandRead, BS: 4096, Size: 1 << 30, NumIOs: 20000,
		RandomDistribution: Distribution{Normal, 10}}
	recs := drain(t, mustSynthetic(t, w, testSeed, 1<<32))
	checkInRegion(t, recs, w, 4096)
	var sum, sq float64
	for _, r := range recs {
		x := float64(r.Offset) / float64(w.Size)
		sum += x
		sq += x * x
	}
	mean := sum / float64(len(recs))
	sd := math.Sqrt(sq/float64(len(recs)) - mean*mean)
	if math.Abs(mean-0.5) > 0.01 || math.Abs(sd-0.1) > 0.01 {
		t.Errorf("normal:10 gave mean %.3f and sd %.3f of the region, want 0.5 and 0.1", mean, sd)
	}
	// A wide bell is truncated to the region, not piled at its edges.
	w.RandomDistribution.Param = 100
	recs = drain(t, mustSynthetic(t, w, testSeed, 1<<32))
	checkInRegion(t, recs, w, 4096)
	c := bucketCounts(recs, w, 10)
	if c[0] > c[4] || c[9] > c[5] {
		t.Errorf("normal:100 buckets %v: edges should be the coolest", c)
	}
}

func TestRWMixRead(t *testing.T) {
	for _, tc := range []struct {
		rw  RW
		mix int
	}{{RWRandRW, 70}, {RWReadWrite, 70}, {RWRandRW, 0}, {RWRandRW, 100}, {RWReadWrite, 25}} {
		w := Workload{RW: tc.rw, RWMixRead: tc.mix, BS: 4096, Size: 1 << 24, NumIOs: 20000}
		reads := 0
		for _, r := range drain(t, mustSynthetic(t, w, testSeed, 1<<30)) {
			if r.Op == sim.Read {
				reads++
			}
		}
		if got := float64(reads) / 200; math.Abs(got-float64(tc.mix)) > 1.5 {
			t.Errorf("%v rwmixread %d: %.1f%% reads", tc.rw, tc.mix, got)
		}
		if (tc.mix == 0 && reads != 0) || (tc.mix == 100 && reads != 20000) {
			t.Errorf("%v rwmixread %d: %d reads of 20000", tc.rw, tc.mix, reads)
		}
	}
}

func TestBSSplit(t *testing.T) {
	split := []BSSplitEntry{{4096, 10}, {16384, 60}, {65536, 30}, {8192, 0}}
	for _, rw := range []RW{RWRandRead, RWWrite} {
		w := Workload{RW: rw, BSSplit: split, BS: 512, Offset: 4096, Size: 1 << 24, NumIOs: 30000}
		recs := drain(t, mustSynthetic(t, w, testSeed, 1<<30))
		checkInRegion(t, recs, w, 4096)
		count := map[int64]int{}
		for _, r := range recs {
			count[r.Length]++
		}
		for _, e := range split {
			got := 100 * float64(count[e.Size]) / float64(len(recs))
			if math.Abs(got-e.Percent) > 1.5 {
				t.Errorf("%v: %d-byte blocks are %.1f%% of requests, want %g%%", rw, e.Size, got, e.Percent)
			}
		}
		if count[512] != 0 {
			t.Errorf("%v: BS was used despite BSSplit", rw)
		}
	}
}

func TestNumIOs(t *testing.T) {
	for _, tc := range []struct {
		w    Workload
		want int
	}{
		{Workload{RW: RWRandRead, BS: 4096, NumIOs: 1}, 1},
		{Workload{RW: RWRandRead, BS: 4096, NumIOs: 12345}, 12345},
		{Workload{RW: RWWrite, BS: 4096, Size: 1 << 20, NumIOs: 1000}, 1000},
		{Workload{RW: RWRandRead, BS: 8192, Size: 1 << 20}, 128},            // io_size = size
		{Workload{RW: RWRead, BS: 4096, Offset: 1 << 29}, (1 << 29) / 4096}, // rest of device
		{Workload{RW: RWRead, BS: 3 * 4096, Size: 10 * 4096}, 4},            // until Size bytes are done
		{Workload{RW: RWRandRW, RWMixRead: 50, BS: 4096, NumIOs: 777}, 777},
	} {
		s := mustSynthetic(t, tc.w, testSeed, 1<<30)
		if got := len(drain(t, s)); got != tc.want {
			t.Errorf("%+v: %d records, want %d", tc.w, got, tc.want)
		}
		if _, err := s.Next(); err != io.EOF {
			t.Errorf("Next after the end = %v, want io.EOF", err)
		}
	}
}

func TestSeeds(t *testing.T) {
	w := Workload{RW: RWRandRW, RWMixRead: 50, BSSplit: []BSSplitEntry{{4096, 50}, {8192, 50}},
		NumIOs: 1000, RandomDistribution: Distribution{Zipf, 0.9}}
	a := drain(t, mustSynthetic(t, w, 1, 1<<30))
	b := drain(t, mustSynthetic(t, w, 1, 1<<30))
	c := drain(t, mustSynthetic(t, w, 2, 1<<30))
	same, diff := true, 0
	for i := range a {
		same = same && a[i] == b[i]
		if a[i] != c[i] {
			diff++
		}
	}
	if !same {
		t.Error("one seed gave two sequences")
	}
	if diff < 900 {
		t.Errorf("different seeds agree on %d of 1000 records", 1000-diff)
	}
	// An engine stream works as the source, and its name fixes the
	// sequence.
	e1, e2 := sim.NewEngine(5), sim.NewEngine(5)
	s1, _ := NewSynthetic(w, e1.Rand("trace"), 1<<30, 512)
	s2, _ := NewSynthetic(w, e2.Rand("trace"), 1<<30, 512)
	r1, r2 := drain(t, s1), drain(t, s2)
	for i := range r1 {
		if r1[i] != r2[i] {
			t.Fatal("engine streams with one seed and name differ")
		}
	}
}

// TestHugeRegion: a region of 2^31 blocks costs nothing to set up and
// every distribution still lands inside it. A setup linear in the region
// (a zeta sum, a table) would take many seconds here.
func TestHugeRegion(t *testing.T) {
	const capacity = 1 << 43 // 8 TiB: 2^31 blocks of 4 KiB
	for _, d := range []Distribution{{}, {Zipf, 0.5}, {Zipf, 1.2}, {Pareto, 0.2}, {Normal, 30}} {
		w := Workload{RW: RWRandRead, BS: 4096, NumIOs: 10000, RandomDistribution: d}
		recs := drain(t, mustSynthetic(t, w, testSeed, capacity))
		w.Size = capacity
		checkInRegion(t, recs, w, 4096)
	}
}

func TestPermutation(t *testing.T) {
	for _, n := range []uint64{1, 2, 3, 5, 16, 17, 1000, 4097} {
		p := newPermutation(n, newSrc(n))
		seen := make([]bool, n)
		for x := range n {
			y := p.apply(x)
			if y >= n || seen[y] {
				t.Fatalf("n=%d: %d -> %d is out of range or repeated", n, x, y)
			}
			seen[y] = true
		}
	}
	// It scatters: consecutive ranks do not stay neighbours.
	p := newPermutation(1<<20, newSrc(1))
	near := 0
	for x := range uint64(1000) {
		d := int64(p.apply(x+1)) - int64(p.apply(x))
		if d > -1000 && d < 1000 {
			near++
		}
	}
	if near > 20 {
		t.Errorf("%d of 1000 consecutive ranks stay within 1000 slots", near)
	}
}

func TestSyntheticNextAllocs(t *testing.T) {
	for _, d := range []Distribution{{}, {Zipf, 1.2}, {Pareto, 0.2}, {Normal, 20}} {
		for _, rw := range []RW{RWRandRW, RWReadWrite} {
			w := Workload{RW: rw, RWMixRead: 50, BSSplit: []BSSplitEntry{{4096, 50}, {8192, 50}}, RandomDistribution: d,
				PercentageRandom: 30, Fsync: 3}
			s := mustSynthetic(t, w, testSeed, 1<<40)
			if a := testing.AllocsPerRun(1000, func() {
				if _, err := s.Next(); err != nil {
					t.Fatal(err)
				}
			}); a != 0 {
				t.Errorf("%v %v: %v allocations per Next", rw, d, a)
			}
		}
	}
}

// TestPercentageRandom: a sequential pattern sends about PercentageRandom
// percent of its requests to random slots and the rest on from the end of
// the request before; 0 changes nothing, random patterns ignore it.
func TestPercentageRandom(t *testing.T) {
	const capacity = 1 << 30
	const n = 20000
	cases := []struct {
		name       string
		w          Workload
		wantRandom float64 // share of requests not following the one before
		tol        float64
	}{
		{"zero is sequential", Workload{RW: RWRead, BS: 4096, NumIOs: n}, 0, 0},
		{"ten percent", Workload{RW: RWRead, BS: 4096, NumIOs: n, PercentageRandom: 10}, 0.10, 0.01},
		{"ninety percent writes", Workload{RW: RWWrite, BS: 2048, NumIOs: n, PercentageRandom: 90}, 0.90, 0.01},
		{"mixed 20 sequential 80 random", Workload{RW: RWReadWrite, RWMixRead: 70, BS: 16384, NumIOs: n, PercentageRandom: 80}, 0.80, 0.01},
		{"hundred percent", Workload{RW: RWRead, BS: 4096, NumIOs: n, PercentageRandom: 100}, 1, 0.001},
		{"zipf", Workload{RW: RWRead, BS: 4096, NumIOs: n, PercentageRandom: 50, RandomDistribution: Distribution{Zipf, 1.1}}, 0.50, 0.02},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			recs := drain(t, mustSynthetic(t, tc.w, testSeed, capacity))
			if len(recs) != n {
				t.Fatalf("%d records, want %d", len(recs), n)
			}
			jumps := 0
			for i, r := range recs {
				if r.Offset%tc.w.BS != 0 {
					t.Fatalf("record %d at %d is not block-aligned", i, r.Offset)
				}
				if r.Offset < 0 || r.End() > capacity {
					t.Fatalf("record %d [%d, %d) leaves the region", i, r.Offset, r.End())
				}
				if i > 0 && r.Offset != recs[i-1].End() {
					jumps++
				}
			}
			// A random draw can land right after the request before; with a
			// 1 GiB region that is rare enough to ignore.
			got := float64(jumps) / float64(n-1)
			if math.Abs(got-tc.wantRandom) > tc.tol {
				t.Errorf("%.4f of requests jump, want %.2f ± %.3f", got, tc.wantRandom, tc.tol)
			}
		})
	}
	// Zero leaves the sequence exactly as before the field existed, and a
	// random pattern ignores the field (same records, same draws).
	for _, rw := range []RW{RWRead, RWRandRW} {
		base := Workload{RW: rw, RWMixRead: 60, BSSplit: []BSSplitEntry{{4096, 50}, {65536, 50}}, NumIOs: 500}
		want := drain(t, mustSynthetic(t, base, testSeed, capacity))
		with := base
		if rw.Random() {
			with.PercentageRandom = 40
		}
		if got := drain(t, mustSynthetic(t, with, testSeed, capacity)); !slices.Equal(got, want) {
			t.Errorf("%v: PercentageRandom %d changed the records", rw, with.PercentageRandom)
		}
	}
}

// TestFsync: a flush record follows every Fsync-th write, flushes are not
// counted in NumIOs or Size, and reads do not count towards a flush.
func TestFsync(t *testing.T) {
	const capacity = 1 << 30
	count := func(recs []Record) (reads, writes, flushes int) {
		for _, r := range recs {
			switch r.Op {
			case sim.Read:
				reads++
			case sim.Write:
				writes++
			case sim.Flush:
				flushes++
				if r.Offset != 0 || r.Length != 0 {
					t.Errorf("flush record %+v addresses data", r)
				}
			}
		}
		return
	}
	cases := []struct {
		name        string
		w           Workload
		wantIOs     int
		wantFlushes int
	}{
		{"never", Workload{RW: RWWrite, NumIOs: 100}, 100, 0},
		{"every write", Workload{RW: RWWrite, NumIOs: 100, Fsync: 1}, 100, 100},
		{"every 8 writes", Workload{RW: RWRandWrite, NumIOs: 100, Fsync: 8}, 100, 12},
		{"every 10, last write flushed", Workload{RW: RWWrite, NumIOs: 100, Fsync: 10}, 100, 10},
		{"reads never flush", Workload{RW: RWRandRead, NumIOs: 100, Fsync: 1}, 100, 0},
		{"bytes limit", Workload{RW: RWWrite, BS: 65536, Size: 1 << 20, Fsync: 4}, 16, 4},
		{"larger than the run", Workload{RW: RWWrite, NumIOs: 5, Fsync: 6}, 5, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			recs := drain(t, mustSynthetic(t, tc.w, testSeed, capacity))
			r, w, f := count(recs)
			if r+w != tc.wantIOs || f != tc.wantFlushes {
				t.Errorf("%d reads + %d writes, %d flushes; want %d I/Os, %d flushes", r, w, f, tc.wantIOs, tc.wantFlushes)
			}
			if tc.w.Fsync > 0 && f > 0 {
				// Exactly Fsync writes before each flush.
				n := 0
				for i, rec := range recs {
					switch rec.Op {
					case sim.Write:
						n++
					case sim.Flush:
						if n != tc.w.Fsync {
							t.Fatalf("flush at record %d after %d writes, want %d", i, n, tc.w.Fsync)
						}
						n = 0
					}
				}
			}
		})
	}
	// In a mixed pattern only writes count, and the read/write records are
	// exactly those of the same workload without flushes.
	base := Workload{RW: RWRandRW, RWMixRead: 50, NumIOs: 1000}
	want := drain(t, mustSynthetic(t, base, testSeed, capacity))
	fs := base
	fs.Fsync = 3
	got := drain(t, mustSynthetic(t, fs, testSeed, capacity))
	data := slices.DeleteFunc(slices.Clone(got), func(r Record) bool { return r.Op == sim.Flush })
	if !slices.Equal(data, want) {
		t.Error("Fsync changed the read and write records")
	}
	_, w, f := count(got)
	if f != w/3 {
		t.Errorf("%d flushes for %d writes at fsync=3", f, w)
	}
}

func TestSliceReader(t *testing.T) {
	recs := []Record{{Offset: 1}, {Offset: 2}}
	r := NewSliceReader(recs)
	got := drain(t, r)
	if len(got) != 2 || got[1].Offset != 2 {
		t.Fatalf("got %v", got)
	}
	if _, err := r.Next(); !errors.Is(err, io.EOF) {
		t.Fatalf("after the end: %v", err)
	}
	r.Reset()
	if rec, err := r.Next(); err != nil || rec.Offset != 1 {
		t.Fatalf("after Reset: %v, %v", rec, err)
	}
}

func BenchmarkSyntheticNext(b *testing.B) {
	for _, d := range []Distribution{{}, {Zipf, 1.2}, {Zipf, 0.8}, {Pareto, 0.2}, {Normal, 20}} {
		b.Run("dist="+d.String(), func(b *testing.B) {
			w := Workload{RW: RWRandRW, RWMixRead: 70, BS: 4096, RandomDistribution: d}
			s := mustSynthetic(b, w, testSeed, 1<<43)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.Next(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "records/s")
		})
	}
}

// TestWorkloadJSON: a Workload is plain data that survives a config file,
// with rw and random_distribution written as fio writes them.
func TestWorkloadJSON(t *testing.T) {
	w := Workload{RW: RWRandRW, RWMixRead: 70, BSSplit: []BSSplitEntry{{4096, 25}, {65536, 75}}, IODepth: 8,
		Offset: 1 << 20, Size: 1 << 30, NumIOs: 1000, RandomDistribution: Distribution{Zipf, 1.2},
		PercentageRandom: 10, Fsync: 32}
	text, err := json.Marshal(w)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"RW":"randrw"`, `"RandomDistribution":"zipf:1.2"`} {
		if !strings.Contains(string(text), want) {
			t.Errorf("JSON %s lacks %s", text, want)
		}
	}
	var back Workload
	if err := json.Unmarshal(text, &back); err != nil || !reflect.DeepEqual(back, w) {
		t.Errorf("round trip: %+v, %v; want %+v", back, err, w)
	}
	if err := json.Unmarshal([]byte(`{"RW":"trimwrite"}`), &back); err == nil || !strings.Contains(err.Error(), `rw "trimwrite"`) {
		t.Errorf("bad rw in JSON: %v", err)
	}
	s := mustSynthetic(t, Workload{RW: RWRandRead}, testSeed, 1<<30)
	if got := s.Workload(); got.BS != 4096 || got.IODepth != 1 {
		t.Errorf("Synthetic.Workload() = %+v, want defaults filled", got)
	}
}

func TestNames(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{RW(42).String(), "rw(42)"},
		{DistKind(9).String(), "dist(9)"},
		{Normal.String(), "normal"},
		{Distribution{Pareto, 0.25}.String(), "pareto:0.25"},
		{ClosedLoop.String(), "closed"},
		{OpenLoop.String(), "open"},
		{ReplayMode(7).String(), "mode(7)"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

// TestSyntheticTrim: rw=trim and rw=randtrim issue trims (fio's
// discards), sequential and random.
func TestSyntheticTrim(t *testing.T) {
	for _, rw := range []RW{RWTrim, RWRandTrim} {
		s := mustSynthetic(t, Workload{RW: rw, BS: 1 << 20, NumIOs: 64}, testSeed, 1<<30)
		var offs []int64
		for {
			rec, err := s.Next()
			if err != nil {
				break
			}
			if rec.Op != sim.Trim || rec.Length != 1<<20 {
				t.Fatalf("%v: record %+v, want 1 MiB trims", rw, rec)
			}
			offs = append(offs, rec.Offset)
		}
		sequential := true
		for i := 1; i < len(offs); i++ {
			sequential = sequential && offs[i] == offs[i-1]+1<<20
		}
		if len(offs) != 64 || sequential != (rw == RWTrim) {
			t.Errorf("%v: %d trims, sequential %v", rw, len(offs), sequential)
		}
	}
}
