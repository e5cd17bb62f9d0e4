package raid

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
)

// Span is a byte range [Lo, Hi) inside one stripe unit: offsets from the
// unit's first byte, the same on every member of a stripe.
type Span struct{ Lo, Hi int64 }

// Empty reports whether s holds no bytes.
func (s Span) Empty() bool { return s.Hi <= s.Lo }

// Len returns the bytes s holds, 0 when it is empty.
func (s Span) Len() int64 { return max(0, s.Hi-s.Lo) }

// Spans is a small set of disjoint spans in ascending order, touching
// spans merged. Within one stripe a contiguous write leaves at most three
// pieces in any set the planner makes, so a fixed array holds them
// without allocating. The zero value is the empty set.
type Spans struct {
	s [4]Span
	n int
}

// List returns the spans in ascending order; the slice aliases ss.
func (ss *Spans) List() []Span { return ss.s[:ss.n] }

// Total returns the bytes the spans hold.
func (ss *Spans) Total() int64 {
	var t int64
	for _, x := range ss.List() {
		t += x.Len()
	}
	return t
}

// Empty reports whether the set holds no bytes.
func (ss *Spans) Empty() bool { return ss.n == 0 }

// add merges x into the set.
func (ss *Spans) add(x Span) {
	if x.Empty() {
		return
	}
	if ss.n == 0 || ss.s[ss.n-1].Hi < x.Lo { // the common case: x goes last
		ss.s[ss.n] = x
		ss.n++
		return
	}
	var out Spans
	placed := false
	for _, y := range ss.List() {
		switch {
		case y.Hi < x.Lo:
			out.s[out.n] = y
			out.n++
		case x.Hi < y.Lo:
			if !placed {
				out.s[out.n] = x
				out.n++
				placed = true
			}
			out.s[out.n] = y
			out.n++
		default:
			x = Span{min(x.Lo, y.Lo), max(x.Hi, y.Hi)}
		}
	}
	if !placed {
		out.s[out.n] = x
		out.n++
	}
	// Keep sorted: x may have been appended after larger spans only when
	// it merged; re-sort by insertion.
	for i := 1; i < out.n; i++ {
		for j := i; j > 0 && out.s[j].Lo < out.s[j-1].Lo; j-- {
			out.s[j], out.s[j-1] = out.s[j-1], out.s[j]
		}
	}
	*ss = out
}

// minus returns ss without x.
func (ss Spans) minus(x Span) Spans {
	var out Spans
	for _, y := range ss.List() {
		if x.Empty() || y.Hi <= x.Lo || x.Hi <= y.Lo {
			out.add(y)
			continue
		}
		out.add(Span{y.Lo, x.Lo})
		out.add(Span{x.Hi, y.Hi})
	}
	return out
}

// union returns ss with every span of o.
func (ss Spans) union(o Spans) Spans {
	for _, y := range o.List() {
		ss.add(y)
	}
	return ss
}

// StripeMethod is how a RAID 5 write brings one stripe's parity up to
// date.
type StripeMethod uint8

const (
	// PlanFullStripe: the write covers the whole stripe, so the parity is
	// the XOR of the new data and nothing is read.
	PlanFullStripe StripeMethod = iota
	// PlanRMW is read-modify-write: read the old data the write replaces
	// and the old parity over it; new parity = old parity XOR old data
	// XOR new data.
	PlanRMW
	// PlanRCW is reconstruct-write: read, over the parity bytes the write
	// changes, the data it leaves alone; new parity = XOR of the stripe's
	// new contents. With a data member failed it also reads what rebuilds
	// that member's old bytes (the old parity and the other members' old
	// data there).
	PlanRCW
	// PlanDataOnly: the parity member is unavailable, so the data is
	// written and nothing is read.
	PlanDataOnly
	// PlanLost: two or more members are unavailable; the stripe's data is
	// lost and nothing is read or written.
	PlanLost
)

var methodNames = [...]string{"full-stripe", "rmw", "rcw", "data-only", "lost"}

// String returns "full-stripe", "rmw", "rcw", "data-only" or "lost".
func (m StripeMethod) String() string {
	if int(m) < len(methodNames) {
		return methodNames[m]
	}
	return fmt.Sprintf("StripeMethod(%d)", uint8(m))
}

// StripeWrite is the planner's question: one write's part of one RAID 5
// stripe.
type StripeWrite struct {
	// Mapping is the array's shape. Level must be RAID5, with 3 to
	// MaxPlanMembers members and a positive StripeUnit in bytes.
	Mapping Mapping
	// Stripe is the stripe (row of stripe units) written, from 0.
	Stripe int64
	// Offset and End bound the write's logical bytes, [Offset, End); only
	// the part inside Stripe is planned, and that part must not be empty.
	Offset, End int64
	// Failed is true, by member index, for a member that can be neither
	// read nor written at this stripe (failed, and not yet rebuilt this
	// far). Members beyond its length are healthy; nil means none failed.
	Failed []bool
	// Policy chooses between read-modify-write and reconstruct-write.
	Policy WritePolicy
}

// MaxPlanMembers is the most members PlanStripeWrite plans for.
const MaxPlanMembers = 1 << 16

// StripePlan is PlanStripeWrite's answer: which member bytes to pre-read,
// which to write, and how the parity is brought up to date. Columns
// number a stripe's chunks by role: data index 0..D-1 (D = members - 1),
// then D for the parity; Member maps a column to its member.
//
// A StripePlan is filled in place; its slices are reused, so planning
// into the same value again allocates nothing.
type StripePlan struct {
	// Method is how the stripe's parity is brought up to date.
	Method StripeMethod
	// Mapping and Stripe are those of the write planned.
	Mapping Mapping
	Stripe  int64
	// Base is the logical offset of the stripe's first data byte, in
	// bytes.
	Base int64
	// ParityMember is the member holding the stripe's parity.
	ParityMember int
	// FailedData is the data index of the unavailable data member, or -1.
	FailedData int
	// ParityFailed reports that the parity member is unavailable.
	ParityFailed bool
	// Data is, by data index, the part of that chunk the write covers
	// (the zero Span when none). New data byte Base + d*StripeUnit + i
	// comes from the write for i in Data[d]. The failed data member's
	// part is not written, but the new parity includes it.
	Data []Span
	// Parity is the parity bytes the write changes: the union of Data.
	Parity Spans
	// Read is, by column, the bytes to read before the parity can be
	// computed; Write, the bytes to write then (Data's for data columns,
	// Parity for the parity column). An unavailable member's column is
	// empty in both, and every column is empty when Method is PlanLost.
	Read, Write []Spans
}

// Columns returns the number of columns, the members: D data and one
// parity.
func (p *StripePlan) Columns() int { return len(p.Read) }

// Member returns the member holding column c of the stripe: data index
// c for c < D, the parity for c == D.
func (p *StripePlan) Member(c int) int {
	if c == len(p.Data) {
		return p.ParityMember
	}
	return DataMember(p.Mapping.Layout, p.Mapping.Members, p.Stripe, c)
}

// ReadBytes returns the bytes the plan pre-reads, over every column.
func (p *StripePlan) ReadBytes() int64 {
	var t int64
	for c := range p.Read {
		t += p.Read[c].Total()
	}
	return t
}

// Degraded reports whether a member of the stripe is unavailable.
func (p *StripePlan) Degraded() bool { return p.FailedData >= 0 || p.ParityFailed }

// PlanStripeWrite plans w into p, as Linux md plans a stripe: a write
// covering the whole stripe reads nothing; otherwise read-modify-write
// and reconstruct-write are costed in bytes to pre-read and, under
// WriteAuto, the cheaper is chosen, ties going to reconstruct-write.
// WriteRMW and WriteRCW force one (read-modify-write cannot rebuild the
// parity over a failed member's new data, so a write to it uses
// reconstruct-write whatever the policy). An unavailable member is never
// read or written: with the parity member unavailable the data is written
// alone, and with two members unavailable the stripe is lost.
//
// PlanStripeWrite is pure: it reads w, writes only p, and allocates
// nothing once p's slices have grown to the member count. It returns an
// error, leaving p undefined, when w is not a RAID 5 stripe write.
func PlanStripeWrite(w StripeWrite, p *StripePlan) error {
	if err := w.check(); err != nil {
		return err
	}
	m := w.Mapping
	n, u := m.Members, m.StripeUnit
	D := n - 1
	fs := int64(D) * u
	base := w.Stripe * fs
	lo, hi := max(w.Offset, base), min(w.End, base+fs)
	p.size(n)
	p.Mapping, p.Stripe, p.Base = m, w.Stripe, base
	p.ParityMember = ParityMember(m.Layout, n, w.Stripe)
	p.FailedData, p.ParityFailed = -1, false
	p.Parity = Spans{}
	full := true
	for d := range D {
		cs := base + int64(d)*u
		s := Span{max(lo, cs) - cs, min(hi, cs+u) - cs}
		if s.Empty() {
			s = Span{}
		}
		p.Data[d] = s
		p.Parity.add(s)
		if s.Lo != 0 || s.Hi != u {
			full = false
		}
	}
	bad := 0
	for d := range D {
		if w.failed(DataMember(m.Layout, n, w.Stripe, d)) {
			p.FailedData = d
			bad++
		}
	}
	if w.failed(p.ParityMember) {
		p.ParityFailed = true
		bad++
	}
	clear(p.Read)
	clear(p.Write)
	switch {
	case bad >= 2:
		p.Method = PlanLost
		return nil
	case p.ParityFailed:
		p.Method = PlanDataOnly
	case full:
		p.Method = PlanFullStripe
	default:
		p.chooseReads(w.Policy)
	}
	for d := range D {
		if d != p.FailedData {
			p.Write[d].add(p.Data[d])
		}
	}
	if !p.ParityFailed {
		p.Write[D] = p.Parity
	}
	return nil
}

// chooseReads picks read-modify-write or reconstruct-write for a partial
// stripe write with its parity member available, and fills p.Read.
func (p *StripePlan) chooseReads(pol WritePolicy) {
	D := len(p.Data)
	fd := p.FailedData
	// Reconstruct-write reads, over the parity bytes changed, what each
	// data column keeps; with a data member failed, also what rebuilds
	// its old bytes there (x: the old parity and every other column).
	var x Spans
	if fd >= 0 {
		x = p.Parity.minus(p.Data[fd])
	}
	rcw := x.Total()
	for d := range D {
		if d != fd {
			p.Read[d] = p.Parity.minus(p.Data[d]).union(x)
			rcw += p.Read[d].Total()
		}
	}
	p.Read[D] = x
	// Read-modify-write reads the old data written and the old parity.
	rmw := p.Parity.Total()
	for d := range D {
		rmw += p.Data[d].Len()
	}
	rmwOK := fd < 0 || p.Data[fd].Empty()
	if !rmwOK || !(pol == WriteRMW || (pol == WriteAuto && rmw < rcw)) {
		p.Method = PlanRCW
		return
	}
	p.Method = PlanRMW
	for d := range D {
		p.Read[d] = Spans{}
		p.Read[d].add(p.Data[d])
	}
	p.Read[D] = p.Parity
}

// size makes p's slices fit n members, reusing their storage.
func (p *StripePlan) size(n int) {
	if cap(p.Read) < n || cap(p.Write) < n || cap(p.Data) < n-1 {
		p.Read, p.Write, p.Data = make([]Spans, n), make([]Spans, n), make([]Span, n-1)
	}
	p.Read, p.Write, p.Data = p.Read[:n], p.Write[:n], p.Data[:n-1]
}

func (w *StripeWrite) failed(m int) bool { return m < len(w.Failed) && w.Failed[m] }

// errPlan prefixes the planner's errors.
var errPlan = errors.New("raid: stripe plan")

// fitsProduct reports whether x*y, for non-negative x and y, is at most
// math.MaxInt64 (without the cost of a division).
func fitsProduct(x, y int64) bool {
	hi, lo := bits.Mul64(uint64(x), uint64(y))
	return hi == 0 && lo <= math.MaxInt64
}

// check reports why w cannot be planned, or nil.
func (w *StripeWrite) check() error {
	m := w.Mapping
	switch {
	case m.Level != RAID5:
		return fmt.Errorf("%w: %v has no parity to plan (want RAID 5)", errPlan, m.Level)
	case m.Members < MinMembers(RAID5) || m.Members > MaxPlanMembers:
		return fmt.Errorf("%w: %d members (want 3 to %d)", errPlan, m.Members, MaxPlanMembers)
	case !m.Layout.Valid():
		return fmt.Errorf("%w: unknown layout %d", errPlan, uint8(m.Layout))
	case m.StripeUnit <= 0 || !fitsProduct(m.StripeUnit, int64(m.Members-1)):
		return fmt.Errorf("%w: stripe unit %d bytes", errPlan, m.StripeUnit)
	case !w.Policy.Valid():
		return fmt.Errorf("%w: unknown write policy %d", errPlan, uint8(w.Policy))
	case len(w.Failed) > m.Members:
		return fmt.Errorf("%w: failed set of %d members for %d", errPlan, len(w.Failed), m.Members)
	}
	fs := m.FullStripe()
	if w.Stripe < 0 || w.Stripe == math.MaxInt64 || !fitsProduct(w.Stripe+1, fs) {
		return fmt.Errorf("%w: stripe %d out of range", errPlan, w.Stripe)
	}
	base := w.Stripe * fs
	if max(w.Offset, base) >= min(w.End, base+fs) {
		return fmt.Errorf("%w: write [%d, %d) misses stripe %d [%d, %d)", errPlan, w.Offset, w.End, w.Stripe, base, base+fs)
	}
	return nil
}
