package cache

// Report is the volume cache's section of a run's report: its
// configuration and Summary's figures, with the JSON names the raidsim
// report uses.
type Report struct {
	// Mode is "write-back", "write-through", "write-around" or "off".
	Mode string `json:"mode"`
	// SizeBytes is the cache memory.
	SizeBytes int64 `json:"size_bytes"`
	// NonVolatile reports a battery- or flash-backed cache.
	NonVolatile bool `json:"non_volatile"`
	Summary
	// OverwrittenBytes is the bytes of absorbed writes that landed on
	// dirty data and so never went below.
	OverwrittenBytes int64 `json:"overwritten_bytes"`
	// DirtyAtEndBytes is the acknowledged data only in cache memory when
	// the report was made: what a power failure then would lose from a
	// volatile cache.
	DirtyAtEndBytes int64 `json:"dirty_at_end_bytes"`
}

// Report returns the cache's section of a run's report, from its
// statistics so far.
func (c *Cache) Report() Report {
	st := c.Stats()
	return Report{
		Mode: c.cfg.Mode.String(), SizeBytes: c.cfg.Size, NonVolatile: c.cfg.NonVolatile,
		Summary: c.Summary(), OverwrittenBytes: st.OverwrittenBytes, DirtyAtEndBytes: st.DirtyBytes,
	}
}
