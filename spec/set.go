package spec

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Set changes the field of x at a key path ("stack.raid.stripe_unit",
// "phases[0].bs", "phases[1].background[0].rw") to value, written as it
// would be in a YAML file ("64KiB", "5", "true", "{size: 16MiB}"). It
// decodes the value exactly as Parse does, so a bad value gives the
// same error text through Set as through a file. Sections on the way are
// created (a nil stack.cache, a phase one past the end of the list);
// "null", "none" or "off" remove an optional section. Every CLI flag of
// `raidsim run` is a Set of one path. The error, if any, is an *Error.
func Set(x *Experiment, path, value string) error {
	var p problems
	setPath(&p, x, path, value)
	return p.err("")
}

// step is one element of a key path: a key, or a list index.
type step struct {
	key   string
	index int // -1 for a key
}

// splitPath parses "a.b[2].c" into steps.
func splitPath(path string) ([]step, error) {
	var steps []step
	for _, part := range strings.Split(path, ".") {
		key, rest, _ := strings.Cut(part, "[")
		if key == "" {
			return nil, fmt.Errorf("empty key in path %q", path)
		}
		steps = append(steps, step{key: key, index: -1})
		for rest != "" {
			num, after, ok := strings.Cut(rest, "]")
			i, err := strconv.Atoi(num)
			if !ok || err != nil || i < 0 || i >= maxPhases || (after != "" && after[0] != '[') {
				return nil, fmt.Errorf("bad index in path %q", path)
			}
			steps = append(steps, step{index: i})
			rest = strings.TrimPrefix(after, "[")
		}
	}
	return steps, nil
}

// setPath walks x along path, creating what is missing, and decodes
// value into the field at its end.
func setPath(p *problems, x *Experiment, path, value string) {
	steps, err := splitPath(path)
	if err != nil {
		p.add(path, "%v", err)
		return
	}
	var v any
	if err := yaml.Unmarshal([]byte(value), &v); err != nil {
		v = value // not YAML on its own (a bare ": "): take the text
	}
	dst := reflect.ValueOf(x).Elem()
	at := ""
	for i, s := range steps {
		last := i == len(steps)-1
		if s.index >= 0 {
			if dst = listElem(p, at, dst, s.index); !dst.IsValid() {
				return
			}
			at = fmt.Sprintf("%s[%d]", at, s.index)
			if last {
				decodeValue(p, at, v, dst)
			}
			continue
		}
		if dst.Kind() != reflect.Struct {
			p.add(join(at, s.key), "%s holds a value, not keys", at)
			return
		}
		keys, names := fieldKeys(dst.Type())
		idx, ok := keys[s.key]
		if !ok {
			p.add(join(at, s.key), "unknown key (known here: %s)", strings.Join(names, ", "))
			return
		}
		at = join(at, s.key)
		if last {
			setField(p, at, v, dst, idx)
			return
		}
		dst = dst.FieldByIndex(idx)
		if dst.Kind() == reflect.Pointer {
			if dst.IsNil() {
				dst.Set(reflect.New(dst.Type().Elem()))
			}
			dst = dst.Elem()
		}
	}
}

// setField decodes v into the field of the struct dst at index, or
// removes an optional section for "null", "none" or "off".
func setField(p *problems, path string, v any, dst reflect.Value, index []int) {
	fv := dst.FieldByIndex(index)
	if fv.Kind() == reflect.Pointer && fv.Type().Elem().Kind() == reflect.Struct {
		if s, ok := v.(string); v == nil || ok && (s == "none" || s == "off") {
			fv.Set(reflect.Zero(fv.Type()))
			return
		}
	}
	decodeField(p, path, v, dst, index)
}

// listElem returns element i of the slice dst, appending a zero element
// when i is its length.
func listElem(p *problems, path string, dst reflect.Value, i int) reflect.Value {
	if dst.Kind() != reflect.Slice {
		p.add(path, "not a list: no index [%d]", i)
		return reflect.Value{}
	}
	switch {
	case i < dst.Len():
	case i == dst.Len():
		dst.Set(reflect.Append(dst, reflect.Zero(dst.Type().Elem())))
	default:
		p.add(fmt.Sprintf("%s[%d]", path, i), "index past the end: the list has %d entries", dst.Len())
		return reflect.Value{}
	}
	return dst.Index(i)
}

// Default returns the default of the field at a key path as its
// `default` tag writes it ("64KiB", "(the cache size)"), and whether the
// path names a field. Paths into lists may use any index.
func Default(path string) (string, bool) {
	steps, err := splitPath(path)
	if err != nil {
		return "", false
	}
	t := reflect.TypeFor[Experiment]()
	var f reflect.StructField
	for _, s := range steps {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
			t = t.Elem()
		}
		if s.index >= 0 {
			continue
		}
		if t.Kind() != reflect.Struct {
			return "", false
		}
		keys, _ := fieldKeys(t)
		idx, ok := keys[s.key]
		if !ok {
			return "", false
		}
		f = t.FieldByIndex(idx)
		t = f.Type
	}
	return f.Tag.Get("default"), true
}
