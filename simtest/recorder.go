package simtest

import (
	"errors"
	"fmt"
	"strings"

	"github.com/raidsim/raidsim/sim"
)

// Record is what a Recorder saw of one request.
type Record struct {
	// Seq numbers requests in submission order, from 0.
	Seq int
	// Op, Offset, Length and FUA are copied from the request at Submit.
	Op     sim.Op
	Offset int64
	Length int64
	FUA    bool
	// DataLen is len(Data) at Submit; HasData reports whether Data was
	// non-nil.
	DataLen int
	HasData bool
	// ID is the submitter's request ID at Submit.
	ID uint64
	// Issued is the virtual time of Submit.
	Issued sim.Time
	// Rejected reports that Submit returned an error, held in Err.
	Rejected bool
	// Done reports that the wrapped device called Done; Completed and Err
	// are then what it set.
	Done      bool
	Completed sim.Time
	// Err is the Submit error of a rejected request or the Err of a
	// completed one.
	Err error
}

// String formats r on one line, e.g.
// "#3 write 4096@8192 fua issued 1ms completed 1.2ms" or
// "#4 read 1@0 issued 0s rejected: ...".
func (r Record) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "#%d %v", r.Seq, r.Op)
	if r.Op != sim.Flush {
		fmt.Fprintf(&b, " %d@%d", r.Length, r.Offset)
	}
	if r.FUA {
		b.WriteString(" fua")
	}
	fmt.Fprintf(&b, " issued %v", r.Issued)
	switch {
	case r.Rejected:
		fmt.Fprintf(&b, " rejected: %v", r.Err)
	case r.Done:
		fmt.Fprintf(&b, " completed %v", r.Completed)
		if r.Err != nil {
			fmt.Fprintf(&b, " err: %v", r.Err)
		}
	default:
		b.WriteString(" outstanding")
	}
	return b.String()
}

// Recorder is a sim.Device that passes every request to another Device
// and records what went through, like httptest.ResponseRecorder for
// devices: put one under a layer to assert what the layer sent below it.
//
// The Recorder submits its own copy of each request below (same Op,
// Offset, Length, FUA and Data slice) and, when the wrapped device
// completes the copy, sets Completed and Err on the original and calls
// its Done. The wrapped device therefore never sees the submitter's Ctx
// or ID, and the original's Done field is never changed.
//
// It also notices the contract violations it can see (Done called twice,
// or from inside Submit) and reports them from Err.
type Recorder struct {
	eng       *sim.Engine
	dev       sim.Device
	recs      []*Record
	order     []*Record // completion order
	inSubmit  bool
	problems  []error
	childDone func(*sim.Request)
}

// recChild is the request the Recorder submits below, with its link back
// to the original.
type recChild struct {
	sim.Request
	parent *sim.Request
	rec    *Record
}

// NewRecorder returns a Recorder passing requests to dev and reading the
// time from eng.
func NewRecorder(eng *sim.Engine, dev sim.Device) *Recorder {
	r := &Recorder{eng: eng, dev: dev}
	r.childDone = r.done
	return r
}

// Device returns the wrapped device.
func (rc *Recorder) Device() sim.Device { return rc.dev }

// Capacity returns the wrapped device's capacity.
func (rc *Recorder) Capacity() int64 { return rc.dev.Capacity() }

// SectorSize returns the wrapped device's sector size.
func (rc *Recorder) SectorSize() int { return rc.dev.SectorSize() }

// Submit records r and submits a copy of it to the wrapped device,
// returning the device's error unchanged.
func (rc *Recorder) Submit(r *sim.Request) error {
	now := rc.eng.Now()
	r.Issued = now
	rec := &Record{
		Seq: len(rc.recs), Op: r.Op, Offset: r.Offset, Length: r.Length, FUA: r.FUA,
		DataLen: len(r.Data), HasData: r.Data != nil, ID: r.ID, Issued: now,
	}
	rc.recs = append(rc.recs, rec)
	c := &recChild{parent: r, rec: rec}
	c.Op, c.Offset, c.Length, c.FUA, c.Data = r.Op, r.Offset, r.Length, r.FUA, r.Data
	if r.Done != nil { // a nil Done must reach the device, which rejects it
		c.Done = rc.childDone
	}
	c.Ctx = c

	outer := rc.inSubmit
	rc.inSubmit = true
	err := rc.dev.Submit(&c.Request)
	rc.inSubmit = outer
	if err != nil {
		rec.Rejected = true
		rec.Err = err
		if rec.Done {
			rc.problems = append(rc.problems, fmt.Errorf("simtest: Recorder: %v: Submit returned an error after calling Done", rec))
		}
	}
	return err
}

// done is the Done of every child request.
func (rc *Recorder) done(cr *sim.Request) {
	c, ok := cr.Ctx.(*recChild)
	if !ok || &c.Request != cr {
		rc.problems = append(rc.problems, fmt.Errorf("simtest: Recorder: Done called with a request it did not submit (%v)", cr))
		return
	}
	rec := c.rec
	if rc.inSubmit {
		rc.problems = append(rc.problems, fmt.Errorf("simtest: Recorder: %v: Done called from inside Submit", rec))
	}
	if rec.Done {
		rc.problems = append(rc.problems, fmt.Errorf("simtest: Recorder: %v: Done called again", rec))
		return
	}
	if rec.Rejected {
		rc.problems = append(rc.problems, fmt.Errorf("simtest: Recorder: %v: Done called for a rejected request", rec))
		return
	}
	rec.Done = true
	rec.Completed = cr.Completed
	rec.Err = cr.Err
	if rec.Seq < len(rc.recs) && rc.recs[rec.Seq] == rec { // not from before a Reset
		rc.order = append(rc.order, rec)
	}
	p := c.parent
	p.Completed = cr.Completed
	p.Err = cr.Err
	p.Done(p)
}

// Requests returns copies of the records of every request submitted, in
// submission order.
func (rc *Recorder) Requests() []Record {
	out := make([]Record, len(rc.recs))
	for i, r := range rc.recs {
		out[i] = *r
	}
	return out
}

// Completions returns copies of the records of the completed requests,
// in the order Done was called.
func (rc *Recorder) Completions() []Record {
	out := make([]Record, len(rc.order))
	for i, r := range rc.order {
		out[i] = *r
	}
	return out
}

// Outstanding returns the number of requests accepted by the wrapped
// device and not yet completed.
func (rc *Recorder) Outstanding() int {
	n := 0
	for _, r := range rc.recs {
		if !r.Rejected && !r.Done {
			n++
		}
	}
	return n
}

// Reset forgets every record and problem. Requests still outstanding
// complete normally but are no longer recorded.
func (rc *Recorder) Reset() {
	rc.recs, rc.order, rc.problems = nil, nil, nil
}

// Err returns the contract violations seen so far, joined, or nil.
func (rc *Recorder) Err() error { return errors.Join(rc.problems...) }

// String returns the records in submission order, one per line.
func (rc *Recorder) String() string {
	var b strings.Builder
	for _, r := range rc.recs {
		b.WriteString(r.String())
		b.WriteByte('\n')
	}
	return b.String()
}
