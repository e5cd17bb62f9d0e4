package sim

import (
	"errors"
	"fmt"
	"time"
)

// Op is the kind of a block request.
type Op uint8

const (
	// Read transfers data from the device.
	Read Op = iota
	// Write transfers data to the device.
	Write
	// Flush asks the device to put every write it completed earlier on
	// stable media before the flush completes (ATA FLUSH CACHE, SCSI
	// SYNCHRONIZE CACHE). Offset and Length are ignored.
	Flush
	// Trim tells the device that the bytes of [Offset, Offset+Length) no
	// longer hold data the host needs (ATA DATA SET MANAGEMENT / TRIM,
	// SCSI UNMAP, NVMe Deallocate). A later read of a trimmed range
	// returns zeroes. It carries no Data.
	Trim
	numOps
)

// String returns "read", "write", "flush" or "trim".
func (o Op) String() string {
	switch o {
	case Read:
		return "read"
	case Write:
		return "write"
	case Flush:
		return "flush"
	case Trim:
		return "trim"
	}
	return fmt.Sprintf("op(%d)", uint8(o))
}

// Valid reports whether o is Read, Write, Flush or Trim.
func (o Op) Valid() bool { return o < numOps }

// Request is one block I/O request travelling through a stack.
//
// The submitter fills Op, Offset, Length, FUA, Data and Done; the device
// sets Issued on Submit and Completed and Err just before calling Done.
// Fields after Done are scratch space owned by whoever holds the request;
// devices must not keep a request after calling Done, so the submitter may
// recycle it from inside Done.
type Request struct {
	// Op is the operation.
	Op Op
	// Offset is the first byte addressed, from the start of the device.
	Offset int64
	// Length is the number of bytes transferred; zero only for Flush.
	Length int64
	// FUA (force unit access) asks that a Write complete only once its
	// data is on stable media, bypassing any volatile write cache.
	FUA bool
	// Data optionally carries the payload: the bytes to write, or a buffer
	// of Length bytes a read fills. Performance runs leave it nil; tests
	// and teaching runs use it to check real bytes end to end.
	Data []byte
	// Issued is the virtual time the request was submitted.
	Issued Time
	// Completed is the virtual time the device finished the request.
	Completed Time
	// Err is nil on success, or the fault found while serving the request.
	Err error
	// Done is called exactly once, from the event loop, when the request
	// completes. Bind it once (a method value stored at construction) to
	// keep the steady state free of allocations.
	Done func(*Request)

	// Ctx is free for the submitter: a pointer back to its own record of
	// the request, for example. Devices never read or change it.
	Ctx any
	// ID is free for the submitter (a sequence number, a trace line).
	ID uint64
}

// Latency returns Completed - Issued.
func (r *Request) Latency() time.Duration { return r.Completed.Sub(r.Issued) }

// End returns the offset one past the last byte addressed.
func (r *Request) End() int64 { return r.Offset + r.Length }

// String describes r for logs, e.g. "write 4096@8192 fua".
func (r *Request) String() string {
	if r.Op == Flush {
		return "flush"
	}
	s := fmt.Sprintf("%v %d@%d", r.Op, r.Length, r.Offset)
	if r.FUA {
		s += " fua"
	}
	return s
}

// Device is one layer of a storage stack: a drive, an array, a cache.
type Device interface {
	// Submit starts serving r at the engine's current time. It returns an
	// error (wrapping one of the sentinel errors of this package) for a
	// request that can never be served; Done is then not called. After a
	// nil return, Done is called exactly once, never before Submit
	// returns, at or after the current virtual time.
	Submit(r *Request) error
	// Capacity returns the addressable size in bytes.
	Capacity() int64
	// SectorSize returns the smallest unit of access in bytes; Offset and
	// Length of every Read and Write must be multiples of it.
	SectorSize() int
}

// Sentinel errors for requests rejected at submit time. Devices wrap them
// with context; test with errors.Is.
var (
	// ErrBadOp reports an Op that is not Read, Write, Flush or Trim.
	ErrBadOp = errors.New("sim: unknown operation")
	// ErrZeroLength reports a Read or Write of no bytes, or a negative
	// length.
	ErrZeroLength = errors.New("sim: request length must be positive")
	// ErrMisaligned reports an offset or length that is not a multiple of
	// the device's sector size.
	ErrMisaligned = errors.New("sim: request not aligned to the sector size")
	// ErrOutOfRange reports a request that starts below zero or ends past
	// the device's capacity.
	ErrOutOfRange = errors.New("sim: request outside the device")
	// ErrNoDone reports a request submitted without a Done callback.
	ErrNoDone = errors.New("sim: request has no Done callback")
	// ErrDataLength reports a Data buffer whose length differs from Length.
	ErrDataLength = errors.New("sim: request data length differs from its length")
)

// CheckRequest applies the checks every device makes at submit time: a
// known op, a Done callback, and for Read, Write and Trim a positive length,
// sector alignment, bounds within capacity and a Data buffer (when given)
// of exactly Length bytes. It returns nil or an error wrapping one of the
// sentinel errors, naming the request.
func CheckRequest(r *Request, capacity int64, sectorSize int) error {
	if !r.Op.Valid() {
		return fmt.Errorf("%w: %d", ErrBadOp, uint8(r.Op))
	}
	if r.Done == nil {
		return fmt.Errorf("%v: %w", r, ErrNoDone)
	}
	if r.Op == Flush {
		return nil
	}
	if r.Length <= 0 {
		return fmt.Errorf("%v: %w", r, ErrZeroLength)
	}
	ss := int64(sectorSize)
	if ss > 0 && (r.Offset%ss != 0 || r.Length%ss != 0) {
		return fmt.Errorf("%v: %w (%d bytes)", r, ErrMisaligned, sectorSize)
	}
	if r.Offset < 0 || r.Offset > capacity || r.Length > capacity-r.Offset {
		return fmt.Errorf("%v: %w (capacity %d bytes)", r, ErrOutOfRange, capacity)
	}
	if r.Op == Trim && r.Data != nil {
		return fmt.Errorf("%v: %w (a trim carries no data)", r, ErrDataLength)
	}
	if r.Data != nil && int64(len(r.Data)) != r.Length {
		return fmt.Errorf("%v: %w (%d bytes of data)", r, ErrDataLength, len(r.Data))
	}
	return nil
}
