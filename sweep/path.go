package sweep

import (
	"fmt"

	"github.com/raidsim/raidsim/internal/keypath"
)

// parsePath parses a field path with the one key-path parser
// (internal/keypath), its errors prefixed with the package name.
func parsePath(path string) (keypath.Path, error) {
	p, err := keypath.Parse(path)
	if err != nil {
		return nil, fmt.Errorf("sweep: %w", err)
	}
	return p, nil
}

// set stores v at path in tree, creating maps for missing keys along the
// way. A nil v removes the key instead (and creates nothing). Walking
// through a value that is not a map (for a key) or a list (for an index),
// or past the end of a list, is an error naming the path and the part of
// it that failed.
func set(tree map[string]any, path string, steps keypath.Path, v any) error {
	var cur any = tree
	for i, s := range steps {
		last := i == len(steps)-1
		switch c := cur.(type) {
		case map[string]any:
			if s.IsIndex() {
				return fmt.Errorf("sweep: %s: %s is a map, not a list", path, steps.Prefix(i))
			}
			if last {
				if v == nil {
					delete(c, s.Key)
				} else {
					c[s.Key] = v
				}
				return nil
			}
			next, ok := c[s.Key]
			if !ok || next == nil {
				if v == nil {
					return nil // nothing to remove
				}
				if steps[i+1].IsIndex() {
					return fmt.Errorf("sweep: %s: %s does not exist, so it has no element [%d]", path, steps.Prefix(i+1), steps[i+1].Index)
				}
				next = map[string]any{}
				c[s.Key] = next
			}
			cur = next
		case []any:
			if !s.IsIndex() {
				return fmt.Errorf("sweep: %s: %s is a list, not a map (index it as [i])", path, steps.Prefix(i))
			}
			if s.Index >= len(c) {
				return fmt.Errorf("sweep: %s: %s has %d elements, no [%d]", path, steps.Prefix(i), len(c), s.Index)
			}
			if last {
				if v == nil {
					return fmt.Errorf("sweep: %s: null cannot remove a list element", path)
				}
				c[s.Index] = v
				return nil
			}
			cur = c[s.Index]
		default:
			return fmt.Errorf("sweep: %s: %s is %s, not a map or list", path, steps.Prefix(i), describe(cur))
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
