package main

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/raidsim/raidsim/internal/keypath"
	"github.com/raidsim/raidsim/sweep"
)

// Figures name what was swept in words, not key paths: "stripe unit",
// "cache 16 MiB", "no cache". The words of a key are its label in the
// field table (spec.Fields).

// pattern is a key path with its list indices as "[]" ("phases[].bs").
func pattern(path string) string {
	p, err := keypath.Pattern(path)
	if err != nil {
		return path
	}
	return p
}

// axisWords names a swept key path for a figure's axis or legend.
func axisWords(path string) string {
	if f, ok := keys.Lookup(path); ok {
		return f.Words()
	}
	last := pattern(path)
	last = last[strings.LastIndex(last, ".")+1:]
	return strings.ReplaceAll(strings.ReplaceAll(last, "[]", ""), "_", " ")
}

var sizeUnit = regexp.MustCompile(`^(\d+(?:\.\d+)?)([KMGTP]iB)$`)

// valueWords writes a swept value for a figure: sizes with a space
// ("64 KiB"), a removed cache as "no cache", a cache section by its
// size ("cache 16 MiB"), switches as on and off.
func valueWords(path string, v any) string {
	cache := pattern(path) == "stack.cache"
	switch x := v.(type) {
	case nil:
		if cache {
			return "no cache"
		}
		return "none"
	case bool:
		if x {
			return "on"
		}
		return "off"
	case string:
		return sizeUnit.ReplaceAllString(x, "$1 $2")
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		var parts []string
		for _, k := range keys {
			w := valueWords(path+"."+k, x[k])
			if !(cache && k == "size") {
				w = axisWords(path+"."+k) + " " + w
			}
			parts = append(parts, w)
		}
		s := strings.Join(parts, ", ")
		if cache {
			s = "cache " + s
		}
		return s
	}
	return sizeUnit.ReplaceAllString(sweep.FormatValue(v), "$1 $2")
}

// pointWords names a point (or the axes of one given) for a legend:
// "stripe unit 64 KiB, cache 16 MiB".
func pointWords(p sweep.Point) string {
	parts := make([]string, len(p.Values))
	for i, v := range p.Values {
		path := p.Paths[i]
		w := valueWords(path, v)
		switch {
		case pattern(path) == "stack.cache":
		case pattern(path) == "stack.raid.level":
			w = "RAID " + w
		default:
			w = fmt.Sprintf("%s %s", axisWords(path), w)
		}
		parts[i] = w
	}
	return strings.Join(parts, ", ")
}
