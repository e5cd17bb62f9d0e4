package oracle

import (
	"testing"

	"github.com/raidsim/raidsim/disk/disksim/exact"
)

// TestMinimizerInjectedRule injects a difference into exact mode (a
// test-only rule change: reads may hit data written to the buffer, as
// "Allow read hits on write data" = 1 has them, whatever the model says)
// and checks that the minimizer turns a generated disagreeing pair into
// one of a few zones and a few requests: a write, then a read of what it
// wrote.
func TestMinimizerInjectedRule(t *testing.T) {
	injected := func(m *exact.Model) { m.Disk.ReadHitsOnWrites = true }
	mz := &Minimizer{
		Want: func(f map[string]string, s StreamSpec, r []Record) Outcome { return RunExact(f, s, r, nil) },
		Got:  func(f map[string]string, s StreamSpec, r []Record) Outcome { return RunExact(f, s, r, injected) },
	}
	for i := 0; i < 60; i++ {
		p := Generate(i, 340, 21, 2000)
		if p.Stream.Format != "validate" || Get(p.Model.Disk, "Allow read hits on write data") != "0" {
			continue
		}
		recs := p.Stream.Requests()
		if bad, _ := mz.Disagree(p.Model, p.Stream, recs); !bad {
			continue
		}
		m, small, v := mz.Minimize(p.Model, p.Stream, recs)
		t.Logf("pair %d: %d zones, %d requests -> %d zones, %d requests (%d runs): %s", i, len(p.Model.Zones), len(recs), len(m.Zones), len(small), mz.runs, v.Why)
		if v.Agree {
			t.Fatalf("the minimized pair agrees")
		}
		if len(m.Zones) > 1 || len(small) > 3 {
			t.Errorf("minimized to %d zones and %d requests, want 1 and at most 3", len(m.Zones), len(small))
		}
		wrote := false
		for _, r := range small {
			if !r.Read {
				wrote = true
			}
			if r.Read && wrote {
				return
			}
		}
		t.Errorf("minimized stream %+v has no read after a write", small)
		return
	}
	t.Fatal("no generated pair shows the injected difference")
}
