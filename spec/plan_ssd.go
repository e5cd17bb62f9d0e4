package spec

import (
	"reflect"
	"strings"

	"github.com/raidsim/raidsim/ssd"
)

// planSSD turns an SSD description into a checked model whose drives
// are preconditioned as asked: the preset (or Go model, or nothing)
// with the keys of stack.drive.ssd over it, then the drive keys that
// apply to SSDs (write_cache, queue_depth, precondition). Keys of the
// disk model are errors naming the key; the model's own checks are
// reported at the key that set the parameter.
func planSSD(p *problems, d *Drive) (*ssd.Model, bool) {
	const at = "stack.drive."
	before := len(*p)
	params := baseSSD(p, d)
	for _, k := range []struct {
		key string
		set bool
	}{{"spec", d.Spec != nil}, {"spindle_sync", d.SpindleSync}, {"scheduler", d.Scheduler != ""},
		{"read_ahead", d.ReadAhead != ""}, {"read_ahead_bytes", d.ReadAheadBytes != 0}, {"buffer_size", d.BufferSize != 0},
		{"segments", d.Segments != 0}, {"write_cache_bytes", d.WriteCacheBytes != 0}} {
		if k.set {
			p.add(at+k.key, "is a disk setting; %q is an SSD (its keys: ssd, write_cache, queue_depth, precondition)", params.Name)
		}
	}
	if d.SSD != nil {
		applySSD(p, d.SSD, &params)
	}
	params.FillDefaults()
	if d.SSD != nil && d.SSD.BlocksPerPlane != nil {
		flashCapacity(p, d.SSD, &params)
	}
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
		ssdErrors(p, d, err)
		return nil, false
	}
	return m.WithPrecondition(pc), true
}

// baseSSD returns the SSD before the keys of stack.drive.ssd: the Go
// model, the preset, or (an ssd section alone) nothing.
func baseSSD(p *problems, d *Drive) ssd.Params {
	const at = "stack.drive."
	switch {
	case d.SSDModel != nil && (d.Preset != "" || d.Model != nil):
		p.add(at+"preset", "give an SSD Go model or a preset, not both")
	case d.SSDModel != nil:
		return *d.SSDModel
	case d.Preset == "" && d.SSD != nil:
		return ssd.Params{Name: "custom"}
	default:
		params, err := ssd.Preset(d.Preset)
		if err != nil {
			p.addErr(at+"preset", err)
		}
		return params
	}
	return ssd.Params{}
}

// ssdAt is the key path of the stack.drive.ssd key k.
const ssdAt = "stack.drive.ssd."

// applySSD puts the keys given in s over params, each on the ssd.Params
// field of the same name; rates in MB/s become bytes per second.
func applySSD(p *problems, s *SSDSpec, params *ssd.Params) {
	if s.Name != "" {
		params.Name = s.Name
	}
	var err error
	if s.Interface != "" {
		if params.Interface, err = ssd.ParseInterface(s.Interface); err != nil {
			p.badName(ssdAt+"interface", s.Interface)
		}
	}
	if s.GC != "" {
		if params.GC, err = ssd.ParseGCPolicy(s.GC); err != nil {
			p.badName(ssdAt+"gc", s.GC)
		}
	}
	if s.Capacity != nil && s.BlocksPerPlane != nil {
		p.add(ssdAt+"blocks_per_plane", "give capacity or blocks_per_plane (which sets the capacity), not both")
	}
	overrideByName(reflect.ValueOf(s).Elem(), reflect.ValueOf(params).Elem(), ssdAt)
}

// overrideByName sets each field of dst that src gives (a non-nil
// pointer field of the same name) to src's value; a number whose key
// under at is in MB/s becomes bytes per second.
func overrideByName(src, dst reflect.Value, at string) {
	for i := range src.NumField() {
		sf := src.Type().Field(i)
		v, d := src.Field(i), dst.FieldByName(sf.Name)
		if v.Kind() != reflect.Pointer || v.IsNil() || !d.IsValid() {
			continue
		}
		switch x := v.Elem(); x.Kind() {
		case reflect.Float64:
			f := x.Float()
			key, _, _ := strings.Cut(sf.Tag.Get("yaml"), ",")
			if fieldFor(at+key).Unit == "MB/s" {
				f *= 1e6
			}
			d.SetFloat(f)
		case reflect.Bool:
			d.SetBool(x.Bool())
		default: // sizes, durations, counts
			d.SetInt(x.Int())
		}
	}
}

// flashCapacity sets the capacity from the flash geometry, as MQSim
// gives it: the flash of BlocksPerPlane blocks per plane, less the spare
// space, in whole map units.
func flashCapacity(p *problems, s *SSDSpec, params *ssd.Params) {
	b := *s.BlocksPerPlane
	if b < 1 || b > 1<<20 {
		p.add(ssdAt+"blocks_per_plane", "%d is outside 1..%d", b, 1<<20)
		return
	}
	flash := float64(params.Dies()) * float64(params.PlanesPerDie) * float64(b) * float64(params.PagesPerBlock) * float64(params.PageSize)
	unit := float64(max(params.MapUnit, 1))
	params.Capacity = int64(flash/(1+params.OverProvisioning)/unit) * int64(unit)
}

// ssdErrors reports the SSD model's problems ("ssd: Params.Channels:
// must be ...") at the key that set the parameter, or at stack.drive
// when the preset or model gave it.
func ssdErrors(p *problems, d *Drive, err error) {
	at := func(field string) string {
		switch {
		case field == "QueueDepth" && d.QueueDepth != 0:
			return "stack.drive.queue_depth"
		case d.SSD != nil && givenField(d.SSD, field):
			return ssdAt + keysByField[SSDSpec]()[field]
		case field == "Capacity" && d.SSD != nil && d.SSD.BlocksPerPlane != nil:
			return ssdAt + "blocks_per_plane"
		}
		return ""
	}
	layerErrors(p, err, "ssd: Params.", at)
}

// layerErrors reports each line of a layer's "prefixField: msg" error at
// the key at names for the field, or whole at stack.drive.
func layerErrors(p *problems, err error, prefix string, at func(field string) string) {
	for _, line := range strings.Split(err.Error(), "\n") {
		field, msg, ok := strings.Cut(strings.TrimPrefix(line, prefix), ": ")
		if path := at(field); ok && path != "" {
			p.add(path, "%s", msg)
			continue
		}
		p.add("stack.drive", "%s", line)
	}
}

// keysByField maps the field names of a struct type to their keys.
func keysByField[T any]() map[string]string {
	m := map[string]string{}
	t := reflect.TypeFor[T]()
	for i := range t.NumField() {
		k, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
		m[t.Field(i).Name] = k
	}
	return m
}

// givenField reports whether the struct *s gives the field.
func givenField(s any, field string) bool {
	v := reflect.ValueOf(s).Elem().FieldByName(field)
	return v.IsValid() && !v.IsZero()
}
