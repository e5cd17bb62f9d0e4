package lifelog

import (
	"github.com/raidsim/raidsim/sim"
)

// Span is one phase of service a device reported for a request.
type Span struct {
	// Device names the layer that served the phase.
	Device string
	// Phase is the stage of service.
	Phase sim.Phase
	// Start and End bound the phase in virtual time.
	Start, End sim.Time
}

// Life is one request's record: a host request, a member I/O, a
// destage, a read-ahead.
type Life struct {
	// Seq numbers the lives of a Log in the order first seen, from 0.
	Seq int
	// ID is the request's ID when first seen (a trace record number for
	// a host request under trace.Replay).
	ID uint64
	// Op, Offset, Length (bytes) and FUA describe the request.
	Op             sim.Op
	Offset, Length int64
	FUA            bool
	// Layers are the devices it entered, in the order they accepted it.
	Layers []string
	// Host is set for a request submitted by the workload (the device
	// named Log.HostName saw it).
	Host bool
	// Via names the layer that issued it for its Parent (or for itself
	// when Background), "" for a request from above the stack.
	Via string
	// Member is the array member index it went to, or -1.
	Member int
	// Background is set for a layer's own work: a destage, a read-ahead,
	// a rebuild step.
	Background bool
	// Kind says what it is for its parent: "host", "member", "miss",
	// "write-around", "flush", "destage", "read-ahead".
	Kind string
	// Parent is the request it was issued for, nil for a root.
	Parent *Life
	// Children are the requests issued for it, in issue order.
	Children []*Life
	// Submitted and Completed are its span in virtual time; Done is set
	// once it completed, Err to its error text if it failed.
	Submitted, Completed sim.Time
	Done                 bool
	Err                  string
	// Phases are the spans of service reported for it, in report order.
	Phases []Span
	// Plans are the parity plans of the stripes it wrote (RAID 5).
	Plans []sim.StripePlan
	// Absorb, when set, is how a write-back cache (AbsorbedBy) took it.
	Absorb     *sim.Absorb
	AbsorbedBy string
	// Position, when set, is the drive's positioning for it.
	Position *sim.Position
	// Destages are, for an absorbed host write, the destages that
	// carried its data below; Carries are, for a destage, the host
	// writes whose data it carried.
	Destages, Carries []*Life
}

// Latency returns Completed - Submitted, 0 before it completed.
func (l *Life) Latency() sim.Time {
	if !l.Done {
		return 0
	}
	return l.Completed - l.Submitted
}

// End returns the byte one past the last it addresses.
func (l *Life) End() int64 { return l.Offset + l.Length }

// Walk calls f for l and every descendant, depth first, parents first.
func (l *Life) Walk(f func(*Life)) {
	f(l)
	for _, c := range l.Children {
		c.Walk(f)
	}
}
