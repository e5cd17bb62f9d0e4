package playground

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/raidsim/raidsim/spec"
)

// Control is one of the page's controls: a key of the experiment as its
// definition in spec.Fields gives it (label, doc, the names an
// enumeration takes, bounds, default), with the `raidsim run` flag that
// sets the same key.
type Control struct {
	// Path is the key path the control sets; Flag the `raidsim run` flag
	// that sets it.
	Path string `json:"path"`
	Flag string `json:"flag"`
	// Group is the fieldset the page puts it in.
	Group string `json:"group"`
	// Label names it; Doc says what it is (the key's doc).
	Label string `json:"label"`
	Doc   string `json:"doc"`
	// Kind is select, number, range (a slider that reruns as it moves)
	// or switch.
	Kind string `json:"kind"`
	// Options are a select's choices; None, when set, is the choice that
	// leaves the key's section out (no array, no cache, no host).
	Options []Option `json:"options,omitempty"`
	None    string   `json:"none,omitempty"`
	// Min and Max bound a number or range.
	Min float64 `json:"min,omitempty"`
	Max float64 `json:"max,omitempty"`
	// Start is the value the page starts with.
	Start string `json:"start"`
	// Needs is the path of the control whose None choice leaves this
	// one out (stack.raid.level for the stripe unit).
	Needs string `json:"needs,omitempty"`
}

// Option is one choice of a select.
type Option struct {
	Value string `json:"value"`
	Text  string `json:"text"`
}

// control is the playground's choice of a key: what the field table
// does not say (the flag, the page's layout, its own starting scenario).
type control struct {
	path, flag, group, kind string
	// sizes are the choices of a size, in the page's ladder.
	sizes []string
	// none is the choice that leaves the section out.
	none string
	// start is the page's starting value; empty takes the key's default.
	start string
	// max narrows the key's bounds for a browser tab.
	max   float64
	needs string
}

// The page's fieldsets.
const (
	groupDrives   = "Drives"
	groupArray    = "Array"
	groupCache    = "Volume cache"
	groupHost     = "Host"
	groupWorkload = "Workload"
)

// MaxIOs bounds a playground run: it runs in a browser tab.
const MaxIOs = 20000

// controls are the page's controls, in order: the starting scenario is
// small random writes on a 4-drive RAID 5.
var controls = []control{
	{path: "stack.drive.preset", flag: "drive", group: groupDrives, kind: "select", start: "deskstar-7k160"},
	{path: "stack.drive.write_cache", flag: "write-cache", group: groupDrives, kind: "switch", start: "on"},
	{path: "stack.drive.precondition", flag: "precondition", group: groupDrives, kind: "select"},
	{path: "stack.raid.level", flag: "raid", group: groupArray, kind: "select", none: "none", start: "5"},
	{path: "stack.disks", flag: "disks", group: groupArray, kind: "number", start: "4", max: 16, needs: "stack.raid.level"},
	{path: "stack.raid.stripe_unit", flag: "stripe", group: groupArray, kind: "select", needs: "stack.raid.level",
		sizes: []string{"16KiB", "64KiB", "256KiB", "1MiB"}},
	{path: "stack.cache.size", flag: "cache", group: groupCache, kind: "select", none: "none", start: "none",
		sizes: []string{"1MiB", "8MiB", "64MiB", "256MiB"}},
	{path: "stack.cache.policy", flag: "destage", group: groupCache, kind: "select", needs: "stack.cache.size"},
	{path: "stack.host.preset", flag: "host", group: groupHost, kind: "select"},
	{path: "phases[0].rw", flag: "rw", group: groupWorkload, kind: "select", start: "randwrite"},
	{path: "phases[0].bs", flag: "bs", group: groupWorkload, kind: "select", sizes: []string{"4KiB", "16KiB", "64KiB", "256KiB", "1MiB"}},
	{path: "phases[0].iodepth", flag: "iodepth", group: groupWorkload, kind: "range", start: "4", max: 32},
	{path: "phases[0].ios", flag: "ios", group: groupWorkload, kind: "number", start: "2000", max: MaxIOs},
	{path: "seed", flag: "seed", group: groupWorkload, kind: "number", start: "1", max: 1 << 31},
}

// Controls returns the page's controls as the field definitions of t
// describe them: spec.Fields() for the page. A value added to an
// enumeration of a layer (a RAID level, a drive preset, a host) is a
// choice here.
func Controls(t spec.Table) ([]Control, error) {
	var out []Control
	for _, c := range controls {
		f, ok := t.Lookup(c.path)
		if !ok {
			return nil, fmt.Errorf("playground: %s is not a key", c.path)
		}
		ctl := Control{Path: c.path, Flag: c.flag, Group: c.group, Label: f.Words(), Doc: f.Doc, Kind: c.kind,
			None: c.none, Start: c.start, Needs: c.needs, Max: c.max}
		if ctl.Start == "" {
			ctl.Start = f.Default
		}
		if b := f.Bounds; b != nil {
			ctl.Min = max(b.Min, 1)
			if ctl.Max == 0 || b.Max < ctl.Max {
				ctl.Max = b.Max
			}
		}
		if c.none != "" {
			ctl.Options = append(ctl.Options, Option{c.none, "none"})
		}
		for _, v := range f.Values {
			if c.path == "stack.raid.level" && strings.HasPrefix(v, "raidz") {
				continue // RAIDZ's records follow no md stripe: the page's views are md's
			}
			if v != c.none {
				ctl.Options = append(ctl.Options, Option{v, optionText(c.path, v)})
			}
		}
		for _, s := range c.sizes {
			ctl.Options = append(ctl.Options, Option{s, s})
		}
		if ctl.Start == "" && len(ctl.Options) > 0 {
			ctl.Start = ctl.Options[0].Value
		}
		out = append(out, ctl)
	}
	return out, nil
}

// optionText writes a choice for people: RAID levels as "RAID 5".
func optionText(path, v string) string {
	if _, err := strconv.Atoi(v); err == nil && path == "stack.raid.level" {
		return "RAID " + v
	}
	return v
}

// pageControls are the controls of spec.Fields.
var pageControls = func() []Control {
	c, err := Controls(spec.Fields())
	if err != nil {
		panic(err) // a control naming no key: TestControlsAreKeys
	}
	return c
}()

// PageControls returns the page's controls.
func PageControls() []Control { return append([]Control(nil), pageControls...) }
