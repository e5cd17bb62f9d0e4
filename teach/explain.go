package teach

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/lifelog"
	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/spec"
	"github.com/raidsim/raidsim/trace"
)

// maxExplainRoots bounds what an explained run records: its host
// requests and destages, enough for any run meant to be read.
const maxExplainRoots = 200_000

// Explanation is the life of the first requests of a run, told for
// people: `raidsim explain`. Make one with Explain.
type Explanation struct {
	// Report is the run's report.
	Report *raidsim.Report
	// Requests are the host requests explained, in submission order.
	Requests []*lifelog.Life
	// Log holds everything recorded, destages included.
	Log *lifelog.Log
	// Mapping is the array's address mapping, nil without an array.
	Mapping *raid.Mapping

	drives map[string]bool
	policy raid.WritePolicy
}

// Explain runs x with a lifelog.Log attached and keeps the first n host
// requests (n >= 1) for WriteText.
func Explain(x *spec.Experiment, n int) (*Explanation, error) {
	if n < 1 {
		return nil, fmt.Errorf("teach: explain wants at least 1 request, got %d", n)
	}
	pl, err := x.Plan()
	if err != nil {
		return nil, err
	}
	g := &lifelog.Log{MaxRoots: maxExplainRoots}
	rep, err := raidsim.RunPlan(pl, raidsim.RunOptions{Observer: g.Observer()})
	if err != nil {
		return nil, err
	}
	e := &Explanation{Report: rep, Log: g, drives: make(map[string]bool)}
	for i := range pl.Disks {
		e.drives[fmt.Sprintf("disk%d", i)] = true
	}
	if pl.RAID != nil {
		e.policy = pl.RAID.Raid5Write
		e.Mapping = &raid.Mapping{Level: pl.RAID.Level, Layout: pl.RAID.Layout, Members: pl.Disks, StripeUnit: pl.RAID.StripeUnit}
	}
	for _, l := range g.Roots {
		if !l.Background && len(e.Requests) < n {
			e.Requests = append(e.Requests, l)
		}
	}
	return e, nil
}

// WriteText writes every explained request's tree, then a legend.
func (e *Explanation) WriteText(w io.Writer) error {
	var b strings.Builder
	for i := range e.Requests {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.RequestText(i))
	}
	b.WriteString("\nTimes are virtual milliseconds since the run began. The phases of each request\n" +
		"follow its critical path (what it waited for last), so they add up to its latency.\n")
	if e.Log.Cut > 0 {
		fmt.Fprintf(&b, "(%d later requests and destages were not recorded.)\n", e.Log.Cut)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// RequestText returns the tree of the i-th explained request.
func (e *Explanation) RequestText(i int) string {
	l := e.Requests[i]
	t := &tree{}
	t.line(0, "request %d: %s  submitted %s  completed %s  latency %s ms", l.ID, describe(l),
		msec(l.Submitted), msec(l.Completed), msd(l.Completed.Sub(l.Submitted)))
	e.body(t, l, 1)
	t.line(1, "in short: %s", e.summary(l))
	return t.String()
}

// body writes what l went through below its header line.
func (e *Explanation) body(t *tree, l *lifelog.Life, depth int) {
	for _, p := range l.Phases {
		if p.Phase == sim.PhaseQueue && p.End > p.Start && !e.isDrive(l) {
			t.line(depth, "%s: waited %s ms (%s → %s) behind an overlapping request", p.Device, msd(p.End.Sub(p.Start)), msec(p.Start), msec(p.End))
		}
	}
	if a := l.Absorb; a != nil {
		e.absorbed(t, l, depth)
	} else if hit := phaseTime(l, sim.PhaseCacheHit); hit > 0 && !e.isDrive(l) && len(l.Children) == 0 {
		t.line(depth, "%s: served from cache memory in %s ms (hit)", l.Layers[0], msd(hit))
	}
	for _, p := range l.Plans {
		e.plan(t, l, p, depth)
	}
	if e.isDrive(l) {
		driveLines(t, l, depth)
	}
	for _, c := range l.Children {
		t.line(depth, "%s", e.childHeader(l, c))
		e.body(t, c, depth+1)
	}
}

// absorbed tells what a write-back cache did with write l and when its
// data left.
func (e *Explanation) absorbed(t *tree, l *lifelog.Life, depth int) {
	a := l.Absorb
	t.line(depth, "%s: absorbed the write (acknowledged from cache memory in %s ms)", l.AbsorbedBy, msd(phaseTime(l, sim.PhaseCacheHit)))
	switch {
	case a.Merged > 0:
		t.line(depth+1, "merged with %d dirty extent(s) next to it: now one dirty extent %s (%s)", a.Merged, span(a.Off, a.End), trace.FormatSize(a.End-a.Off))
	default:
		t.line(depth+1, "a new dirty extent %s", span(a.Off, a.End))
	}
	if a.Overwritten > 0 {
		t.line(depth+1, "it replaced %s of older data still dirty (an overwrite absorbed in cache)", trace.FormatSize(a.Overwritten))
	}
	if len(l.Destages) == 0 {
		t.line(depth+1, "not destaged before the run ended: it was still only in cache memory")
		return
	}
	for _, d := range l.Destages {
		t.line(depth+1, "destaged at %s ms as %s %s, with %d other host write(s) merged into it", msec(d.Submitted),
			describe(d), span(d.Offset, d.End()), len(d.Carries)-1)
		e.body(t, d, depth+2)
	}
}

// plan explains one RAID 5 stripe plan and why md chose it.
func (e *Explanation) plan(t *tree, l *lifelog.Life, p sim.StripePlan, depth int) {
	t.line(depth, "array: stripe %d: %s, parity on member %d; pre-reads %s, writes %s",
		p.Stripe, methodName(p.Method), p.ParityMember, trace.FormatSize(p.PreReadBytes), trace.FormatSize(p.WriteBytes))
	if why := e.why(l, p); why != "" {
		t.line(depth+1, "why: %s", why)
	}
}

// why says why Linux md chose p's method for l's part of its stripe.
func (e *Explanation) why(l *lifelog.Life, p sim.StripePlan) string {
	if e.Mapping == nil {
		return ""
	}
	switch p.Method {
	case "full-stripe":
		return "the write covers the whole stripe: the new parity is the XOR of the new data, nothing is read"
	case "data-only":
		return "the parity member is unavailable: the data is written alone"
	case "lost":
		return "two members are unavailable: the stripe's data is lost"
	}
	w := raid.StripeWrite{Mapping: *e.Mapping, Stripe: p.Stripe, Offset: l.Offset, End: l.End()}
	var rmw, rcw raid.StripePlan
	w.Policy = raid.WriteRMW
	err1 := raid.PlanStripeWrite(w, &rmw)
	w.Policy = raid.WriteRCW
	err2 := raid.PlanStripeWrite(w, &rcw)
	if err1 != nil || err2 != nil || rmw.Method != raid.PlanRMW {
		return "the failed member's data can only be rebuilt by reading the rest of the stripe"
	}
	a, b := trace.FormatSize(rmw.ReadBytes()), trace.FormatSize(rcw.ReadBytes())
	s := fmt.Sprintf("read-modify-write would pre-read %s (the old data it replaces and the old parity), "+
		"reconstruct-write %s (the stripe's data it leaves alone)", a, b)
	switch {
	case rmw.ReadBytes() == rcw.ReadBytes():
		s += ": a tie, which Linux md gives to reconstruct-write"
	default:
		s += ": Linux md picks the fewer reads"
	}
	if e.policy != raid.WriteAuto {
		s += fmt.Sprintf(" (here forced to %s by stack.raid.raid5_write)", methodName(p.Method))
	}
	return s
}

// childHeader is the line that introduces child c of l.
func (e *Explanation) childHeader(l, c *lifelog.Life) string {
	role := c.Kind
	if c.Member >= 0 {
		role = memberRole(l, c, e.Mapping)
	}
	where := ""
	if len(c.Layers) > 0 {
		where = c.Layers[0]
		if c.Member >= 0 {
			where = fmt.Sprintf("member %d (%s)", c.Member, c.Layers[0])
		}
	}
	return fmt.Sprintf("%s → %s: %s %s  %s → %s  (%s ms)", role, where, describe(c), "@"+fmt.Sprint(c.Offset),
		msec(c.Submitted), msec(c.Completed), msd(c.Completed.Sub(c.Submitted)))
}

// memberRole names member I/O c of l: a pre-read, a data or parity
// write, a read.
func memberRole(l, c *lifelog.Life, m *raid.Mapping) string {
	if l.Op != sim.Write || len(l.Plans) == 0 {
		return c.Op.String()
	}
	if m == nil { // the stripe unit is unknown: the parity member of any stripe
		parity := slices.ContainsFunc(l.Plans, func(p sim.StripePlan) bool { return p.ParityMember == c.Member })
		switch {
		case c.Op == sim.Read && parity:
			return "pre-read parity"
		case c.Op == sim.Read:
			return "pre-read data"
		case parity:
			return "parity write"
		}
		return "data write"
	}
	if c.Op == sim.Read {
		for _, p := range l.Plans {
			if p.Stripe == c.Offset/m.StripeUnit && p.ParityMember == c.Member {
				return "pre-read old parity"
			}
		}
		if m.Locate(l.Offset).Member == c.Member || slices.ContainsFunc(l.Children, func(w *lifelog.Life) bool {
			return w.Op == sim.Write && w.Member == c.Member
		}) {
			return "pre-read old data"
		}
		return "pre-read other data"
	}
	for _, p := range l.Plans {
		if p.Stripe == c.Offset/m.StripeUnit && p.ParityMember == c.Member {
			return "parity write"
		}
	}
	return "data write"
}

// driveLines writes a drive command's phases, its seek and rotation.
func driveLines(t *tree, l *lifelog.Life, depth int) {
	var parts []string
	for _, p := range l.Phases {
		d := msd(p.End.Sub(p.Start))
		switch p.Phase {
		case sim.PhaseSeek:
			if pos := l.Position; pos != nil {
				d += fmt.Sprintf(" ms over %d cylinders to cylinder %d", pos.Distance, pos.Cylinder)
				parts = append(parts, "seek "+d)
				continue
			}
		case sim.PhaseRotate:
			if pos := l.Position; pos != nil {
				parts = append(parts, fmt.Sprintf("rotate %s ms (platter at %.0f°, first sector at %.0f°)", d, pos.StartAngle, pos.TargetAngle))
				continue
			}
		case sim.PhaseCacheHit:
			what := "buffer hit"
			if l.Op == sim.Write {
				what = "the drive's write cache took it"
			}
			parts = append(parts, fmt.Sprintf("%s %s ms", what, d))
			continue
		}
		parts = append(parts, p.Phase.String()+" "+d+" ms")
	}
	if len(parts) > 0 {
		t.line(depth, "%s", strings.Join(parts, ", "))
	}
	if phaseTime(l, sim.PhaseQueue) > 0 && phaseTime(l, sim.PhaseOverhead) == 0 {
		t.line(depth, "no command overhead: the drive decoded the command while it waited in the tagged queue (NCQ)")
	}
}

// summary says in one plain sentence what happened to host request l.
func (e *Explanation) summary(l *lifelog.Life) string {
	var what []string
	if l.Absorb != nil {
		what = append(what, "the write-back cache took it at memory speed")
	}
	for _, p := range l.Plans {
		reads, writes := countMemberIO(l, sim.Read), countMemberIO(l, sim.Write)
		what = append(what, fmt.Sprintf("RAID 5 %s on stripe %d: %d member read(s), then %d member write(s)", methodName(p.Method), p.Stripe, reads, writes))
	}
	if len(l.Plans) == 0 && len(l.Children) > 0 {
		what = append(what, fmt.Sprintf("split into %d request(s) below", len(l.Children)))
	}
	tot := lifelog.Totals(l.Breakdown())
	best := 0
	for i := range tot {
		if tot[i] > tot[best] {
			best = i
		}
	}
	s := fmt.Sprintf("a %s %s", trace.FormatSize(l.Length), l.Op)
	if l.Op == sim.Flush {
		s = "a flush"
	}
	if len(what) > 0 {
		s += ": " + strings.Join(what, "; ")
	}
	return fmt.Sprintf("%s; %s ms in all, most of it %s (%s ms on the critical path).", s,
		msd(l.Completed.Sub(l.Submitted)), lifelog.Labels[best], msd(tot[best]))
}

func countMemberIO(l *lifelog.Life, op sim.Op) int {
	n := 0
	for _, c := range l.Children {
		if c.Member >= 0 && c.Op == op {
			n++
		}
	}
	return n
}

// methodName spells a stripe method out.
func methodName(m string) string {
	switch m {
	case "rmw":
		return "read-modify-write"
	case "rcw":
		return "reconstruct-write"
	}
	return m
}

// isDrive reports whether l was served by a drive.
func (e *Explanation) isDrive(l *lifelog.Life) bool {
	return len(l.Layers) > 0 && e.drives[l.Layers[0]]
}

func phaseTime(l *lifelog.Life, p sim.Phase) time.Duration {
	var d time.Duration
	for _, s := range l.Phases {
		if s.Phase == p {
			d += s.End.Sub(s.Start)
		}
	}
	return d
}

func describe(l *lifelog.Life) string {
	if l.Op == sim.Flush {
		return "flush"
	}
	return fmt.Sprintf("%s %s", l.Op, trace.FormatSize(l.Length))
}

func span(a, b int64) string { return fmt.Sprintf("[%d, %d)", a, b) }

// msec formats a virtual time in milliseconds.
func msec(t sim.Time) string { return msd(time.Duration(t)) }

// msd formats a duration in milliseconds.
func msd(d time.Duration) string { return fmt.Sprintf("%.3f", float64(d)/1e6) }

// tree collects indented lines.
type tree struct{ b strings.Builder }

func (t *tree) line(depth int, format string, args ...any) {
	t.b.WriteString(strings.Repeat("  ", depth))
	if depth > 0 {
		t.b.WriteString("- ")
	}
	fmt.Fprintf(&t.b, format, args...)
	t.b.WriteByte('\n')
}

func (t *tree) String() string { return t.b.String() }
