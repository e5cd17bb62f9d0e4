package raidsim_test

import (
	"testing"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/spec"
)

// preReadWaits writes one 4 KiB block to a 4-drive RAID 5 with the
// drives' write caches off, so md pre-reads the old data and the old
// parity from two members at the same place on each, and returns each
// pre-read's rotational wait by member.
func preReadWaits(t *testing.T, sync bool) map[string]sim.Time {
	t.Helper()
	off := false
	st := spec.Stack{
		Drive: spec.Drive{Preset: "deskstar-7k500", WriteCache: &off, SpindleSync: sync},
		Disks: 4,
		RAID:  &spec.RAID{Level: "5", RAID5Write: "rmw"},
	}
	waits := make(map[string]sim.Time)
	obs := &sim.Observer{Phase: func(dev string, r *sim.Request, p sim.Phase, start, end sim.Time) {
		if p == sim.PhaseRotate && r.Op == sim.Read {
			waits[dev] += end - start
		}
	}}
	eng := sim.NewEngine(1)
	s, err := raidsim.NewStack(eng, st, "", obs)
	if err != nil {
		t.Fatal(err)
	}
	w := &sim.Request{Op: sim.Write, Offset: 1 << 30, Length: 4096, Done: func(*sim.Request) {}}
	if err := s.Top.Submit(w); err != nil {
		t.Fatal(err)
	}
	eng.Run()
	if len(waits) != 2 {
		t.Fatalf("pre-reads on %d members (%v), want 2 (old data and old parity)", len(waits), waits)
	}
	return waits
}

// TestSpindlePhase: the members of an array start at their own angles,
// so md's two pre-reads of one stripe, at the same place on two members,
// wait different times for their sectors; with the spindles synchronized
// the waits match.
func TestSpindlePhase(t *testing.T) {
	var free []sim.Time
	for _, w := range preReadWaits(t, false) {
		free = append(free, w)
	}
	if free[0] == free[1] {
		t.Errorf("unsynchronized members: both pre-reads waited %v for rotation, want different waits", free[0])
	}
	var synced []sim.Time
	for _, w := range preReadWaits(t, true) {
		synced = append(synced, w)
	}
	if synced[0] != synced[1] {
		t.Errorf("synchronized spindles: pre-reads waited %v and %v for rotation, want the same", synced[0], synced[1])
	}
	t.Logf("rotational waits: unsynchronized %v, synchronized %v", free, synced)
}
