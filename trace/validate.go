package trace

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// ValidateReader reads DiskSim's validate traces: one request a line,
//
//	R/W Hit/Miss blkno bcount service_us next_interarrival_us
//
// measured on a real drive with one request outstanding. blkno and
// bcount are in 512-byte blocks; service_us is the request's measured
// service time and next_interarrival_us the idle gap, after it completed,
// before the next request was issued (both in microseconds, with
// decimals). The Hit/Miss column is read but not used (the shared traces
// hold a placeholder); DiskSim 4.0 also takes Doub and Trip there, and
// so does this reader.
//
// Records carry the measured service time in Measured, and the gaps in
// Time: Time is the request's issue time on the measured drive, from 0
// for the first, so record i+1's Time is record i's Time + Measured +
// gap, in whole nanoseconds. [ReplayValidate] recovers each gap as
// next.Time - (Time + Measured). The last line's gap is dropped.
type ValidateReader struct {
	lr    *lineReader
	next  sim.Time // issue time of the next record
	field [8][]byte
}

// NewValidateReader reads a validate trace from r; name is used in
// errors.
func NewValidateReader(r io.Reader, name string) *ValidateReader {
	return &ValidateReader{lr: newLineReader(r, name)}
}

// Next returns the next record, io.EOF after the last, or a *ParseError.
// Blank lines and lines starting with '#' are skipped.
func (v *ValidateReader) Next() (Record, error) {
	for {
		line, err := v.lr.next()
		if err != nil {
			return Record{}, err
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		return v.parse(line)
	}
}

func (v *ValidateReader) parse(line []byte) (Record, error) {
	n := 0
	for _, f := range bytes.Fields(line) {
		if n == len(v.field) {
			break
		}
		v.field[n] = f
		n++
	}
	if n != 6 {
		return Record{}, v.lr.errorf("", "want 6 fields (R/W Hit/Miss blkno bcount service_us next_interarrival_us), got %d", n)
	}
	var rec Record
	switch string(v.field[0]) {
	case "R", "r":
		rec.Op = sim.Read
	case "W", "w":
		rec.Op = sim.Write
	default:
		return Record{}, v.lr.errorf("type", "want R or W, got %q", v.field[0])
	}
	switch string(v.field[1]) {
	case "Hit", "Miss", "Doub", "Trip", "hit", "miss", "H", "M":
	default:
		return Record{}, v.lr.errorf("hit", "want Hit, Miss, Doub or Trip, got %q", v.field[1])
	}
	blk, err := strconv.ParseInt(string(v.field[2]), 10, 64)
	if err != nil || blk < 0 || blk > math.MaxInt64/512 {
		return Record{}, v.lr.errorf("blkno", "%q is not a block number", v.field[2])
	}
	cnt, err := strconv.ParseInt(string(v.field[3]), 10, 64)
	if err != nil || cnt <= 0 || cnt > 1<<31 || blk+cnt > math.MaxInt64/512 {
		return Record{}, v.lr.errorf("bcount", "%q is not a positive block count", v.field[3])
	}
	svc, err := microseconds(v.field[4])
	if err != nil {
		return Record{}, v.lr.errorf("service", "%v", err)
	}
	gap, err := microseconds(v.field[5])
	if err != nil {
		return Record{}, v.lr.errorf("interarrival", "%v", err)
	}
	rec.Offset, rec.Length = blk*512, cnt*512
	rec.Measured = svc
	rec.Time = v.next
	if next := v.next + sim.Time(svc) + sim.Time(gap); next >= v.next {
		v.next = next
	} else {
		return Record{}, v.lr.errorf("interarrival", "trace longer than %v", sim.Never)
	}
	return rec, nil
}

// maxMicros bounds a time field: about 11 days.
const maxMicros = 1e12

// microseconds parses a non-negative decimal number of microseconds,
// rounded to the nanosecond.
func microseconds(b []byte) (time.Duration, error) {
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil || !(f >= 0 && f <= maxMicros) {
		return 0, fmt.Errorf("%q is not a time in microseconds (0..%g)", b, float64(maxMicros))
	}
	return time.Duration(math.Round(f * 1e3)), nil
}

// ValidateOptions configures ReplayValidate.
type ValidateOptions struct {
	// OnPair, if set, is called for each completed request with its
	// record (Measured set) and the simulated service time, from the
	// event loop. rec may not be kept after the call.
	OnPair func(rec *Record, simulated time.Duration)
	// Observer, if set, sees each request as submitted and completed,
	// under the device name "trace".
	Observer *sim.Observer
}

// ValidateResult is what ReplayValidate measured.
type ValidateResult struct {
	ReplayResult
	// Measured and Simulated hold the service times of the completed
	// requests, in trace order.
	Measured, Simulated []time.Duration
}

// ReplayValidate replays src on dev as DiskSim's validate mode does: one
// request outstanding; the first is issued at the engine's current time
// and each later one at the previous request's simulated completion plus
// the gap the trace recorded after it (next.Time - (Time + Measured), see
// ValidateReader; a negative gap counts as none). With one request
// outstanding the simulated response time is the simulated service time,
// which is returned next to the measured one for each record.
//
// Errors: as Replay, the first is returned with what happened before it.
// A request completing with an error stops the replay.
func ReplayValidate(eng *sim.Engine, dev sim.Device, src Reader, opt ValidateOptions) (ValidateResult, error) {
	v := &validator{eng: eng, dev: dev, src: src, opt: opt}
	v.req.Done = v.complete
	if !v.read() {
		return v.res, v.err
	}
	v.issue()
	for v.outstanding {
		if !eng.Step() {
			v.fail(fmt.Errorf("trace: validate replay stalled at %v: a request is outstanding and no events are pending (a device never called Done)", eng.Now()))
			break
		}
	}
	return v.res, v.err
}

type validator struct {
	eng         *sim.Engine
	dev         sim.Device
	src         Reader
	opt         ValidateOptions
	req         sim.Request
	cur, next   Record
	haveNext    bool
	numbered    int64
	outstanding bool // a request is out or scheduled
	err         error
	res         ValidateResult
}

func (v *validator) fail(err error) {
	if v.err == nil {
		v.err = err
	}
}

// read fetches the next record into v.next.
func (v *validator) read() bool {
	rec, err := v.src.Next()
	if err != nil {
		v.haveNext = false
		if !errors.Is(err, io.EOF) {
			v.fail(fmt.Errorf("trace: record %d: %w", v.numbered+1, err))
		}
		return false
	}
	v.numbered++
	v.next = rec
	v.haveNext = true
	return true
}

// issue submits v.next now.
func (v *validator) issue() {
	v.cur = v.next
	q := &v.req
	q.Op, q.Offset, q.Length, q.FUA = v.cur.Op, v.cur.Offset, v.cur.Length, v.cur.FUA
	q.Data, q.Err, q.Issued, q.Completed = nil, nil, 0, 0
	q.ID = uint64(v.numbered)
	if err := v.dev.Submit(q); err != nil {
		v.fail(fmt.Errorf("trace: record %d: %w", v.numbered, err))
		v.outstanding = false
		return
	}
	now := v.eng.Now()
	if v.res.Issued == 0 {
		v.res.FirstIssue = now
	}
	v.res.Issued++
	v.outstanding = true
	v.opt.Observer.OnSubmitted(ReplayObserverName, q, now)
}

func (v *validator) complete(q *sim.Request) {
	now := v.eng.Now()
	v.res.Completed++
	v.res.LastCompletion = now
	v.opt.Observer.OnCompleted(ReplayObserverName, q, now)
	if q.Err != nil {
		v.res.Failed++
		v.fail(fmt.Errorf("trace: record %d: %w", q.ID, q.Err))
		v.outstanding = false
		return
	}
	simulated := q.Latency()
	v.res.Measured = append(v.res.Measured, v.cur.Measured)
	v.res.Simulated = append(v.res.Simulated, simulated)
	if v.opt.OnPair != nil {
		v.opt.OnPair(&v.cur, simulated)
	}
	if !v.read() {
		v.outstanding = false
		return
	}
	gap := v.next.Time - v.cur.Time - sim.Time(v.cur.Measured)
	if gap < 0 {
		gap = 0
	}
	v.eng.Schedule(now+gap, v, nil)
}

// HandleEvent issues the next record after its gap.
func (v *validator) HandleEvent(sim.Time, any) { v.issue() }

// sniffValidate reports whether line (the first that is neither blank
// nor a '#' comment) looks like a DiskSim validate record: six fields,
// R or W, then Hit or Miss.
func sniffValidate(line []byte) bool {
	f := bytes.Fields(line)
	if len(f) != 6 {
		return false
	}
	switch string(f[0]) {
	case "R", "W", "r", "w":
	default:
		return false
	}
	switch string(f[1]) {
	case "Hit", "Miss", "Doub", "Trip", "hit", "miss", "H", "M":
		return true
	}
	return false
}
