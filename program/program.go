package program

import (
	"fmt"

	"github.com/raidsim/raidsim/sim"
)

// Program issues the requests of a single-threaded program (a file
// copy, an installer, a disk benchmark) one at a time: each request is
// issued when the one before it completes, as a program that waits for
// every read and write does. Its requests may go to different devices,
// and several programs run concurrently on one engine: a copy's reader
// on one stack and its writer on another, each waiting for the other
// through Step.Wait and Poke.
//
// A Program reuses one sim.Request, so running it allocates nothing per
// request. Build one with New and run programs with Run,
// or Poke them and drive the engine yourself.
type Program struct {
	// OnDone, when set, is called after each request completes, with the
	// request and the Tag of the Step that issued it, before the program
	// asks for its next step.
	OnDone func(r *sim.Request, tag int)
	// End is the virtual time at which the program ran out of requests
	// (its next function returned a Done step).
	End sim.Time
	// Err is the first error a request met, at submission or completion;
	// the program issues nothing more after it.
	Err error

	eng      *sim.Engine
	next     func() Step
	req      sim.Request
	tag      int
	busy     bool // a request is outstanding
	finished bool
	poke     programPoke
}

// Step is what a Program does next: issue one request, wait, or end.
type Step struct {
	// Dev is the device the request goes to.
	Dev sim.Device
	// Op is the operation; Offset and Length are in bytes.
	Op             sim.Op
	Offset, Length int64
	// Tag is the caller's label for the request (a file number, a sample
	// index), passed back to OnDone.
	Tag int
	// Wait means there is nothing to issue yet: the program idles until
	// Poke (or PokeLater) is called, typically by another program's
	// OnDone.
	Wait bool
	// Done means the program has no more requests.
	Done bool
}

// New returns a program on eng that asks next for each step. It
// issues nothing until Poke or Run starts it.
func New(eng *sim.Engine, next func() Step) *Program {
	p := &Program{eng: eng, next: next}
	p.req.Done = p.complete
	p.poke.p = p
	return p
}

// Poke issues the program's next request if it is idle: not waiting
// for a request, not finished, not stopped by an error. A program that
// waits (Step.Wait) stays idle until poked.
func (p *Program) Poke() {
	if p.busy || p.finished || p.Err != nil {
		return
	}
	s := p.next()
	switch {
	case s.Done:
		p.finished, p.End = true, p.eng.Now()
		return
	case s.Wait:
		return
	}
	p.req.Op, p.req.Offset, p.req.Length = s.Op, s.Offset, s.Length
	p.req.Err, p.tag = nil, s.Tag
	if err := s.Dev.Submit(&p.req); err != nil {
		p.Err = err
		return
	}
	p.busy = true
}

// PokeLater pokes the program as an event at the current virtual time,
// after the events already due then. From another program's OnDone it
// lets that program issue its own next request first, as a program
// that asks for its next chunk before handing this one on does.
func (p *Program) PokeLater() { p.eng.Schedule(p.eng.Now(), &p.poke, nil) }

// Finished reports whether the program has run out of requests.
func (p *Program) Finished() bool { return p.finished }

// complete is the request's Done: it counts the completion and issues
// the next request.
func (p *Program) complete(r *sim.Request) {
	p.busy = false
	if r.Err != nil && p.Err == nil {
		p.Err = r.Err
	}
	if p.OnDone != nil {
		p.OnDone(r, p.tag)
	}
	p.Poke()
}

// programPoke is the event handler of PokeLater.
type programPoke struct{ p *Program }

func (h *programPoke) HandleEvent(sim.Time, any) { h.p.Poke() }

// Run starts every program and runs the engine until all have
// finished. It returns the first error a program met, or an error if
// the engine runs out of events while a program still waits. Events
// still pending when the last program finishes (a cache's destages)
// are left for the caller.
func Run(eng *sim.Engine, programs ...*Program) error {
	for _, p := range programs {
		p.Poke()
	}
	for {
		all := true
		for _, p := range programs {
			if p.Err != nil {
				return p.Err
			}
			all = all && p.finished
		}
		if all {
			return nil
		}
		if !eng.Step() {
			return fmt.Errorf("program: programs stalled at %v: each waits and no event is pending", eng.Now())
		}
	}
}
