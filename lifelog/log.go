package lifelog

import (
	"strconv"
	"strings"

	"github.com/raidsim/raidsim/sim"
)

// DefaultHostName is the device name trace.Replay gives the hooks it
// calls for the requests it submits.
const DefaultHostName = "trace"

// Log records request lives from the hooks of Observer. Attach
// Observer() to a stack (raidsim.RunOptions.Observer, or New of each
// device). A Log is not safe for concurrent use; one engine drives it.
type Log struct {
	// MaxRoots bounds the roots (host requests, destages, read-aheads)
	// recorded; later ones are counted in Cut. 0 records every one.
	MaxRoots int
	// MaxHost, when positive, bounds the host requests recorded (roots
	// the workload submitted); later ones are counted in Cut and
	// background roots (destages, read-ahead) are not recorded at all.
	MaxHost int
	// Until, when positive, leaves out roots submitted after it.
	Until sim.Time
	// Discard drops each root once it completed and Finished has seen
	// it, for a log that only aggregates (Roots stays empty).
	Discard bool
	// HostName is the device name of the workload's hooks;
	// "" means DefaultHostName.
	HostName string
	// Finished, when set, is called as each root completes.
	Finished func(*Life)

	// Roots are the recorded roots in the order first seen.
	Roots []*Life
	// Cut counts the roots left out by MaxRoots or Until, and CutAt is
	// when the first was left out (0 when none was).
	Cut   int64
	CutAt sim.Time
	// Levels are the quantities devices reported (sim.Observer.Level)
	// up to CutAt, in time order; Discard leaves them out.
	Levels []Level

	seq     int
	kept    int
	hosts   int
	live    map[*sim.Request]*Life
	pending map[string][]pendingWrite
	obs     sim.Observer
}

// Level is one report of a device's level.
type Level struct {
	Device, What string
	Value        int64
	At           sim.Time
}

// pendingWrite is an absorbed host write whose data has not all been
// seen leaving in a destage.
type pendingWrite struct {
	l    *Life
	left int64 // bytes not yet covered by a destage
}

// Observer returns the hooks that feed the log.
func (g *Log) Observer() *sim.Observer {
	if g.live == nil {
		g.live = make(map[*sim.Request]*Life)
		g.pending = make(map[string][]pendingWrite)
		g.obs = sim.Observer{Submitted: g.submitted, Phase: g.phase, Completed: g.completed,
			Child: g.child, Plan: g.plan, Absorb: g.absorb, Destage: g.destage, Position: g.position, Level: g.level}
	}
	return &g.obs
}

func (g *Log) hostName() string {
	if g.HostName == "" {
		return DefaultHostName
	}
	return g.HostName
}

// full reports whether a new root submitted now is left out.
func (g *Log) full(now sim.Time) bool {
	return (g.MaxRoots > 0 && g.kept >= g.MaxRoots) || (g.Until > 0 && now > g.Until)
}

func (g *Log) newLife(r *sim.Request, now sim.Time) *Life {
	l := &Life{Seq: g.seq, ID: r.ID, Op: r.Op, Offset: r.Offset, Length: r.Length, FUA: r.FUA,
		Member: -1, Submitted: now}
	g.seq++
	return l
}

// root records r as a new root, or marks it left out. host says
// whether the workload submitted it.
func (g *Log) root(r *sim.Request, now sim.Time, host bool) *Life {
	if g.MaxHost > 0 && (!host || g.hosts >= g.MaxHost) {
		if host {
			g.cut(now)
		}
		g.live[r] = nil
		return nil
	}
	if g.full(now) {
		g.cut(now)
		g.live[r] = nil
		return nil
	}
	l := g.newLife(r, now)
	g.live[r] = l
	g.kept++
	if host {
		g.hosts++
	}
	if !g.Discard {
		g.Roots = append(g.Roots, l)
	}
	return l
}

func (g *Log) submitted(device string, r *sim.Request, now sim.Time) {
	l, ok := g.live[r]
	if !ok {
		l = g.root(r, now, true)
		if l != nil {
			l.Kind = "host"
		}
	}
	if l == nil {
		return
	}
	if device == g.hostName() {
		l.Host = true
		return
	}
	l.Layers = append(l.Layers, device)
}

func (g *Log) child(device string, parent, c *sim.Request, member int, now sim.Time) {
	var pl *Life
	if parent != nil {
		pl = g.live[parent]
		if pl == nil {
			g.live[c] = nil // its parent is not recorded: neither is it
			return
		}
	}
	var l *Life
	if pl == nil {
		if l = g.root(c, now, false); l == nil {
			return
		}
		l.Background = true
	} else {
		l = g.newLife(c, now)
		l.Parent = pl
		pl.Children = append(pl.Children, l)
		g.live[c] = l
	}
	l.Via, l.Member, l.Kind = device, member, childKind(pl, c, member)
}

// childKind names what child c is for its parent pl.
func childKind(pl *Life, c *sim.Request, member int) string {
	switch {
	case pl == nil && c.Op == sim.Read:
		return "read-ahead"
	case pl == nil:
		return "background"
	case member >= 0:
		return "member"
	}
	return c.Op.String() + " below"
}

func (g *Log) destage(device string, c *sim.Request, now sim.Time) {
	l := g.root(c, now, false)
	if l == nil {
		return
	}
	l.Background, l.Via, l.Kind = true, device, "destage"
	ps := g.pending[device]
	j := 0
	for _, p := range ps {
		if lo, hi := max(p.l.Offset, c.Offset), min(p.l.End(), c.End()); lo < hi {
			l.Carries = append(l.Carries, p.l)
			p.l.Destages = append(p.l.Destages, l)
			p.left -= hi - lo
		}
		if p.left > 0 {
			ps[j] = p
			j++
		}
	}
	clear(ps[j:])
	g.pending[device] = ps[:j]
}

func (g *Log) absorb(device string, r *sim.Request, a sim.Absorb, _ sim.Time) {
	if l := g.live[r]; l != nil {
		l.Absorb, l.AbsorbedBy = &a, device
		if !g.Discard {
			g.pending[device] = append(g.pending[device], pendingWrite{l: l, left: l.Length})
		}
	}
}

func (g *Log) plan(_ string, r *sim.Request, p sim.StripePlan, _ sim.Time) {
	if l := g.live[r]; l != nil {
		l.Plans = append(l.Plans, p)
	}
}

func (g *Log) position(_ string, r *sim.Request, p sim.Position) {
	if l := g.live[r]; l != nil {
		l.Position = &p
	}
}

func (g *Log) phase(device string, r *sim.Request, p sim.Phase, start, end sim.Time) {
	if l := g.live[r]; l != nil {
		l.Phases = append(l.Phases, Span{Device: device, Phase: p, Start: start, End: end})
	}
}

func (g *Log) completed(device string, r *sim.Request, now sim.Time) {
	l, ok := g.live[r]
	if !ok {
		return
	}
	if l == nil {
		delete(g.live, r)
		return
	}
	// A request entered several layers (the workload's, then the top
	// device): it is done when the first device it entered finishes.
	if len(l.Layers) > 0 && device != l.Layers[0] {
		return
	}
	l.Completed, l.Done = now, true
	if r.Err != nil {
		l.Err = r.Err.Error()
	}
	delete(g.live, r)
	if l.Parent == nil && g.Finished != nil {
		g.Finished(l)
	}
}

func (g *Log) cut(now sim.Time) {
	if g.Cut == 0 {
		g.CutAt = now
	}
	g.Cut++
}

func (g *Log) level(device, what string, v int64, now sim.Time) {
	if !g.Discard && g.Cut == 0 {
		g.Levels = append(g.Levels, Level{Device: device, What: what, Value: v, At: now})
	}
}

// DriveIndex returns the index of a drive named as raidsim names them
// ("disk3", or with a stack prefix "adisk3"), and whether name is one.
func DriveIndex(name string) (int, bool) {
	i := strings.LastIndex(name, "disk")
	if i < 0 || i+4 == len(name) {
		return 0, false
	}
	n, err := strconv.Atoi(name[i+4:])
	if err != nil || n < 0 || name[i+4] == '+' {
		return 0, false
	}
	return n, true
}
