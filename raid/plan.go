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

// maxSpans bounds a Spans set: one write's part of one stripe falls in
// at most five groups of page rows (see StripePlan.Rows), so no set the
// planner makes holds more.
const maxSpans = 8

// Spans is a small set of disjoint spans in ascending order, touching
// spans merged. A fixed array holds them without allocating. The zero
// value is the empty set.
type Spans struct {
	s [maxSpans]Span
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

// add merges x into the set. The planner adds spans in ascending order,
// so x nearly always goes last or joins the last span.
func (ss *Spans) add(x Span) {
	if x.Empty() {
		return
	}
	if ss.n > 0 && ss.s[ss.n-1].Hi >= x.Lo && ss.s[ss.n-1].Lo <= x.Lo {
		ss.s[ss.n-1].Hi = max(ss.s[ss.n-1].Hi, x.Hi)
		return
	}
	if ss.n == 0 || ss.s[ss.n-1].Hi < x.Lo {
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
	for i := 1; i < out.n; i++ { // x may have merged past larger spans
		for j := i; j > 0 && out.s[j].Lo < out.s[j-1].Lo; j-- {
			out.s[j], out.s[j-1] = out.s[j-1], out.s[j]
		}
	}
	*ss = out
}

// StripeMethod is how a write brings one stripe's parity (RAID 5's P,
// RAID 6's P and Q) up to date, or a group of its page rows'.
type StripeMethod uint8

const (
	// PlanFullStripe: the write covers every data page of the rows, so
	// the parity is computed from the new data and nothing is read.
	PlanFullStripe StripeMethod = iota
	// PlanRMW is read-modify-write: read the old data pages the write
	// replaces and the old parity pages; the parity changes by the
	// difference (P by its XOR, RAID 6's Q by its syndrome, g^d times
	// it for data index d: md's partial syndrome update).
	PlanRMW
	// PlanRCW is reconstruct-write: read the data pages the write does
	// not wholly replace; the parity is computed from the rows' new
	// contents. With a member missing where the write leaves old bytes,
	// every other page of the rows is read to solve it first.
	PlanRCW
	// PlanDataOnly: no parity member is available, so the data is
	// written (pages the write covers in part read first, to fill
	// them).
	PlanDataOnly
	// PlanLost: more members are missing than the level survives; the
	// stripe's data is lost and nothing is read or written.
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

// DefaultPage is the page a parity array plans in when Config.Page is
// zero: 4 KiB, md's stripe cache page (PAGE_SIZE; the array's
// stripe_size in sysfs).
const DefaultPage = 4096

// StripeWrite is the planner's question: one write's part of one RAID 5
// or RAID 6 stripe.
type StripeWrite struct {
	// Mapping is the array's shape: RAID5 with 3 to MaxPlanMembers
	// members, or RAID6 with 4 to MaxPlanMembers, and a positive
	// StripeUnit in bytes.
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
	// Unreadable is true, by member index, for a member whose pre-read
	// failed here (an unreadable sector): it is written but not read. Its
	// pages the plan needs are solved from the others and written back,
	// as md rewrites a block it could not read.
	Unreadable []bool
	// Policy chooses between read-modify-write and reconstruct-write.
	Policy WritePolicy
	// Page is the unit the plan reads and writes in, bytes: md's stripe
	// cache page. Zero means DefaultPage, or the stripe unit when that is
	// not a multiple of DefaultPage; a page must divide the stripe unit.
	Page int64
}

// MaxPlanMembers is the most members PlanStripeWrite plans for.
const MaxPlanMembers = 1 << 16

// RowPlan is how a group of a stripe's page rows is brought up to date:
// rows [Lo, Hi) of the stripe units (byte offsets, whole pages) that the
// write covers in the same way on every data member.
type RowPlan struct {
	Lo, Hi int64
	// Method is PlanFullStripe, PlanRMW, PlanRCW or PlanDataOnly.
	Method StripeMethod
	// Solve (with PlanRCW) says a missing member's old bytes in these
	// rows are needed: every other page of the rows is read, and the
	// missing ones solved from them first.
	Solve bool
}

// StripePlan is PlanStripeWrite's answer: which member bytes to pre-read,
// which to write, and how each group of page rows is brought up to date.
// Columns number a stripe's chunks by role: data index 0..D-1, then the
// parity P at D and, on RAID 6, Q at D+1; Member maps a column to its
// member. Reads and writes are whole pages, as md's stripe cache does
// them: a page the write covers in part is read first and written whole.
//
// A StripePlan is filled in place; its slices are reused, so planning
// into the same value again allocates nothing.
type StripePlan struct {
	// Method is the stripe's: PlanLost, PlanDataOnly, PlanFullStripe when
	// every row group is full-stripe, else PlanRMW or PlanRCW, whichever
	// more of the updated page rows use (ties to PlanRCW).
	Method StripeMethod
	// Mapping and Stripe are those of the write planned.
	Mapping Mapping
	Stripe  int64
	// Base is the logical offset of the stripe's first data byte, in
	// bytes; Page the page planned in, bytes.
	Base, Page int64
	// ParityMember holds P; QMember holds Q on RAID 6 (-1 on RAID 5).
	ParityMember, QMember int
	// Data is, by data index, the part of that chunk the write covers
	// (the zero Span when none). New data byte Base + d*StripeUnit + i
	// comes from the write for i in Data[d].
	Data []Span
	// Parity is the parity bytes rewritten: Data's pages, over every
	// data column.
	Parity Spans
	// Down and Unreadable are, by column, the members that cannot be read
	// or written, and those that can be written but not read.
	Down, Unreadable []bool
	// Rows are the groups of page rows the write touches, in order.
	Rows []RowPlan
	// RMWRows and RCWRows count the page rows updated each way.
	RMWRows, RCWRows int64
	// Read is, by column, the bytes to read before the parity can be
	// computed; Write, the bytes to write then. A Down column's are
	// empty, and every column's when Method is PlanLost.
	Read, Write []Spans

	units [][]byte // scratch for Compute
}

// Columns returns the number of columns, the members.
func (p *StripePlan) Columns() int { return len(p.Read) }

// ParityColumns returns the number of parity columns: 1 on RAID 5, 2 on
// RAID 6.
func (p *StripePlan) ParityColumns() int { return len(p.Read) - len(p.Data) }

// Member returns the member holding column c of the stripe.
func (p *StripePlan) Member(c int) int {
	D := len(p.Data)
	switch {
	case c == D:
		return p.ParityMember
	case c == D+1:
		return p.QMember
	case p.Mapping.Level == RAID6:
		return DataMember6(p.Mapping.Members, p.Stripe, c)
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

// Degraded reports whether a member of the stripe is unavailable or
// unreadable.
func (p *StripePlan) Degraded() bool {
	for c := range p.Down {
		if p.Down[c] || p.Unreadable[c] {
			return true
		}
	}
	return false
}

// PlanStripeWrite plans w into p as Linux md plans a stripe: page row by
// page row (md's stripe heads), a row whose data pages the write covers
// whole reads nothing; otherwise read-modify-write and reconstruct-write
// are costed in pages to read and, under WriteAuto, the cheaper is
// chosen, ties going to reconstruct-write (md's default rmw_level; md
// does read-modify-write for RAID 6 too since Linux 4.1, with the
// partial syndrome update). WriteRMW and WriteRCW force one where it is
// possible (read-modify-write needs every data page it replaces and
// every live parity page readable). A member missing where the write
// leaves old bytes is solved from every other page of the row. No
// Failed member is read or written, no Unreadable member read.
//
// PlanStripeWrite is pure: it reads w, writes only p, and allocates
// nothing once p's slices have grown to the member count. It returns an
// error, leaving p undefined, when w is not a stripe write it can plan.
func PlanStripeWrite(w StripeWrite, p *StripePlan) error {
	if err := w.check(); err != nil {
		return err
	}
	m := w.Mapping
	n, u := m.Members, m.StripeUnit
	np := 1
	if m.Level == RAID6 {
		np = 2
	}
	D := n - np
	fs := int64(D) * u
	base := w.Stripe * fs
	lo, hi := max(w.Offset, base), min(w.End, base+fs)
	p.size(n, D)
	p.Mapping, p.Stripe, p.Base, p.Page = m, w.Stripe, base, w.page()
	p.ParityMember, p.QMember = ParityMember(m.Layout, n, w.Stripe), -1
	if m.Level == RAID6 {
		p.ParityMember, p.QMember = ParityMember(LeftSymmetric, n, w.Stripe), QMember(n, w.Stripe)
	}
	p.Parity = Spans{}
	p.RMWRows, p.RCWRows = 0, 0
	for d := range D {
		cs := base + int64(d)*u
		s := Span{max(lo, cs) - cs, min(hi, cs+u) - cs}
		if s.Empty() {
			s = Span{}
		}
		p.Data[d] = s
	}
	bad := 0
	for c := range n {
		mem := p.Member(c)
		p.Down[c] = mem < len(w.Failed) && w.Failed[mem]
		p.Unreadable[c] = !p.Down[c] && mem < len(w.Unreadable) && w.Unreadable[mem]
		if p.Down[c] || p.Unreadable[c] {
			bad++
		}
	}
	clear(p.Read)
	clear(p.Write)
	p.Rows = p.Rows[:0]
	if bad > np {
		p.Method = PlanLost
		return nil
	}
	p.planRows(w.Policy, lo-base, hi-base)
	p.Method = p.stripeMethod()
	return nil
}

// planRows groups the page rows the write touches by how it covers them
// and plans each group.
func (p *StripePlan) planRows(pol WritePolicy, lo, hi int64) {
	u, pg := p.Mapping.StripeUnit, p.Page
	// Coverage changes only at the pages holding the write's first and
	// last byte within a unit: at most five groups.
	var cuts [6]int64
	cuts[0], cuts[1], cuts[2], cuts[3], cuts[4], cuts[5] = 0, lo%u/pg*pg, (lo%u+pg-1)/pg*pg, hi%u/pg*pg, (hi%u+pg-1)/pg*pg, u
	sortCuts(cuts[:])
	for i := range 5 {
		a, b := cuts[i], cuts[i+1]
		if a < b {
			p.planGroup(pol, a, b)
		}
	}
}

// sortCuts sorts six offsets in place (insertion sort: no allocation).
func sortCuts(c []int64) {
	for i := 1; i < len(c); i++ {
		for j := i; j > 0 && c[j] < c[j-1]; j-- {
			c[j], c[j-1] = c[j-1], c[j]
		}
	}
}

// cover is how the write covers one data page.
type cover uint8

const (
	coverNone cover = iota
	coverPart
	coverFull
)

// coverOf returns how data index d's write covers pages [a, b), which
// all cover alike.
func (p *StripePlan) coverOf(d int, a int64) cover {
	s := p.Data[d]
	pa, pb := a, a+p.Page
	switch {
	case s.Empty() || s.Hi <= pa || pb <= s.Lo:
		return coverNone
	case s.Lo <= pa && pb <= s.Hi:
		return coverFull
	}
	return coverPart
}

// planGroup plans rows [a, b), which the write covers alike.
func (p *StripePlan) planGroup(pol WritePolicy, a, b int64) {
	D := len(p.Data)
	x := Span{a, b}
	written, full := 0, true
	for d := range D {
		switch p.coverOf(d, a) {
		case coverNone:
			full = false
		case coverPart:
			written++
			full = false
		default:
			written++
		}
	}
	if written == 0 {
		return
	}
	rows := (b - a) / p.Page
	p.Parity.add(x)
	parityLive := false
	for c := D; c < len(p.Read); c++ {
		parityLive = parityLive || !p.Down[c]
	}
	g := RowPlan{Lo: a, Hi: b}
	switch {
	case !parityLive:
		g.Method = PlanDataOnly
		for d := range D {
			if p.coverOf(d, a) == coverPart {
				p.Read[d].add(x)
			}
		}
	case full:
		g.Method = PlanFullStripe
	default:
		g.Method, g.Solve = p.chooseGroup(pol, a, x)
		if g.Method == PlanRMW {
			p.RMWRows += rows
		} else {
			p.RCWRows += rows
		}
	}
	p.Rows = append(p.Rows, g)
	for c := range p.Write {
		if p.Down[c] {
			continue
		}
		switch {
		case c >= D: // parity: P and Q, pages whole
			p.Write[c].add(x)
		case p.coverOf(c, a) != coverNone:
			p.Write[c].add(x)
		case g.Solve && p.Unreadable[c]: // solved: write it back (md's repair)
			p.Write[c].add(x)
		}
	}
}

// chooseGroup costs rows [a, a+len) both ways, in pages read per row,
// and fills p.Read for the method chosen.
func (p *StripePlan) chooseGroup(pol WritePolicy, a int64, x Span) (StripeMethod, bool) {
	D := len(p.Data)
	readable := func(c int) bool { return !p.Down[c] && !p.Unreadable[c] }
	// Reconstruct-write: the data pages not wholly rewritten; if one of
	// those is missing, every readable page, to solve it.
	solve := false
	for d := range D {
		if !readable(d) && p.coverOf(d, a) != coverFull {
			solve = true
		}
	}
	rcw := 0
	for c := range p.Read {
		if readable(c) && (solve || c < D && p.coverOf(c, a) != coverFull) {
			rcw++
		}
	}
	// Read-modify-write: the old data pages written and the live parity.
	rmw, rmwOK := 0, true
	for c := range p.Read {
		switch {
		case c >= D && p.Down[c]:
		case c >= D || p.coverOf(c, a) != coverNone:
			rmw++
			rmwOK = rmwOK && readable(c)
		}
	}
	useRMW := rmwOK && (pol == WriteRMW || pol == WriteAuto && rmw < rcw)
	for c := range p.Read {
		var need bool
		if useRMW {
			need = c >= D && !p.Down[c] || c < D && p.coverOf(c, a) != coverNone
		} else {
			need = readable(c) && (solve || c < D && p.coverOf(c, a) != coverFull)
		}
		if need {
			p.Read[c].add(x)
		}
	}
	if useRMW {
		return PlanRMW, false
	}
	return PlanRCW, solve
}

// stripeMethod sums the row groups up into the stripe's method.
func (p *StripePlan) stripeMethod() StripeMethod {
	all := PlanFullStripe
	for _, g := range p.Rows {
		if g.Method == PlanDataOnly {
			return PlanDataOnly
		}
		if g.Method != PlanFullStripe {
			all = PlanRCW
		}
	}
	if all == PlanFullStripe {
		return PlanFullStripe
	}
	if p.RMWRows > p.RCWRows {
		return PlanRMW
	}
	return PlanRCW
}

// size makes p's slices fit n columns, D of them data, reusing their
// storage.
func (p *StripePlan) size(n, D int) {
	if cap(p.Read) < n || cap(p.Write) < n || cap(p.Data) < D || cap(p.Down) < n || cap(p.Unreadable) < n || cap(p.units) < n {
		p.Read, p.Write, p.Data = make([]Spans, n), make([]Spans, n), make([]Span, D)
		p.Down, p.Unreadable, p.units = make([]bool, n), make([]bool, n), make([][]byte, n)
		p.Rows = make([]RowPlan, 0, 5)
	}
	p.Read, p.Write, p.Data = p.Read[:n], p.Write[:n], p.Data[:D]
	p.Down, p.Unreadable, p.units = p.Down[:n], p.Unreadable[:n], p.units[:n]
}

func (w *StripeWrite) page() int64 {
	switch {
	case w.Page > 0:
		return w.Page
	case w.Mapping.StripeUnit%DefaultPage == 0:
		return DefaultPage
	}
	return w.Mapping.StripeUnit
}

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
	case !m.Level.parity():
		return fmt.Errorf("%w: %v has no parity to plan (want RAID 5 or 6)", errPlan, m.Level)
	case m.Members < MinMembers(m.Level) || m.Members > MaxPlanMembers:
		return fmt.Errorf("%w: %d members for %v (want %d to %d)", errPlan, m.Members, m.Level, MinMembers(m.Level), MaxPlanMembers)
	case !m.Layout.Valid() || m.Level == RAID6 && m.Layout != LeftSymmetric:
		return fmt.Errorf("%w: layout %v for %v", errPlan, m.Layout, m.Level)
	case m.StripeUnit <= 0 || !fitsProduct(m.StripeUnit, int64(m.Members)):
		return fmt.Errorf("%w: stripe unit %d bytes", errPlan, m.StripeUnit)
	case w.Page < 0 || w.Page > 0 && m.StripeUnit%w.Page != 0:
		return fmt.Errorf("%w: page %d bytes does not divide the stripe unit %d", errPlan, w.Page, m.StripeUnit)
	case !w.Policy.Valid():
		return fmt.Errorf("%w: unknown write policy %d", errPlan, uint8(w.Policy))
	case len(w.Failed) > m.Members || len(w.Unreadable) > m.Members:
		return fmt.Errorf("%w: failed or unreadable set of %d members for %d", errPlan, max(len(w.Failed), len(w.Unreadable)), m.Members)
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
