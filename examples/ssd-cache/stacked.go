package main

import (
	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/cache"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/spec"
)

// newRAMCache puts a RAM write-back cache of size bytes over dev.
func newRAMCache(eng *sim.Engine, dev sim.Device, size int64) (*cache.Cache, error) {
	return cache.New(eng, cache.Config{Size: size}, dev, "ram", nil)
}

// runOn runs the experiment's phase on ram, a RAM cache over the stack
// s, and takes its row: the warm-up is a first phase of Warm requests
// whose figures are dropped (both caches' statistics start again after
// it), and the hit ratio counts reads served wholly by either cache.
func runOn(eng *sim.Engine, ram *cache.Cache, s *raidsim.Stack, sz Sizes) (Row, error) {
	x := planOf(sz)
	x.Warmup = ""
	x.Phases = []spec.Phase{{Name: "warm-up", Job: Workload(sz, sz.Warm)}, {Name: "measured", Job: Workload(sz, sz.IOs)}}
	pl, err := x.Plan()
	if err != nil {
		return Row{}, err
	}
	s.Top = ram
	if _, err := raidsim.RunPhase(eng, s, pl, &pl.Phases[0]); err != nil {
		return Row{}, err
	}
	ram.ResetStats()
	s.Cache.ResetStats()
	last, err := raidsim.RunPhase(eng, s, pl, &pl.Phases[1])
	if err != nil {
		return Row{}, err
	}
	r := Row{IOPS: last.All.IOPS, P50MS: last.All.LatencyMS.P50, P99MS: last.All.LatencyMS.P99}
	rs, ss := ram.Stats(), s.Cache.Stats()
	if rs.Reads > 0 {
		r.HitRatio = float64(rs.ReadHits+ss.ReadHits) / float64(rs.Reads)
	}
	r.WritesAbsorbed = rs.WritesAbsorbed
	for _, d := range s.Drives {
		r.DiskUtil += d.Report().Common().UtilizationRatio / float64(len(s.Drives))
	}
	r.AtRiskBytes = ram.DirtyBytes() + s.CacheDevice.DirtyBytes()
	return r, nil
}

// planOf is the plan of the RAM-over-SSD run: the workload on the
// writeback tier's stack.
func planOf(sz Sizes) *spec.Experiment { return Experiment(ssdTier("writeback", false)(sz), sz) }
