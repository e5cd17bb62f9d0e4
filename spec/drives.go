package spec

import (
	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/drive"
	"github.com/raidsim/raidsim/smr"
	"github.com/raidsim/raidsim/ssd"
)

// DriveKinds returns the kinds of drive a stack can be made of, in the
// order `raidsim drives` lists them. A new kind of drive is a package
// implementing drive.Model plus its line here: its presets are then
// listed, planned, built and reported.
func DriveKinds() []drive.Kind {
	return []drive.Kind{disk.Kind, ssd.Kind, smr.Kind}
}

// drivePresetNames lists every kind's presets, kind by kind.
func drivePresetNames() []string {
	var names []string
	for _, k := range DriveKinds() {
		names = append(names, k.Presets()...)
	}
	return names
}

// driveKind returns the kind of drive d describes: that of its Go model,
// else of its preset (disks when none names one).
func driveKind(d *Drive) drive.Kind {
	switch {
	case d.Custom != nil:
		return drive.Kind{Name: d.Custom.Kind()}
	case d.SSDModel != nil, d.SSD != nil && d.Preset == "" && d.Model == nil && d.Spec == nil:
		return ssd.Kind
	case d.Model != nil || d.Preset == "":
		return disk.Kind
	}
	if k, err := drive.Lookup(DriveKinds(), d.Preset); err == nil {
		return k
	}
	return disk.Kind // whose planning names the unknown preset
}

// planOtherDrive plans a drive of a kind with no keys of its own: its Go
// model (Drive.Custom) or its preset, every other key refused.
func planOtherDrive(p *problems, d *Drive, k drive.Kind) (drive.Model, bool) {
	const at = "stack.drive."
	before := len(*p)
	for _, key := range []struct {
		name string
		set  bool
	}{{"spec", d.Spec != nil}, {"ssd", d.SSD != nil}, {"disk", d.Disk != nil}, {"write_cache", d.WriteCache != nil}, {"write_cache_bytes", d.WriteCacheBytes != 0},
		{"spindle_sync", d.SpindleSync}, {"scheduler", d.Scheduler != ""}, {"queue_depth", d.QueueDepth != 0},
		{"read_ahead", d.ReadAhead != ""}, {"read_ahead_bytes", d.ReadAheadBytes != 0},
		{"buffer_size", d.BufferSize != 0}, {"segments", d.Segments != 0},
		{"precondition", d.Precondition != "" && d.Precondition != "none"}} {
		if key.set {
			p.add(at+key.name, "is not a setting of %s drives", k.Name)
		}
	}
	if d.Custom != nil && (d.Preset != "" || d.Model != nil || d.SSDModel != nil) {
		p.add(at+"preset", "give one model: a Go model (custom) or a preset, not both")
	}
	if len(*p) > before {
		return nil, false
	}
	if d.Custom != nil {
		return d.Custom, true
	}
	m, err := k.Preset(d.Preset)
	if err != nil {
		p.addErr(at+"preset", err)
		return nil, false
	}
	return m, true
}

// diskParams are the plan's disk model's parameters (zero when the
// drives are of another kind).
func (pl *Plan) diskParams() disk.Params {
	if m, ok := pl.Drive.(*disk.Model); ok {
		return m.Params()
	}
	return disk.Params{}
}

// planSMRDrive plans an SMR drive or CMR sibling (package smr): its
// preset, with the platter's settings write_cache, queue_depth and
// scheduler; every other key is refused.
func planSMRDrive(p *problems, d *Drive) (drive.Model, bool) {
	rest := *d
	rest.WriteCache, rest.QueueDepth, rest.Scheduler = nil, 0, ""
	m, ok := planOtherDrive(p, &rest, smr.Kind)
	if !ok || d.Custom != nil {
		return m, ok
	}
	sm, isSMR := m.(*smr.Model)
	if !isSMR || d.WriteCache == nil && d.QueueDepth == 0 && d.Scheduler == "" {
		return m, ok
	}
	params := sm.Params()
	if d.WriteCache != nil {
		params.Platter.WriteCache = *d.WriteCache
	}
	if d.QueueDepth != 0 {
		params.Platter.QueueDepth = d.QueueDepth
	}
	if d.Scheduler != "" {
		s, err := disk.ParseScheduler(d.Scheduler)
		if err != nil {
			p.addErr("stack.drive.scheduler", err)
			return nil, false
		}
		params.Platter.Scheduler = s
	}
	nm, err := smr.NewModel(params)
	if err != nil {
		p.addErr("stack.drive.preset", err)
		return nil, false
	}
	return nm, true
}
