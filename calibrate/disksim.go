package calibrate

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/disk/disksim"
	"github.com/raidsim/raidsim/internal/outfile"
)

// DiskSimEdit is one change to a line of a DiskSim parameter file.
type DiskSimEdit struct {
	// File is the file as the parser named it and Line its line (from 1).
	File string
	Line int
	// Key is the parameter and Old and New its values as written.
	Key, Old, New string
}

// DiskSimModel is a fitted DiskSim model: edits to the parameter files of
// the starting model and, for an extracted seek curve, the new curve.
type DiskSimModel struct {
	// Edits change parameter lines, in file and line order.
	Edits []DiskSimEdit
	// SeekFile is the extracted seek curve's file ("" when the seek type
	// is not extracted) and SeekCurve its fitted points.
	SeekFile  string
	SeekCurve []disk.SeekPoint
	// files are every file the model was read from.
	files []string
	root  string
}

// DiskSimPolicy maps the read-ahead policies DiskSim has to its "Buffer
// continuous read" values.
var DiskSimPolicy = map[disk.ReadAheadPolicy]int{disk.ReadAheadOff: 0, disk.ReadAheadTrack: 1, disk.ReadAheadCylinder: 2, disk.ReadAheadNextTrack: 4}

// DiskSimReadAhead are the read-ahead policies a DiskSim model can
// express (pass them as FitOptions.ReadAhead when the fit is to be
// written back with DiskSimEdits).
var DiskSimReadAhead = []disk.ReadAheadPolicy{disk.ReadAheadOff, disk.ReadAheadTrack, disk.ReadAheadCylinder, disk.ReadAheadNextTrack}

// DiskSimEdits returns the changes that turn the DiskSim model at parv,
// the Base of a ParamsFamily, into the fitted model r: the time scale for
// overheads, the head switch time, the write settling delay, the seek
// curve (an extracted curve's points, or the single-cylinder, average,
// full-stroke or constant seek times) and the buffer's continuous read
// scheme. Unchanged values are not listed. A parameter the model's files
// do not write (so that there is no line to change) is an error naming it.
func DiskSimEdits(parv string, base disk.Params, r Result) (*DiskSimModel, error) {
	if len(r.Values) != len(paramsParams) {
		return nil, fmt.Errorf("calibrate: DiskSimEdits: a result of %d values is not a ParamsFamily fit", len(r.Values))
	}
	f, err := disksim.ParseFile(parv)
	if err != nil {
		return nil, err
	}
	db := diskBlock(f)
	if db == nil {
		return nil, fmt.Errorf("calibrate: %s instantiates no disksim_disk", parv)
	}
	mech := nestedBlock(db, "model", "mechanical model")
	if mech == nil {
		return nil, fmt.Errorf("calibrate: %s: disksim_disk %s has no Model with a Mechanical Model", parv, db.Name)
	}
	m := &DiskSimModel{root: filepath.Dir(parv)}
	e := editor{m: m}
	x := r.Values
	e.scale(db, "Time scale for overheads", x[0])
	e.set(mech, "Head switch time", x[3])
	e.set(mech, "Add. write settling delay", x[4])
	maxD := max(base.Cylinders()-1, 1)
	if err := e.seek(mech, x[1], x[2], maxD); err != nil {
		return nil, err
	}
	if r.ReadAhead != r.StartReadAhead {
		n, ok := DiskSimPolicy[r.ReadAhead]
		if !ok {
			return nil, fmt.Errorf("calibrate: read-ahead %s has no DiskSim equivalent (fit with DiskSimReadAhead)", r.ReadAhead)
		}
		e.setWord(db, "Buffer continuous read", strconv.Itoa(n))
	}
	if e.err != nil {
		return nil, e.err
	}
	slices.SortFunc(m.Edits, func(a, b DiskSimEdit) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		return a.Line - b.Line
	})
	m.files = modelFiles(f)
	return m, nil
}

// diskBlock returns the disksim_disk block the file instantiates.
func diskBlock(f *disksim.File) *disksim.Block {
	for _, in := range f.Instances {
		if b := f.Lookup(in.As); b != nil && b.Type == "disksim_disk" {
			return b
		}
	}
	return nil
}

// nestedBlock follows block-valued parameters by key.
func nestedBlock(b *disksim.Block, keys ...string) *disksim.Block {
	for _, k := range keys {
		p, ok := b.Get(k)
		if !ok || p.Value.Kind != disksim.BlockValue {
			return nil
		}
		b = p.Value.Block
	}
	return b
}

// editor collects edits, keeping the first error.
type editor struct {
	m   *DiskSimModel
	err error
}

// ms formats milliseconds to the nanosecond, as DiskSim writes times.
func msWord(v float64) string { return strconv.FormatFloat(math.Round(v*1e6)/1e6, 'f', 6, 64) }

func (e *editor) param(b *disksim.Block, key string) (disksim.Param, bool) {
	p, ok := b.Get(key)
	if !ok && e.err == nil {
		e.err = fmt.Errorf("calibrate: %s %s (%s) does not set %q: add it to write the fitted value", b.Type, b.Name, b.Pos, key)
	}
	return p, ok
}

func (e *editor) setWord(b *disksim.Block, key, word string) {
	p, ok := e.param(b, key)
	if !ok || p.Value.Word == word {
		return
	}
	e.m.Edits = append(e.m.Edits, DiskSimEdit{File: p.Value.Pos.File, Line: p.Value.Pos.Line, Key: p.Key, Old: p.Value.Word, New: word})
}

// set sets key to v milliseconds unless it already says so.
func (e *editor) set(b *disksim.Block, key string, v float64) {
	p, ok := e.param(b, key)
	if !ok {
		return
	}
	if old, err := p.Value.Float(); err == nil && math.Abs(old-v) < 5e-7 {
		return
	}
	e.setWord(b, key, msWord(v))
}

// scale multiplies key's value by k.
func (e *editor) scale(b *disksim.Block, key string, k float64) {
	p, ok := e.param(b, key)
	if !ok {
		return
	}
	old, err := p.Value.Float()
	if err != nil {
		e.err = err
		return
	}
	e.set(b, key, old*k)
}

// seek scales the seek curve by seekFactor.
func (e *editor) seek(mech *disksim.Block, short, long float64, maxD int) error {
	typ, ok := mech.Get("Seek type")
	if !ok {
		return fmt.Errorf("calibrate: %s: no Seek type", mech.Pos)
	}
	scaleAt := func(key string, d int) {
		if _, ok := mech.Get(key); ok {
			e.scale(mech, key, seekFactor(d, maxD, short, long))
		}
	}
	switch typ.Value.Word {
	case "extracted":
		cp, _ := e.param(mech, "Full seek curve")
		if e.err != nil {
			return e.err
		}
		path := filepath.Join(filepath.Dir(cp.Value.Pos.File), cp.Value.Word)
		src, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("calibrate: %w", err)
		}
		tab, err := disksim.ParseSeekCurve(path, src)
		if err != nil {
			return err
		}
		for i, pt := range tab {
			tab[i].Time = dur(msOf(pt.Time) * seekFactor(pt.Distance, maxD, short, long))
		}
		e.m.SeekFile, e.m.SeekCurve = path, tab
	case "constant":
		scaleAt("Constant seek time", 1)
	case "linear", "curve":
		scaleAt("Single cylinder seek time", 1)
		scaleAt("Average seek time", max(maxD/3, 1))
		scaleAt("Full strobe seek time", maxD)
	default:
		return fmt.Errorf("calibrate: %s: Seek type %s: the fitted curve cannot be written back (extracted, constant, linear and curve can)", typ.Value.Pos, typ.Value.Word)
	}
	return nil
}

// modelFiles lists the files the parser read and the files their
// parameters name, in order.
func modelFiles(f *disksim.File) []string {
	var files []string
	add := func(p disksim.Pos) {
		if p.File != "" && !slices.Contains(files, p.File) {
			files = append(files, p.File)
		}
	}
	var walk func(b *disksim.Block)
	walk = func(b *disksim.Block) {
		add(b.Pos)
		for _, p := range b.Params {
			add(p.Pos)
			switch p.Value.Kind {
			case disksim.BlockValue:
				walk(p.Value.Block)
			case disksim.Word:
				// A file the parameter names (a seek curve, DiskSim's
				// statistics definitions) goes with the model.
				named := filepath.Join(filepath.Dir(p.Value.Pos.File), p.Value.Word)
				if fi, err := os.Stat(named); err == nil && fi.Mode().IsRegular() {
					add(disksim.Pos{File: named})
				}
			}
		}
	}
	for _, b := range f.Blocks {
		walk(b)
	}
	for _, in := range f.Instances {
		add(in.Pos)
	}
	return files
}

// WriteSeekCurve writes a seek curve in DiskSim's extracted format.
func WriteSeekCurve(tab []disk.SeekPoint) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "Seek distances measured: %d\n", len(tab))
	for _, pt := range tab {
		fmt.Fprintf(&b, "%d,\t%s\n", pt.Distance, msWord(msOf(pt.Time)))
	}
	return b.Bytes()
}

// ModelFile is one file of a fitted DiskSim model.
type ModelFile struct {
	// Rel is its path relative to the parameter file's folder.
	Rel string
	// Data is its content, the edits applied.
	Data []byte
}

// Inputs are the files the starting model was read from (its seek curve
// included): what writing the fitted model must never replace.
func (m *DiskSimModel) Inputs() []string {
	files := slices.Clone(m.files)
	if m.SeekFile != "" && !slices.Contains(files, m.SeekFile) {
		files = append(files, m.SeekFile)
	}
	return files
}

// Files returns the fitted model: every file of the starting model, at
// its path relative to the parameter file's folder, with the edits
// applied and the seek curve replaced. Files of the model outside that
// folder are an error.
func (m *DiskSimModel) Files() ([]ModelFile, error) {
	var out []ModelFile
	for _, src := range m.Inputs() {
		rel, err := filepath.Rel(m.root, src)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return nil, fmt.Errorf("calibrate: %s lies outside the model's folder %s: copy the model into one folder first", src, m.root)
		}
		b, err := m.file(src)
		if err != nil {
			return nil, err
		}
		out = append(out, ModelFile{Rel: rel, Data: b})
	}
	return out, nil
}

// WriteTo writes the fitted model (Files) into the folder dir, as Write
// does, replacing files there.
func (m *DiskSimModel) WriteTo(dir string) error { return m.Write(dir, true) }

// Write writes the fitted model (Files) into the folder dir, creating it
// and its subfolders, through raidsim's output policy: no file of the
// starting model nor any of inputs is written (so dir may not be the
// model's folder, by any path), an existing file is replaced only when
// replace is set, and nothing but a regular file ever is. Every file is
// checked before any is written, and each is written atomically.
func (m *DiskSimModel) Write(dir string, replace bool, inputs ...string) error {
	files, err := m.Files()
	if err != nil {
		return err
	}
	p := outfile.Policy{Force: replace}
	for _, in := range m.Inputs() {
		p.Inputs = append(p.Inputs, outfile.Input{Name: "file of the starting model", Path: in})
	}
	for _, in := range inputs {
		p.Inputs = append(p.Inputs, outfile.Input{Name: "input", Path: in})
	}
	targets := make([]outfile.Target, len(files))
	for i, f := range files {
		targets[i] = outfile.Target{Name: "fitted model file", Path: filepath.Join(dir, f.Rel)}
		if err := os.MkdirAll(filepath.Dir(targets[i].Path), 0o755); err != nil {
			return fmt.Errorf("calibrate: %w", err)
		}
	}
	if err := p.Check(targets...); err != nil {
		return fmt.Errorf("calibrate: %w", err)
	}
	for i, f := range files {
		if err := p.WriteBytes(targets[i], f.Data); err != nil {
			return fmt.Errorf("calibrate: %w", err)
		}
	}
	return nil
}

// file returns src's new content.
func (m *DiskSimModel) file(src string) ([]byte, error) {
	if src == m.SeekFile {
		return WriteSeekCurve(m.SeekCurve), nil
	}
	b, err := os.ReadFile(src)
	if err != nil {
		return nil, fmt.Errorf("calibrate: %w", err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	for _, e := range m.Edits {
		if e.File != src {
			continue
		}
		if e.Line < 1 || e.Line > len(lines) {
			return nil, fmt.Errorf("calibrate: %s:%d: no such line", src, e.Line)
		}
		l := lines[e.Line-1]
		i := strings.Index(l, "=")
		j := -1
		if i >= 0 {
			j = strings.Index(l[i:], e.Old)
		}
		if j < 0 {
			return nil, fmt.Errorf("calibrate: %s:%d: %q not found after the '=' of %s", src, e.Line, e.Old, e.Key)
		}
		lines[e.Line-1] = l[:i+j] + e.New + l[i+j+len(e.Old):]
	}
	return []byte(strings.Join(lines, "")), nil
}
