package spec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/raidsim/raidsim/internal/keypath"
	"github.com/raidsim/raidsim/trace"
)

// Bounds on what a config may ask for, so a typo cannot allocate or run
// without end.
const (
	// MaxBytes is the largest experiment text Parse reads.
	MaxBytes = 4 << 20
	// maxPhases bounds the phases of a config.
	maxPhases = 1000
	// maxList bounds any other list in a config.
	maxList = 1000
)

// Parse reads an experiment from YAML or JSON text (JSON is YAML) and
// validates it. name is the source's name (a file name) for error
// messages, and the default Experiment.Name (without directory or
// extension). Every problem is reported at once in an *Error, each
// naming its key path: unknown keys, wrong types, bad values. Code that
// runs the experiment right after (raidsim.Run validates) can Decode
// instead and check it once.
func Parse(data []byte, name string) (*Experiment, error) {
	x, p := decodeText(data, name)
	return checked(x, p, name)
}

// Decode is Parse without the semantic checks: the text is decoded, and
// unknown keys, wrong types and unusable values are reported, but the
// experiment as a whole is left for Validate (or raidsim.Run) to check
// once, after any changes by Set.
func Decode(data []byte, name string) (*Experiment, error) {
	x, p := decodeText(data, name)
	if len(p) > 0 {
		return nil, p.err(name)
	}
	return x, nil
}

// decodeText decodes YAML or JSON text into an experiment.
func decodeText(data []byte, name string) (*Experiment, problems) {
	if len(data) > MaxBytes {
		return nil, problems{{Msg: fmt.Sprintf("config is %d bytes, more than %d", len(data), MaxBytes)}}
	}
	var tree any
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&tree); err != nil {
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		if err.Error() == "EOF" {
			msg = "empty config"
		}
		return nil, problems{{Msg: msg}}
	}
	m, ok := tree.(map[string]any)
	if !ok {
		return nil, problems{{Msg: fmt.Sprintf("want a mapping of keys (name, stack, phases), got %s", kind(tree))}}
	}
	return decodeTree(m, name)
}

// ParseTree is Parse for an already decoded tree, as yaml.Unmarshal or
// json.Unmarshal into an `any` produce (maps with string keys, lists,
// strings, numbers, booleans): the sweep command edits such trees and
// parses each point. tree is not modified.
func ParseTree(tree map[string]any, name string) (*Experiment, error) {
	x, p := decodeTree(tree, name)
	return checked(x, p, name)
}

// decodeTree decodes a tree into an experiment named after its source.
func decodeTree(tree map[string]any, name string) (*Experiment, problems) {
	var x Experiment
	var p problems
	decodeValue(&p, "", tree, reflect.ValueOf(&x).Elem())
	x.source = name
	if x.Name == "" && name != "" {
		base := filepath.Base(name)
		x.Name = strings.TrimSuffix(base, filepath.Ext(base))
	}
	return &x, p
}

// checked validates a decoded experiment and reports its decoding
// problems with the semantic ones, except at keys that did not decode
// (they hold zero values, not what the file said).
func checked(x *Experiment, p problems, source string) (*Experiment, error) {
	if x == nil {
		return nil, p.err(source)
	}
	verr := x.Validate()
	if len(p) == 0 {
		if verr != nil {
			return nil, verr
		}
		return x, nil
	}
	var ce *Error
	if errors.As(verr, &ce) {
		for _, f := range ce.Fields {
			clash := false
			for _, d := range p {
				clash = clash || related(d.Path, f.Path)
			}
			if !clash {
				p = append(p, f)
			}
		}
	}
	return nil, p.err(source)
}

// Load reads, decodes and validates the experiment file at path.
// Relative trace paths in it are taken from the file's directory.
func Load(path string) (*Experiment, error) {
	x, err := DecodeFile(path)
	if err != nil {
		return nil, err
	}
	if err := x.Validate(); err != nil {
		return nil, err
	}
	return x, nil
}

// DecodeFile is Load without the semantic checks (see Decode).
func DecodeFile(path string) (*Experiment, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("spec: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("spec: %s: %w", path, err)
	}
	x, err := Decode(data, path)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(path)
	for i := range x.Phases {
		if t := x.Phases[i].Trace; t != nil && t.Path != "" && !filepath.IsAbs(t.Path) {
			t.Path = filepath.Join(dir, t.Path)
		}
	}
	return x, nil
}

var (
	sizeType     = reflect.TypeFor[Size]()
	cutoffType   = reflect.TypeFor[Cutoff]()
	durationType = reflect.TypeFor[Duration]()
)

// kind names a decoded value's type for messages.
func kind(v any) string {
	switch v.(type) {
	case nil:
		return "nothing (null)"
	case map[string]any, map[any]any:
		return "a mapping"
	case []any:
		return "a list"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case float32, float64, json.Number:
		return "a number"
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return "an integer"
	}
	return fmt.Sprintf("a %T", v)
}

// show quotes a decoded scalar for messages, shortened.
func show(v any) string {
	var s string
	switch x := v.(type) {
	case string:
		s = strconv.Quote(x)
	case map[string]any, map[any]any, []any:
		return kind(v)
	default:
		s = fmt.Sprint(x)
	}
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

// asInt returns v as an int64 when it is a whole number.
func asInt(v any) (int64, bool) {
	switch x := v.(type) {
	case int:
		return int64(x), true
	case int8:
		return int64(x), true
	case int16:
		return int64(x), true
	case int32:
		return int64(x), true
	case int64:
		return x, true
	case uint:
		return int64(x), uint64(x) <= math.MaxInt64
	case uint8:
		return int64(x), true
	case uint16:
		return int64(x), true
	case uint32:
		return int64(x), true
	case uint64:
		return int64(x), x <= math.MaxInt64
	case float32:
		return asInt(float64(x))
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<63 {
			return int64(x), true
		}
	case json.Number:
		n, err := x.Int64()
		return n, err == nil
	}
	return 0, false
}

// asFloat returns v as a float64 when it is a number.
func asFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case float32:
		return float64(x), true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	}
	if n, ok := asInt(v); ok {
		return float64(n), true
	}
	return 0, false
}

// structKeys is a struct type's keys as fieldKeys returns them.
type structKeys struct {
	keys  map[string][]int
	names []string
}

// fieldKeysCache holds fieldKeys' answers by type: a sweep decodes a
// tree per point, and reflect.VisibleFields was half of its time.
var fieldKeysCache sync.Map // reflect.Type -> structKeys

// fieldKeys maps a struct type's yaml keys to field index paths, the
// keys of inline structs (`yaml:",inline"`) among them. The results are
// shared: callers must not modify them.
func fieldKeys(t reflect.Type) (map[string][]int, []string) {
	if k, ok := fieldKeysCache.Load(t); ok {
		sk := k.(structKeys)
		return sk.keys, sk.names
	}
	keys, names := visibleKeys(t)
	fieldKeysCache.Store(t, structKeys{keys, names})
	return keys, names
}

// visibleKeys computes fieldKeys.
func visibleKeys(t reflect.Type) (map[string][]int, []string) {
	keys := make(map[string][]int, t.NumField())
	var names []string
	for _, f := range reflect.VisibleFields(t) {
		tag := f.Tag.Get("yaml")
		if !f.IsExported() || tag == "-" || tag == "" || strings.Contains(tag, ",inline") {
			continue
		}
		k, _, _ := strings.Cut(tag, ",")
		keys[k] = f.Index
		names = append(names, k)
	}
	sort.Strings(names)
	return keys, names
}

// join appends key to a path.
func join(path, key string) string { return keypath.Join(path, key) }

// decodeValue stores the decoded value v into dst, recording problems at
// path. It never panics on any tree.
func decodeValue(p *problems, path string, v any, dst reflect.Value) {
	t := dst.Type()
	if v == nil {
		if t.Kind() == reflect.Pointer || t.Kind() == reflect.Interface {
			return // absent
		}
		p.add(path, "no value given (null)")
		return
	}
	switch t {
	case sizeType:
		n, err := parseSize(v)
		if err != "" {
			p.add(path, "%s", err)
			return
		}
		dst.SetInt(n)
		return
	case cutoffType:
		n, err := parseCutoff(v)
		if err != "" {
			p.add(path, "%s", err)
			return
		}
		dst.SetInt(n)
		return
	case durationType:
		decodeDuration(p, path, v, dst)
		return
	}
	switch t.Kind() {
	case reflect.Pointer:
		nv := reflect.New(t.Elem())
		decodeValue(p, path, v, nv.Elem())
		dst.Set(nv)
	case reflect.Interface:
		dst.Set(reflect.ValueOf(v))
	case reflect.Struct:
		decodeStruct(p, path, v, dst)
	case reflect.Slice:
		decodeList(p, path, v, dst)
	case reflect.String:
		decodeString(p, path, v, dst)
	case reflect.Bool:
		decodeBool(p, path, v, dst)
	default:
		decodeNumber(p, path, v, dst)
	}
}

// decodeDuration decodes a duration string ("5ms"), or a bare 0.
func decodeDuration(p *problems, path string, v any, dst reflect.Value) {
	if s, ok := v.(string); ok {
		var d Duration
		if err := d.UnmarshalText([]byte(s)); err != nil {
			p.add(path, "%v", err)
			return
		}
		dst.SetInt(int64(d))
		return
	}
	if n, ok := asInt(v); ok && n == 0 {
		dst.SetInt(0)
		return
	}
	p.add(path, "want a duration such as \"5ms\" or \"1.5s\", got %s", show(v))
}

// decodeStruct decodes a mapping into a struct, key by key in sorted
// order, reporting unknown keys with the known ones.
func decodeStruct(p *problems, path string, v any, dst reflect.Value) {
	m, ok := v.(map[string]any)
	if !ok {
		if _, anyKeys := v.(map[any]any); anyKeys {
			p.add(path, "want a mapping with text keys, got non-text keys")
			return
		}
		p.add(path, "want a mapping of keys, got %s", kind(v))
		return
	}
	keys, names := fieldKeys(dst.Type())
	given := make([]string, 0, len(m))
	for k := range m {
		given = append(given, k)
	}
	sort.Strings(given) // deterministic order of errors
	for _, k := range given {
		i, ok := keys[k]
		if !ok {
			p.add(join(path, k), "unknown key (known here: %s)", strings.Join(names, ", "))
			continue
		}
		decodeField(p, join(path, k), m[k], dst, i)
	}
}

// decodeList decodes a list into a slice, within the list bounds.
func decodeList(p *problems, path string, v any, dst reflect.Value) {
	t := dst.Type()
	l, ok := v.([]any)
	if !ok {
		p.add(path, "want a list, got %s", kind(v))
		return
	}
	limit := maxList
	if t.Elem() == reflect.TypeFor[Phase]() {
		limit = maxPhases
	}
	if len(l) > limit {
		p.add(path, "%d entries, more than %d", len(l), limit)
		return
	}
	s := reflect.MakeSlice(t, len(l), len(l))
	for i, e := range l {
		decodeValue(p, fmt.Sprintf("%s[%d]", path, i), e, s.Index(i))
	}
	dst.Set(s)
}

// decodeString decodes a string; a whole number is taken as its digits
// (level: 5).
func decodeString(p *problems, path string, v any, dst reflect.Value) {
	if x, ok := v.(string); ok {
		dst.SetString(x)
		return
	}
	if n, ok := asInt(v); ok {
		dst.SetString(strconv.FormatInt(n, 10))
		return
	}
	if f, ok := FieldAt(path); ok && len(f.Values) > 0 {
		p.add(path, "%s is not one of %s", show(v), strings.Join(f.Values, ", "))
		return
	} else if ok && f.Doc != "" {
		p.add(path, "%s is not a value this key takes; it is: %s", show(v), f.Doc)
		return
	}
	p.add(path, "want a string, got %s %s", kind(v), show(v))
}

// notWhole says why v, which asInt refused, is no whole number: a
// number too large for one, a fraction, or something else; want says
// what is allowed.
func notWhole(v any, want string) string {
	if f, ok := asFloat(v); ok && !math.IsNaN(f) {
		switch {
		case math.Abs(f) >= math.MaxInt64:
			return fmt.Sprintf("%s is too large: want %s up to %d", show(v), want, int64(math.MaxInt64))
		case f != math.Trunc(f):
			return fmt.Sprintf("%s is not a whole number: want %s", show(v), want)
		}
	}
	return fmt.Sprintf("want %s, got %s %s", want, kind(v), show(v))
}

// decodeBool decodes true or false, or on, off, yes and no as strings.
func decodeBool(p *problems, path string, v any, dst reflect.Value) {
	switch x := v.(type) {
	case bool:
		dst.SetBool(x)
	case string:
		switch strings.ToLower(x) {
		case "on", "true", "yes":
			dst.SetBool(true)
		case "off", "false", "no":
			dst.SetBool(false)
		default:
			p.add(path, "want true or false (or on, off), got %s", show(v))
		}
	default:
		p.add(path, "want true or false, got %s %s", kind(v), show(v))
	}
}

// decodeNumber decodes an int, int64, uint64 or float64 field.
func decodeNumber(p *problems, path string, v any, dst reflect.Value) {
	switch k := dst.Kind(); k {
	case reflect.Int, reflect.Int64:
		n, ok := asInt(v)
		if !ok {
			p.add(path, "%s", notWhole(v, "a whole number"))
			return
		}
		if k == reflect.Int && (n > math.MaxInt32 || n < math.MinInt32) {
			p.add(path, "%d is out of range: want a whole number from %d to %d", n, math.MinInt32, math.MaxInt32)
			return
		}
		dst.SetInt(n)
	case reflect.Uint64:
		decodeUint(p, path, v, dst)
	case reflect.Float64:
		f, ok := asFloat(v)
		if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
			p.add(path, "want a number, got %s %s", kind(v), show(v))
			return
		}
		dst.SetFloat(f)
	default:
		p.add(path, "cannot hold %s", kind(v)) // not reached for Experiment's types
	}
}

// decodeUint decodes a non-negative whole number.
func decodeUint(p *problems, path string, v any, dst reflect.Value) {
	n, ok := asInt(v)
	if !ok {
		if u, isU := v.(uint64); isU {
			dst.SetUint(u)
			return
		}
		p.add(path, "%s", notWhole(v, "a whole number"))
		return
	}
	if n < 0 {
		p.add(path, "%d is negative: want a whole number from 0", n)
		return
	}
	dst.SetUint(uint64(n))
}

// parseSize reads a byte count: a whole number or a string with a unit.
func parseSize(v any) (int64, string) {
	if s, ok := v.(string); ok {
		if t := strings.TrimSpace(s); strings.HasPrefix(t, "-") {
			return 0, fmt.Sprintf("%s is negative", strconv.Quote(s))
		}
		n, err := trace.ParseSize(s)
		if err != nil {
			return 0, strings.TrimPrefix(err.Error(), "trace: ")
		}
		return n, ""
	}
	n, ok := asInt(v)
	if !ok {
		return 0, notWhole(v, "a size in bytes such as 4096 or \"128KiB\"")
	}
	if n < 0 {
		return 0, fmt.Sprintf("%d is negative: want a size in bytes from 0", n)
	}
	return n, ""
}

// cutoffOffWord is the value of a Cutoff that turns it off.
const cutoffOffWord = "off"

// parseCutoff reads a Cutoff: "off" (-1) or a size as parseSize reads it.
func parseCutoff(v any) (int64, string) {
	if s, ok := v.(string); ok && strings.EqualFold(strings.TrimSpace(s), cutoffOffWord) {
		return int64(CutoffOff), ""
	}
	n, err := parseSize(v)
	if err != "" {
		return 0, err + ` (or "off" for no cutoff)`
	}
	return n, ""
}

// decodeField decodes v into the field of the struct dst at index. A
// field marked NoZero in its definition refuses an explicit zero: zero
// is how the types say "take the default", so a file or flag that gives
// 0 (a stripe unit of 0, a cache of size 0) asks for something the model
// cannot use rather than for the default.
func decodeField(p *problems, path string, v any, dst reflect.Value, index []int) {
	f := dst.Type().FieldByIndex(index)
	fv := dst.FieldByIndex(index)
	before := len(*p)
	decodeValue(p, path, v, fv)
	if len(*p) > before || !fv.IsZero() || fv.Kind() == reflect.Pointer {
		return
	}
	owner := dst.Type()
	if len(index) > 1 {
		owner = owner.FieldByIndex(index[:len(index)-1]).Type
	}
	key, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	if !noZero[owner][key] {
		return
	}
	def, _ := Default(path)
	p.add(path, "%s is not a usable value: leave the key out for the default, %s", show(v), def)
}
