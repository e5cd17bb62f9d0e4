package disk

import "time"

// Stats are a drive's counters since it was created. Drive.Stats returns
// a copy with the derived figures (utilization, means) filled in.
type Stats struct {
	// Reads, Writes and Flushes count completed requests by operation.
	Reads, Writes, Flushes int64
	// ReadBytes and WriteBytes count bytes of completed requests.
	ReadBytes, WriteBytes int64

	// Elapsed is the virtual time since the drive was created.
	Elapsed time.Duration
	// BusyTime is the time a command was in service or a destage was
	// writing (read-ahead alone does not count).
	BusyTime time.Duration
	// Utilization is BusyTime / Elapsed.
	Utilization float64

	// Seeks counts arm movements of at least one cylinder to position
	// for a command or a destage (not cylinder switches within a
	// transfer).
	Seeks int64
	// SeekCylinders is the total distance of those seeks, in cylinders.
	SeekCylinders int64
	// MeanSeekDistance is SeekCylinders / Seeks.
	MeanSeekDistance float64

	// MediaReads counts reads served from the platters.
	MediaReads int64
	// ReadHits counts reads served from the buffer without positioning:
	// data already read, arriving from read-ahead, or dirty.
	ReadHits int64
	// ReadAheadBytes counts bytes read ahead of host requests.
	ReadAheadBytes int64
	// WriteCacheHits counts writes completed from the write cache
	// (immediate report).
	WriteCacheHits int64
	// MediaWrites counts writes that went straight to the platters (write
	// cache off, FUA, or larger than the write cache).
	MediaWrites int64
	// Destages counts background writes of dirty data to the platters.
	Destages int64
	// DestagedBytes counts the bytes they wrote.
	DestagedBytes int64
	// DirtyBytes is the data acknowledged but only in the volatile write
	// cache now.
	DirtyBytes int64
	// DirtyBytesPeak is the most dirty data held at once.
	DirtyBytesPeak int64

	// MeanTaggedQueue is the time-weighted mean number of commands in the
	// drive's tagged command queue, in commands: those holding one of its
	// Params.QueueDepth tags, waiting or in service (a command keeps its
	// tag until it completes; a destage or read-ahead holds none). It
	// never exceeds Params.QueueDepth. The integral over time of that
	// count, divided by Elapsed.
	MeanTaggedQueue float64
	// MeanHostQueue is the time-weighted mean number of requests waiting
	// in the host-side FIFO for a free tag, in requests: submitted while
	// every tag was taken (or others were already waiting there), not yet
	// in the drive. Zero while the host keeps at most Params.QueueDepth
	// requests outstanding. The integral over time of that count, divided
	// by Elapsed.
	MeanHostQueue float64
	// MeanOutstanding is the time-weighted mean number of requests
	// submitted and not yet completed, in requests: MeanTaggedQueue plus
	// MeanHostQueue (what this struct called MeanQueueLength before).
	MeanOutstanding float64

	// MeanQueueLength equals MeanOutstanding: requests submitted and not
	// yet completed, including those waiting in the host queue outside
	// the drive.
	//
	// Deprecated: use MeanTaggedQueue for the drive's queue, MeanHostQueue
	// for the host's, or MeanOutstanding for both; this field goes once
	// its callers have moved.
	MeanQueueLength float64
}

// Stats returns the drive's statistics up to the engine's current time.
func (d *Drive) Stats() Stats {
	d.accrue(d.eng.Now())
	s := d.st
	s.Elapsed = d.eng.Now().Sub(d.created)
	s.BusyTime = time.Duration(d.busyArea)
	if s.Elapsed > 0 {
		s.Utilization = float64(s.BusyTime) / float64(s.Elapsed)
		s.MeanTaggedQueue = float64(d.taggedArea) / float64(s.Elapsed)
		s.MeanHostQueue = float64(d.hostArea) / float64(s.Elapsed)
		s.MeanOutstanding = d.queueArea / float64(s.Elapsed)
		s.MeanQueueLength = s.MeanOutstanding
	}
	if s.Seeks > 0 {
		s.MeanSeekDistance = float64(s.SeekCylinders) / float64(s.Seeks)
	}
	s.DirtyBytes = d.DirtyBytes()
	s.DirtyBytesPeak = d.dirtyPeak * d.ss
	return s
}
