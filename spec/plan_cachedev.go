package spec

import (
	"cmp"
	"slices"

	"github.com/raidsim/raidsim/cache"
	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/drive"
	"github.com/raidsim/raidsim/ssd"
)

// DefaultCacheDevice is the preset of a cache device given without one:
// the Intel X25-M G2, the SSD of the early SSD caches (Intel's Smart
// Response Technology shipped with its smaller siblings).
const DefaultCacheDevice = "intel-x25m-g2"

// planCacheDevice checks the drive a cache keeps its data on (an SSD or
// a disk preset with the write cache and power-loss protection
// overrides) and returns its model. The cache's data and journal must
// fit on it.
func planCacheDevice(p *problems, d *CacheDevice, cfg *cache.Config) drive.Model {
	const at = "stack.cache.device."
	var m drive.Model
	preset := cmp.Or(d.Preset, DefaultCacheDevice)
	switch k := driveKind(&Drive{Preset: preset}); {
	case !slices.Contains(presetNames, preset):
		p.badName(at+"preset", preset)
		return nil
	case k.Name == ssd.KindName:
		params, err := ssd.Preset(preset)
		if err != nil {
			p.addErr(at+"preset", err)
			return nil
		}
		params.FillDefaults()
		if d.WriteCache != nil && !*d.WriteCache {
			params.WriteBuffer = 0
		}
		if d.PowerLossProtection != nil {
			params.PowerLossProtection = *d.PowerLossProtection
		}
		sm, err := ssd.NewModel(params)
		if err != nil {
			p.addErr(at+"preset", err)
			return nil
		}
		m = sm
	case k.Name == disk.KindName:
		if d.PowerLossProtection != nil {
			p.add(at+"power_loss_protection", "is an SSD setting; %q is a disk", preset)
		}
		dm, ok := planDrive(p, &Drive{Preset: preset, WriteCache: d.WriteCache})
		if !ok {
			return nil
		}
		m = dm
	default: // a kind with no settings of its own here
		if d.WriteCache != nil || d.PowerLossProtection != nil {
			p.add(at+"preset", "%q is a %s drive: write_cache and power_loss_protection are settings of SSD and disk presets", preset, k.Name)
			return nil
		}
		om, ok := planOtherDrive(p, &Drive{Preset: preset}, k)
		if !ok {
			return nil
		}
		m = om
	}
	if cfg != nil {
		c := cfg.WithDefaults()
		journal := max(c.Size/64, 1<<20)
		if c.Size+journal > m.Capacity() {
			p.add("stack.cache.size", "%d bytes and a %d-byte journal do not fit on the %d-byte cache device %s", c.Size, journal, m.Capacity(), preset)
		}
	}
	return m
}
