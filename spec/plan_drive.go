package spec

import (
	"reflect"
	"strings"
	"time"

	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/drive"
	"github.com/raidsim/raidsim/trace"
)

// planDrive turns the drive description into a disk model: a preset, a
// data-sheet spec or a Go model, then the overrides. The model is
// validated here, once, for every drive of the stack.
func planDrive(p *problems, d *Drive) (*disk.Model, bool) {
	before := len(*p)
	params, ok := baseModel(p, d)
	if !ok {
		return nil, false
	}
	params.FillDefaults()
	applyDriveOverrides(p, d, &params)
	if d.Disk != nil {
		overrideByName(reflect.ValueOf(d.Disk).Elem(), reflect.ValueOf(&params).Elem(), diskAt)
	}
	if len(*p) > before {
		return nil, false
	}
	m, err := disk.NewModel(params)
	if err != nil && d.Disk != nil {
		keys := keysByField[DiskParams]()
		layerErrors(p, err, "disk: Params.", func(field string) string {
			if givenField(d.Disk, field) {
				return diskAt + keys[field]
			}
			return ""
		})
		return nil, false
	}
	if err != nil {
		p.addErr("stack.drive", err)
		return nil, false
	}
	return m, true
}

// diskAt is the path of stack.drive.disk's keys.
const diskAt = "stack.drive.disk."

// baseModel returns the drive model before the overrides: Model, or a
// preset's spec with Spec's figures over it, or Spec alone.
func baseModel(p *problems, d *Drive) (disk.Params, bool) {
	if d.Model != nil {
		if d.Preset != "" || d.Spec != nil {
			p.add("stack.drive", "give a Go model or a preset and spec, not both")
			return disk.Params{}, false
		}
		return *d.Model, true
	}
	var spec disk.Spec
	preset := d.Preset
	if preset == "" && d.Spec == nil {
		preset = DefaultPreset
	}
	if preset != "" {
		var err error
		if spec, err = disk.PresetSpec(preset); err != nil {
			p.add("stack.drive.preset", "%s", strings.TrimPrefix(unknownPreset(preset).Error(), "drive: "))
			return disk.Params{}, false
		}
	}
	before := len(*p)
	if d.Spec != nil {
		applySpec(p, d.Spec, &spec)
		if preset == "" {
			spec.WriteCache = true // as drives ship
			if spec.Name == "" {
				spec.Name = "custom"
			}
		}
	}
	if len(*p) > before {
		return disk.Params{}, false
	}
	params, err := spec.Derive()
	if err != nil {
		path := "stack.drive.spec"
		if d.Spec == nil {
			path = "stack.drive.preset"
		}
		p.addErr(path, err)
		return disk.Params{}, false
	}
	return params, true
}

// applySpec puts the non-zero data-sheet figures of s over spec.
func applySpec(p *problems, s *DriveSpec, spec *disk.Spec) {
	const at = "stack.drive.spec."
	over := func(dst *int, v int, key string) {
		if v != 0 {
			p.checkBounds(at+key, int64(v))
			*dst = v
		}
	}
	overRate := func(dst *float64, v float64, key string) {
		if v == 0 {
			return
		}
		if f := fieldFor(at + key); v < f.Bounds.Min || v > f.Bounds.Max {
			p.add(at+key, "%g MB/s is outside %s", v, f.BoundsWords())
		}
		*dst = v * 1e6
	}
	overTime := func(dst *time.Duration, v Duration, key string) {
		if v != 0 {
			p.checkDuration(at+key, time.Duration(v))
			*dst = time.Duration(v)
		}
	}
	if s.Name != "" {
		spec.Name = s.Name
	}
	if s.Capacity > maxCapacity {
		p.add(at+"capacity", "%d bytes is more than %s", s.Capacity, trace.FormatSize(maxCapacity))
	} else if s.Capacity != 0 {
		spec.Capacity = int64(s.Capacity)
	}
	if s.SectorSize != 0 && s.SectorSize != 512 && s.SectorSize != 4096 {
		p.add(at+"sector_size", "%d: want 512 or 4096", s.SectorSize)
	} else if s.SectorSize != 0 {
		spec.SectorSize = s.SectorSize
	}
	over(&spec.RPM, s.RPM, "rpm")
	over(&spec.Heads, s.Heads, "heads")
	over(&spec.Zones, s.Zones, "zones")
	overRate(&spec.OuterSustained, s.OuterSustained, "outer_sustained")
	overRate(&spec.InnerSustained, s.InnerSustained, "inner_sustained")
	overRate(&spec.OuterInstant, s.OuterInstant, "outer_instant")
	overRate(&spec.InnerInstant, s.InnerInstant, "inner_instant")
	if (spec.OuterInstant > 0) != (spec.InnerInstant > 0) {
		key := "inner_instant"
		if spec.OuterInstant == 0 {
			key = "outer_instant"
		}
		p.add(at+key, "missing: the one-track rates fix sectors per track as a pair (outer_instant and inner_instant)")
	}
	overRate(&spec.InterfaceRate, s.InterfaceRate, "interface_rate")
	overTime(&spec.TrackToTrack, s.TrackToTrack, "track_to_track")
	overTime(&spec.AverageSeek, s.AverageSeek, "average_seek")
	overTime(&spec.FullStroke, s.FullStroke, "full_stroke")
	overTime(&spec.WriteSettle, s.WriteSettle, "write_settle")
	overTime(&spec.HeadSwitch, s.HeadSwitch, "head_switch")
	overTime(&spec.ReadOverhead, s.ReadOverhead, "read_overhead")
	overTime(&spec.WriteOverhead, s.WriteOverhead, "write_overhead")
	if s.BufferSize > 1<<34 {
		p.add(at+"buffer_size", "%d bytes is more than 16GiB", s.BufferSize)
	} else if s.BufferSize != 0 {
		spec.BufferSize = int64(s.BufferSize)
	}
}

// applyDriveOverrides applies the drive keys that override the model.
func applyDriveOverrides(p *problems, d *Drive, params *disk.Params) {
	const at = "stack.drive."
	if d.WriteCache != nil {
		params.WriteCache = *d.WriteCache
	}
	if d.SpindleSync {
		params.SpindleSync = true
	}
	if d.Scheduler != "" {
		s, err := disk.ParseScheduler(d.Scheduler)
		if err != nil {
			p.badName(at+"scheduler", d.Scheduler)
		}
		params.Scheduler = s
	}
	if d.QueueDepth != 0 {
		checkRange(p, at+"queue_depth", int64(d.QueueDepth), 1, disk.MaxQueueDepth) // the device's bound
		params.QueueDepth = d.QueueDepth
	}
	if d.ReadAhead != "" {
		var ra disk.ReadAheadPolicy
		if err := ra.UnmarshalText([]byte(d.ReadAhead)); err != nil {
			p.badName(at+"read_ahead", d.ReadAhead)
		}
		params.ReadAhead = ra
	}
	applyBufferOverrides(p, d, params)
	if d.Segments != 0 {
		p.checkBounds(at+"segments", int64(d.Segments))
		params.Segments = d.Segments
	}
}

// applyBufferOverrides applies the buffer, write cache and read-ahead
// sizes.
func applyBufferOverrides(p *problems, d *Drive, params *disk.Params) {
	const at = "stack.drive."
	ss := int64(params.SectorSize)
	if d.BufferSize != 0 {
		if d.BufferSize > 1<<34 {
			p.add(at+"buffer_size", "%d bytes is more than 16GiB", d.BufferSize)
		} else {
			checkAligned(p, at+"buffer_size", int64(d.BufferSize), ss)
			params.BufferSize = int64(d.BufferSize)
			if d.WriteCacheBytes == 0 {
				params.WriteCacheBytes = params.BufferSize / 4 * 3
			}
		}
	}
	if d.WriteCacheBytes != 0 {
		checkAligned(p, at+"write_cache_bytes", int64(d.WriteCacheBytes), ss)
		if d.WriteCacheBytes > Size(params.BufferSize) {
			p.add(at+"write_cache_bytes", "%d bytes is more than the %d-byte buffer", d.WriteCacheBytes, params.BufferSize)
		}
		params.WriteCacheBytes = int64(d.WriteCacheBytes)
	}
	if d.ReadAheadBytes != 0 {
		checkAligned(p, at+"read_ahead_bytes", int64(d.ReadAheadBytes), ss)
		params.ReadAheadBytes = int64(d.ReadAheadBytes)
	}
}

// unknownPreset is the error naming every kind's presets (disks, SSDs,
// SMR drives) for a name none has.
func unknownPreset(name string) error {
	_, err := drive.Lookup(DriveKinds(), name)
	return err
}
