package host

import (
	"time"

	"github.com/raidsim/raidsim/cache"
	"github.com/raidsim/raidsim/sim"
)

// Stats is a snapshot of what a Host has done since it was made. Take
// two and Summarize the span between them (a benchmark phase).
type Stats struct {
	// At is the virtual time of the snapshot.
	At sim.Time
	// Cores is the number of cores.
	Cores int
	// CPU is the core time served, by Kind. Work is counted when it is
	// queued, so a snapshot may include work that finishes a little later.
	CPU [NumKinds]time.Duration
	// CPUWait is the time work waited for a free core, summed.
	CPUWait time.Duration
	// Requests counts requests from the client; Direct those that went
	// straight to the storage (no page cache).
	Requests, Direct int64
	// NetBusy is the time each direction of the link carried bytes
	// (index 0: client to host, 1: host to client), NetBytes its bytes.
	NetBusy  [2]time.Duration
	NetBytes [2]int64
	// PageCache is the page cache's statistics; HasPageCache is false
	// (and PageCache zero) without one.
	PageCache    cache.Stats
	HasPageCache bool
}

// Stats returns a snapshot now.
func (h *Host) Stats() Stats {
	s := Stats{
		At: h.eng.Now(), Cores: h.p.Cores, CPU: h.cpu.busy, CPUWait: h.cpu.wait,
		Requests: h.stats.requests, Direct: h.stats.direct,
	}
	for i := range h.link {
		s.NetBusy[i], s.NetBytes[i] = h.link[i].busy, h.link[i].bytes
	}
	if h.pc != nil {
		s.PageCache, s.HasPageCache = h.pc.Stats(), true
	}
	return s
}

// CPUSeconds is core time by kind of work, in seconds.
type CPUSeconds struct {
	Syscall     float64 `json:"syscall"`
	Copy        float64 `json:"copy"`
	Network     float64 `json:"network"`
	Driver      float64 `json:"driver"`
	Parity      float64 `json:"parity"`
	StripeCache float64 `json:"stripe_cache"`
	VolumeCache float64 `json:"volume_cache"`
	// Total is the sum of the kinds.
	Total float64 `json:"total"`
}

// Summary is what a report shows of a host over a span of time.
type Summary struct {
	// Cores is the number of cores.
	Cores int `json:"cores"`
	// CPUUtilizationPct is the core time served over the span divided by
	// cores x span, in percent, as benchmark tools report CPU use on a
	// multi-core machine (100 means every core busy throughout).
	CPUUtilizationPct float64 `json:"cpu_utilization_pct"`
	// CPUSeconds is the core time served, by kind.
	CPUSeconds CPUSeconds `json:"cpu_s"`
	// CPUWaitSeconds is the time requests' work waited for a core, summed.
	CPUWaitSeconds float64 `json:"cpu_wait_s"`
	// Requests counts the client's requests in the span.
	Requests int64 `json:"requests"`
	// PageCache reports whether the host had a page cache.
	PageCache bool `json:"page_cache"`
	// PageCacheHitRatio is the fraction of read bytes served from the
	// page cache in the span.
	PageCacheHitRatio float64 `json:"page_cache_hit_ratio"`
	// DirtyPeakBytes is the most dirty data the page cache held at once,
	// from the start of the run to the end of the span.
	DirtyPeakBytes int64 `json:"dirty_peak_bytes"`
	// ThrottleSeconds is the time in the span during which writers were
	// throttled, waiting for writeback to bring dirty data under the
	// dirty limit.
	ThrottleSeconds float64 `json:"throttle_s"`
	// WritebackBytes is the bytes the page cache wrote to the storage in
	// the span.
	WritebackBytes int64 `json:"writeback_bytes"`
	// NetworkUtilizationPct is the busier direction's share of the span
	// spent carrying bytes, in percent; zero without a link.
	NetworkUtilizationPct float64 `json:"network_utilization_pct"`
	// NetworkBytes is the bytes carried both ways, protocol included.
	NetworkBytes int64 `json:"network_bytes"`
}

// Summarize returns the host's figures between two snapshots of the
// same host, from before to.
func Summarize(from, to Stats) Summary {
	span := to.At.Sub(from.At).Seconds()
	s := Summary{Cores: to.Cores, Requests: to.Requests - from.Requests, PageCache: to.HasPageCache,
		CPUWaitSeconds: (to.CPUWait - from.CPUWait).Seconds()}
	var k [NumKinds]float64
	for i := range k {
		k[i] = (to.CPU[i] - from.CPU[i]).Seconds()
	}
	s.CPUSeconds = CPUSeconds{Syscall: k[KindSyscall], Copy: k[KindCopy], Network: k[KindNetwork],
		Driver: k[KindDriver], Parity: k[KindParity], StripeCache: k[KindStripeCache], VolumeCache: k[KindVolumeCache]}
	for _, v := range k {
		s.CPUSeconds.Total += v
	}
	if span > 0 && to.Cores > 0 {
		s.CPUUtilizationPct = 100 * s.CPUSeconds.Total / (float64(to.Cores) * span)
		for i := range to.NetBusy {
			s.NetworkUtilizationPct = max(s.NetworkUtilizationPct, 100*(to.NetBusy[i]-from.NetBusy[i]).Seconds()/span)
		}
	}
	s.NetworkBytes = to.NetBytes[0] + to.NetBytes[1] - from.NetBytes[0] - from.NetBytes[1]
	if to.HasPageCache {
		a, b := from.PageCache, to.PageCache
		if rb := b.ReadBytes - a.ReadBytes; rb > 0 {
			s.PageCacheHitRatio = float64(b.ReadHitBytes-a.ReadHitBytes) / float64(rb)
		}
		s.DirtyPeakBytes = b.DirtyPeak
		s.ThrottleSeconds = (b.StallTime - a.StallTime).Seconds()
		s.WritebackBytes = b.DestageBytes - a.DestageBytes
	}
	return s
}
