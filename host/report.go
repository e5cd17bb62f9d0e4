package host

// Report is the host's section of a run's report: its model and
// Summary's figures over the whole run, with the JSON names the raidsim
// report uses.
type Report struct {
	// Preset is the host model's name.
	Preset string `json:"preset"`
	// PageCacheBytes is the page cache's size (0: none, or O_DIRECT).
	PageCacheBytes int64 `json:"page_cache_bytes"`
	// Direct reports O_DIRECT: every request bypassed the page cache.
	Direct bool `json:"direct"`
	// NetworkBytesPerSecond is the link's payload rate (0: no link).
	NetworkBytesPerSecond int64 `json:"network_bytes_per_s"`
	Summary
}

// Report returns the host's section of a run's report: its figures
// from its creation to now.
func (h *Host) Report() Report {
	p := h.p
	r := Report{Preset: p.Name, PageCacheBytes: p.PageCacheSize(), Direct: p.Direct,
		Summary: Summarize(Stats{}, h.Stats())}
	if p.Network != nil {
		r.NetworkBytesPerSecond = p.Network.Rate
	}
	return r
}
