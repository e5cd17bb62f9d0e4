package raidsim

import (
	"time"

	"github.com/raidsim/raidsim/sim"
)

// PowerLossReport is what a power failure at one instant of the run
// would lose, layer by layer: data each layer acknowledged to the one
// above while it was only in volatile memory, and the redundant updates
// under way in the array. The run itself goes on; the report is a
// snapshot, as if the power had failed then.
type PowerLossReport struct {
	// AtSeconds is the instant, in seconds from the start of the run.
	AtSeconds float64 `json:"at_s"`
	// VolumeCacheBytes is the dirty data in the volume cache (being
	// destaged or not): acknowledged to the host, lost with the cache's
	// memory. Zero for a non-volatile cache, which keeps it.
	VolumeCacheBytes int64 `json:"volume_cache_bytes"`
	// VolumeCacheKept is the dirty data a non-volatile cache holds and
	// keeps through the failure.
	VolumeCacheKept int64 `json:"volume_cache_kept_bytes"`
	// CacheDeviceBytes is the data the volume cache's device (an SSD
	// cache tier) holds in its volatile write buffer: acknowledged to the
	// cache, lost with the power (0 with power-loss protection). Left out
	// without a cache device.
	CacheDeviceBytes *int64 `json:"cache_device_bytes,omitempty"`
	// DriveCacheBytes is, per drive, the data its write cache has
	// acknowledged and not yet written to the platters (for an SSD, its
	// volatile write buffer not yet programmed; 0 with power-loss
	// protection).
	DriveCacheBytes []int64 `json:"drive_cache_bytes"`
	// RAIDUpdatesInFlight counts RAID 5 stripes whose data and parity
	// writes, and RAID 1 or 10 writes whose copies, were in flight: each
	// may come back with parity or copies disagreeing with the data (the
	// write hole).
	RAIDUpdatesInFlight int `json:"raid_updates_in_flight"`
	// PageCacheBytes is the dirty data in the host's page cache (being
	// written back or not), 0 without one: written by programs, never
	// sent to the storage.
	PageCacheBytes int64 `json:"page_cache_bytes"`
	// LostBytes is PageCacheBytes plus VolumeCacheBytes plus
	// CacheDeviceBytes plus every drive's DriveCacheBytes.
	LostBytes int64 `json:"lost_bytes"`
	// LostRanges names, per layer that loses data, the first ranges lost
	// and how many there are.
	LostRanges []LostRanges `json:"lost_ranges,omitempty"`
	// Contents is what the power loss did to the array's bytes, with
	// RunOptions.CheckContents; nil otherwise.
	Contents *ContentsReport `json:"contents,omitempty"`
}

// powerLoss takes the snapshot when the engine reaches its instant.
type powerLoss struct {
	s        *Stack
	start    sim.Time
	rep      *PowerLossReport
	contents *contentsCheck // nil without a contents check
	eng      *sim.Engine
}

func (p *powerLoss) HandleEvent(now sim.Time, _ any) {
	r := &PowerLossReport{AtSeconds: now.Sub(p.start).Seconds()}
	if c := p.s.Cache; c != nil {
		if c.Config().NonVolatile || c.Device() != nil { // on a device, the data is there
			r.VolumeCacheKept = c.DirtyBytes()
		} else {
			r.VolumeCacheBytes = c.DirtyBytes()
		}
	}
	if h := p.s.Host; h != nil && h.PageCache() != nil {
		r.PageCacheBytes = h.PageCache().DirtyBytes()
	}
	r.LostBytes = r.VolumeCacheBytes + r.PageCacheBytes
	if d := p.s.CacheDevice; d != nil {
		b := d.DirtyBytes()
		r.CacheDeviceBytes = &b
		r.LostBytes += b
	}
	for _, d := range p.s.Drives { // an SSD's write buffer: 0 with power-loss protection
		b := d.DirtyBytes()
		r.DriveCacheBytes = append(r.DriveCacheBytes, b)
		r.LostBytes += b
	}
	if p.s.Array != nil {
		r.RAIDUpdatesInFlight = p.s.Array.UpdatesInFlight()
	}
	r.LostRanges = lostRanges(p.s)
	if p.contents != nil {
		c, err := p.contents.check()
		if err != nil {
			p.eng.Stop(err)
		}
		r.Contents = c
	}
	p.rep = r
}

// schedulePowerLoss arranges the snapshot at delay from now (when on);
// finish runs the engine up to it if the workload ended sooner (the
// drives keep destaging meanwhile) and returns the report.
func schedulePowerLoss(eng *sim.Engine, s *Stack, on bool, delay time.Duration, contents *contentsCheck) (finish func() *PowerLossReport) {
	if !on {
		return func() *PowerLossReport { return nil }
	}
	p := &powerLoss{s: s, start: eng.Now(), contents: contents, eng: eng}
	at := eng.Now().Add(delay)
	eng.Schedule(at, p, nil)
	return func() *PowerLossReport {
		if p.rep == nil {
			eng.RunUntil(at)
		}
		return p.rep
	}
}
