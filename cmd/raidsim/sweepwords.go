package main

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/raidsim/raidsim/sweep"
)

// Figures name what was swept in words, not key paths: "stripe unit",
// "cache 16 MiB", "no cache".

// fieldWords names the fields people sweep most, by key path with list
// indices removed.
var fieldWords = map[string]string{
	"stack.raid.stripe_unit":  "stripe unit",
	"stack.raid.level":        "RAID level",
	"stack.raid.layout":       "parity layout",
	"stack.raid.raid5_write":  "RAID 5 small writes",
	"stack.disks":             "drives",
	"stack.cache":             "volume cache",
	"stack.cache.size":        "cache size",
	"stack.cache.mode":        "cache mode",
	"stack.cache.policy":      "destage policy",
	"stack.cache.order":       "destage order",
	"stack.drive.preset":      "drive",
	"stack.drive.write_cache": "drive write cache",
	"stack.drive.queue_depth": "NCQ depth",
	"stack.drive.scheduler":   "drive scheduler",
	"phases.iodepth":          "queue depth",
	"phases.bs":               "block size",
	"phases.rw":               "access pattern",
	"phases.rwmixread":        "reads (%)",
	"phases.size":             "region size",
}

var listIndex = regexp.MustCompile(`\[\d+\]`)

// axisWords names a swept key path for a figure's axis or legend.
func axisWords(path string) string {
	if w, ok := fieldWords[listIndex.ReplaceAllString(path, "")]; ok {
		return w
	}
	last := path[strings.LastIndex(path, ".")+1:]
	return strings.ReplaceAll(listIndex.ReplaceAllString(last, ""), "_", " ")
}

var sizeUnit = regexp.MustCompile(`^(\d+(?:\.\d+)?)([KMGTP]iB)$`)

// valueWords writes a swept value for a figure: sizes with a space
// ("64 KiB"), a removed cache as "no cache", a cache section by its
// size ("cache 16 MiB"), switches as on and off.
func valueWords(path string, v any) string {
	cache := listIndex.ReplaceAllString(path, "") == "stack.cache"
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
		case listIndex.ReplaceAllString(path, "") == "stack.cache":
		case listIndex.ReplaceAllString(path, "") == "stack.raid.level":
			w = "RAID " + w
		default:
			w = fmt.Sprintf("%s %s", axisWords(path), w)
		}
		parts[i] = w
	}
	return strings.Join(parts, ", ")
}
