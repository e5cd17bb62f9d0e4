package raid_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/sim"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRaid5Plans(t *testing.T) {
	const u = 64 << 10
	// 4+1: a one-unit write is cheaper as read-modify-write.
	eng, a, recs := recorded(t, raid.Config{Level: raid.RAID5, StripeUnit: u}, 5)
	require.NoError(t, do(t, eng, a, sim.Write, 4096, 4096))
	assert.Equal(t, strings.Join([]string{
		"m0: read 4096@4096, write 4096@4096",
		"m1: ",
		"m2: ",
		"m3: ",
		"m4: read 4096@4096, write 4096@4096",
	}, "\n"), log(recs))
	assert.Equal(t, int64(1), a.Stats().RMWWrites)

	// 3+1: the same write ties (2 reads either way) and goes rcw.
	eng, a, recs = recorded(t, raid.Config{Level: raid.RAID5, StripeUnit: u}, 4)
	require.NoError(t, do(t, eng, a, sim.Write, 4096, 4096))
	assert.Equal(t, strings.Join([]string{
		"m0: write 4096@4096",
		"m1: read 4096@4096",
		"m2: read 4096@4096",
		"m3: write 4096@4096",
	}, "\n"), log(recs))
	// Forced rmw on 3+1.
	eng, a, recs = recorded(t, raid.Config{Level: raid.RAID5, StripeUnit: u, Raid5Write: raid.WriteRMW}, 4)
	require.NoError(t, do(t, eng, a, sim.Write, 4096, 4096))
	assert.Equal(t, "m0: read 4096@4096, write 4096@4096\nm1: \nm2: \nm3: read 4096@4096, write 4096@4096", log(recs))

	// A full stripe reads nothing; stripe 1's parity is on member 2.
	require.NoError(t, do(t, eng, a, sim.Write, 3*u, 3*u))
	assert.Equal(t, "m0: write 65536@65536\nm1: write 65536@65536\nm2: write 65536@65536\nm3: write 65536@65536", log(recs))
	s := a.Stats()
	assert.Equal(t, [3]int64{1, 1, 0}, [3]int64{s.FullStripeWrites, s.RMWWrites, s.RCWWrites})

	// Degraded: member 0 (D0 of stripe 0) failed. A write to D0 must
	// reconstruct-write from D1, D2; a read of D0 reads D1, D2 and P.
	require.NoError(t, a.Fail(0))
	require.NoError(t, do(t, eng, a, sim.Write, 4096, 4096))
	assert.Equal(t, "m0: \nm1: read 4096@4096\nm2: read 4096@4096\nm3: write 4096@4096", log(recs))
	require.NoError(t, do(t, eng, a, sim.Read, 0, 8192))
	assert.Equal(t, "m0: \nm1: read 8192@0\nm2: read 8192@0\nm3: read 8192@0", log(recs))
	// Parity member failed: data only.
	eng, a, recs = recorded(t, raid.Config{Level: raid.RAID5, StripeUnit: u}, 4)
	require.NoError(t, a.Fail(3))
	require.NoError(t, do(t, eng, a, sim.Write, 4096, 4096))
	assert.Equal(t, "m0: write 4096@4096\nm1: \nm2: \nm3: ", log(recs))
	assert.Equal(t, int64(1), a.Stats().DegradedWrites)
}

func TestParityRateDelaysWrites(t *testing.T) {
	const u = 64 << 10
	eng, a, _ := recorded(t, raid.Config{Level: raid.RAID5, StripeUnit: u, ParityRate: 1 << 30}, 4)
	require.NoError(t, do(t, eng, a, sim.Write, 0, 3*u))
	// MemDevice writes here take 150-219µs; XORing 3 units at 1 GiB/s
	// adds 183µs.
	assert.Equal(t, sim.Time(time.Duration(3*u)*time.Second/(1<<30)+219*time.Microsecond), eng.Now())
}

// refPlan is the planner's reference: the same decisions made page row
// by page row with boolean arrays, no grouping and no span arithmetic.
type refPlan struct {
	method  raid.StripeMethod
	rmwRows int64
	rcwRows int64
	read    [][]bool // [column][byte]: to pre-read
	write   [][]bool // [column][byte]: to write
}

// refColumns returns the stripe's members by column: data, P, (Q).
func refColumns(w raid.StripeWrite) (cols []int, D int) {
	m := w.Mapping
	n := m.Members
	if m.Level == raid.RAID6 {
		D = n - 2
		for d := range D {
			cols = append(cols, raid.DataMember6(n, w.Stripe, d))
		}
		return append(cols, raid.ParityMember(raid.LeftSymmetric, n, w.Stripe), raid.QMember(n, w.Stripe)), D
	}
	D = n - 1
	for d := range D {
		cols = append(cols, raid.DataMember(m.Layout, n, w.Stripe, d))
	}
	return append(cols, raid.ParityMember(m.Layout, n, w.Stripe)), D
}

// refStripe is what reference knows of the stripe it plans.
type refStripe struct {
	w                 raid.StripeWrite
	cols              []int
	D                 int
	base, u, pg       int64
	parityLive        bool
	allFull, dataOnly bool
}

func (r *refStripe) is(set []bool, c int) bool { return r.cols[c] < len(set) && set[r.cols[c]] }
func (r *refStripe) down(c int) bool           { return r.is(r.w.Failed, c) }
func (r *refStripe) unread(c int) bool         { return !r.down(c) && r.is(r.w.Unreadable, c) }
func (r *refStripe) readable(c int) bool       { return !r.down(c) && !r.unread(c) }

// in reports whether the write covers byte i of data index d.
func (r *refStripe) in(d int, i int64) bool {
	off := r.base + int64(d)*r.u + i
	return off >= r.w.Offset && off < r.w.End
}

// reference plans w the naive way, one page row at a time.
func reference(w raid.StripeWrite) refPlan {
	m := w.Mapping
	r := &refStripe{w: w, u: m.StripeUnit, pg: w.Page, base: w.Stripe * m.FullStripe(), allFull: true}
	if r.pg == 0 {
		r.pg = r.u
		if r.u%raid.DefaultPage == 0 {
			r.pg = raid.DefaultPage
		}
	}
	r.cols, r.D = refColumns(w)
	n := len(r.cols)
	ref := refPlan{read: make([][]bool, n), write: make([][]bool, n)}
	for c := range n {
		ref.read[c], ref.write[c] = make([]bool, r.u), make([]bool, r.u)
	}
	bad := 0
	for c := range n {
		if !r.readable(c) {
			bad++
		}
		r.parityLive = r.parityLive || c >= r.D && !r.down(c)
	}
	if bad > n-r.D {
		ref.method = raid.PlanLost
		return ref
	}
	for row := int64(0); row < r.u/r.pg; row++ {
		r.row(&ref, row*r.pg, (row+1)*r.pg)
	}
	switch {
	case r.dataOnly:
		ref.method = raid.PlanDataOnly
	case r.allFull:
		ref.method = raid.PlanFullStripe
	case ref.rmwRows > ref.rcwRows:
		ref.method = raid.PlanRMW
	default:
		ref.method = raid.PlanRCW
	}
	return ref
}

// row plans page row [lo, hi) into ref.
func (r *refStripe) row(ref *refPlan, lo, hi int64) {
	n, D := len(r.cols), r.D
	cov := make([]int, D) // 0 none, 1 part, 2 full
	for d := range D {
		for i := lo; i < hi; i++ {
			if r.in(d, i) {
				cov[d] = 1
			}
		}
		if cov[d] == 1 && r.in(d, lo) && r.in(d, hi-1) {
			cov[d] = 2
		}
	}
	if !slices.ContainsFunc(cov, func(c int) bool { return c > 0 }) {
		return
	}
	mark := func(set [][]bool, c int) {
		for i := lo; i < hi; i++ {
			set[c][i] = true
		}
	}
	solve := false
	switch {
	case !r.parityLive:
		r.dataOnly = true
		for d := range D {
			if cov[d] == 1 && !r.down(d) {
				mark(ref.read, d)
			}
		}
	case !slices.Contains(cov, 0) && !slices.Contains(cov, 1): // full
	default:
		r.allFull = false
		for d := range D {
			solve = solve || !r.readable(d) && cov[d] != 2
		}
		var rcwSet, rmwSet []int
		rmwOK := true
		for c := range n {
			if r.readable(c) && (solve || c < D && cov[c] != 2) {
				rcwSet = append(rcwSet, c)
			}
			if c >= D && !r.down(c) || c < D && cov[c] != 0 {
				rmwSet = append(rmwSet, c)
				rmwOK = rmwOK && r.readable(c)
			}
		}
		set := rcwSet
		if rmwOK && (r.w.Policy == raid.WriteRMW || r.w.Policy == raid.WriteAuto && len(rmwSet) < len(rcwSet)) {
			set, solve = rmwSet, false
			ref.rmwRows++
		} else {
			ref.rcwRows++
		}
		for _, c := range set {
			mark(ref.read, c)
		}
	}
	for c := range n {
		if !r.down(c) && (c >= D || cov[c] != 0 || solve && r.unread(c)) {
			mark(ref.write, c)
		}
	}
}

// bytesOf lists the bytes of a Spans set as booleans.
func bytesOf(ss *raid.Spans, u int) []bool {
	out := make([]bool, u)
	for _, x := range ss.List() {
		for i := x.Lo; i < x.Hi; i++ {
			out[i] = true
		}
	}
	return out
}

// randomStripeWrite draws a valid RAID 5 or RAID 6 stripe write: 3 to
// 8 members, a small stripe unit of small pages, any range touching the
// stripe, failed and unreadable members up to one more than the level
// survives.
func randomStripeWrite(rng *rand.Rand) raid.StripeWrite {
	level, minN := raid.RAID5, 3
	if rng.IntN(2) == 0 {
		level, minN = raid.RAID6, 4
	}
	n := minN + rng.IntN(6)
	pg := int64(1 + rng.IntN(3))
	u := pg * int64(1+rng.IntN(6))
	layout := raid.LeftSymmetric
	if level == raid.RAID5 {
		layout = raid.Layouts()[rng.IntN(len(raid.Layouts()))]
	}
	m := raid.Mapping{Level: level, Layout: layout, Members: n, StripeUnit: u}
	fs := m.FullStripe()
	s := rng.Int64N(2 * int64(n))
	base := s * fs
	lo := base + rng.Int64N(fs)
	hi := lo + 1 + rng.Int64N(base+fs-lo)
	switch rng.IntN(4) { // ranges that start or end outside the stripe
	case 0:
		lo = max(0, base-rng.Int64N(2*fs))
	case 1:
		hi = base + fs + rng.Int64N(2*fs)
	}
	if rng.IntN(5) == 0 { // the whole stripe, often
		lo, hi = base, base+fs
	}
	w := raid.StripeWrite{Mapping: m, Stripe: s, Offset: lo, End: hi, Policy: raid.WritePolicy(rng.IntN(3)), Page: pg}
	if k := rng.IntN(8); k >= 4 { // members out, up to three
		w.Failed, w.Unreadable = make([]bool, n), make([]bool, n)
		for range k - 4 {
			if rng.IntN(2) == 0 {
				w.Failed[rng.IntN(n)] = true
			} else {
				w.Unreadable[rng.IntN(n)] = true
			}
		}
	}
	return w
}

// TestPlanStripeWriteMatchesReference checks the planner on random RAID
// 5 and 6 stripe writes against the page-row reference: per page row,
// a row the write covers whole on every data member reads nothing,
// read-modify-write reads the old data pages written and the live
// parity, reconstruct-write the data pages not wholly rewritten (or,
// with a missing member to solve, every readable page), the method
// reading fewer pages is chosen with ties to reconstruct-write, pages
// are read and written whole, and unavailable members are never
// touched.
func TestPlanStripeWriteMatchesReference(t *testing.T) {
	const seed = 20261211
	rng := rand.New(rand.NewPCG(seed, 1))
	var p raid.StripePlan
	seen := map[raid.StripeMethod]int{}
	for iter := range 20000 {
		w := randomStripeWrite(rng)
		where := fmt.Sprintf("seed %d, iteration %d: %+v", seed, iter, w)
		require.NoError(t, raid.PlanStripeWrite(w, &p), where)
		ref := reference(w)
		seen[ref.method]++
		require.Equal(t, ref.method, p.Method, where)
		checkPlan(t, w, &p, ref, where)
	}
	t.Logf("seed %d: methods planned %v", seed, seen)
	for m := raid.PlanFullStripe; m <= raid.PlanLost; m++ {
		assert.NotZero(t, seen[m], "no %v plan drawn", m)
	}
}

// checkPlan compares p with ref column by column.
func checkPlan(t *testing.T, w raid.StripeWrite, p *raid.StripePlan, ref refPlan, where string) {
	t.Helper()
	m := w.Mapping
	u := int(m.StripeUnit)
	cols, D := refColumns(w)
	require.Equal(t, len(cols), p.Columns(), where)
	require.Len(t, p.Data, D, where)
	require.Equal(t, w.Stripe*m.FullStripe(), p.Base, where)
	if p.Method == raid.PlanLost {
		assert.Zero(t, p.ReadBytes(), where)
		return
	}
	assert.Equal(t, [2]int64{ref.rmwRows, ref.rcwRows}, [2]int64{p.RMWRows, p.RCWRows}, "%s: rows rmw, rcw", where)
	for c := range cols {
		require.Equal(t, cols[c], p.Member(c), "%s: column %d", where, c)
		rd, wr := bytesOf(&p.Read[c], u), bytesOf(&p.Write[c], u)
		require.Equal(t, ref.read[c], rd, "%s: column %d (member %d) reads", where, c, cols[c])
		require.Equal(t, ref.write[c], wr, "%s: column %d (member %d) writes", where, c, cols[c])
	}
	if p.Method == raid.PlanFullStripe {
		require.Zero(t, p.ReadBytes(), where)
	}
}

// TestPlanStripeWriteComputes carries random plans out on random bytes
// with Compute: every byte the plan does not read is garbage, yet what
// it writes is the stripe's new contents (the new data over the old,
// and P and Q of that), and an unreadable member's pages written back
// are its old bytes: the reads suffice and the arithmetic (RAID 5's
// XOR, RAID 6's syndromes, read-modify-write's partial update, the
// solving of missing pages) is right.
func TestPlanStripeWriteComputes(t *testing.T) {
	const seed = 7
	rng := rand.New(rand.NewPCG(seed, 2))
	var p raid.StripePlan
	for iter := range 20000 {
		w := randomStripeWrite(rng)
		where := fmt.Sprintf("seed %d, iteration %d: %+v", seed, iter, w)
		require.NoError(t, raid.PlanStripeWrite(w, &p), where)
		if p.Method == raid.PlanLost {
			continue
		}
		D, n, u := len(p.Data), p.Columns(), int(w.Mapping.StripeUnit)
		old := stripeBytes(rng, D, n, u) // consistent: parity of the data
		neu := make([][]byte, n)         // the stripe's contents after the write
		for d := range D {
			neu[d] = slices.Clone(old[d])
			for i := p.Data[d].Lo; i < p.Data[d].Hi; i++ {
				neu[d][i] = byte(rng.Uint32())
			}
		}
		for c := D; c < n; c++ {
			neu[c] = make([]byte, u)
		}
		parityOf(neu[:D], neu[D:])
		bufs := make([][]byte, n)
		for c := range n { // garbage, with the bytes read laid in
			bufs[c] = make([]byte, u)
			for i := range bufs[c] {
				bufs[c][i] = byte(rng.Uint32())
			}
			for _, x := range p.Read[c].List() {
				copy(bufs[c][x.Lo:x.Hi], old[c][x.Lo:x.Hi])
			}
		}
		data := make([]byte, w.End-w.Offset)
		for d := range D {
			for i := p.Data[d].Lo; i < p.Data[d].Hi; i++ {
				data[p.Base+int64(d)*int64(u)+i-w.Offset] = neu[d][i]
			}
		}
		p.Compute(bufs, data, w.Offset)
		for c := range n {
			for _, x := range p.Write[c].List() {
				require.Equal(t, neu[c][x.Lo:x.Hi], bufs[c][x.Lo:x.Hi], "%s: column %d bytes %v written", where, c, x)
			}
		}
	}
}

// stripeBytes returns random data columns and their parity.
func stripeBytes(rng *rand.Rand, D, n, u int) [][]byte {
	cols := make([][]byte, n)
	for c := range n {
		cols[c] = make([]byte, u)
	}
	for d := range D {
		for i := range cols[d] {
			cols[d][i] = byte(rng.Uint32())
		}
	}
	parityOf(cols[:D], cols[D:])
	return cols
}

// parityOf fills P (and Q) from the data.
func parityOf(data, parity [][]byte) {
	if len(parity) == 2 {
		raid.Syndromes(data, parity[0], parity[1])
		return
	}
	clear(parity[0])
	for _, d := range data {
		for i, b := range d {
			parity[0][i] ^= b
		}
	}
}

// TestPlanStripeWriteNeverPanics feeds the planner arbitrary input: it
// plans or returns an error, and what it plans keeps the invariants.
func TestPlanStripeWriteNeverPanics(t *testing.T) {
	const seed = 99
	rng := rand.New(rand.NewPCG(seed, 3))
	pick := func(vals ...int64) int64 { return vals[rng.IntN(len(vals))] }
	var p raid.StripePlan
	planned := 0
	for iter := range 50000 {
		w := raid.StripeWrite{
			Mapping: raid.Mapping{Level: raid.Level(pick(0, 1, 5, 5, 6, 6, 10, 7)), Layout: raid.Layout(rng.IntN(6)),
				Members: int(pick(-1, 0, 2, 3, 4, 5, 9, 1<<20)), StripeUnit: pick(-4096, 0, 1, 3, 16, math.MaxInt64/2, math.MaxInt64)},
			Stripe: pick(-1, 0, 1, 7, math.MaxInt64/3, math.MaxInt64),
			Offset: pick(math.MinInt64, -1, 0, 5, 17, 64, math.MaxInt64-1),
			End:    pick(math.MinInt64, 0, 1, 6, 40, 100, math.MaxInt64),
			Policy: raid.WritePolicy(rng.IntN(5)),
		}
		if rng.IntN(2) == 0 {
			w.Failed = make([]bool, rng.IntN(8))
			for i := range w.Failed {
				w.Failed[i] = rng.IntN(3) == 0
			}
		}
		if rng.IntN(2) == 0 { // a valid write with one field spoiled, or not
			v := randomStripeWrite(rng)
			switch rng.IntN(8) {
			case 0:
				v.Mapping = w.Mapping
			case 1:
				v.Stripe = w.Stripe
			case 2:
				v.Offset = w.Offset
			case 3:
				v.End = w.End
			case 4:
				v.Policy = w.Policy
			case 5:
				v.Failed = w.Failed
			}
			w = v
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("seed %d, iteration %d: PlanStripeWrite(%+v) panicked: %v", seed, iter, w, r)
				}
			}()
			if raid.PlanStripeWrite(w, &p) == nil {
				planned++
				if w.Mapping.StripeUnit <= 64 {
					checkPlan(t, w, &p, reference(w), fmt.Sprintf("seed %d, iteration %d: %+v", seed, iter, w))
				}
			}
		}()
	}
	t.Logf("seed %d: %d of 50000 planned", seed, planned)
	assert.NotZero(t, planned)
}

func TestPlanStripeWriteErrors(t *testing.T) {
	m := raid.Mapping{Level: raid.RAID5, Members: 4, StripeUnit: 4096}
	var p raid.StripePlan
	for _, tc := range []struct {
		w    raid.StripeWrite
		want string
	}{
		{raid.StripeWrite{Mapping: raid.Mapping{Level: raid.RAID0, Members: 4, StripeUnit: 4096}, End: 1},
			"raid: stripe plan: RAID 0 has no parity to plan (want RAID 5 or 6)"},
		{raid.StripeWrite{Mapping: raid.Mapping{Level: raid.RAID5, Members: 2, StripeUnit: 4096}, End: 1},
			"raid: stripe plan: 2 members for RAID 5 (want 3 to 65536)"},
		{raid.StripeWrite{Mapping: raid.Mapping{Level: raid.RAID6, Members: 3, StripeUnit: 4096}, End: 1},
			"raid: stripe plan: 3 members for RAID 6 (want 4 to 65536)"},
		{raid.StripeWrite{Mapping: raid.Mapping{Level: raid.RAID6, Layout: raid.RightSymmetric, Members: 5, StripeUnit: 4096}, End: 1},
			"raid: stripe plan: layout right-symmetric for RAID 6"},
		{raid.StripeWrite{Mapping: m, End: 1, Page: 3000},
			"raid: stripe plan: page 3000 bytes does not divide the stripe unit 4096"},
		{raid.StripeWrite{Mapping: m, Stripe: 1, Offset: 0, End: 3 * 4096},
			"raid: stripe plan: write [0, 12288) misses stripe 1 [12288, 24576)"},
		{raid.StripeWrite{Mapping: m, End: 1, Failed: make([]bool, 5)},
			"raid: stripe plan: failed or unreadable set of 5 members for 4"},
	} {
		assert.EqualError(t, raid.PlanStripeWrite(tc.w, &p), tc.want)
	}
}

// TestPlanStripeWriteAllocations: planning into a plan already sized
// allocates nothing.
func TestPlanStripeWriteAllocations(t *testing.T) {
	m := raid.Mapping{Level: raid.RAID5, Members: 5, StripeUnit: 64 << 10}
	failed := []bool{false, true, false, false, false}
	var p raid.StripePlan
	ws := []raid.StripeWrite{
		{Mapping: m, Stripe: 3, Offset: 3*m.FullStripe() + 100, End: 3*m.FullStripe() + 5000},
		{Mapping: m, Stripe: 3, Offset: 3*m.FullStripe() + 60<<10, End: 4*m.FullStripe() - 1000, Failed: failed},
		{Mapping: m, Stripe: 0, Offset: 0, End: m.FullStripe(), Policy: raid.WriteRMW},
	}
	require.NoError(t, raid.PlanStripeWrite(ws[0], &p))
	assert.Zero(t, testing.AllocsPerRun(100, func() {
		for _, w := range ws {
			_ = raid.PlanStripeWrite(w, &p)
		}
	}))
}

func ExamplePlanStripeWrite() {
	// A 4 KiB write into the second chunk of stripe 0 of a 4+1 array.
	m := raid.Mapping{Level: raid.RAID5, Layout: raid.LeftSymmetric, Members: 5, StripeUnit: 64 << 10}
	var p raid.StripePlan
	if err := raid.PlanStripeWrite(raid.StripeWrite{Mapping: m, Offset: 64<<10 + 4096, End: 64<<10 + 8192}, &p); err != nil {
		panic(err)
	}
	fmt.Println(p.Method, "reads", p.ReadBytes(), "bytes")
	for c := range p.Columns() {
		fmt.Printf("member %d: read %v write %v\n", p.Member(c), p.Read[c].List(), p.Write[c].List())
	}
	// Output:
	// rmw reads 8192 bytes
	// member 0: read [] write []
	// member 1: read [{4096 8192}] write [{4096 8192}]
	// member 2: read [] write []
	// member 3: read [] write []
	// member 4: read [{4096 8192}] write [{4096 8192}]
}
