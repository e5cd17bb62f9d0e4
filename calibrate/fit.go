package calibrate

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/optimize"

	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/trace"
)

// DefaultEvaluations is FitOptions.Evaluations's default.
const DefaultEvaluations = 200

// ReadAheadPolicies are the read-ahead policies Fit tries by default:
// every policy but ReadAheadFixed, whose amount is a figure of its own.
var ReadAheadPolicies = []disk.ReadAheadPolicy{disk.ReadAheadSegment, disk.ReadAheadOff, disk.ReadAheadTrack, disk.ReadAheadCylinder, disk.ReadAheadNextTrack}

// FitOptions configure Fit. The zero value is usable.
type FitOptions struct {
	// Evaluations is the most candidate models Fit evaluates, each by
	// replaying the whole trace (default DefaultEvaluations). The search
	// also stops when 30 simplex iterations in a row improve the demerit
	// by less than 0.0001 ms.
	Evaluations int
	// ReadAhead lists the read-ahead policies to try beside the starting
	// model's; nil means ReadAheadPolicies, an empty non-nil list keeps
	// the starting model's policy.
	ReadAhead []disk.ReadAheadPolicy
	// Progress, if set, is called after each evaluation with its number
	// (from 1) and the best demerit so far, in ms.
	Progress func(evaluation int, best float64)
}

// Result is a fitted model.
type Result struct {
	// Params are the family's free parameters and Values their fitted
	// values, in the same order; Start holds the starting values.
	Params        []Param
	Start, Values []float64
	// ReadAhead is the fitted read-ahead policy and StartReadAhead the
	// starting model's.
	ReadAhead, StartReadAhead disk.ReadAheadPolicy
	// Model is the fitted drive model.
	Model disk.Params
	// Before and After compare the starting and the fitted model with the
	// measurements.
	Before, After Comparison
	// Evaluations is the number of models evaluated.
	Evaluations int
}

// errCandidate marks a candidate model the simulator refused; the search
// scores it as hopeless and moves on.
var errCandidate = errors.New("candidate refused")

// fitter holds a search's state.
type fitter struct {
	fam   Family
	ps    []Param
	recs  []trace.Record
	opt   FitOptions
	evals int
	best  float64
}

// Fit fits f's free parameters to the measured trace recs (see LoadTrace)
// by minimizing the demerit (see the package doc). It fails when the
// starting model cannot replay the trace (a request past its capacity,
// an invalid model).
func Fit(f Family, recs []trace.Record, opt FitOptions) (Result, error) {
	if err := checkFamily(f); err != nil {
		return Result{}, err
	}
	if len(recs) == 0 {
		return Result{}, errors.New("calibrate: no requests to fit")
	}
	if opt.Evaluations <= 0 {
		opt.Evaluations = DefaultEvaluations
	}
	if opt.ReadAhead == nil {
		opt.ReadAhead = ReadAheadPolicies
	}
	ft := &fitter{fam: f, ps: f.Params(), recs: recs, opt: opt, best: math.Inf(1)}
	x0 := f.Start()
	p0, err := f.Model(x0)
	if err != nil {
		return Result{}, fmt.Errorf("calibrate: the starting model: %w", err)
	}
	reqs, err := Replay(p0, recs)
	if err != nil {
		return Result{}, fmt.Errorf("calibrate: the starting model: %w", err)
	}
	res := Result{Params: ft.ps, Start: x0, StartReadAhead: p0.ReadAhead, Before: Compare(reqs)}
	ft.note(res.Before.DemeritMs)
	ra, d := ft.bestReadAhead(x0, p0.ReadAhead, res.Before.DemeritMs)
	x := x0
	// Nelder-Mead stalls in the local minima of a simulated drive's
	// rugged demerit; restarting it with a fresh simplex around the best
	// point so far, and trying the read-ahead policies there, moves on.
	for restart := 0; ft.evals < ft.opt.Evaluations; restart++ {
		nx, nd := ft.simplex(x, ra, d)
		nra, nd := ft.bestReadAhead(nx, ra, nd)
		improved := nd < d-1e-4
		x, ra, d = nx, nra, nd
		if restart > 0 && !improved {
			break
		}
	}
	res.Values, res.ReadAhead, res.Evaluations = x, ra, ft.evals
	if res.Model, err = ft.model(x, ra); err != nil {
		return Result{}, err
	}
	reqs, err = Replay(res.Model, recs)
	if err != nil {
		return Result{}, fmt.Errorf("calibrate: the fitted model: %w", err)
	}
	res.After = Compare(reqs)
	return res, nil
}

// model returns the family's model at x with read-ahead ra.
func (ft *fitter) model(x []float64, ra disk.ReadAheadPolicy) (disk.Params, error) {
	p, err := ft.fam.Model(x)
	if err != nil {
		return disk.Params{}, err
	}
	p.ReadAhead = ra
	return p, nil
}

// note counts an evaluation of demerit d.
func (ft *fitter) note(d float64) {
	ft.evals++
	ft.best = min(ft.best, d)
	if ft.opt.Progress != nil {
		ft.opt.Progress(ft.evals, ft.best)
	}
}

// demerit evaluates the model at x with read-ahead ra.
func (ft *fitter) demerit(x []float64, ra disk.ReadAheadPolicy) (float64, error) {
	p, err := ft.model(x, ra)
	if err == nil {
		err = p.Validate()
	}
	if err != nil {
		return 0, fmt.Errorf("%w: %w", errCandidate, err)
	}
	reqs, err := Replay(p, ft.recs)
	if err != nil {
		return 0, fmt.Errorf("%w: %w", errCandidate, err)
	}
	c := Compare(reqs)
	return c.DemeritMs, nil
}

// penalty is the demerit, in ms, given to a candidate the simulator
// refuses: worse than any drive.
const penalty = 1e6

// eval is the objective in the search's unbounded coordinates.
func (ft *fitter) eval(y []float64, ra disk.ReadAheadPolicy) float64 {
	d, err := ft.demerit(ft.toValues(y), ra)
	if err != nil {
		d = penalty
	}
	ft.note(d)
	return d
}

// bestReadAhead tries the other read-ahead policies at x (cur scores d)
// and returns the best, with its demerit.
func (ft *fitter) bestReadAhead(x []float64, cur disk.ReadAheadPolicy, d float64) (disk.ReadAheadPolicy, float64) {
	best, bestD := cur, d
	for _, ra := range ft.opt.ReadAhead {
		if ra == cur || ft.evals >= ft.opt.Evaluations {
			continue
		}
		dd, err := ft.demerit(x, ra)
		if err != nil {
			dd = penalty
		}
		ft.note(dd)
		if dd < bestD {
			best, bestD = ra, dd
		}
	}
	return best, bestD
}

// simplex runs Nelder-Mead from x (scoring d) with read-ahead ra, within
// the evaluations left, and returns the best point and its demerit.
func (ft *fitter) simplex(x []float64, ra disk.ReadAheadPolicy, d float64) ([]float64, float64) {
	left := ft.opt.Evaluations - ft.evals
	if left <= len(x)+1 {
		return x, d
	}
	prob := optimize.Problem{Func: func(y []float64) float64 { return ft.eval(y, ra) }}
	settings := &optimize.Settings{
		FuncEvaluations: left,
		Converger:       &optimize.FunctionConverge{Absolute: 1e-4, Iterations: 30},
		InitValues:      &optimize.Location{F: d},
	}
	r, err := optimize.Minimize(prob, ft.toSearch(x), settings, &optimize.NelderMead{SimplexSize: 0.7})
	if r == nil || (err != nil && r.F >= d) || !(r.F < d) {
		return x, d
	}
	return ft.toValues(r.X), r.F
}

// Bounded parameters are searched through a logistic transform: value =
// lo + (hi-lo) / (1 + exp(-y)), on log(value) for Log parameters. A
// start on a bound is moved just inside.
const edge = 1e-3

func (ft *fitter) toSearch(x []float64) []float64 {
	y := make([]float64, len(x))
	for i, p := range ft.ps {
		lo, hi, v := bounds(p, x[i])
		u := min(max((v-lo)/(hi-lo), edge), 1-edge)
		y[i] = math.Log(u / (1 - u))
	}
	return y
}

func (ft *fitter) toValues(y []float64) []float64 {
	x := make([]float64, len(y))
	for i, p := range ft.ps {
		lo, hi, _ := bounds(p, 0)
		v := lo + (hi-lo)/(1+math.Exp(-y[i]))
		if p.Log {
			v = math.Exp(v)
		}
		x[i] = min(max(v, p.Min), p.Max)
	}
	return x
}

// bounds returns p's bounds and v in the coordinates the transform is
// linear in.
func bounds(p Param, v float64) (lo, hi, w float64) {
	if p.Log {
		return math.Log(p.Min), math.Log(p.Max), math.Log(max(v, p.Min))
	}
	return p.Min, p.Max, v
}
