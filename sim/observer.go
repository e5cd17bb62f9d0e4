package sim

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
}

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
