package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/raidsim/raidsim/spec"
	"github.com/raidsim/raidsim/trace"
)

// fioFileAlign is where each file a job file names starts on the
// volume: a multiple of 1 MiB, as a file system places a new file's
// first extent on its own (inferred: a round boundary that no stripe
// unit raidsim takes straddles).
const fioFileAlign = 1 << 20

// fioRun is a job file turned into an experiment: its phases (the runs
// of jobs between stonewalls) and their jobs, in order.
type fioRun struct {
	x      spec.Experiment
	phases [][]*fioJob
	notes  []string // what the run does differently from fio, for stderr
}

// fioExperiment reads jf's jobs into phases on x's stack (its phases
// replaced) of capacity bytes. seedGiven keeps x's seed over the job
// file's randseed.
func fioExperiment(jf *fioJobFile, x spec.Experiment, capacity int64, seedGiven, ignoreUnknown bool) (*fioRun, error) {
	r := &fioRun{x: x}
	r.x.Phases = nil
	var jobs []*fioJob
	var errs []error
	for _, sec := range jf.jobs {
		j, err := readFioJob(sec, ignoreUnknown)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		jobs = append(jobs, j)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if err := layFioFiles(jobs, capacity); err != nil {
		return nil, err
	}
	for i, j := range jobs {
		if i == 0 || j.stonewall {
			r.phases = append(r.phases, nil)
			r.x.Phases = append(r.x.Phases, spec.Phase{Name: j.job.Name})
		}
		last := len(r.phases) - 1
		r.phases[last] = append(r.phases[last], j)
		r.x.Phases[last].Jobs = append(r.x.Phases[last].Jobs, j.job)
		if j.hasSeed && !seedGiven {
			r.x.Seed = j.randseed
		}
		for _, o := range j.ignored {
			r.notes = append(r.notes, fmt.Sprintf("%s: option %s ignored (--ignore-unknown): raidsim does not model it", o.at, o.key))
		}
	}
	return r, r.direct(jobs)
}

// direct applies fio's direct (O_DIRECT) to the stack's host: with a
// host, buffered jobs go through its page cache and direct ones past it,
// one or the other for the whole run; without one every job goes to the
// volume, and buffered ones say so.
func (r *fioRun) direct(jobs []*fioJob) error {
	var direct, buffered []string
	for _, j := range jobs {
		if j.direct {
			direct = append(direct, j.job.Name)
		} else {
			buffered = append(buffered, j.job.Name)
		}
	}
	if !hostSec.present(&r.x) {
		if len(buffered) > 0 {
			r.notes = append(r.notes, fmt.Sprintf("buffered jobs (direct=0: %s) go straight to the volume: the stack has no host page cache (--host PRESET models one)",
				strings.Join(buffered, ", ")))
		}
		return nil
	}
	if len(direct) > 0 && len(buffered) > 0 {
		return fmt.Errorf("jobs %s are direct and %s buffered: raidsim's host sets O_DIRECT for the whole run (stack.host.direct)",
			strings.Join(direct, ", "), strings.Join(buffered, ", "))
	}
	if len(direct) > 0 {
		r.x.Stack.Host.Direct = true
	}
	return nil
}

// layFioFiles places the files the jobs address on the volume and sets
// each job's region: a block device (/dev/...) is the whole volume; the
// other files, each job's own file per clone when it names none (fio's
// jobname.N.0) and the named ones shared by the jobs naming them, lie
// one after another from the volume's start, each on a fioFileAlign
// boundary, each as long as its jobs reach (offset, (numjobs-1)
// offset_increments and size).
func layFioFiles(jobs []*fioJob, capacity int64) error {
	span := map[string]int64{} // named files' lengths
	var errs []error
	for _, j := range jobs {
		if err := j.resolveRegion(capacity); err != nil {
			errs = append(errs, err)
			continue
		}
		if j.device || j.file == "" {
			continue
		}
		span[j.file] = max(span[j.file], j.reach())
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	base := map[string]int64{}
	var next int64
	place := func(length int64) int64 {
		at := next
		next += (length + fioFileAlign - 1) / fioFileAlign * fioFileAlign
		return at
	}
	for _, j := range jobs {
		switch {
		case j.device:
			j.job.Offset = spec.Size(j.offset)
			j.job.OffsetIncrement = spec.Size(j.inc)
		case j.file == "":
			// Clone k's own file of one length: offset_increment moves
			// its region within it as fio's would.
			n := int64(max(j.job.NumJobs, 1))
			each := (j.reach() + fioFileAlign - 1) / fioFileAlign * fioFileAlign
			at := place(each * n)
			j.job.Offset = spec.Size(at + j.offset)
			j.job.OffsetIncrement = spec.Size(each + j.inc)
		default:
			if _, ok := base[j.file]; !ok {
				base[j.file] = place(span[j.file])
			}
			j.job.Offset = spec.Size(base[j.file] + j.offset)
			j.job.OffsetIncrement = spec.Size(j.inc)
		}
		j.job.Size = spec.Size(j.size)
	}
	if next > capacity {
		return fmt.Errorf("the job files' files need %s laid one after another (each on a 1 MiB boundary); the volume holds %s",
			trace.FormatSize(next), trace.FormatSize(capacity))
	}
	return nil
}

// resolveRegion turns the job's size and offset into bytes: shares of
// the volume for a device, and a file's size required, as fio requires
// it for a file it creates.
func (j *fioJob) resolveRegion(capacity int64) error {
	if (j.hasSizePct || j.hasOffPct) && !j.device {
		return fmt.Errorf("%s: size or offset as a percentage needs a block device (filename=/dev/...): a new file has no size to take it of", j.sec.at)
	}
	if j.hasOffPct {
		j.offset = int64(j.offsetPct * float64(capacity))
	}
	switch {
	case j.hasSizePct:
		j.size = int64(j.sizePct * float64(capacity))
	case j.hasSize:
	case j.device:
		j.size = 0 // to the end of the volume
	default:
		return fmt.Errorf("%s: job %s names no block device (filename=/dev/...): give its size, as fio needs it to create the file", j.sec.at, j.job.Name)
	}
	ss := int64(512)
	j.offset = j.offset / ss * ss
	j.size = j.size / ss * ss
	return nil
}

// reach is how far into its file the job's clones go.
func (j *fioJob) reach() int64 {
	return j.offset + int64(max(j.job.NumJobs, 1)-1)*j.inc + j.size
}
