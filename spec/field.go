package spec

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/raidsim/raidsim/internal/keypath"
	"github.com/raidsim/raidsim/trace"
)

// Field is the one definition of a key of an experiment: its key path,
// one-line doc, unit, default, bounds and, for an enumeration, the names
// it takes (the layer's own typed values, so a value added to a layer
// appears here). The key reference (docs/config-keys.md), the CLI's
// --help, the sweep's figure labels and the playground's controls are
// rendered from these definitions, and Validate takes bounds and
// enumerations from them; the Go type is the struct field's.
type Field struct {
	// Path is the key path, with "[]" for the elements of a list:
	// "stack.raid.stripe_unit", "phases[].bs". A background job's keys
	// are the phase's job keys ("phases[].rw").
	Path string
	// Doc says what the key is, in one line.
	Doc string
	// Label names the key in a few words, for figures and controls
	// ("stripe unit"); empty means the key with spaces for underscores.
	Label string
	// Unit is the unit of a number: bytes, bytes/s, MB/s, fraction
	// (0..1), percent (0..100), rpm; empty for none.
	Unit string
	// Default is the value leaving the key out gives, written as in a
	// file ("64KiB"); empty when the default depends on the rest of the
	// experiment (DefaultText) or there is none (Unset).
	Default string
	// DefaultText says the default in words when it depends on the rest
	// of the experiment ("the model's").
	DefaultText string
	// Unset says what leaving the key out means when no value says it
	// (a section that is absent, a list that is empty).
	Unset string
	// Bounds, when set, are the smallest and largest values a number
	// takes (sizes in bytes, durations in nanoseconds).
	Bounds *Range
	// BoundsText says the bounds in words when they depend on the device.
	BoundsText string
	// Values are the names an enumeration takes, in the layer's order.
	Values []string
	// Aligned marks a size that must be a multiple of the sector size.
	Aligned bool
	// Required marks a key that must be given (within its section).
	Required bool
	// NoZero marks a key whose zero means "the default": an explicit
	// zero is refused, with a hint to leave the key out.
	NoZero bool

	// defaultOf returns the value the experiment's plan takes when the
	// key is left out, for the test that checks DefaultText.
	defaultOf func(x *Experiment, pl *Plan) string
}

// Range is the inclusive range of a number.
type Range struct{ Min, Max float64 }

// Type returns the Go type of the field in Experiment.
func (f Field) Type() reflect.Type {
	t, _, ok := fieldType(f.Path)
	if !ok {
		return nil
	}
	return t
}

// Kind names what the value is: size, duration, integer, number,
// boolean, text, section (a mapping of keys), list or any.
func (f Field) Kind() string {
	t := f.Type()
	if t == nil {
		return ""
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == sizeType, t == cutoffType:
		return "size"
	case t == durationType:
		return "duration"
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int64, reflect.Uint64:
		return "integer"
	case reflect.Float64:
		return "number"
	case reflect.Bool:
		return "boolean"
	case reflect.String:
		return "text"
	case reflect.Struct:
		return "section"
	case reflect.Slice:
		return "list"
	}
	return "any"
}

// Key is the last key of the path.
func (f Field) Key() string { return f.Path[strings.LastIndexAny(f.Path, ".]")+1:] }

// Words is Label, or the key with spaces for underscores.
func (f Field) Words() string {
	if f.Label != "" {
		return f.Label
	}
	return strings.ReplaceAll(f.Key(), "_", " ")
}

// DefaultWords says the default for people: the value, else the words.
func (f Field) DefaultWords() string {
	switch {
	case f.Default != "":
		return f.Default
	case f.DefaultText != "":
		return f.DefaultText
	case f.Required:
		return "required"
	}
	return f.Unset
}

// FormatValue writes a number of the field as a file would give it:
// sizes with a binary unit, durations as Go writes them.
func (f Field) FormatValue(v float64) string {
	switch f.Kind() {
	case "size":
		return trace.FormatSize(int64(v))
	case "duration":
		if v == 0 {
			return "0"
		}
		d := time.Duration(v).String()
		if strings.HasSuffix(d, "m0s") {
			d = strings.TrimSuffix(d, "0s")
		}
		if strings.HasSuffix(d, "h0m") {
			d = strings.TrimSuffix(d, "0m")
		}
		return d
	case "integer":
		return strconv.FormatInt(int64(v), 10)
	}
	if e := math.Log10(v); v >= 1e6 && e == math.Trunc(e) {
		return "1e" + strconv.Itoa(int(e)) // 1e9, not 1000000000
	}
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// BoundsWords says the bounds for people ("1..64", "0..24h0m0s").
func (f Field) BoundsWords() string {
	if f.BoundsText != "" {
		return f.BoundsText
	}
	if f.Bounds == nil {
		return ""
	}
	return f.FormatValue(f.Bounds.Min) + ".." + f.FormatValue(f.Bounds.Max)
}

// Table is a list of field definitions.
type Table []Field

// Fields returns a copy of the definition of every key, in the order
// of the key reference.
func Fields() Table {
	t := make(Table, len(fields))
	copy(t, fields)
	for i := range t {
		t[i].Values = append([]string(nil), t[i].Values...)
	}
	return t
}

// FieldAt returns the definition of the key a path names ("phases[2].bs";
// any list index), and whether it names one.
func FieldAt(path string) (Field, bool) {
	canon, ok := canonical(path)
	if !ok {
		return Field{}, false
	}
	i, ok := fieldIndex[canon]
	if !ok {
		return Field{}, false
	}
	return fields[i], true
}

// Lookup returns the definition in t of the key a path names.
func (t Table) Lookup(path string) (Field, bool) {
	canon, ok := canonical(path)
	if !ok {
		return Field{}, false
	}
	for _, f := range t {
		if f.Path == canon {
			return f, true
		}
	}
	return Field{}, false
}

// Default returns the default of the field at a key path as people
// read it ("64KiB", "the cache size"), and whether the path names a
// field. Paths into lists may use any index.
func Default(path string) (string, bool) {
	f, ok := FieldAt(path)
	if !ok {
		if _, _, known := fieldType(path); known {
			return "", true
		}
		return "", false
	}
	return f.DefaultWords(), true
}

// ownerPath is the canonical path of each struct type of Experiment:
// where it first appears (a background Job's keys are the phase's).
var ownerPath = map[reflect.Type]string{}

// fieldIndex maps canonical paths to their index in fields.
var fieldIndex = map[string]int{}

// noZero maps a struct type and yaml key to whether an explicit zero
// is refused there.
var noZero = map[reflect.Type]map[string]bool{}

func init() {
	indexOwners(reflect.TypeFor[Experiment](), "")
	for i, f := range fields {
		fieldIndex[f.Path] = i
		if !f.NoZero {
			continue
		}
		if _, owner, ok := fieldType(f.Path); ok {
			if noZero[owner] == nil {
				noZero[owner] = map[string]bool{}
			}
			noZero[owner][f.Key()] = true
		}
	}
}

// indexOwners records the canonical path of t and of the struct types
// under it.
func indexOwners(t reflect.Type, path string) {
	t = elem(t)
	if t.Kind() != reflect.Struct || t == sizeType || t == durationType {
		return
	}
	if _, seen := ownerPath[t]; seen {
		return
	}
	ownerPath[t] = path
	keys, names := fieldKeys(t)
	for _, k := range names { // inline structs first: their keys are t's
		if idx := keys[k]; len(idx) > 1 {
			if inline := t.FieldByIndex(idx[:len(idx)-1]).Type; ownerPath[inline] == "" {
				ownerPath[inline] = path
			}
		}
	}
	// The inline structs' keys first, then the rest: a section type
	// reached both inline (a phase's trace) and through a list of
	// sections embedding the same struct (phases[].jobs[].trace) takes
	// the shorter, inline path.
	for _, inline := range []bool{true, false} {
		for _, k := range names {
			if (len(keys[k]) > 1) != inline {
				continue
			}
			f := t.FieldByIndex(keys[k])
			p := keypath.Join(path, k)
			if f.Type.Kind() == reflect.Slice {
				p += "[]"
			}
			indexOwners(f.Type, p)
		}
	}
}

// elem strips pointers and slices from t.
func elem(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		t = t.Elem()
	}
	return t
}

// fieldType walks Experiment along path and returns the Go type of the
// field it names and the struct type that declares the field.
func fieldType(path string) (t, owner reflect.Type, ok bool) {
	steps, err := keypath.Parse(strings.ReplaceAll(path, "[]", "[0]"))
	if err != nil {
		return nil, nil, false
	}
	t = reflect.TypeFor[Experiment]()
	for _, s := range steps {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if s.IsIndex() {
			if t.Kind() != reflect.Slice {
				return nil, nil, false
			}
			t = t.Elem()
			continue
		}
		if t.Kind() != reflect.Struct || t == sizeType || t == durationType {
			return nil, nil, false
		}
		keys, _ := fieldKeys(t)
		idx, found := keys[s.Key]
		if !found {
			return nil, nil, false
		}
		owner = t
		if len(idx) > 1 {
			owner = t.FieldByIndex(idx[:len(idx)-1]).Type
		}
		t = t.FieldByIndex(idx).Type
	}
	return t, owner, owner != nil
}

// canonical returns the canonical path of the key a path names: list
// indices as "[]", a background job's keys as the phase's.
func canonical(path string) (string, bool) {
	_, owner, ok := fieldType(path)
	if !ok {
		return "", false
	}
	key := path[strings.LastIndexAny(path, ".]")+1:]
	return keypath.Join(ownerPath[owner], key), true
}

// fieldFor is FieldAt for the paths Validate checks: a path with no
// definition is a bug in this package.
func fieldFor(path string) Field {
	f, ok := FieldAt(path)
	if !ok {
		panic("spec: no field definition for " + path)
	}
	return f
}

// checkBounds reports v outside the bounds of the field at path.
func (p *problems) checkBounds(path string, v int64) {
	f := fieldFor(path)
	if b := f.Bounds; b != nil && (float64(v) < b.Min || float64(v) > b.Max) {
		p.add(path, "%d is outside %d..%d", v, int64(b.Min), int64(b.Max))
	}
}

// checkFloat reports v outside the bounds of the field at path.
func (p *problems) checkFloat(path string, v float64) bool {
	f := fieldFor(path)
	if b := f.Bounds; b != nil && (v < b.Min || v > b.Max || math.IsNaN(v)) {
		p.add(path, "%g is outside %s..%s", v, f.FormatValue(b.Min), f.FormatValue(b.Max))
		return false
	}
	return true
}

// checkDuration reports d outside the bounds of the field at path.
func (p *problems) checkDuration(path string, d time.Duration) bool {
	f := fieldFor(path)
	if b := f.Bounds; b != nil && (float64(d) < b.Min || float64(d) > b.Max) {
		p.add(path, "%v is outside %s..%v", d, f.FormatValue(b.Min), time.Duration(b.Max))
		return false
	}
	return true
}

// badName reports a name the enumeration at path does not take.
func (p *problems) badName(path, given string) {
	p.add(path, "%q: want %s", given, orList(fieldFor(path).Values))
}

// orList writes "a, b or c".
func orList(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// enumNames lists the names of a layer's enumeration: T(0), T(1)... as
// long as the layer's parser reads each name back as its value.
func enumNames[T interface {
	~uint8
	fmt.Stringer
}](parse func(string) (T, error)) []string {
	var out []string
	for i := 0; i < 256; i++ {
		v := T(i)
		if back, err := parse(v.String()); err != nil || back != v {
			break
		}
		out = append(out, v.String())
	}
	return out
}

// rangeOf is a Range of two numbers of any numeric type.
func rangeOf[A, B int | int64 | float64 | time.Duration](lo A, hi B) *Range {
	return &Range{float64(lo), float64(hi)}
}
