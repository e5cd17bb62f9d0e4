package spec

import (
	"github.com/raidsim/raidsim/ssd"
)

// planSSD turns an SSD description into a checked model whose drives
// are preconditioned as asked: the preset (or Go model) with the drive
// keys that apply to SSDs (write_cache, queue_depth, precondition). Keys
// of the disk model are errors naming the key.
func planSSD(p *problems, d *Drive) (*ssd.Model, bool) {
	const at = "stack.drive."
	before := len(*p)
	var params ssd.Params
	switch {
	case d.SSDModel != nil && (d.Preset != "" || d.Model != nil):
		p.add(at+"preset", "give an SSD Go model or a preset, not both")
	case d.SSDModel != nil:
		params = *d.SSDModel
	default:
		var err error
		if params, err = ssd.Preset(d.Preset); err != nil {
			p.addErr(at+"preset", err)
		}
	}
	for _, k := range []struct {
		key string
		set bool
	}{{"spec", d.Spec != nil}, {"spindle_sync", d.SpindleSync}, {"scheduler", d.Scheduler != ""},
		{"read_ahead", d.ReadAhead != ""}, {"read_ahead_bytes", d.ReadAheadBytes != 0}, {"buffer_size", d.BufferSize != 0},
		{"segments", d.Segments != 0}, {"write_cache_bytes", d.WriteCacheBytes != 0}} {
		if k.set {
			p.add(at+k.key, "is a disk setting; %q is an SSD (its keys: write_cache, queue_depth, precondition)", params.Name)
		}
	}
	params.FillDefaults()
	if d.WriteCache != nil && !*d.WriteCache {
		params.WriteBuffer = 0
	}
	if d.QueueDepth != 0 {
		checkRange(p, at+"queue_depth", int64(d.QueueDepth), 1, int64(params.Interface.MaxQueueDepth())) // the device's bound
		params.QueueDepth = d.QueueDepth
	}
	pc, err := ssd.ParsePrecondition(d.Precondition)
	if err != nil {
		p.badName(at+"precondition", d.Precondition)
	}
	if len(*p) > before {
		return nil, false
	}
	m, err := ssd.NewModel(params)
	if err != nil {
		p.addErr("stack.drive", err)
		return nil, false
	}
	return m.WithPrecondition(pc), true
}
