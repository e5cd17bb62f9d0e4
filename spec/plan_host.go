package spec

import (
	"strings"
	"time"

	"github.com/raidsim/raidsim/host"
	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/trace"
)

// planHost checks the host description and fills pl.Host (nil for no
// host layer) and pl.HostStorage.
func planHost(p *problems, h *Host, pl *Plan) {
	const at = "stack.host."
	name := strings.ToLower(strings.TrimSpace(h.Preset))
	if name == "" || name == "none" {
		for _, f := range []struct {
			key string
			set bool
		}{{"cores", h.Cores != 0}, {"ram", h.RAM != 0}, {"page_cache", h.PageCache != ""}, {"direct", h.Direct},
			{"dirty_ratio", h.DirtyRatio != 0}, {"dirty_background_ratio", h.DirtyBackgroundRatio != 0},
			{"dirty_expire", h.DirtyExpire != 0}, {"writeback_interval", h.WritebackInterval != 0},
			{"read_ahead", h.ReadAhead != 0}, {"network", h.Network != ""}, {"syscall_cost", h.SyscallCost != nil},
			{"command_cost", h.CommandCost != nil}, {"stripe_cache_per_page", h.StripeCachePerPage != nil},
			{"copy_rate", h.CopyRate != nil}, {"xor_rate", h.XORRate != nil}, {"raid_read_bypass", h.RAIDReadBypass != nil},
			{"driver_per_kib", h.DriverPerKiB != nil}, {"raid_read_ahead_stripes", h.RAIDReadAheadStripes != nil},
			{"volume_cache_lookup", h.VolumeCacheLookup != nil}, {"volume_cache_copy_rate", h.VolumeCacheCopyRate != nil},
			{"reserve", h.Reserve != nil}, {"max_writeback", h.MaxWriteback != nil}, {"max_in_flight", h.MaxInFlight != nil},
			{"link_rate", h.LinkRate != nil}, {"link_latency", h.LinkLatency != nil}, {"link_overhead", h.LinkOverhead != nil},
			{"link_cpu_per_request", h.LinkCPUPerRequest != nil}, {"link_cpu_per_kib", h.LinkCPUPerKiB != nil}} {
			if f.set {
				p.add(at+f.key, "needs a host model (stack.host.preset, e.g. nas-1gb)")
			}
		}
		return
	}
	hp, err := host.Preset(name)
	if err != nil {
		p.badName(at+"preset", h.Preset)
		return
	}
	overrideHost(p, h, &hp)
	overrideCPU(p, h, &hp)
	overrideMemory(p, h, &hp)
	overrideLink(p, h, &hp)
	hp = hp.WithDefaults()
	if !p.under("stack.host") {
		if err := hp.Validate(); err != nil {
			p.addErr("stack.host", err)
		}
	}
	pl.Host = &hp
	pl.HostStorage = host.Storage{VolumeCache: pl.Cache != nil}
	if pl.RAID != nil && (pl.RAID.Level == raid.RAID5 || pl.RAID.Level == raid.RAID6) {
		n := 1
		if pl.RAID.Level == raid.RAID6 {
			n = 2 // P and Q
		}
		pl.HostStorage.Parity, pl.HostStorage.StripeUnit = n, pl.RAID.StripeUnit
		pl.HostStorage.DataMembers = pl.Disks - n
	}
}

// overrideHost applies the description's overrides to the preset hp.
func overrideHost(p *problems, h *Host, hp *host.Params) {
	const at = "stack.host."
	if h.Cores != 0 {
		p.checkBounds(at+"cores", int64(h.Cores))
		hp.Cores = h.Cores
	}
	if h.RAM != 0 {
		p.checkBounds(at+"ram", int64(h.RAM))
		hp.RAM, hp.Reserve = int64(h.RAM), min(hp.Reserve, int64(h.RAM)/2)
	}
	switch v := strings.ToLower(strings.TrimSpace(h.PageCache)); v {
	case "":
	case "off", "none":
		hp.PageCache.Off = true
	default:
		n, err := trace.ParseSize(v)
		switch {
		case err != nil:
			p.add(at+"page_cache", "%q: want a size (512MiB) or off", h.PageCache)
		case n < 16*host.PageSize || n > host.MaxRAM || n%host.PageSize != 0:
			p.add(at+"page_cache", "%d bytes: want a multiple of 4KiB from 64KiB to 16TiB", n)
		default:
			hp.PageCache.Size = n
		}
	}
	hp.Direct = hp.Direct || h.Direct
	pc := &hp.PageCache
	for _, f := range []struct {
		key string
		v   float64
		dst *float64
	}{{"dirty_ratio", h.DirtyRatio, &pc.DirtyRatio}, {"dirty_background_ratio", h.DirtyBackgroundRatio, &pc.DirtyBackgroundRatio}} {
		if p.checkFloat(at+f.key, f.v) && f.v != 0 {
			*f.dst = f.v
		}
	}
	for _, f := range []struct {
		key string
		v   Duration
		dst *time.Duration
	}{{"dirty_expire", h.DirtyExpire, &pc.DirtyExpire}, {"writeback_interval", h.WritebackInterval, &pc.WritebackInterval}} {
		if p.checkDuration(at+f.key, time.Duration(f.v)) && f.v != 0 {
			*f.dst = time.Duration(f.v)
		}
	}
	if h.ReadAhead != 0 {
		if h.ReadAhead < 0 || h.ReadAhead > 1<<30 || h.ReadAhead%host.PageSize != 0 {
			p.add(at+"read_ahead", "%d bytes: want a multiple of 4KiB up to 1GiB", h.ReadAhead)
		}
		pc.ReadAhead = int64(h.ReadAhead)
	}
	switch strings.ToLower(strings.TrimSpace(h.Network)) {
	case "":
	case "none":
		hp.Network = nil
	case "gigabit", "1gbe":
		l := host.Gigabit()
		hp.Network = withProtocolCost(l, hp.Network)
	case "10gbe":
		l := host.TenGigabit()
		hp.Network = withProtocolCost(l, hp.Network)
	default:
		p.badName(at+"network", h.Network)
	}
}

// withProtocolCost returns l with the protocol CPU costs of the preset's
// link, if it had one.
func withProtocolCost(l host.Link, old *host.Link) *host.Link {
	if old != nil {
		l.CPUPerRequest, l.CPUPerKiB = old.CPUPerRequest, old.CPUPerKiB
	}
	return &l
}

// overrideCPU applies the description's CPU cost overrides to hp.
func overrideCPU(p *problems, h *Host, hp *host.Params) {
	const at = "stack.host."
	if h.RAIDReadBypass != nil {
		hp.RAIDReadBypass = *h.RAIDReadBypass
	}
	for _, f := range []struct {
		key string
		v   *Duration
		dst *time.Duration
	}{{"syscall_cost", h.SyscallCost, &hp.SyscallCost}, {"command_cost", h.CommandCost, &hp.CommandCost},
		{"stripe_cache_per_page", h.StripeCachePerPage, &hp.StripeCachePerPage}, {"driver_per_kib", h.DriverPerKiB, &hp.DriverPerKiB},
		{"volume_cache_lookup", h.VolumeCacheLookup, &hp.VolumeCacheLookup}} {
		if f.v == nil {
			continue
		}
		p.checkDuration(at+f.key, time.Duration(*f.v))
		*f.dst = time.Duration(*f.v)
	}
	for _, f := range []struct {
		key string
		v   *Size
		dst *int64
	}{{"copy_rate", h.CopyRate, &hp.CopyRate}, {"xor_rate", h.XORRate, &hp.XORRate},
		{"volume_cache_copy_rate", h.VolumeCacheCopyRate, &hp.VolumeCacheCopyRate}} {
		if f.v == nil {
			continue
		}
		if *f.v < 0 {
			p.add(at+f.key, "%d bytes/s is negative", *f.v)
		}
		*f.dst = int64(*f.v)
	}
}

// overrideMemory applies the memory and page cache overrides to hp.
func overrideMemory(p *problems, h *Host, hp *host.Params) {
	const at = "stack.host."
	if h.Reserve != nil {
		if *h.Reserve < 0 || int64(*h.Reserve) >= hp.RAM {
			p.add(at+"reserve", "%d bytes: want 0 up to the %d bytes of RAM", *h.Reserve, hp.RAM)
		}
		hp.Reserve = int64(*h.Reserve)
	}
	if h.RAIDReadAheadStripes != nil {
		p.checkBounds(at+"raid_read_ahead_stripes", int64(*h.RAIDReadAheadStripes))
		hp.RAIDReadAheadStripes = *h.RAIDReadAheadStripes
	}
	if h.MaxWriteback != nil {
		hp.PageCache.MaxWriteback = int64(*h.MaxWriteback)
	}
	if h.MaxInFlight != nil {
		p.checkBounds(at+"max_in_flight", int64(*h.MaxInFlight))
		hp.PageCache.MaxInFlight = *h.MaxInFlight
	}
}

// overrideLink applies the network link's overrides to hp's link.
func overrideLink(p *problems, h *Host, hp *host.Params) {
	const at = "stack.host."
	given := h.LinkRate != nil || h.LinkLatency != nil || h.LinkOverhead != nil || h.LinkCPUPerRequest != nil || h.LinkCPUPerKiB != nil
	if !given {
		return
	}
	if hp.Network == nil {
		p.add(at+"network", "the link_* keys need a network link (network: gigabit or 10gbe)")
		return
	}
	l := *hp.Network
	if h.LinkRate != nil {
		l.Rate = int64(*h.LinkRate)
	}
	if h.LinkOverhead != nil {
		l.Overhead = int64(*h.LinkOverhead)
	}
	for _, f := range []struct {
		key string
		v   *Duration
		dst *time.Duration
	}{{"link_latency", h.LinkLatency, &l.Latency}, {"link_cpu_per_request", h.LinkCPUPerRequest, &l.CPUPerRequest},
		{"link_cpu_per_kib", h.LinkCPUPerKiB, &l.CPUPerKiB}} {
		if f.v != nil {
			p.checkDuration(at+f.key, time.Duration(*f.v))
			*f.dst = time.Duration(*f.v)
		}
	}
	hp.Network = &l
}
