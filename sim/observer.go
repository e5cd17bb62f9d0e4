package sim

import "time"

// Phase names one stage of a request's service inside a device, for
// timelines and teaching views.
type Phase uint8

const (
	// PhaseQueue is time spent waiting in a device queue.
	PhaseQueue Phase = iota
	// PhaseOverhead is controller command processing.
	PhaseOverhead
	// PhaseSeek is arm movement, including settle and head switch.
	PhaseSeek
	// PhaseRotate is rotational latency: waiting for the first sector.
	PhaseRotate
	// PhaseMedia is data moving between the platter and the buffer.
	PhaseMedia
	// PhaseBus is data moving between the buffer and the host.
	PhaseBus
	// PhaseCacheHit is service from a cache without touching media.
	PhaseCacheHit
)

// String returns the phase's lower-case name.
func (p Phase) String() string {
	switch p {
	case PhaseQueue:
		return "queue"
	case PhaseOverhead:
		return "overhead"
	case PhaseSeek:
		return "seek"
	case PhaseRotate:
		return "rotate"
	case PhaseMedia:
		return "media"
	case PhaseBus:
		return "bus"
	case PhaseCacheHit:
		return "cache-hit"
	}
	return "phase?"
}

// Observer is a set of optional hooks that devices call as requests move
// through them. A nil hook costs one nil check; a nil *Observer is
// allowed everywhere and observes nothing. Hooks must not submit requests
// or schedule events: they watch, they do not act.
type Observer struct {
	// Submitted is called when device accepts r.
	Submitted func(device string, r *Request, now Time)
	// Phase is called once for each stage of service with its span.
	Phase func(device string, r *Request, p Phase, start, end Time)
	// Completed is called just before r.Done.
	Completed func(device string, r *Request, now Time)

	// Child is called when a layer is about to send child to the device
	// below on behalf of parent: an array's member I/O (member is its
	// index), a cache's miss read or write-through (member -1). parent
	// is nil for a layer's own work that no request waits for (a
	// cache's read-ahead). Child is called before child is submitted.
	Child func(device string, parent, child *Request, member int, now Time)
	// Plan is called when an array plans one stripe of a parity write,
	// before its pre-reads are issued.
	Plan func(device string, r *Request, p StripePlan, now Time)
	// Absorb is called when a write-back cache has taken write r into
	// its dirty data.
	Absorb func(device string, r *Request, a Absorb, now Time)
	// Destage is called when a cache is about to send dirty data below
	// on its own: child is the write.
	Destage func(device string, child *Request, now Time)
	// Position is called when a drive starts a media access for r: how
	// far the arm moved and where the platter was.
	Position func(device string, r *Request, p Position)
	// Level is called when a quantity a device holds changes: what
	// names it ("dirty bytes" of a cache, "write cache bytes" of a
	// drive), value is the new level in its unit.
	Level func(device, what string, value int64, now Time)
}

// OnLevel calls o.Level if o and the hook are non-nil.
func (o *Observer) OnLevel(device, what string, value int64, now Time) {
	if o != nil && o.Level != nil {
		o.Level(device, what, value, now)
	}
}

// StripePlan describes how an array updates one stripe's parity for a
// write, for teaching views.
type StripePlan struct {
	// Stripe is the stripe (row of stripe units) written, from 0.
	Stripe int64
	// Method is "full-stripe", "rmw" (read-modify-write), "rcw"
	// (reconstruct-write), "data-only" (parity member unavailable) or
	// "lost".
	Method string
	// ParityMember is the member index holding the stripe's parity.
	ParityMember int
	// PreReadBytes is what is read before the parity can be computed,
	// in bytes over every member; WriteBytes is what is written then.
	PreReadBytes, WriteBytes int64
}

// Absorb describes a write taken into a write-back cache.
type Absorb struct {
	// Off and End bound, in bytes, the dirty extent that holds the
	// write's data now: wider than the write when it merged.
	Off, End int64
	// Merged is the number of earlier dirty extents the write overlapped
	// or touched and merged with.
	Merged int
	// Overwritten is the bytes of older dirty data the write replaced.
	Overwritten int64
}

// Position describes a drive's positioning for one media access.
type Position struct {
	// Cylinder is the cylinder of the first sector accessed, and
	// Distance how many cylinders the arm moved to reach it (0: none,
	// perhaps a head switch).
	Cylinder, Distance int64
	// Seek is the arm's travel time including settle, in nanoseconds.
	Seek time.Duration
	// StartAngle is the platter's angle when the head is ready on the
	// track, and TargetAngle the first sector's angle, in degrees from
	// the drive's index (0 <= angle < 360). The rotational wait is the
	// platter turning from one to the other.
	StartAngle, TargetAngle float64
}

// OnChild calls o.Child if o and the hook are non-nil.
func (o *Observer) OnChild(device string, parent, child *Request, member int, now Time) {
	if o != nil && o.Child != nil {
		o.Child(device, parent, child, member, now)
	}
}

// OnPlan calls o.Plan if o and the hook are non-nil.
func (o *Observer) OnPlan(device string, r *Request, p StripePlan, now Time) {
	if o != nil && o.Plan != nil {
		o.Plan(device, r, p, now)
	}
}

// OnDestage calls o.Destage if o and the hook are non-nil.
func (o *Observer) OnDestage(device string, child *Request, now Time) {
	if o != nil && o.Destage != nil {
		o.Destage(device, child, now)
	}
}

// WantsAbsorb reports whether o has an Absorb hook: a cache checks it
// before gathering what the hook needs, so that costs nothing unobserved.
func (o *Observer) WantsAbsorb() bool { return o != nil && o.Absorb != nil }

// WantsPosition reports whether o has a Position hook (see WantsAbsorb).
func (o *Observer) WantsPosition() bool { return o != nil && o.Position != nil }

// OnSubmitted calls o.Submitted if o and the hook are non-nil.
func (o *Observer) OnSubmitted(device string, r *Request, now Time) {
	if o != nil && o.Submitted != nil {
		o.Submitted(device, r, now)
	}
}

// OnPhase calls o.Phase if o and the hook are non-nil and the span is not
// empty.
func (o *Observer) OnPhase(device string, r *Request, p Phase, start, end Time) {
	if o != nil && o.Phase != nil && end > start {
		o.Phase(device, r, p, start, end)
	}
}

// OnCompleted calls o.Completed if o and the hook are non-nil.
func (o *Observer) OnCompleted(device string, r *Request, now Time) {
	if o != nil && o.Completed != nil {
		o.Completed(device, r, now)
	}
}
