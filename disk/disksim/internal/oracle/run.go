package oracle

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/raidsim/raidsim/disk/disksim"
	"github.com/raidsim/raidsim/disk/disksim/exact"
)

// Outcome is what one simulator made of a pair.
type Outcome struct {
	// Rejected is set when the simulator refused the model or the
	// stream, or stopped on one of its own checks; Why says how.
	Rejected bool
	Why      string
	// Resp holds each request's response time in ms, NaN for a request
	// the simulator did not complete (DiskSim logs none that are
	// outstanding when the trace ends).
	Resp []float64
}

// Stopped reports whether the simulator rejected the pair or completed
// none of its requests.
func (o Outcome) Stopped() bool {
	if o.Rejected {
		return true
	}
	for _, r := range o.Resp {
		if !math.IsNaN(r) {
			return false
		}
	}
	return true
}

// Tools locates DiskSim: run-reqlog.sh and the statdefs file DiskSim's
// global block names.
type Tools struct {
	Script   string
	Statdefs string
}

// DefaultTools returns the shared copies below root (the project's
// shared folder), or ok false when either is missing.
func DefaultTools(root string) (Tools, bool) {
	t := Tools{Script: filepath.Join(root, "tools/disksim/run-reqlog.sh"), Statdefs: filepath.Join(root, "disksim-models/statdefs")}
	for _, p := range []string{t.Script, t.Statdefs, filepath.Join(root, "tools/disksim/disksim")} {
		if _, err := os.Stat(p); err != nil {
			return t, false
		}
	}
	return t, true
}

// RunDiskSim runs DiskSim on the model files and the stream in a
// temporary folder and reads its per-request log.
func (t Tools) RunDiskSim(ctx context.Context, files map[string]string, spec StreamSpec, recs []Record) (Outcome, error) {
	dir, err := os.MkdirTemp("", "raidsim-oracle-")
	if err != nil {
		return Outcome{}, err
	}
	defer os.RemoveAll(dir)
	statdefs, err := os.ReadFile(t.Statdefs)
	if err != nil {
		return Outcome{}, err
	}
	write := map[string]string{"statdefs": string(statdefs), "stream.trace": spec.Trace(recs)}
	for k, v := range files {
		write[k] = v
	}
	for name, text := range write {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			return Outcome{}, err
		}
	}
	out := filepath.Join(dir, "out")
	cmd := exec.CommandContext(ctx, t.Script, filepath.Join(dir, "model.parv"), filepath.Join(dir, "stream.trace"), spec.Format, out)
	// the script runs DiskSim as a child: on the deadline, end both
	killGroupOnCancel(cmd)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		// DiskSim 4.0 loops forever in places (dm_acctime_g1 on a
		// track whose boundaries end before the block): exact mode
		// stops there with ErrDiskSimAbort
		return Outcome{Rejected: true, Why: "DiskSim did not finish before the deadline (it loops forever)"}, nil
	}
	if ctx.Err() != nil {
		return Outcome{}, fmt.Errorf("DiskSim: %w", ctx.Err())
	}
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return Outcome{Rejected: true, Why: lastLines(stderr.String(), 3)}, nil
		}
		return Outcome{}, err
	}
	f, err := os.Open(filepath.Join(out, "requests.tsv"))
	if err != nil {
		return Outcome{}, err
	}
	defer f.Close()
	return parseLog(f, spec, recs)
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}

// parseLog matches DiskSim's log lines (completion order) to the
// stream's requests: by arrival time, which is distinct per request.
func parseLog(f *os.File, spec StreamSpec, recs []Record) (Outcome, error) {
	o := Outcome{Resp: make([]float64, len(recs))}
	for i := range o.Resp {
		o.Resp[i] = math.NaN()
	}
	type logged struct {
		arrival, resp float64
		blkno, bcount int
	}
	var ls []logged
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Split(sc.Text(), "\t")
		if len(fs) < 8 || fs[0] == "arrival_ms" {
			continue
		}
		a, err1 := strconv.ParseFloat(fs[0], 64)
		b, err2 := strconv.Atoi(fs[2])
		n, err3 := strconv.Atoi(fs[3])
		r, err4 := strconv.ParseFloat(fs[6], 64)
		if err := errors.Join(err1, err2, err3, err4); err != nil {
			return o, fmt.Errorf("requests.tsv: %q: %w", sc.Text(), err)
		}
		ls = append(ls, logged{a, r, b, n})
	}
	if err := sc.Err(); err != nil {
		return o, err
	}
	if spec.Format == "validate" {
		// one request at a time: completion order (the log's) is
		// request order; arrival order need not be, as a negative
		// completion overhead completes a request before it arrived
		for i, l := range ls {
			if i >= len(recs) || recs[i].Blkno != l.blkno || recs[i].Bcount != l.bcount {
				return o, fmt.Errorf("requests.tsv: line for request %d is block %d+%d", i, l.blkno, l.bcount)
			}
			o.Resp[i] = l.resp
		}
		return o, nil
	}
	reqs := spec.ExactRequests(recs)
	byArrival := map[string]int{}
	for i, q := range reqs {
		byArrival[fmt.Sprintf("%.6f/%d", q.Arrival, q.Blkno)] = i
	}
	for _, l := range ls {
		i, ok := byArrival[fmt.Sprintf("%.6f/%d", l.arrival, l.blkno)]
		if !ok {
			return o, fmt.Errorf("requests.tsv: no request arrives at %.6f for block %d", l.arrival, l.blkno)
		}
		o.Resp[i] = l.resp
	}
	return o, nil
}

// LoadFiles loads model files (as Files renders them) in exact mode.
func LoadFiles(files map[string]string) (*exact.Model, error) {
	m, _, err := disksim.LoadExactWith("/oracle/model.parv", func(p string) ([]byte, error) {
		if t, ok := files[strings.TrimPrefix(p, "/oracle/")]; ok {
			return []byte(t), nil
		}
		return nil, fmt.Errorf("%s: %w", p, os.ErrNotExist)
	})
	return m, err
}

// RunExact runs the pair in exact mode. hook, when not nil, may change
// the loaded model first (the minimizer's test injects rule changes
// with it).
func RunExact(files map[string]string, spec StreamSpec, recs []Record, hook func(*exact.Model)) (o Outcome) {
	defer func() {
		if r := recover(); r != nil {
			o = Outcome{Rejected: true, Why: fmt.Sprintf("raidsim panics: %v", r)}
		}
	}()
	m, err := LoadFiles(files)
	if err != nil {
		return Outcome{Rejected: true, Why: err.Error()}
	}
	if hook != nil {
		hook(m)
	}
	res, err := m.Run(spec.ExactRequests(recs), spec.Format == "validate")
	if err != nil {
		return Outcome{Rejected: true, Why: err.Error()}
	}
	o = Outcome{Resp: make([]float64, len(recs))}
	for i, r := range res {
		o.Resp[i] = math.NaN()
		if r.Done {
			o.Resp[i] = r.Response
		}
	}
	return o
}

// Tolerance is the per-request agreement bound: 0.01 ms or 0.1% of
// DiskSim's time, whichever is larger.
func Tolerance(want float64) float64 { return math.Max(0.01, 0.001*math.Abs(want)) }

// Verdict compares raidsim's outcome with DiskSim's.
type Verdict struct {
	// Agree is the pair's pass: both rejected, or both completed the
	// same requests with at least 99% of them within Tolerance and the
	// means within 0.1%.
	Agree bool
	// Compared counts requests both completed; Within those within
	// Tolerance; Exact those within 1e-4 ms (x87 noise aside, equal).
	Compared, Within, Exact int
	// MeanWant and MeanGot are the mean responses.
	MeanWant, MeanGot float64
	// MaxDiff is the largest difference, at request First (the first
	// beyond Tolerance, or -1).
	MaxDiff float64
	First   int
	// Why describes a disagreement.
	Why string
}

// Compare returns the verdict of got (raidsim) against want (DiskSim).
func Compare(want, got Outcome) Verdict {
	v := Verdict{First: -1}
	switch {
	case want.Rejected && got.Rejected:
		v.Agree = true
		return v
	case want.Rejected:
		v.Why = "DiskSim rejects it, raidsim runs it: " + want.Why
		return v
	case got.Rejected:
		v.Why = "raidsim rejects it, DiskSim runs it: " + got.Why
		return v
	}
	var sw, sg float64
	doneDiff := 0
	for i := range want.Resp {
		w, g := want.Resp[i], got.Resp[i]
		if math.IsNaN(w) != math.IsNaN(g) {
			doneDiff++
			if v.First < 0 {
				v.First = i
			}
			continue
		}
		if math.IsNaN(w) {
			continue
		}
		v.Compared++
		sw += w
		sg += g
		d := math.Abs(g - w)
		if d <= Tolerance(w) {
			v.Within++
		} else if v.First < 0 {
			v.First = i
		}
		if d <= 1e-4 {
			v.Exact++
		}
		v.MaxDiff = math.Max(v.MaxDiff, d)
	}
	if v.Compared > 0 {
		v.MeanWant, v.MeanGot = sw/float64(v.Compared), sg/float64(v.Compared)
	}
	meanOK := math.Abs(v.MeanGot-v.MeanWant) <= 0.001*math.Abs(v.MeanWant)
	v.Agree = doneDiff == 0 && float64(v.Within) >= 0.99*float64(v.Compared) && meanOK
	switch {
	case doneDiff > 0:
		v.Why = fmt.Sprintf("%d requests completed by one simulator only (first: request %d)", doneDiff, v.First)
	case !v.Agree:
		v.Why = fmt.Sprintf("%d of %d within tolerance, means %.6f/%.6f ms (DiskSim/raidsim), first beyond: request %d",
			v.Within, v.Compared, v.MeanWant, v.MeanGot, v.First)
	}
	return v
}

// TraceExact runs the pair in exact mode, passing trace every event
// (see exact.Model.RunTrace).
func TraceExact(files map[string]string, spec StreamSpec, recs []Record, trace func(string)) error {
	m, err := LoadFiles(files)
	if err != nil {
		return err
	}
	_, err = m.RunTrace(spec.ExactRequests(recs), spec.Format == "validate", trace)
	return err
}
