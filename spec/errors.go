package spec

import (
	"fmt"
	"strings"

	"github.com/raidsim/raidsim/internal/keypath"
)

// FieldError is one problem with a config, at a key path such as
// "stack.raid.stripe_unit" or "phases[1].bs".
type FieldError struct {
	// Path is the key path; empty for the whole config.
	Path string
	// Msg says what is wrong, with the value.
	Msg string
}

// Error returns "path: msg".
func (e *FieldError) Error() string {
	if e.Path == "" {
		return e.Msg
	}
	return e.Path + ": " + e.Msg
}

// Error lists every problem found in a config.
type Error struct {
	// Source is the file or source name given to Parse or Decode, if any.
	Source string
	// Fields are the problems, in the order of the keys.
	Fields []*FieldError
}

// Error returns one problem per line, each prefixed with the source.
func (e *Error) Error() string {
	var b strings.Builder
	for i, f := range e.Fields {
		if i > 0 {
			b.WriteByte('\n')
		}
		if e.Source != "" {
			b.WriteString(e.Source + ": ")
		}
		b.WriteString(f.Error())
	}
	return b.String()
}

// Unwrap returns the field errors, for errors.As.
func (e *Error) Unwrap() []error {
	out := make([]error, len(e.Fields))
	for i, f := range e.Fields {
		out[i] = f
	}
	return out
}

// problems collects FieldErrors.
type problems []*FieldError

func (p *problems) add(path, format string, args ...any) {
	*p = append(*p, &FieldError{Path: path, Msg: fmt.Sprintf(format, args...)})
}

// under reports whether a problem was found at path or below it.
func (p problems) under(path string) bool {
	for _, e := range p {
		if Under(e.Path, path) {
			return true
		}
	}
	return false
}

// Under reports whether the key path path is section or lies inside it:
// "stack.raid.layout" is under "stack.raid", "phases[0].bs" under
// "phases" and "phases[0]", "stack.raidx" under neither.
func Under(path, section string) bool {
	return keypath.Under(path, section)
}

// related reports whether one of a and b is under the other; an empty
// path (a problem with the whole experiment) is related to every path.
func related(a, b string) bool {
	return a == "" || b == "" || Under(a, b) || Under(b, a)
}

// err returns nil or a *Error for source.
func (p problems) err(source string) error {
	if len(p) == 0 {
		return nil
	}
	return &Error{Source: source, Fields: p}
}

// maxLines bounds the lines of one lower-level error reported at a path.
const maxLines = 8

// addErr reports each line of a lower layer's error (errors.Join's) at
// path, as the layer wrote it, at most maxLines of them.
func (p *problems) addErr(path string, err error) {
	lines := strings.Split(err.Error(), "\n")
	for i, line := range lines {
		if i == maxLines {
			p.add(path, "... and %d more", len(lines)-i)
			break
		}
		p.add(path, "%s", line)
	}
}
