package spec

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/raidsim/raidsim/internal/keypath"
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

// parsePath parses a key path with the one key-path parser
// (internal/keypath), holding list indices below the longest list a
// config may have.
func parsePath(path string) (keypath.Path, error) {
	steps, err := keypath.Parse(path)
	if err != nil {
		var ke *keypath.Error
		if errors.As(err, &ke) {
			return nil, fmt.Errorf("malformed key path: %s", ke.Msg)
		}
		return nil, err
	}
	for _, s := range steps {
		if s.Index >= maxPhases {
			return nil, fmt.Errorf("list index %d is past the longest list a config may have (%d)", s.Index, maxPhases)
		}
	}
	return steps, nil
}

// setPath walks x along path, creating what is missing, and decodes
// value into the field at its end.
func setPath(p *problems, x *Experiment, path, value string) {
	steps, err := parsePath(path)
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
		if s.IsIndex() {
			if dst = listElem(p, at, dst, s.Index); !dst.IsValid() {
				return
			}
			at = fmt.Sprintf("%s[%d]", at, s.Index)
			if last {
				decodeValue(p, at, v, dst)
			}
			continue
		}
		if dst.Kind() != reflect.Struct {
			p.add(join(at, s.Key), "%s holds a value, not keys", at)
			return
		}
		keys, names := fieldKeys(dst.Type())
		idx, ok := keys[s.Key]
		if !ok {
			p.add(join(at, s.Key), "unknown key (known here: %s)", strings.Join(names, ", "))
			return
		}
		at = join(at, s.Key)
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
