package disk_test

import (
	"testing"

	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
)

// TestConformance runs the sim.Device conformance suite on drives with
// the write cache on and off, and with each scheduler.
func TestConformance(t *testing.T) {
	for _, tc := range []struct {
		name   string
		edit   func(*disk.Params)
		preset string
	}{
		{"satf-wc", nil, "deskstar-7k500"},
		{"fcfs-nowc", func(p *disk.Params) { p.WriteCache = false; p.Scheduler = disk.FCFS }, "deskstar-7k500"},
		{"clook-qd4", func(p *disk.Params) { p.QueueDepth = 4; p.Scheduler = disk.CLOOK }, "wd-1600ajs"},
		{"sstf-4kn", func(p *disk.Params) { p.Scheduler = disk.SSTF }, "ultrastar-hc310"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			simtest.TestDevice(t, func(t *testing.T) (sim.Device, *sim.Engine) {
				p, err := disk.Preset(tc.preset)
				if err != nil {
					t.Fatal(err)
				}
				if tc.edit != nil {
					tc.edit(&p)
				}
				eng := sim.NewEngine(7)
				d, err := disk.New(eng, p, "d0", nil)
				if err != nil {
					t.Fatal(err)
				}
				return d, eng
			}, simtest.WithData())
		})
	}
}
