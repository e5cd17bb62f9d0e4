package spec

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/raidsim/raidsim/trace"
)

// planPhases checks every phase and appends its plan to pl.
func planPhases(p *problems, phases []Phase, pl *Plan) {
	if len(phases) == 0 {
		p.add("phases", "no phases: give at least one workload")
	}
	ss := int64(pl.SectorSize)
	names := make(map[string]int)
	jobNames := map[string]bool{} // the jobs of the phases planned so far
	for i := range phases {
		path := fmt.Sprintf("phases[%d]", i)
		ph := planPhase(p, path, &phases[i], phaseStream(i), ss, jobNames)
		for _, j := range phases[i].Jobs {
			jobNames[j.Name] = true
		}
		if ph.Name == "" {
			ph.Name = fmt.Sprintf("phase %d", i+1)
		}
		if j, dup := names[ph.Name]; dup {
			p.add(path+".name", "%q is also the name of phases[%d]", ph.Name, j)
		}
		names[ph.Name] = i
		pl.Phases = append(pl.Phases, ph)
	}
}

// phaseStream returns the random stream name of the i-th phase (from 0).
func phaseStream(i int) string {
	if i == 0 {
		return WorkloadStream
	}
	return fmt.Sprintf("%s/phase%d", WorkloadStream, i)
}

// planPhase checks one phase: its times, its own job and its background
// jobs.
func planPhase(p *problems, path string, c *Phase, stream string, ss int64, earlier map[string]bool) PhasePlan {
	ph := PhasePlan{Name: c.Name, Stream: stream, StartDelay: time.Duration(c.StartDelay),
		Runtime: time.Duration(c.Runtime), RampIOs: c.RampIOs}
	p.checkDuration(path+".startdelay", ph.StartDelay)
	p.checkDuration(path+".runtime", ph.Runtime)
	p.checkBounds(path+".ramp_ios", c.RampIOs)
	if c.Trace != nil {
		checkTraceJob(p, path, c)
		ph.Trace = planTrace(p, path+".trace", c.Trace)
		return ph
	}
	if len(c.Jobs) > 0 {
		planJobList(p, path, c, &ph, ss, earlier)
		return ph
	}
	ph.Workload = planWorkload(p, path, &c.Job, ss)
	checkTimeBased(p, path, &c.Job, &ph.Workload, ph.Runtime > 0)
	if c.RampIOs > 0 && ph.Workload.NumIOs > 0 && c.RampIOs >= ph.Workload.NumIOs {
		p.add(path+".ramp_ios", "%d leaves none of the %d requests to measure", c.RampIOs, ph.Workload.NumIOs)
	}
	if len(c.Background) > maxBackground {
		p.add(path+".background", "%d jobs, more than %d", len(c.Background), maxBackground)
		return ph
	}
	for j := range c.Background {
		b := &c.Background[j]
		bp := fmt.Sprintf("%s.background[%d]", path, j)
		if b.IOs != 0 {
			p.add(bp+".ios", "not allowed in a background job: it runs until the phase's own job ends")
		}
		if b.Trace != nil {
			p.add(bp+".trace", "a background job is synthetic: trace replay runs alone in its phase")
			continue
		}
		checkBackgroundJob(p, bp, b)
		w := planWorkload(p, bp, b, ss)
		w.NumIOs = maxIOs // until the phase's own job ends
		ph.Background = append(ph.Background, w)
	}
	if c.NumJobs < 0 {
		p.checkBounds(path+".numjobs", int64(c.NumJobs))
	}
	if c.NumJobs > 1 {
		planClones(p, path, c, &ph)
	}
	return ph
}

// checkTraceJob reports synthetic keys in a phase that replays a trace.
func checkTraceJob(p *problems, path string, c *Phase) {
	keys := append(jobKeys(&c.Job), struct {
		key string
		on  bool
	}{"runtime", c.Runtime != 0}, struct {
		key string
		on  bool
	}{"ramp_ios", c.RampIOs != 0})
	for _, f := range keys {
		if f.key == "trace" {
			continue
		}
		if f.on {
			p.add(path+"."+f.key, "describes a synthetic workload; this phase replays a trace (put iodepth under trace)")
		}
	}
	if len(c.Background) > 0 {
		p.add(path+".background", "a phase that replays a trace runs it alone (concurrent jobs beside a trace are not modelled)")
	}
	if len(c.Jobs) > 0 {
		p.add(path+".jobs", "a phase that replays a trace runs it alone (concurrent jobs beside a trace are not modelled)")
	}
}

// planTrace checks a trace replay.
func planTrace(p *problems, path string, t *Trace) *TraceSource {
	src := &TraceSource{Path: t.Path, Format: t.Format, IODepth: t.IODepth, Speed: t.Speed,
		SourceCapacity: int64(t.Capacity), Reorder: t.Reorder, ReorderWindow: time.Duration(t.ReorderWindow),
		StrictOrder: t.StrictOrder}
	if src.Format == "" {
		src.Format = "auto"
	}
	if src.Speed == 0 {
		src.Speed = 1
	}
	if t.Path == "" {
		p.add(path+".path", "missing: give the trace file")
	}
	if !slices.Contains(formatNames, src.Format) {
		p.badName(path+".format", t.Format)
	}
	if t.Device != nil {
		if *t.Device < 0 {
			p.add(path+".device", "%d is negative", *t.Device)
		}
		src.Devices = []int{*t.Device}
	}
	p.checkBounds(path+".iodepth", int64(t.IODepth))
	p.checkFloat(path+".speed", t.Speed)
	if t.Map != "" {
		src.MapGiven = true
		var err error
		if src.Map, err = trace.ParseMapMode(t.Map); err != nil {
			p.badName(path+".map", t.Map)
		}
	}
	if src.Map == trace.MapScale && t.Capacity <= 0 {
		p.add(path+".capacity", "map scale needs the traced device's capacity")
	}
	p.checkBounds(path+".reorder", int64(t.Reorder))
	p.checkDuration(path+".reorder_window", src.ReorderWindow)
	switch {
	case t.StrictOrder && (t.Reorder != 0 || t.ReorderWindow != 0):
		p.add(path+".strict_order", "replays the trace as it is: leave out reorder and reorder_window")
	case t.Reorder != 0 && t.ReorderWindow != 0:
		p.add(path+".reorder_window", "give reorder (records) or reorder_window (time), not both")
	}
	return src
}

// planWorkload checks a synthetic job and returns its workload,
// defaults filled.
func planWorkload(p *problems, path string, c *Job, ss int64) trace.Workload {
	w := trace.Workload{RWMixRead: 50, BS: int64(c.BS), IODepth: c.IODepth, Offset: int64(c.Offset),
		Size: int64(c.Size), NumIOs: c.IOs, PercentageRandom: c.PercentageRandom, Fsync: c.Fsync}
	var err error
	if c.RW != "" {
		if w.RW, err = trace.ParseRW(c.RW); err != nil {
			p.badName(path+".rw", c.RW)
		}
	}
	if c.RWMixRead != nil {
		w.RWMixRead = *c.RWMixRead
		p.checkBounds(path+".rwmixread", int64(w.RWMixRead))
	}
	planBlockSizes(p, path, c, &w, ss)
	p.checkBounds(path+".iodepth", int64(c.IODepth))
	checkAligned(p, path+".offset", int64(c.Offset), ss)
	checkAligned(p, path+".size", int64(c.Size), ss)
	p.checkBounds(path+".ios", c.IOs)
	if c.RandomDistribution != "" {
		if w.RandomDistribution, err = trace.ParseDistribution(c.RandomDistribution); err != nil {
			p.add(path+".random_distribution", "%s", strings.TrimPrefix(err.Error(), "trace: random_distribution "))
		}
	}
	p.checkBounds(path+".percentage_random", int64(c.PercentageRandom))
	if c.Fsync < 0 {
		p.add(path+".fsync", "%d is negative (0 never flushes)", c.Fsync)
	}
	planPacing(p, path, c, &w)
	return w.WithDefaults()
}

// planBlockSizes checks bs or bssplit.
func planBlockSizes(p *problems, path string, c *Job, w *trace.Workload, ss int64) {
	if c.BSSplit == "" {
		checkAligned(p, path+".bs", int64(c.BS), ss)
		return
	}
	if c.BS != 0 {
		p.add(path+".bs", "give bs or bssplit, not both")
	}
	var err error
	if w.BSSplit, err = trace.ParseBSSplit(c.BSSplit); err != nil {
		p.add(path+".bssplit", "%q: want SIZE/PERCENT:SIZE/PERCENT..., e.g. 4KiB/70:64KiB/30", c.BSSplit)
	}
	for _, e := range w.BSSplit {
		if e.Size%ss != 0 {
			p.add(path+".bssplit", "block size %d is not a multiple of %d", e.Size, ss)
		}
	}
}

// checkPhaseFits checks a synthetic phase's regions against the stack's
// capacity, and what only the workload generator knows.
func checkPhaseFits(p *problems, path string, c *Phase, ph *PhasePlan, pl *Plan) {
	if ph.Trace != nil || p.under(path) {
		return
	}
	if len(c.Jobs) > 0 {
		checkJobsFit(p, path, c, ph, pl)
		return
	}
	checkRegion(p, path, &c.Job, pl.Capacity)
	if err := ph.Workload.Validate(pl.Capacity, pl.SectorSize); err != nil && !p.under(path) {
		p.addErr(path, err)
	}
	if c.Runtime == 0 {
		checkOnePass(p, path, ph.Workload, pl.Capacity)
		checkPacedLength(p, path, ph.Workload, pl.Capacity)
	}
	for _, jp := range ph.Jobs[min(1, len(ph.Jobs)):] { // numjobs clones after the first
		if err := jp.Workload.Validate(pl.Capacity, pl.SectorSize); err != nil && !p.under(path) {
			p.addErr(path, fmt.Errorf("clone %d (offset_increment): %w", jp.Clone, err))
		}
	}
	for j, bw := range ph.Background {
		bp := fmt.Sprintf("%s.background[%d]", path, j)
		checkRegion(p, bp, &c.Background[j], pl.Capacity)
		if err := bw.Validate(pl.Capacity, pl.SectorSize); err != nil && !p.under(bp) {
			p.addErr(bp, err)
		}
	}
}

// checkRegion checks a job's region and block size against the stack's
// capacity.
func checkRegion(p *problems, path string, c *Job, capacity int64) {
	if int64(c.Offset) >= capacity {
		p.add(path+".offset", "%d is past the end of the %d-byte stack", c.Offset, capacity)
		return
	}
	if int64(c.Size) > capacity-int64(c.Offset) {
		p.add(path+".size", "region %d+%d bytes ends past the %d-byte stack", c.Offset, c.Size, capacity)
		return
	}
	region := int64(c.Size)
	if region == 0 {
		region = capacity - int64(c.Offset)
	}
	if int64(c.BS) > region {
		p.add(path+".bs", "%d bytes is larger than the %d-byte region", c.BS, region)
	}
}

// checkOnePass bounds the requests implied by ios 0 (one pass over the
// region): a pass of the smallest block over a whole petabyte-class
// stack would be a run that never ends, so it is held to the same
// maxIOs an explicit count is.
func checkOnePass(p *problems, path string, w trace.Workload, capacity int64) {
	if w.NumIOs != 0 || p.under(path) {
		return
	}
	w = w.WithDefaults()
	bs := w.BS
	for _, e := range w.BSSplit {
		bs = min(cmp.Or(bs, e.Size), e.Size)
	}
	region := cmp.Or(w.Size, capacity-w.Offset)
	if bs > 0 && region/bs > maxIOs {
		p.add(path+".ios", "0 means one pass over the %d-byte region: %d requests of %d bytes, more than %d; give ios (or runtime, or a smaller size)",
			region, region/bs, bs, int64(maxIOs))
	}
}
