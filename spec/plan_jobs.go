package spec

import (
	"fmt"
	"strings"
	"time"

	"github.com/raidsim/raidsim/trace"
)

// The names of the pacing enumerations (fio's).
var (
	rateProcessNames  = []string{"linear", "poisson"}
	submitModeNames   = []string{"inline", "offload"}
	thinkBlocksNames  = []string{"complete", "issue"}
	defaultNumJobs    = 1
	defaultThinkBlock = 1
)

// planPacing checks a job's rate and think-time keys into w.Pacing.
func planPacing(p *problems, path string, c *Job, w *trace.Workload) {
	pc := &w.Pacing
	var err error
	if c.Rate != "" {
		if pc.Rate, err = trace.ParsePerDirection(c.Rate, trace.ParseSize); err != nil {
			p.add(path+".rate", "%q: want bytes per second, one size or READS,WRITES[,TRIMS], e.g. 1MiB or ,500KiB", c.Rate)
		}
	}
	if c.RateIOPS != "" {
		if pc.RateIOPS, err = trace.ParsePerDirection(c.RateIOPS, trace.ParseCount); err != nil {
			p.add(path+".rate_iops", "%q: want requests per second, one count or READS,WRITES[,TRIMS], e.g. 100 or ,50", c.RateIOPS)
		}
		for _, v := range pc.RateIOPS {
			if v > trace.MaxRateIOPS {
				p.add(path+".rate_iops", "%d is more than %d", v, trace.MaxRateIOPS)
				break
			}
		}
	}
	switch c.RateProcess {
	case "", "linear":
	case "poisson":
		pc.Poisson = true
	default:
		p.badName(path+".rate_process", c.RateProcess)
	}
	switch c.IOSubmitMode {
	case "", "inline":
	case "offload":
		pc.Offload = true
	default:
		p.badName(path+".io_submit_mode", c.IOSubmitMode)
	}
	pc.ThinkTime, pc.ThinkTimeSpin = time.Duration(c.ThinkTime), time.Duration(c.ThinkTimeSpin)
	p.checkDuration(path+".thinktime", pc.ThinkTime)
	p.checkDuration(path+".thinktime_spin", pc.ThinkTimeSpin)
	if c.ThinkTimeBlocks != 0 {
		p.checkBounds(path+".thinktime_blocks", int64(c.ThinkTimeBlocks))
	}
	if c.ThinkTimeBlocks > defaultThinkBlock {
		pc.ThinkTimeBlocks = c.ThinkTimeBlocks // 1 is the default, kept as 0
	}
	switch c.ThinkTimeBlocksType {
	case "", "complete":
	case "issue":
		pc.ThinkOnIssue = true
	default:
		p.badName(path+".thinktime_blocks_type", c.ThinkTimeBlocksType)
	}
	if pc.ThinkTime == 0 {
		for _, k := range []struct {
			key string
			on  bool
		}{{"thinktime_spin", pc.ThinkTimeSpin != 0}, {"thinktime_blocks", pc.ThinkTimeBlocks != 0}, {"thinktime_blocks_type", pc.ThinkOnIssue}} {
			if k.on {
				p.add(path+"."+k.key, "shapes a think time: give thinktime too")
			}
		}
	}
	if !pc.Rated() && (pc.Poisson || pc.Offload) {
		p.add(path+".rate_process", "paces a rated job: give rate or rate_iops too")
	}
}

// planJobList checks a phase's concurrent jobs into ph.Jobs, one per
// clone.
func planJobList(p *problems, path string, c *Phase, ph *PhasePlan, ss int64, earlier map[string]bool) {
	checkInlineEmpty(p, path, c)
	if len(c.Jobs) > maxJobs {
		p.add(path+".jobs", "%d jobs, more than %d", len(c.Jobs), maxJobs)
		return
	}
	names := map[string]int{}
	group, clones := 0, 0
	for e := range c.Jobs {
		pj := &c.Jobs[e]
		jp := fmt.Sprintf("%s.jobs[%d]", path, e)
		name := pj.Name
		if name == "" {
			name = fmt.Sprintf("job %d", e+1)
		}
		wait := -1
		if pj.WaitFor != "" {
			if i, ok := names[pj.WaitFor]; ok {
				wait = i
			} else if !earlier[pj.WaitFor] {
				p.add(jp+".wait_for", "%q names no earlier job (of this phase or one before)", pj.WaitFor)
			}
		}
		if _, dup := names[name]; !dup {
			names[name] = e
		}
		p.checkDuration(jp+".startdelay", time.Duration(pj.StartDelay))
		p.checkDuration(jp+".runtime", time.Duration(pj.Runtime))
		if pj.Trace != nil {
			p.add(jp+".trace", "a phase's jobs are synthetic: trace replay runs alone in its phase")
			continue
		}
		if pj.NewGroup && e > 0 {
			group++
		}
		runtime := time.Duration(pj.Runtime)
		w := planWorkload(p, jp, &pj.Job, ss)
		checkTimeBased(p, jp, &pj.Job, &w, runtime > 0 || ph.Runtime > 0)
		n := cloneCount(p, jp, &pj.Job)
		if clones += n; clones > maxClones {
			p.add(path+".jobs", "%d clones in all, more than %d", clones, maxClones)
			return
		}
		for k := range n {
			ph.Jobs = append(ph.Jobs, JobPlan{Name: name, Entry: e, Clone: k, Group: group, NewGroup: pj.NewGroup,
				GroupReporting: pj.GroupReporting, Stream: jobStream(ph.Stream, e, k), Workload: clone(w, &pj.Job, k),
				StartDelay: time.Duration(pj.StartDelay), Runtime: runtime, WaitFor: wait})
		}
	}
}

// planClones checks the phase's own job with numjobs above 1 into
// ph.Jobs, one per clone, named after the phase.
func planClones(p *problems, path string, c *Phase, ph *PhasePlan) {
	if len(c.Background) > 0 {
		p.add(path+".numjobs", "clones a job beside background jobs: give the jobs as phases[].jobs instead")
		return
	}
	n := cloneCount(p, path, &c.Job)
	for k := range n {
		ph.Jobs = append(ph.Jobs, JobPlan{Name: c.Name, Clone: k, GroupReporting: c.GroupReporting,
			Stream: jobStream(ph.Stream, 0, k), Workload: clone(ph.Workload, &c.Job, k), WaitFor: -1})
	}
}

// cloneCount checks numjobs and returns the clones it asks for.
func cloneCount(p *problems, path string, c *Job) int {
	if c.NumJobs == 0 {
		return defaultNumJobs
	}
	p.checkBounds(path+".numjobs", int64(c.NumJobs))
	return min(max(c.NumJobs, 1), maxNumJobs)
}

// jobStream names the random stream of clone k of entry e.
func jobStream(phase string, e, k int) string {
	if e == 0 && k == 0 {
		return phase
	}
	return fmt.Sprintf("%s/job%d.%d", phase, e, k)
}

// clone returns clone k's workload: its region moved by k
// offset_increments.
func clone(w trace.Workload, c *Job, k int) trace.Workload {
	w.Offset += int64(k) * int64(c.OffsetIncrement)
	return w
}

// checkTimeBased checks time_based: it needs a runtime and no ios, and
// makes the job run until then.
func checkTimeBased(p *problems, path string, c *Job, w *trace.Workload, hasRuntime bool) {
	if !c.TimeBased {
		return
	}
	if c.IOs != 0 {
		p.add(path+".time_based", "repeats the job until its runtime: leave out ios")
	}
	if !hasRuntime {
		p.add(path+".time_based", "repeats the job until its runtime: give runtime")
	}
	w.NumIOs = maxIOs
}

// checkInlineEmpty reports the phase's own job keys beside a jobs list.
func checkInlineEmpty(p *problems, path string, c *Phase) {
	if c.Job != (Job{}) {
		set := inlineKeys(&c.Job)
		p.add(path+".jobs", "replaces the phase's own job: move %s into the jobs", strings.Join(set, ", "))
	}
	if len(c.Background) > 0 {
		p.add(path+".background", "beside jobs: give the background jobs as jobs too")
	}
}

// jobKeys lists a job's keys and whether each is set.
func jobKeys(j *Job) []struct {
	key string
	on  bool
} {
	return []struct {
		key string
		on  bool
	}{{"rw", j.RW != ""}, {"rwmixread", j.RWMixRead != nil}, {"bs", j.BS != 0}, {"bssplit", j.BSSplit != ""},
		{"iodepth", j.IODepth != 0}, {"offset", j.Offset != 0}, {"size", j.Size != 0}, {"ios", j.IOs != 0},
		{"random_distribution", j.RandomDistribution != ""}, {"percentage_random", j.PercentageRandom != 0},
		{"fsync", j.Fsync != 0}, {"rate", j.Rate != ""}, {"rate_iops", j.RateIOPS != ""}, {"rate_process", j.RateProcess != ""},
		{"io_submit_mode", j.IOSubmitMode != ""}, {"thinktime", j.ThinkTime != 0}, {"thinktime_spin", j.ThinkTimeSpin != 0},
		{"thinktime_blocks", j.ThinkTimeBlocks != 0}, {"thinktime_blocks_type", j.ThinkTimeBlocksType != ""},
		{"numjobs", j.NumJobs != 0}, {"offset_increment", j.OffsetIncrement != 0}, {"group_reporting", j.GroupReporting},
		{"time_based", j.TimeBased}, {"trace", j.Trace != nil}}
}

// inlineKeys names the keys set in j.
func inlineKeys(j *Job) []string {
	var out []string
	for _, k := range jobKeys(j) {
		if k.on {
			out = append(out, k.key)
		}
	}
	return out
}

// checkBackgroundJob refuses the keys that make no sense in a job run
// beside the phase's own until it ends.
func checkBackgroundJob(p *problems, path string, b *Job) {
	for _, k := range []struct {
		key string
		on  bool
	}{{"numjobs", b.NumJobs != 0}, {"offset_increment", b.OffsetIncrement != 0}, {"group_reporting", b.GroupReporting},
		{"time_based", b.TimeBased}} {
		if k.on {
			p.add(path+"."+k.key, "not in a background job: give the jobs as phases[].jobs instead")
		}
	}
}

// checkJobsFit checks every clone's region against the stack's
// capacity, and what only the workload generator knows.
func checkJobsFit(p *problems, path string, c *Phase, ph *PhasePlan, pl *Plan) {
	for _, jp := range ph.Jobs {
		at := fmt.Sprintf("%s.jobs[%d]", path, jp.Entry)
		if p.under(at) {
			continue
		}
		if jp.Clone == 0 {
			checkRegion(p, at, &c.Jobs[jp.Entry].Job, pl.Capacity)
			if p.under(at) {
				continue
			}
		}
		if err := jp.Workload.Validate(pl.Capacity, pl.SectorSize); err != nil {
			if jp.Clone > 0 {
				err = fmt.Errorf("clone %d (offset_increment): %w", jp.Clone, err)
			}
			p.addErr(at, err)
			continue
		}
		if c.Jobs[jp.Entry].Runtime == 0 && c.Runtime == 0 {
			checkOnePass(p, at, jp.Workload, pl.Capacity)
			checkPacedLength(p, at, jp.Workload, pl.Capacity)
		}
	}
}
