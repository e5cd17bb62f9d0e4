package raid_test

import (
	"fmt"
	"math"
	"math/rand/v2"
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

// refPlan is the planner's reference: the same decisions made byte by
// byte with boolean arrays, no span arithmetic.
type refPlan struct {
	method  raid.StripeMethod
	written [][]bool // [data index][byte in chunk]: the write covers it
	parity  []bool   // parity bytes changed: some data index written there
	read    [][]bool // [column][byte]: to pre-read
	write   [][]bool // [column][byte]: to write
}

// reference plans w the naive way. Columns 0..D-1 are data, D parity.
func reference(w raid.StripeWrite) refPlan {
	m := w.Mapping
	n, u := m.Members, int(m.StripeUnit)
	D := n - 1
	base := w.Stripe * m.FullStripe()
	grid := func() [][]bool {
		g := make([][]bool, n)
		for c := range g {
			g[c] = make([]bool, u)
		}
		return g
	}
	ref := refPlan{written: grid()[:D], parity: make([]bool, u), read: grid(), write: grid()}
	covered := 0
	for d := range D {
		for i := range u {
			off := base + int64(d*u+i)
			if off >= w.Offset && off < w.End {
				ref.written[d][i], ref.parity[i] = true, true
				covered++
			}
		}
	}
	down := func(c int) bool {
		mem := raid.ParityMember(m.Layout, n, w.Stripe)
		if c < D {
			mem = raid.DataMember(m.Layout, n, w.Stripe, c)
		}
		return mem < len(w.Failed) && w.Failed[mem]
	}
	fd, bad := -1, 0
	for c := 0; c <= D; c++ {
		if down(c) {
			bad++
			if c < D {
				fd = c
			}
		}
	}
	switch {
	case bad >= 2:
		ref.method = raid.PlanLost
		return ref
	case down(D):
		ref.method = raid.PlanDataOnly
	case covered == D*u:
		ref.method = raid.PlanFullStripe
	default:
		ref.chooseReads(w.Policy, fd)
	}
	for i := range u {
		for d := range D {
			ref.write[d][i] = ref.written[d][i] && d != fd
		}
		ref.write[D][i] = ref.parity[i] && !down(D)
	}
	return ref
}

// chooseReads: read-modify-write reads the old data written and the old
// parity under it; reconstruct-write reads, under the changed parity,
// every live data byte not written, and to rebuild the failed member's
// unwritten bytes there, the old parity and every other member.
func (ref *refPlan) chooseReads(pol raid.WritePolicy, fd int) {
	D := len(ref.written)
	rmw, rcw := make([][]bool, D+1), make([][]bool, D+1)
	var rmwN, rcwN int
	rmwOK := true
	for c := 0; c <= D; c++ {
		rmw[c], rcw[c] = make([]bool, len(ref.parity)), make([]bool, len(ref.parity))
		for i, p := range ref.parity {
			rebuild := fd >= 0 && p && !ref.written[fd][i]
			if c < D {
				rmw[c][i] = ref.written[c][i]
				rcw[c][i] = c != fd && ((p && !ref.written[c][i]) || rebuild)
				if c == fd && ref.written[c][i] {
					rmwOK = false
				}
			} else {
				rmw[c][i], rcw[c][i] = p, rebuild
			}
			rmwN += b2i(rmw[c][i])
			rcwN += b2i(rcw[c][i])
		}
	}
	ref.method, ref.read = raid.PlanRCW, rcw
	if rmwOK && (pol == raid.WriteRMW || (pol == raid.WriteAuto && rmwN < rcwN)) {
		ref.method, ref.read = raid.PlanRMW, rmw
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
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

// randomStripeWrite draws a valid RAID 5 stripe write: 3 to 8 members,
// a small stripe unit, any range touching the stripe, up to two failed
// members.
func randomStripeWrite(rng *rand.Rand) raid.StripeWrite {
	n := 3 + rng.IntN(6)
	u := int64(1 + rng.IntN(12))
	m := raid.Mapping{Level: raid.RAID5, Layout: raid.Layouts()[rng.IntN(len(raid.Layouts()))], Members: n, StripeUnit: u}
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
	w := raid.StripeWrite{Mapping: m, Stripe: s, Offset: lo, End: hi, Policy: raid.WritePolicy(rng.IntN(3))}
	if k := rng.IntN(6); k >= 3 { // one failed member, or two
		w.Failed = make([]bool, n)
		for range k - 2 {
			w.Failed[rng.IntN(n)] = true
		}
	}
	return w
}

// TestPlanStripeWriteMatchesReference checks the planner on random
// stripe writes against the byte-by-byte reference: every byte written
// is covered exactly once, the parity is written over their union unless
// its member is down, full-stripe writes read nothing, read-modify-write
// reads exactly the old data written and the old parity, reconstruct-
// write exactly the unwritten data under the changed parity (and what
// rebuilds a failed member there), the method read least is chosen with
// ties to reconstruct-write, and unavailable members are never touched.
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
	n, u := m.Members, int(m.StripeUnit)
	D := n - 1
	require.Equal(t, n, p.Columns(), where)
	require.Equal(t, w.Stripe*m.FullStripe(), p.Base, where)
	for d := range D {
		got := make([]bool, u)
		if x := p.Data[d]; !x.Empty() {
			require.True(t, x.Lo >= 0 && x.Hi <= int64(u), "%s: data %d span %v outside the unit", where, d, x)
			for i := x.Lo; i < x.Hi; i++ {
				got[i] = true
			}
		}
		require.Equal(t, ref.written[d], got, "%s: data %d covered", where, d)
	}
	require.Equal(t, ref.parity, bytesOf(&p.Parity, u), "%s: parity changed", where)
	for c := 0; c <= D; c++ {
		mem := p.Member(c)
		want := raid.ParityMember(m.Layout, n, w.Stripe)
		if c < D {
			want = raid.DataMember(m.Layout, n, w.Stripe, c)
		}
		require.Equal(t, want, mem, "%s: column %d", where, c)
		rd, wr := bytesOf(&p.Read[c], u), bytesOf(&p.Write[c], u)
		require.Equal(t, ref.read[c], rd, "%s: column %d (member %d) reads", where, c, mem)
		require.Equal(t, ref.write[c], wr, "%s: column %d (member %d) writes", where, c, mem)
		if mem < len(w.Failed) && w.Failed[mem] {
			require.True(t, p.Read[c].Empty() && p.Write[c].Empty(), "%s: failed member %d touched", where, mem)
		}
	}
	if p.Method == raid.PlanFullStripe {
		require.Zero(t, p.ReadBytes(), where)
	}
}

// TestPlanStripeWriteReadsSuffice executes random plans on random bytes:
// from what each plan reads and the new data alone, the new parity comes
// out equal to the XOR of the stripe's new contents.
func TestPlanStripeWriteReadsSuffice(t *testing.T) {
	const seed = 7
	rng := rand.New(rand.NewPCG(seed, 2))
	var p raid.StripePlan
	for iter := range 5000 {
		w := randomStripeWrite(rng)
		where := fmt.Sprintf("seed %d, iteration %d: %+v", seed, iter, w)
		require.NoError(t, raid.PlanStripeWrite(w, &p), where)
		if p.Method == raid.PlanLost || p.Method == raid.PlanDataOnly {
			continue
		}
		D, u := len(p.Data), int(w.Mapping.StripeUnit)
		old := make([][]byte, D+1) // old contents by column, parity consistent
		old[D] = make([]byte, u)
		for d := range D {
			old[d] = make([]byte, u)
			for i := range old[d] {
				old[d][i] = byte(rng.Uint32())
				old[D][i] ^= old[d][i]
			}
		}
		neu := make([][]byte, D) // new data contents
		for d := range neu {
			neu[d] = append([]byte(nil), old[d]...)
			for i := p.Data[d].Lo; i < p.Data[d].Hi; i++ {
				neu[d][i] = byte(rng.Uint32())
			}
		}
		read := func(c int, i int64) byte {
			for _, x := range p.Read[c].List() {
				if x.Lo <= i && i < x.Hi {
					return old[c][i]
				}
			}
			t.Fatalf("%s: %v needs byte %d of column %d, not read", where, p.Method, i, c)
			return 0
		}
		for _, x := range p.Parity.List() {
			for i := x.Lo; i < x.Hi; i++ {
				var want byte
				for d := range D {
					want ^= neu[d][i]
				}
				require.Equal(t, want, newParity(&p, read, neu, i), "%s: parity byte %d", where, i)
			}
		}
	}
}

// newParity computes parity byte i the way p's method does, reading old
// bytes only through read.
func newParity(p *raid.StripePlan, read func(c int, i int64) byte, neu [][]byte, i int64) byte {
	D := len(p.Data)
	in := func(d int) bool { return p.Data[d].Lo <= i && i < p.Data[d].Hi }
	var b byte
	switch p.Method {
	case raid.PlanFullStripe:
		for d := range D {
			b ^= neu[d][i]
		}
	case raid.PlanRMW:
		b = read(D, i)
		for d := range D {
			if in(d) {
				b ^= read(d, i) ^ neu[d][i]
			}
		}
	case raid.PlanRCW:
		for d := range D {
			switch {
			case in(d):
				b ^= neu[d][i]
			case d == p.FailedData: // rebuild its old byte
				b ^= read(D, i)
				for e := range D {
					if e != d {
						b ^= read(e, i)
					}
				}
			default:
				b ^= read(d, i)
			}
		}
	}
	return b
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
			Mapping: raid.Mapping{Level: raid.Level(pick(0, 1, 5, 5, 5, 10, 7)), Layout: raid.Layout(rng.IntN(6)),
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
			"raid: stripe plan: RAID 0 has no parity to plan (want RAID 5)"},
		{raid.StripeWrite{Mapping: raid.Mapping{Level: raid.RAID5, Members: 2, StripeUnit: 4096}, End: 1},
			"raid: stripe plan: 2 members (want 3 to 65536)"},
		{raid.StripeWrite{Mapping: m, Stripe: 1, Offset: 0, End: 3 * 4096},
			"raid: stripe plan: write [0, 12288) misses stripe 1 [12288, 24576)"},
		{raid.StripeWrite{Mapping: m, End: 1, Failed: make([]bool, 5)},
			"raid: stripe plan: failed set of 5 members for 4"},
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
