// Package keypath parses the key paths that name a field of a
// configuration tree: dotted keys with [i] list indices, as in
// "stack.raid.stripe_unit", "phases[0].iodepth" or
// "phases[1].background[0].rw". It is the one parser of that syntax:
// spec.Set, the sweep axes and the CLI's help all read paths with it.
package keypath

import (
	"fmt"
	"strconv"
	"strings"
)

// Step is one element of a path: a key, or a list index.
type Step struct {
	// Key is the map key; empty for an index.
	Key string
	// Index is the list index, or -1 for a key.
	Index int
}

// IsIndex reports whether the step is a list index.
func (s Step) IsIndex() bool { return s.Index >= 0 }

// Path is a parsed key path: its steps in order, the first a key.
type Path []Step

// Error is a malformed path.
type Error struct {
	// Path is the path as given; Msg says what is wrong with it.
	Path, Msg string
}

// Error returns "path: msg".
func (e *Error) Error() string {
	if e.Path == "" {
		return e.Msg
	}
	return e.Path + ": " + e.Msg
}

func bad(path, format string, args ...any) error {
	return &Error{Path: path, Msg: fmt.Sprintf(format, args...)}
}

// Parse splits a path into its steps. A path starts with a key; keys
// are separated by dots; "[i]" after a key (or after another index)
// selects element i of a list, i a decimal number without sign. Errors
// quote the path and say what is wrong with it.
func Parse(path string) (Path, error) {
	if path == "" {
		return nil, bad("", "empty field path")
	}
	if path[0] == '[' {
		return nil, bad(path, "a path starts with a key, not an index")
	}
	var steps Path
	rest := path
	for rest != "" {
		var err error
		if rest[0] == '[' {
			var i int
			if i, rest, err = index(path, rest); err != nil {
				return nil, err
			}
			steps = append(steps, Step{Index: i})
		} else {
			end := strings.IndexAny(rest, ".[]")
			if end < 0 {
				end = len(rest)
			}
			if end == 0 {
				return nil, bad(path, "empty key")
			}
			if rest[end:] != "" && rest[end] == ']' {
				return nil, bad(path, "unexpected ]")
			}
			steps = append(steps, Step{Key: rest[:end], Index: -1})
			rest = rest[end:]
		}
		if rest != "" && rest[0] == '.' {
			if rest = rest[1:]; rest == "" {
				return nil, bad(path, "ends with a dot")
			}
		}
	}
	return steps, nil
}

// index reads "[i]" at the start of rest and returns i and what follows.
func index(path, rest string) (int, string, error) {
	end := strings.IndexByte(rest, ']')
	if end < 0 {
		return 0, "", bad(path, "unclosed [")
	}
	num := rest[1:end]
	i, err := strconv.Atoi(num)
	if err != nil || i < 0 || num == "" || num[0] == '+' || num[0] == '-' {
		return 0, "", bad(path, "bad list index %q", num)
	}
	rest = rest[end+1:]
	if rest != "" && rest[0] != '.' && rest[0] != '[' {
		return 0, "", bad(path, "want . or [ after ]")
	}
	return i, rest, nil
}

// String writes the path back as Parse reads it.
func (p Path) String() string { return p.Prefix(len(p)) }

// Prefix writes the first n steps of the path, for messages that name
// the part of a path that failed.
func (p Path) Prefix(n int) string {
	var b strings.Builder
	for i, s := range p[:n] {
		if s.IsIndex() {
			fmt.Fprintf(&b, "[%d]", s.Index)
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s.Key)
	}
	return b.String()
}

// Pattern writes the path with every list index as "[]", so the paths
// of every element of a list ("phases[0].bs", "phases[3].bs") name one
// field: "phases[].bs".
func (p Path) Pattern() string {
	var b strings.Builder
	for i, s := range p {
		if s.IsIndex() {
			b.WriteString("[]")
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s.Key)
	}
	return b.String()
}

// Pattern is Parse then Path.Pattern: the field a path names, whatever
// its list indices, or an error for a malformed path.
func Pattern(path string) (string, error) {
	p, err := Parse(path)
	if err != nil {
		return "", err
	}
	return p.Pattern(), nil
}

// Join appends key to a path ("" for the root).
func Join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// Under reports whether the path path is section or lies inside it:
// "stack.raid.layout" is under "stack.raid", "phases[0].bs" under
// "phases" and "phases[0]", "stack.raidx" under neither.
func Under(path, section string) bool {
	return path == section || strings.HasPrefix(path, section+".") || strings.HasPrefix(path, section+"[")
}

// Lookup returns the value at path in a decoded tree (maps with string
// keys and lists, as yaml.Unmarshal into an any makes them), and whether
// it is there.
func Lookup(tree any, path Path) (any, bool) {
	v := tree
	for _, s := range path {
		if s.IsIndex() {
			l, ok := v.([]any)
			if !ok || s.Index >= len(l) {
				return nil, false
			}
			v = l[s.Index]
			continue
		}
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[s.Key]; !ok {
			return nil, false
		}
	}
	return v, true
}
