package sim_test

import (
	"testing"

	"github.com/raidsim/raidsim/sim"
)

func TestJoinObservers(t *testing.T) {
	if sim.JoinObservers(nil, nil) != nil {
		t.Fatal("no observers: nil")
	}
	var a, b int
	oa := &sim.Observer{Submitted: func(string, *sim.Request, sim.Time) { a++ }, Plan: func(string, *sim.Request, sim.StripePlan, sim.Time) { a += 10 }}
	ob := &sim.Observer{Submitted: func(string, *sim.Request, sim.Time) { b++ }, Position: func(string, *sim.Request, sim.Position) { b += 10 }}
	if sim.JoinObservers(nil, oa) != oa {
		t.Fatal("one observer: itself")
	}
	j := sim.JoinObservers(oa, nil, ob)
	r := &sim.Request{}
	j.OnSubmitted("d", r, 0)
	j.OnPlan("d", r, sim.StripePlan{}, 0)
	j.Position("d", r, sim.Position{})
	j.Absorb("d", r, sim.Absorb{}, 0)
	j.OnChild("d", r, r, 0, 0)
	j.OnDestage("d", r, 0)
	j.OnPhase("d", r, sim.PhaseSeek, 0, 1)
	j.OnCompleted("d", r, 1)
	if a != 11 || b != 11 {
		t.Fatalf("each observer sees its hooks once: a=%d b=%d, want 11 and 11", a, b)
	}
}
