package spec

import (
	"strings"

	"github.com/raidsim/raidsim/drive"
	"github.com/raidsim/raidsim/raid/raidz"
)

// RAIDZPlan is a ZFS RAIDZ array: its configuration and how full the
// pool is before the run.
type RAIDZPlan struct {
	// Config is the array's configuration, defaults filled.
	Config raidz.Config
	// Fill is the fraction of the volume's records allocated before the
	// run, by FillStreams files written side by side (raidz.Array.Fill).
	Fill        float64
	FillStreams int
}

// isRAIDZ reports whether level names a RAIDZ level.
func isRAIDZ(level string) bool {
	return strings.HasPrefix(strings.ToLower(strings.TrimSpace(level)), "raidz")
}

// planRAIDZ checks a RAIDZ array of n drives of ss-byte sectors. The
// md keys are refused.
func planRAIDZ(p *problems, r *RAID, n int, ss int64) *RAIDZPlan {
	const at = "stack.raid."
	var cfg raidz.Config
	switch strings.ToLower(strings.TrimSpace(r.Level)) {
	case "raidz1", "raidz":
		cfg.Parity = 1
	case "raidz2":
		cfg.Parity = 2
	case "raidz3":
		cfg.Parity = 3
	default:
		p.add(at+"level", "%q is not a RAID level (want %s)", r.Level, orList(levelNames))
		return nil
	}
	for _, k := range []struct {
		name string
		set  bool
	}{{"stripe_unit", r.StripeUnit != 0}, {"layout", r.Layout != ""}, {"raid5_write", r.RAID5Write != ""},
		{"raid6_write", r.RAID6Write != ""}, {"read_policy", r.ReadPolicy != ""}, {"parity_rate", r.ParityRate != 0},
		{"rebuild_rate", r.RebuildRate != 0}, {"speed_limit_min", r.SpeedLimitMin != 0}} {
		if k.set {
			p.add(at+k.name, "is a setting of md's levels, not of %s", r.Level)
		}
	}
	cfg.RecordSize, cfg.ScanBatch = int64(r.RecordSize), r.ScanBatch
	if r.Ashift != 0 {
		p.checkBounds(at+"ashift", int64(r.Ashift))
		cfg.Ashift = uint(max(r.Ashift, 0))
	}
	p.checkBounds(at+"scan_batch", int64(r.ScanBatch))
	if r.Fill < 0 || r.Fill > 1 {
		p.add(at+"fill", "%g is not a fraction 0..1", r.Fill)
	}
	streams := r.FillStreams
	if streams == 0 {
		streams = 1
	}
	p.checkBounds(at+"fill_streams", int64(streams))
	cfg = cfg.WithDefaults()
	if n == 0 {
		n = cfg.Parity + 2
	}
	if !p.under("stack.raid") {
		if err := cfg.Validate(n); err != nil {
			p.addErr("stack.raid", err)
		} else if int64(1)<<cfg.Ashift < ss {
			p.add(at+"ashift", "%d (%d bytes) is smaller than the drives' %d-byte sector", cfg.Ashift, 1<<cfg.Ashift, ss)
		}
	}
	return &RAIDZPlan{Config: cfg, Fill: r.Fill, FillStreams: streams}
}

// refuseRAIDZKeys refuses the RAIDZ keys on md's levels.
func refuseRAIDZKeys(p *problems, r *RAID) {
	for _, k := range []struct {
		name string
		set  bool
	}{{"recordsize", r.RecordSize != 0}, {"ashift", r.Ashift != 0}, {"fill", r.Fill != 0},
		{"fill_streams", r.FillStreams != 0}, {"scan_batch", r.ScanBatch != 0}} {
		if k.set {
			p.add("stack.raid."+k.name, "is a setting of RAIDZ, not of %s", r.Level)
		}
	}
}

// planRebuildDrive checks the replacement's preset: a drive of any kind
// with the members' sector size, holding at least what they hold.
func planRebuildDrive(p *problems, preset string, pl *Plan) drive.Model {
	const at = "stack.rebuild.drive"
	d := &Drive{Preset: preset}
	k := driveKind(d)
	sub := problems{}
	var m drive.Model
	var ok bool
	switch k.Name {
	case "ssd":
		m, ok = planSSD(&sub, d)
	case "disk":
		m, ok = planDrive(&sub, d)
	case "smr":
		m, ok = planSMRDrive(&sub, d)
	default:
		m, ok = planOtherDrive(&sub, d, k)
	}
	for _, e := range sub {
		p.add(at, "%s", e.Msg)
	}
	if !ok || m == nil {
		if len(sub) == 0 {
			p.badName(at, preset)
		}
		return nil
	}
	if pl.Drive != nil {
		if m.SectorSize() != pl.Drive.SectorSize() {
			p.add(at, "%s has %d-byte sectors, the members %d", preset, m.SectorSize(), pl.Drive.SectorSize())
		}
		if m.Capacity() < pl.Drive.Capacity() {
			p.add(at, "%s holds %d bytes, less than a member's %d", preset, m.Capacity(), pl.Drive.Capacity())
		}
	}
	return m
}
