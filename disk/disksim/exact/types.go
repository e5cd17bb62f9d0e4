package exact

// The disk controller's state as DiskSim 4.0 keeps it (struct disk,
// segment and diskreq in src/disksim_disk.h). Names follow the source's
// where that helps read the two side by side.

// Request flags (disksim_global.h, disksim_disk.h).
const (
	flagRead       = 0x1
	flagBackground = 0x10000000 // BUFFER_BACKGROUND: read-ahead or write-back
)

// Segment states (disk_buffer_state_t): media side.
const (
	segEmpty   = 1
	segClean   = 2
	segDirty   = 3
	segReading = 4
	segWriting = 5
)

// Segment bus-side states (disk_buffer_outstate_t).
const (
	outPreempt     = 6
	outIdle        = 7
	outContacting  = 8
	outTransfering = 9
)

// Buffer hit types (disk_cache_hit_t).
const (
	hitCollision = -1
	hitNone      = 0
	hitWhole     = 1
	hitPartial   = 2
	hitPrepend   = 3
	hitAppend    = 4
)

// diskreq flags.
const (
	segOwned          = 0x1
	hdaOwned          = 0x2
	extraWriteDisc    = 0x4
	completionSent    = 0x8
	completionRecvd   = 0x10
	finalWriteReconn1 = 0x20
	finalWriteReconn2 = 0x40
)

// Disk bus-side states (disk_state_t).
const (
	diskIdle        = 1
	diskTransfering = 2
	diskWaitForCtlr = 3
)

// Read-ahead schemes ("Buffer continuous read").
const (
	contNone        = 0
	contTrackEnd    = 1
	contCylEnd      = 2
	contSegEnd      = 3
	contDecPrefetch = 4
)

// Preseeking levels and fast write levels.
const (
	preseekNone             = 0
	preseekDuringCompletion = 1
	preseekBeforeCompletion = 2

	fastWriteNone    = 0
	fastWriteLimited = 1
	fastWriteFull    = 2
)

// Interrupt causes (disksim_iosim.h).
const (
	causeCompletion      = 1
	causeReconnect       = 2
	causeDisconnect      = 3
	causeReadyToTransfer = 4
)

// segment is one buffer segment.
type segment struct {
	time               float64 // when its current media access step began
	state              int
	startBlk, endBlk   int // buffered LBNs [startBlk, endBlk)
	outState           int
	outCount           int // blocks of the bus transfer under way
	minRA, maxRA       int // read-ahead bounds (LBN + 1)
	reqs               *diskreq
	size               int
	access             *event // the media access; typ evNone when idle
	holdBlk, holdCount int    // write data held while prepending
	recycleReq         *diskreq
	next, prev         *segment
}

// diskreq is a request in the disk (struct diskreq_t).
type diskreq struct {
	flags        int
	ioreqs       *event // the host requests it serves, by ascending blkno
	segNext      *diskreq
	busNext      *diskreq
	outBlk       int // next LBN to cross the bus
	inBlk        int // next LBN to reach the media (writes)
	seg          *segment
	watermark    int
	hitType      int
	overheadDone float64
}

// lastReq returns the last of d's host requests.
func (d *diskreq) lastReq() *event {
	r := d.ioreqs
	for r != nil && r.next != nil {
		r = r.next
	}
	return r
}
