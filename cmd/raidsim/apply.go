package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/raidsim/raidsim/spec"
)

// given is one flag of a command line, with its value, in the order
// given.
type given struct {
	f     *runFlag
	value string
}

// flagSet registers table on a new flag set for `raidsim cmd`, fio's
// spellings as aliases (and any underscore as a dash).
func flagSet(cmd string, table []*runFlag) *pflag.FlagSet {
	fs := newFlags(cmd)
	aliases := make(map[string]string)
	for _, f := range table {
		fl := fs.VarPF(&textValue{typ: f.metavar}, f.name, "", f.usage)
		if f.metavar == "" {
			fl.NoOptDefVal = "true"
		}
		for _, a := range f.aliases {
			aliases[a] = f.name
		}
	}
	fs.SetNormalizeFunc(func(fs *pflag.FlagSet, name string) pflag.NormalizedName {
		if n, ok := aliases[name]; ok {
			return pflag.NormalizedName(n)
		}
		return kebab(fs, name)
	})
	return fs
}

// textValue holds a flag's text; the flag table decides what it means.
type textValue struct{ s, typ string }

func (v *textValue) String() string     { return v.s }
func (v *textValue) Set(s string) error { v.s = s; return nil }
func (v *textValue) Type() string       { return v.typ }

// parseTable parses args against table and returns the flags given, in
// order.
func parseTable(cmd string, table []*runFlag, args []string, stdout io.Writer, help func(io.Writer)) ([]given, error) {
	fs := flagSet(cmd, table)
	var flags []given
	rest, err := parseFlags(fs, args, stdout, help, func(fl *pflag.Flag, value string) error {
		flags = append(flags, given{lookupFlag(table, fl.Name), value})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return flags, noArgs(rest)
}

// lastValue returns the value of the last flag named name, and whether
// it was given.
func lastValue(flags []given, name string) (string, bool) {
	for i := len(flags) - 1; i >= 0; i-- {
		if flags[i].f.name == name {
			return flags[i].value, true
		}
	}
	return "", false
}

// base returns the experiment the flags start from: the --config file,
// else traceBase with --trace, else synth's experiment.
func base(flags []given, synth func() spec.Experiment) (spec.Experiment, error) {
	n := 0
	for _, g := range flags {
		if g.f.name == "config" {
			n++
		}
	}
	if n > 1 {
		return spec.Experiment{}, usagef("--config: give one file")
	}
	if file, ok := lastValue(flags, "config"); ok {
		x, err := spec.DecodeFile(file) // checked once, with the flags applied, by the run
		if err != nil {
			return spec.Experiment{}, err
		}
		return *x, nil
	}
	if _, ok := lastValue(flags, "trace"); ok {
		return traceBase(), nil
	}
	return synth(), nil
}

// applied is one field a flag set, to name the flag in errors.
type applied struct {
	flag string // "--stripe"
	path string
}

// problem is one thing wrong with a command line's experiment: a field
// error, with the flag that set the field when there is one.
type problem struct {
	flag, path, msg string
	// scope are the key paths the problem covers: what Validate finds
	// at or under them is not reported again.
	scope []string
	// at is the place on the command line of the flag at fault, for
	// listing problems in command-line order.
	at int
}

// covers reports whether path is at, above or under one of the
// problem's scope.
func (p problem) covers(path string) bool {
	return slices.ContainsFunc(p.scope, func(s string) bool { return related(s, path) })
}

func (p problem) String() string {
	s := p.msg
	if p.path != "" {
		s = p.path + ": " + s
	}
	if p.flag != "" {
		s = p.flag + ": " + s
	}
	return s
}

// built is the experiment a command line describes, with what each of
// its flags set, to name them in errors.
type built struct {
	x        spec.Experiment
	set      []applied
	at       map[string]int // the place of each flag's first use
	fromFile bool           // the base is a --config file
}

// experimentOf builds the experiment a command line describes: its
// base, then every field flag applied with spec.Set in command-line
// order. The experiment is not validated; a problem with a flag (a
// value Set refuses, a flag whose section is missing) comes back as a
// usageError together with what Validate finds elsewhere.
func experimentOf(flags []given) (*built, error) { return experimentFrom(flags, baseExperiment) }

// experimentFrom is experimentOf with synth's experiment as the base
// when there is neither --config nor --trace.
func experimentFrom(flags []given, synth func() spec.Experiment) (*built, error) {
	if err := givenOnce(flags, "rebuild", "rebuild-drive"); err != nil {
		return nil, err
	}
	x, err := base(flags, synth)
	if err != nil {
		return nil, err
	}
	_, fromFile := lastValue(flags, "config")
	b := &built{x: x, at: make(map[string]int), fromFile: fromFile}
	var probs []problem
	pending := map[int]bool{} // flags applied while their section was absent
	for i, g := range flags {
		name := "--" + g.f.name
		if _, ok := b.at[name]; !ok {
			b.at[name] = i
		}
		if !g.f.field() {
			continue
		}
		if g.f.needs != anywhere && g.f.needs != synthetic && !g.f.needs.present(&b.x) {
			pending[i] = true
		}
		settings, err := g.f.settingsFor(&b.x, g.value)
		if err != nil {
			probs = append(probs, problem{flag: name, msg: err.Error(), scope: []string{g.f.path}, at: i})
			continue
		}
		for _, s := range settings {
			b.set = append(b.set, applied{name, s.path})
			probs = append(probs, setErrors(&b.x, name, s, i)...)
		}
	}
	probs = append(probs, sectionProblems(&b.x, flags, pending)...)
	if len(probs) == 0 {
		return b, nil
	}
	return nil, b.withValidation(probs)
}

// settingsFor returns the fields the flag sets for value in x.
func (f *runFlag) settingsFor(x *spec.Experiment, value string) ([]setting, error) {
	if f.settings != nil {
		return f.settings(x, value)
	}
	if f.tracePath != "" && traceSec.present(x) {
		return []setting{{f.tracePath, value}}, nil
	}
	return []setting{{f.path, value}}, nil
}

// setErrors sets one field for the flag at place at of the command
// line and returns its problems.
func setErrors(x *spec.Experiment, flag string, s setting, at int) []problem {
	err := spec.Set(x, s.path, s.value)
	if err == nil {
		return nil
	}
	var se *spec.Error
	if !errors.As(err, &se) {
		return []problem{{flag: flag, path: s.path, msg: err.Error(), scope: []string{s.path}, at: at}}
	}
	var out []problem
	for _, fe := range se.Fields {
		out = append(out, problem{flag: flag, path: fe.Path, msg: fe.Msg, scope: []string{s.path}, at: at})
	}
	return out
}

// sectionProblems reports flags that set a field in a section nothing
// else created (--layout without --raid), and synthetic-job flags given
// for a trace replay. A section counts when it is in the final
// experiment and was there before the flag or made by a later flag that
// needs none (--raid, --cache, --trace, --set).
func sectionProblems(x *spec.Experiment, flags []given, pending map[int]bool) []problem {
	var probs []problem
	for i, g := range flags {
		need := g.f.needs
		switch {
		case !g.f.field() || need == anywhere:
		case need == synthetic && !need.present(x):
			probs = append(probs, problem{scope: []string{g.f.path}, at: i,
				msg: fmt.Sprintf("--%s describes a synthetic workload; it does not apply to a trace replay (--trace)", g.f.name)})
		case need != synthetic && (!need.present(x) || pending[i] && !madeLater(flags[i+1:], sectionPath[need])):
			probs = append(probs, problem{scope: []string{g.f.path, sectionPath[need]}, at: i,
				msg: fmt.Sprintf("--%s needs %s (%s)", g.f.name, sectionFlag[need], sectionPath[need])})
		}
	}
	return probs
}

// madeLater reports whether one of flags that needs no section sets a
// field at or under path.
func madeLater(flags []given, path string) bool {
	for _, g := range flags {
		if !g.f.field() || g.f.needs != anywhere {
			continue
		}
		p := g.f.path
		if g.f.settings != nil {
			if s, err := g.f.settings(&spec.Experiment{}, g.value); err == nil && len(s) > 0 {
				p = s[0].path
			}
		}
		if spec.Under(p, path) {
			return true
		}
	}
	return false
}

// withValidation returns probs as a usageError, with the problems
// Validate finds at paths no failed flag touched (as spec.Parse reports
// every problem of a file at once), in command-line order.
func (b *built) withValidation(probs []problem) error {
	var se *spec.Error
	if errors.As(b.x.Validate(), &se) {
		for _, fe := range se.Fields {
			if !slices.ContainsFunc(probs, func(p problem) bool { return p.covers(fe.Path) }) {
				probs = append(probs, b.problem(fe))
			}
		}
	}
	return usageOf(probs)
}

// problem restates a field error of the experiment, naming the flags
// that set the field.
func (b *built) problem(fe *spec.FieldError) problem {
	p := problem{flag: flagFor(b.set, fe.Path), path: fe.Path, msg: fe.Msg, at: math.MaxInt}
	first, _, _ := strings.Cut(p.flag, ",")
	if i, ok := b.at[first]; ok {
		p.at = i
	}
	return p
}

// related reports whether one of the paths a and b is at or under the
// other; an empty path (a problem with no field) is related to none.
func related(a, b string) bool {
	return a != "" && b != "" && (spec.Under(a, b) || spec.Under(b, a))
}

// flagFor names the flags that set the field at path: the last that
// set it, else the last that set a section holding it (--set
// stack.cache={...}), else every flag that set a field inside it (an
// error about stack.raid as a whole).
func flagFor(set []applied, path string) string {
	if path == "" {
		return ""
	}
	for i := len(set) - 1; i >= 0; i-- {
		if set[i].path == path {
			return set[i].flag
		}
	}
	for i := len(set) - 1; i >= 0; i-- {
		if spec.Under(path, set[i].path) {
			return set[i].flag
		}
	}
	var names []string
	for _, s := range set {
		if spec.Under(s.path, path) && !slices.Contains(names, s.flag) {
			names = append(names, s.flag)
		}
	}
	return strings.Join(names, ", ")
}

// explain restates an error of a run or a generator of the experiment:
// a spec.Error becomes a usageError naming the flags at fault, unless no
// flag set a field at fault and the base is a --config file (whose own
// problems are not the command line's); anything else (a trace that
// cannot be read) is returned as it is.
func (b *built) explain(err error) error {
	var se *spec.Error
	if !errors.As(err, &se) {
		return err
	}
	var probs []problem
	byFlag := false
	for _, fe := range se.Fields {
		p := b.problem(fe)
		byFlag = byFlag || p.flag != ""
		if p.flag == "" && se.Source != "" {
			p.path = strings.TrimSuffix(se.Source+": "+p.path, ": ")
		}
		probs = append(probs, p)
	}
	if !byFlag && b.fromFile {
		return err
	}
	return usageOf(probs)
}

// usageOf lists probs, in command-line order, as one usage error.
func usageOf(probs []problem) error {
	slices.SortStableFunc(probs, func(p, q problem) int { return p.at - q.at })
	ue := &usageError{}
	for _, p := range probs {
		ue.lines = append(ue.lines, p.String())
	}
	return ue
}

// givenOnce refuses a flag among names given more than once with
// different values: each describes one thing (an array rebuilds one
// member at a time, onto one replacement), so a second would silently
// replace the first.
func givenOnce(flags []given, names ...string) error {
	first := map[string]string{}
	ue := &usageError{}
	for _, g := range flags {
		if !slices.Contains(names, g.f.name) {
			continue
		}
		if v, ok := first[g.f.name]; ok && v != g.value {
			ue.lines = append(ue.lines, fmt.Sprintf("--%s given twice (%q, then %q): give it once", g.f.name, v, g.value))
			continue
		}
		first[g.f.name] = g.value
	}
	if len(ue.lines) > 0 {
		return ue
	}
	return nil
}
