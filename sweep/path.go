package sweep

import (
	"fmt"
	"strconv"
	"strings"
)

// step is one element of a field path: a map key, or a list index when
// key is empty and index >= 0.
type step struct {
	key   string
	index int
}

// parsePath splits a dotted field path such as "phases[0].iodepth" into
// steps. Keys are separated by dots; "[i]" after a key (or after another
// index) selects element i of a list.
func parsePath(path string) ([]step, error) {
	if path == "" {
		return nil, fmt.Errorf("sweep: empty field path")
	}
	if path[0] == '[' {
		return nil, fmt.Errorf("sweep: %s: a path starts with a key, not an index", path)
	}
	var steps []step
	rest := path
	for rest != "" {
		if rest[0] == '[' {
			end := strings.IndexByte(rest, ']')
			if end < 0 {
				return nil, fmt.Errorf("sweep: %s: unclosed [", path)
			}
			i, err := strconv.Atoi(rest[1:end])
			if err != nil || i < 0 || rest[1] == '+' {
				return nil, fmt.Errorf("sweep: %s: bad list index %q", path, rest[1:end])
			}
			steps = append(steps, step{index: i})
			rest = rest[end+1:]
			if rest != "" && rest[0] != '.' && rest[0] != '[' {
				return nil, fmt.Errorf("sweep: %s: want . or [ after ]", path)
			}
			if rest != "" && rest[0] == '.' {
				rest = rest[1:]
				if rest == "" {
					return nil, fmt.Errorf("sweep: %s: ends with a dot", path)
				}
			}
			continue
		}
		end := strings.IndexAny(rest, ".[]")
		if end < 0 {
			end = len(rest)
		}
		if end == 0 {
			return nil, fmt.Errorf("sweep: %s: empty key", path)
		}
		if rest[end:] != "" && rest[end] == ']' {
			return nil, fmt.Errorf("sweep: %s: unexpected ]", path)
		}
		steps = append(steps, step{key: rest[:end], index: -1})
		rest = rest[end:]
		if rest != "" && rest[0] == '.' {
			rest = rest[1:]
			if rest == "" {
				return nil, fmt.Errorf("sweep: %s: ends with a dot", path)
			}
		}
	}
	return steps, nil
}

// prefix renders the first n steps of a path, for error messages.
func prefix(steps []step, n int) string {
	var b strings.Builder
	for i, s := range steps[:n] {
		if s.index >= 0 {
			fmt.Fprintf(&b, "[%d]", s.index)
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s.key)
	}
	return b.String()
}

// set stores v at path in tree, creating maps for missing keys along the
// way. A nil v removes the key instead (and creates nothing). Walking
// through a value that is not a map (for a key) or a list (for an index),
// or past the end of a list, is an error naming the path and the part of
// it that failed.
func set(tree map[string]any, path string, steps []step, v any) error {
	var cur any = tree
	for i, s := range steps {
		last := i == len(steps)-1
		switch c := cur.(type) {
		case map[string]any:
			if s.index >= 0 {
				return fmt.Errorf("sweep: %s: %s is a map, not a list", path, prefix(steps, i))
			}
			if last {
				if v == nil {
					delete(c, s.key)
				} else {
					c[s.key] = v
				}
				return nil
			}
			next, ok := c[s.key]
			if !ok || next == nil {
				if v == nil {
					return nil // nothing to remove
				}
				if steps[i+1].index >= 0 {
					return fmt.Errorf("sweep: %s: %s does not exist, so it has no element [%d]", path, prefix(steps, i+1), steps[i+1].index)
				}
				next = map[string]any{}
				c[s.key] = next
			}
			cur = next
		case []any:
			if s.index < 0 {
				return fmt.Errorf("sweep: %s: %s is a list, not a map (index it as [i])", path, prefix(steps, i))
			}
			if s.index >= len(c) {
				return fmt.Errorf("sweep: %s: %s has %d elements, no [%d]", path, prefix(steps, i), len(c), s.index)
			}
			if last {
				if v == nil {
					return fmt.Errorf("sweep: %s: null cannot remove a list element", path)
				}
				c[s.index] = v
				return nil
			}
			cur = c[s.index]
		default:
			return fmt.Errorf("sweep: %s: %s is %s, not a map or list", path, prefix(steps, i), describe(cur))
		}
	}
	return nil
}

// describe names the kind of a scalar for error messages.
func describe(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("the string %q", x)
	case bool:
		return fmt.Sprintf("the boolean %v", x)
	case nil:
		return "null"
	default:
		return fmt.Sprintf("the value %v", x)
	}
}

// clone returns a deep copy of v: maps and lists are copied recursively,
// scalars are shared (they are immutable).
func clone(v any) any {
	switch x := v.(type) {
	case map[string]any:
		return cloneMap(x)
	case []any:
		c := make([]any, len(x))
		for i, e := range x {
			c[i] = clone(e)
		}
		return c
	default:
		return v
	}
}

func cloneMap(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	c := make(map[string]any, len(m))
	for k, e := range m {
		c[k] = clone(e)
	}
	return c
}
