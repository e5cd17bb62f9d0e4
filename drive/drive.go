package drive

import (
	"fmt"
	"slices"
	"strings"

	"github.com/raidsim/raidsim/sim"
)

// Model is a drive model checked once: its parameters with their defaults
// filled and validated. Any number of drives are built from it without
// checking it again.
type Model interface {
	// Kind names the model's kind, as its Kind does ("disk", "ssd").
	Kind() string
	// Name is the model's name: a preset's, or the name given to a custom
	// model.
	Name() string
	// Capacity is the addressable size of a drive of the model in bytes.
	Capacity() int64
	// SectorSize is the drive's sector size in bytes.
	SectorSize() int
	// NewDevice builds one drive of the model on eng, in the state the
	// model prescribes (an SSD preconditioned, say). name labels its
	// errors, observer calls and report; obs may be nil.
	NewDevice(eng *sim.Engine, name string, obs *sim.Observer) (Device, error)
	// Datasheet is the model's headline figures, derived from its
	// parameters (not simulated), for `raidsim drives`.
	Datasheet() (Datasheet, error)
}

// Device is one built drive.
type Device interface {
	sim.Device
	// Name is the name the drive was built with ("disk0").
	Name() string
	// DirtyBytes is the written data the drive has acknowledged but holds
	// only in volatile memory: what a power failure now would lose, in
	// bytes.
	DirtyBytes() int64
	// Report is the drive's section of a run's report, from its
	// statistics so far.
	Report() Report
}

// DirtyExtentLister is a Device that can also name the ranges DirtyBytes
// counts.
type DirtyExtentLister interface {
	// DirtyExtents returns the first limit ranges of acknowledged data
	// held only in volatile memory, in offset order with touching ranges
	// merged, and how many ranges there are in all.
	DirtyExtents(limit int) (first []Extent, count int)
}

// Extent is a byte range of a drive.
type Extent struct {
	// Offset and Length are in bytes from the start of the drive.
	Offset, Length int64
}

// Datasheet is a model's derived figures: a JSON-ready value that also
// prints as a row of its kind's presets table.
type Datasheet interface {
	Row() Row
}

// Kind is one kind of drive: its name and its presets.
type Kind struct {
	// Name names the kind ("disk", "ssd").
	Name string
	// Presets lists the kind's built-in models, in the order `raidsim
	// drives` lists them.
	Presets func() []string
	// Preset returns the checked model of the preset called name, or an
	// error naming the known presets.
	Preset func(name string) (Model, error)
}

// NewKind makes a Kind called name whose presets are parameter values
// (params) that newModel checks into models: a kind's package
// declares its Kind in one line.
func NewKind[P any, M Model](name string, presets func() []string, params func(string) (P, error), newModel func(P) (M, error)) Kind {
	return Kind{Name: name, Presets: presets, Preset: func(preset string) (Model, error) {
		p, err := params(preset)
		if err != nil {
			return nil, err
		}
		return newModel(p)
	}}
}

// HasPreset reports whether name is one of k's presets, in any case.
func (k Kind) HasPreset(name string) bool {
	return slices.ContainsFunc(k.Presets(), func(p string) bool { return strings.EqualFold(p, name) })
}

// Lookup returns the kind among kinds that has the preset called name.
func Lookup(kinds []Kind, name string) (Kind, error) {
	for _, k := range kinds {
		if k.HasPreset(name) {
			return k, nil
		}
	}
	var all []string
	for _, k := range kinds {
		all = append(all, k.Presets()...)
	}
	return Kind{}, fmt.Errorf("drive: unknown preset %q (known: %s)", name, strings.Join(all, ", "))
}

// Sampler is a Device that samples its own state over time, for reports
// and plots (an SMR drive's media cache fill and cleaning).
type Sampler interface {
	// Samples returns the names of the values sampled, the sample times
	// in seconds from the start, and at each time one value per name.
	Samples() (names []string, t []float64, values [][]float64)
}
