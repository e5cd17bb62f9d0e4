package sweep

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/raidsim/raidsim/internal/keypath"
)

// Section is the top-level key of a sweep file that holds the axes.
const Section = "sweep"

// MaxPoints bounds the size of a grid: the product of the axes' lengths.
const MaxPoints = 1 << 40

// Axis is one swept field: a path into the configuration tree and the
// values it takes, in order.
type Axis struct {
	// Path names the field with dotted keys and [i] list indices, e.g.
	// "stack.raid.stripe_unit" or "phases[0].iodepth".
	Path string
	// Values are set at Path one at a time. A nil value (null in YAML or
	// JSON) removes the key, so the configuration's default applies; any
	// other value, maps and lists included, is stored as it is.
	Values []any
}

// Split separates a sweep file's decoded tree into the base configuration
// (a deep copy of tree without its "sweep" section) and the axes the
// section declares. The section takes one of two forms:
//
//	sweep:                          # a list: axes in the order listed
//	  - path: stack.raid.stripe_unit
//	    values: [64KiB, 128KiB]
//	  - path: stack.cache.size
//	    values: [16MiB, 64MiB]
//
//	sweep:                          # a map: path -> values
//	  stack.raid.stripe_unit: [64KiB, 128KiB]
//	  stack.cache.size: [16MiB, 64MiB]
//
// A Go map has no order, so Split orders the axes of the map form by path.
// A caller that decodes YAML or JSON itself and wants the file's order
// (as the raidsim command does) rewrites the map into the list form before
// calling Split. The order matters: the first axis varies slowest.
//
// Errors name the offending path: a missing or empty section, a value
// list that is not a list or is empty, a duplicated or malformed path.
func Split(tree map[string]any) (base map[string]any, axes []Axis, err error) {
	sec, ok := tree[Section]
	if !ok || sec == nil {
		return nil, nil, fmt.Errorf("sweep: no %q section: nothing varies", Section)
	}
	switch s := sec.(type) {
	case map[string]any:
		paths := make([]string, 0, len(s))
		for p := range s {
			paths = append(paths, p)
		}
		slices.Sort(paths)
		for _, p := range paths {
			vals, ok := s[p].([]any)
			if !ok {
				return nil, nil, fmt.Errorf("sweep: %s: values must be a list, got %s", p, describe(s[p]))
			}
			axes = append(axes, Axis{Path: p, Values: vals})
		}
	case []any:
		for i, e := range s {
			m, ok := e.(map[string]any)
			if !ok {
				return nil, nil, fmt.Errorf("sweep: %s[%d]: want a map with path and values, got %s", Section, i, describe(e))
			}
			for k := range m {
				if k != "path" && k != "values" {
					return nil, nil, fmt.Errorf("sweep: %s[%d]: unknown key %q (want path and values)", Section, i, k)
				}
			}
			p, ok := m["path"].(string)
			if !ok {
				return nil, nil, fmt.Errorf("sweep: %s[%d].path: want a field path string, got %s", Section, i, describe(m["path"]))
			}
			vals, ok := m["values"].([]any)
			if !ok {
				return nil, nil, fmt.Errorf("sweep: %s: values must be a list, got %s", p, describe(m["values"]))
			}
			axes = append(axes, Axis{Path: p, Values: vals})
		}
	default:
		return nil, nil, fmt.Errorf("sweep: the %q section must be a map of path: [values] or a list of {path, values}, got %s", Section, describe(sec))
	}
	if len(axes) == 0 {
		return nil, nil, fmt.Errorf("sweep: the %q section is empty: nothing varies", Section)
	}
	base = make(map[string]any, len(tree))
	for k, v := range tree {
		if k != Section {
			base[k] = clone(v)
		}
	}
	return base, axes, nil
}

// Grid is the cartesian product of axes over a base configuration. Point
// i sets every axis to one of its values; the first axis varies slowest
// and the last fastest, like nested loops in axis order.
type Grid struct {
	base  map[string]any
	axes  []Axis
	paths []string
	steps []keypath.Path
	size  int
}

// NewGrid checks the axes and returns their grid over base. Besides
// malformed, duplicated and empty axes it tries every value of every axis
// (the other axes at their first value), so a path through a scalar or
// past the end of a list is reported now, naming the path, rather than
// half way through a sweep.
func NewGrid(base map[string]any, axes []Axis) (*Grid, error) {
	g := &Grid{base: base, axes: axes, size: 1}
	seen := make(map[string]bool)
	for _, a := range axes {
		st, err := parsePath(a.Path)
		if err != nil {
			return nil, err
		}
		if st[0].Key == Section {
			return nil, fmt.Errorf("sweep: %s: names the %q section itself, not a field of the configuration: every point would be the same", a.Path, Section)
		}
		if seen[a.Path] {
			return nil, fmt.Errorf("sweep: %s: swept twice", a.Path)
		}
		seen[a.Path] = true
		if len(a.Values) == 0 {
			return nil, fmt.Errorf("sweep: %s: empty list of values", a.Path)
		}
		if g.size > MaxPoints/len(a.Values) {
			return nil, fmt.Errorf("sweep: %s: the grid would have more than %d points", a.Path, MaxPoints)
		}
		g.size *= len(a.Values)
		g.paths = append(g.paths, a.Path)
		g.steps = append(g.steps, st)
	}
	first := make([]int, len(axes))
	for i, a := range axes {
		for j := range a.Values {
			pick := slices.Clone(first)
			pick[i] = j
			if _, err := g.tree(pick); err != nil {
				return nil, err
			}
		}
	}
	return g, nil
}

// Len returns the number of points in the grid.
func (g *Grid) Len() int { return g.size }

// Axes returns the grid's axes (shared; do not modify).
func (g *Grid) Axes() []Axis { return g.axes }

// Paths returns the axes' paths in order (shared; do not modify).
func (g *Grid) Paths() []string { return g.paths }

// pick returns the value index of each axis at point i.
func (g *Grid) pick(i int) []int {
	p := make([]int, len(g.axes))
	for a := len(g.axes) - 1; a >= 0; a-- {
		n := len(g.axes[a].Values)
		p[a] = i % n
		i /= n
	}
	return p
}

// tree builds the configuration for value indices pick.
func (g *Grid) tree(pick []int) (map[string]any, error) {
	t := cloneMap(g.base)
	if t == nil {
		t = map[string]any{}
	}
	for a, j := range pick {
		if err := set(t, g.paths[a], g.steps[a], clone(g.axes[a].Values[j])); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// Point returns point i, 0 <= i < Len(), with its own copy of the tree.
func (g *Grid) Point(i int) (Point, error) {
	if i < 0 || i >= g.size {
		return Point{}, fmt.Errorf("sweep: point %d out of range [0, %d)", i, g.size)
	}
	pick := g.pick(i)
	t, err := g.tree(pick)
	if err != nil {
		return Point{}, err
	}
	vals := make([]any, len(pick))
	for a, j := range pick {
		vals[a] = g.axes[a].Values[j]
	}
	return Point{Index: i, Paths: g.paths, Values: vals, Tree: t}, nil
}

// Points returns points lo to hi-1 (a Shard's Range, say).
func (g *Grid) Points(lo, hi int) ([]Point, error) {
	if lo < 0 || hi > g.size || lo > hi {
		return nil, fmt.Errorf("sweep: points [%d, %d) out of range [0, %d)", lo, hi, g.size)
	}
	ps := make([]Point, 0, hi-lo)
	for i := lo; i < hi; i++ {
		p, err := g.Point(i)
		if err != nil {
			return nil, err
		}
		ps = append(ps, p)
	}
	return ps, nil
}

// Points returns every point of the grid of axes over base: a shorthand
// for NewGrid followed by Grid.Points over the whole grid.
func Points(base map[string]any, axes []Axis) ([]Point, error) {
	g, err := NewGrid(base, axes)
	if err != nil {
		return nil, err
	}
	return g.Points(0, g.Len())
}

// Point is one configuration of a sweep.
type Point struct {
	// Index is the point's position in the whole grid, from 0, whatever
	// shard it was taken from.
	Index int
	// Paths are the axes' paths, shared by every point of a grid.
	Paths []string
	// Values holds the value of each axis at this point, in axis order.
	Values []any
	// Tree is the configuration: a deep copy of the base with the values
	// set. The point owns it; evaluating it may modify it.
	Tree map[string]any
}

// String describes the point as "path=value, path=value" with values
// formatted by FormatValue.
func (p Point) String() string {
	parts := make([]string, len(p.Values))
	for i, v := range p.Values {
		path := "?"
		if i < len(p.Paths) {
			path = p.Paths[i]
		}
		parts[i] = path + "=" + FormatValue(v)
	}
	return strings.Join(parts, ", ")
}

// FormatValue renders an axis value for a table cell: strings as they
// are, numbers in their shortest exact decimal form, nil as "none" (the
// key was removed), maps and lists in YAML's flow style with map keys
// sorted, e.g. {mode: write-back, size: 64MiB} and [4KiB, 64KiB]. Inside
// maps and lists, strings that would be ambiguous (empty, or holding
// spaces or any of ,:{}[]"') are quoted as JSON strings.
func FormatValue(v any) string {
	var b strings.Builder
	formatValue(&b, v, false)
	return b.String()
}

func formatValue(b *strings.Builder, v any, nested bool) {
	switch x := v.(type) {
	case nil:
		b.WriteString("none")
	case string:
		if nested && (x == "" || strings.ContainsAny(x, " ,:{}[]\"'\t\n")) {
			q, _ := json.Marshal(x)
			b.Write(q)
			return
		}
		b.WriteString(x)
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case int:
		b.WriteString(strconv.Itoa(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case uint64:
		b.WriteString(strconv.FormatUint(x, 10))
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1e15 {
			b.WriteString(strconv.FormatFloat(x, 'f', -1, 64))
			return
		}
		b.WriteString(strconv.FormatFloat(x, 'g', -1, 64))
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteString(", ")
			}
			formatValue(b, k, true)
			b.WriteString(": ")
			formatValue(b, x[k], true)
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			formatValue(b, e, true)
		}
		b.WriteByte(']')
	default:
		fmt.Fprint(b, x)
	}
}
