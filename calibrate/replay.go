package calibrate

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/disk/disksim/exact"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/trace"
)

// ErrNoMeasuredTimes is returned (wrapped) for a trace whose records carry
// no measured service times: there is nothing to compare a model with.
var ErrNoMeasuredTimes = errors.New("the trace records no measured service times")

// MaxTraceRecords bounds the records LoadTrace keeps in memory: about
// 100 MB of records.
const MaxTraceRecords = 2_000_000

// maxRecords is MaxTraceRecords, lowered by tests.
var maxRecords = MaxTraceRecords

// LoadTrace reads the trace at path in the given format ("" or "auto"
// sniffs it; see trace.Open) into memory, keeping its first max records
// (0: all; a trace of more than MaxTraceRecords requests is then an
// error, not silently cut). Every record must carry a
// measured time (trace.Record.Measured): DiskSim validate traces,
// blkparse output read as "blkparse:DC" (issues paired with their
// completions), raidsim CSV with measured_ns, MSR and SYSTOR '17 traces
// do; fio iologs, blkparse's Q or D events alone, SPC, Alibaba, Tencent
// and DiskSim's own traces do not, and give an error wrapping
// ErrNoMeasuredTimes. The measured times are taken as service
// times of a drive with one request outstanding, as Replay replays them.
func LoadTrace(path, format string, max int) ([]trace.Record, error) {
	if max < 0 || max > maxRecords {
		return nil, fmt.Errorf("calibrate: at most %d records: want 1..%d, or 0 for all", max, maxRecords)
	}
	all := max == 0
	if all {
		max = maxRecords
	}
	r, chosen, c, err := trace.Open(path, format)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	var recs []trace.Record
	for {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if rec.Op != sim.Read && rec.Op != sim.Write {
			continue // flushes have no service time to compare
		}
		if len(recs) == max {
			if all {
				return nil, fmt.Errorf("calibrate: %s: more than %d requests: give a limit (--max-requests) to use its first ones", baseName(path), maxRecords)
			}
			break
		}
		if rec.Measured <= 0 {
			return nil, fmt.Errorf("calibrate: %s (%s format), record %d: %w (%s)", baseName(path), chosen, len(recs)+1, ErrNoMeasuredTimes, measuredHint(chosen))
		}
		recs = append(recs, rec)
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("calibrate: %s: no read or write requests", baseName(path))
	}
	return recs, nil
}

// measuredHint says where to find measured times when a trace of format
// f has none.
func measuredHint(f trace.Format) string {
	const use = "use a DiskSim validate trace, blkparse output with completions (--format blkparse:DC), raidsim CSV with measured_ns, MSR or SYSTOR '17"
	switch f {
	case trace.FormatBlkparse, trace.FormatBlkparseD:
		return fmt.Sprintf("%s replays one kind of event; --format blkparse:DC pairs issues (D) with completions (C)", f)
	case trace.FormatValidate, trace.FormatCSV, trace.FormatMSR, trace.FormatSystor17, trace.FormatBlkparseDC:
		return "a measured time of 0 is not a service time; " + use
	}
	return fmt.Sprintf("a %s trace has none; %s", f, use)
}

func baseName(path string) string {
	if i := strings.LastIndexAny(path, `/\`); i >= 0 {
		return path[i+1:]
	}
	return path
}

// Request is one request of a replay: what the trace measured, what the
// model simulated, and what the simulator knows of it.
type Request struct {
	// Measured and Simulated are the service times.
	Measured, Simulated time.Duration
	// Write is true for a write, false for a read.
	Write bool
	// Hit is true when the simulated drive served the request from its
	// buffer without touching the media (a read hit, or a write its write
	// cache absorbed).
	Hit bool
	// Sequential is true when the request starts where the trace's
	// previous request ended.
	Sequential bool
}

// Replay replays recs on a drive of model p as DiskSim's validate mode
// does (see trace.ReplayValidate), on a fresh engine of seed 1, and
// returns every request in trace order. Requests past the model's
// capacity are an error naming the record.
func Replay(p disk.Params, recs []trace.Record) ([]Request, error) {
	eng := sim.NewEngine(1)
	var hit bool
	obs := &sim.Observer{Phase: func(_ string, _ *sim.Request, ph sim.Phase, _, _ sim.Time) {
		if ph == sim.PhaseCacheHit {
			hit = true
		}
	}}
	d, err := disk.New(eng, p, "disk0", obs)
	if err != nil {
		return nil, fmt.Errorf("calibrate: %w", err)
	}
	out := make([]Request, 0, len(recs))
	var prevEnd int64 = -1
	opt := trace.ValidateOptions{OnPair: func(rec *trace.Record, simulated time.Duration) {
		out = append(out, Request{
			Measured: rec.Measured, Simulated: simulated,
			Write: rec.Op == sim.Write, Hit: hit, Sequential: rec.Offset == prevEnd,
		})
		prevEnd, hit = rec.End(), false
	}}
	if _, err := trace.ReplayValidate(eng, d, trace.NewSliceReader(recs), opt); err != nil {
		return nil, fmt.Errorf("calibrate: %w", err)
	}
	return out, nil
}

// ReplayExact replays recs (a validate trace) on a DiskSim model in
// exact mode, as DiskSim's validate mode does: each request issued at
// the previous one's completion plus the recorded gap (the records'
// issue times less their measured service times). It also returns
// exact mode's per-request results (arrival and response times).
func ReplayExact(m *exact.Model, recs []trace.Record) ([]Request, []exact.Result, error) {
	reqs := make([]exact.Request, len(recs))
	for i, r := range recs {
		if r.Offset%512 != 0 || r.Length%512 != 0 || r.Length <= 0 {
			return nil, nil, fmt.Errorf("calibrate: record %d: offset %d, length %d: not whole 512-byte blocks", i, r.Offset, r.Length)
		}
		reqs[i] = exact.Request{Blkno: int(r.Offset / 512), Bcount: int(r.Length / 512), Read: r.Op == sim.Read}
		if i+1 < len(recs) {
			gap := recs[i+1].Time - r.Time - sim.Time(r.Measured)
			reqs[i].GapUs = float64(gap) / 1e3 // ns: as DiskSim reads the record's µs
		}
	}
	res, err := m.Run(reqs, true)
	if err != nil {
		return nil, res, fmt.Errorf("calibrate: %w", err)
	}
	out := make([]Request, 0, len(recs))
	var prevEnd int64 = -1
	for i, r := range recs {
		if !res[i].Done {
			break
		}
		out = append(out, Request{
			Measured: r.Measured, Simulated: time.Duration(math.Round(res[i].Response * 1e6)),
			Write: r.Op == sim.Write, Hit: res[i].Hit, Sequential: r.Offset == prevEnd,
		})
		prevEnd = r.End()
	}
	return out, res, nil
}
