package simtest

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"math/bits"
	"slices"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// Storage is kept in chunks of chunkSize bytes, allocated on the first
// write of a non-zero byte inside them.
const (
	chunkShift = 16
	chunkSize  = 1 << chunkShift
	chunkMask  = chunkSize - 1
)

type chunk [chunkSize]byte

// DefaultSectorSize is the sector size a MemConfig gets when it leaves
// SectorSize at zero.
const DefaultSectorSize = 512

// MemConfig describes a MemDevice. It is plain data: fill it, call
// NewMemDevice, which applies WithDefaults and Validate.
type MemConfig struct {
	// Capacity is the addressable size in bytes. It must be positive and
	// a multiple of SectorSize. Storage is sparse, so a capacity of many
	// terabytes costs nothing until it is written.
	Capacity int64
	// SectorSize is the unit of access in bytes; zero means
	// DefaultSectorSize (512).
	SectorSize int
	// ReadLatency is the fixed service time of every read; zero or more.
	ReadLatency time.Duration
	// WriteLatency is the fixed service time of every write, FUA or not;
	// zero or more.
	WriteLatency time.Duration
	// FlushLatency is the service time of every flush; zero or more.
	FlushLatency time.Duration
	// Bandwidth, in bytes per second, adds Length/Bandwidth (rounded up
	// to a whole nanosecond) to every read and write. Zero means
	// transfers take no time.
	Bandwidth int64
	// Serial serves one request at a time, in submission order: a request
	// starts when the one before it completes. When false every request
	// is served independently, as if the device had unlimited internal
	// parallelism, and completes its own service time after Submit.
	Serial bool
}

// WithDefaults returns a copy of c with zero fields that have a default
// filled in.
func (c MemConfig) WithDefaults() MemConfig {
	if c.SectorSize == 0 {
		c.SectorSize = DefaultSectorSize
	}
	return c
}

// Validate reports every problem with c at once, naming the field and
// its value. It does not apply defaults: validate c.WithDefaults() to
// check what NewMemDevice would use.
func (c MemConfig) Validate() error {
	var errs []error
	if c.Capacity <= 0 {
		errs = append(errs, fmt.Errorf("simtest: MemConfig.Capacity must be positive, got %d bytes", c.Capacity))
	}
	if c.SectorSize <= 0 {
		errs = append(errs, fmt.Errorf("simtest: MemConfig.SectorSize must be positive, got %d bytes", c.SectorSize))
	} else if c.Capacity > 0 && c.Capacity%int64(c.SectorSize) != 0 {
		errs = append(errs, fmt.Errorf("simtest: MemConfig.Capacity %d is not a multiple of SectorSize %d", c.Capacity, c.SectorSize))
	}
	if c.ReadLatency < 0 {
		errs = append(errs, fmt.Errorf("simtest: MemConfig.ReadLatency must not be negative, got %v", c.ReadLatency))
	}
	if c.WriteLatency < 0 {
		errs = append(errs, fmt.Errorf("simtest: MemConfig.WriteLatency must not be negative, got %v", c.WriteLatency))
	}
	if c.FlushLatency < 0 {
		errs = append(errs, fmt.Errorf("simtest: MemConfig.FlushLatency must not be negative, got %v", c.FlushLatency))
	}
	if c.Bandwidth < 0 {
		errs = append(errs, fmt.Errorf("simtest: MemConfig.Bandwidth must not be negative, got %d bytes/s", c.Bandwidth))
	}
	return errors.Join(errs...)
}

// MemStats counts what a MemDevice has served.
type MemStats struct {
	// Reads, Writes, Flushes and Trims count accepted requests by
	// operation.
	Reads, Writes, Flushes, Trims int64
	// FUAWrites counts accepted writes with FUA set (included in Writes).
	FUAWrites int64
	// BytesRead and BytesWritten sum the Length of reads and writes that
	// completed without error, whether or not they carried Data.
	BytesRead, BytesWritten int64
	// Rejected counts requests Submit returned an error for.
	Rejected int64
	// Failed counts requests completed with a non-nil Err (injected
	// faults).
	Failed int64
	// InFlight is the number of accepted requests whose Done has not been
	// called yet.
	InFlight int
}

// MemDevice is an in-memory sim.Device that keeps real bytes. Reads with
// Data are filled from what earlier writes stored, writes with Data store
// it, and requests with nil Data only take time. Bytes never written read
// as zero.
//
// A request's data moves when it completes, in the event that calls
// Done, so among overlapping writes the one acknowledged last wins, and a
// read returns what was acknowledged before it completed.
//
// Faults can be injected with FailNext and SetFault; they arrive in Done
// as the request's Err, the way media errors do.
//
// ReadAt, WriteAt, Equal and Checksum look at the contents directly,
// outside virtual time, for tests.
type MemDevice struct {
	eng     *sim.Engine
	cfg     MemConfig
	handler sim.HandlerFunc
	chunks  map[int64]*chunk
	free    []*memOp
	busy    sim.Time // Serial: when the last queued request completes
	fault   func(*sim.Request) error
	latency func(*sim.Request) time.Duration
	failQ   []error
	stats   MemStats
}

// memOp is one accepted request in flight, recycled through a free list.
type memOp struct {
	r   *sim.Request
	err error // injected by FailNext
}

// NewMemDevice returns an empty MemDevice on eng. It fills cfg's defaults
// and returns Validate's error, if any.
func NewMemDevice(eng *sim.Engine, cfg MemConfig) (*MemDevice, error) {
	cfg = cfg.WithDefaults()
	err := cfg.Validate()
	if eng == nil {
		err = errors.Join(errors.New("simtest: NewMemDevice needs an engine, got nil"), err)
	}
	if err != nil {
		return nil, err
	}
	d := &MemDevice{eng: eng, cfg: cfg, chunks: make(map[int64]*chunk)}
	d.handler = d.complete
	return d, nil
}

// Config returns the configuration in use, defaults filled in.
func (d *MemDevice) Config() MemConfig { return d.cfg }

// Capacity returns the addressable size in bytes.
func (d *MemDevice) Capacity() int64 { return d.cfg.Capacity }

// SectorSize returns the sector size in bytes.
func (d *MemDevice) SectorSize() int { return d.cfg.SectorSize }

// Stats returns the counts so far.
func (d *MemDevice) Stats() MemStats { return d.stats }

// Submit checks r with sim.CheckRequest and schedules its completion
// after the configured service time. It sets r.Issued to the current
// virtual time.
func (d *MemDevice) Submit(r *sim.Request) error {
	now := d.eng.Now()
	r.Issued = now
	if err := sim.CheckRequest(r, d.cfg.Capacity, d.cfg.SectorSize); err != nil {
		d.stats.Rejected++
		return fmt.Errorf("simtest: MemDevice: %w", err)
	}
	var service time.Duration
	switch r.Op {
	case sim.Read:
		d.stats.Reads++
		service = satAdd(d.cfg.ReadLatency, d.transfer(r.Length))
	case sim.Write:
		d.stats.Writes++
		if r.FUA {
			d.stats.FUAWrites++
		}
		service = satAdd(d.cfg.WriteLatency, d.transfer(r.Length))
	case sim.Flush:
		d.stats.Flushes++
		service = d.cfg.FlushLatency
	case sim.Trim:
		d.stats.Trims++
		service = d.cfg.WriteLatency
	}
	if d.latency != nil {
		service = max(d.latency(r), 0)
	}
	start := now
	if d.cfg.Serial && d.busy > start {
		start = d.busy
	}
	at := start.Add(service)
	if at < start { // overflow: saturate
		at = sim.Never
	}
	if d.cfg.Serial {
		d.busy = at
	}

	var op *memOp
	if n := len(d.free); n > 0 {
		op = d.free[n-1]
		d.free = d.free[:n-1]
	} else {
		op = new(memOp)
	}
	op.r = r
	if len(d.failQ) > 0 {
		op.err = d.failQ[0]
		d.failQ = d.failQ[1:]
	}
	d.stats.InFlight++
	d.eng.Schedule(at, d.handler, op)
	return nil
}

// transfer returns the time to move n bytes at the configured bandwidth.
func (d *MemDevice) transfer(n int64) time.Duration {
	bw := uint64(d.cfg.Bandwidth)
	if bw == 0 || n <= 0 {
		return 0
	}
	hi, lo := bits.Mul64(uint64(n), uint64(time.Second))
	if hi >= bw {
		return math.MaxInt64
	}
	q, rem := bits.Div64(hi, lo, bw)
	if rem != 0 {
		q++
	}
	if q > math.MaxInt64 {
		return math.MaxInt64
	}
	return time.Duration(q)
}

func satAdd(a, b time.Duration) time.Duration {
	if s := a + b; s >= a {
		return s
	}
	return math.MaxInt64
}

// complete is the event handler: it moves the data, sets Completed and
// Err and calls Done.
func (d *MemDevice) complete(now sim.Time, arg any) {
	op := arg.(*memOp)
	r, err := op.r, op.err
	*op = memOp{}
	d.free = append(d.free, op)

	if err == nil && d.fault != nil {
		err = d.fault(r)
	}
	if err == nil {
		switch r.Op {
		case sim.Read:
			if r.Data != nil {
				d.read(r.Data, r.Offset)
			}
			d.stats.BytesRead += r.Length
		case sim.Write:
			if r.Data != nil {
				d.write(r.Data, r.Offset)
			}
			d.stats.BytesWritten += r.Length
		case sim.Trim:
			d.zero(r.Offset, r.Length)
		}
	} else {
		d.stats.Failed++
	}
	d.stats.InFlight--
	r.Completed = now
	r.Err = err
	r.Done(r)
}

// FailNext makes the next request accepted by Submit complete with err
// in Done instead of being served: a write stores nothing, a read leaves
// its Data untouched. Calls queue up: calling FailNext twice fails the
// next two requests. A nil err is ignored.
func (d *MemDevice) FailNext(err error) {
	if err != nil {
		d.failQ = append(d.failQ, err)
	}
}

// SetFault installs f, called for every request as it completes (after
// any FailNext error has been taken into account); a non-nil result
// becomes the request's Err and its data is not moved. f must not change
// r. A nil f removes the hook.
func (d *MemDevice) SetFault(f func(r *sim.Request) error) { d.fault = f }

// SetLatency installs f, which returns the service time of each request
// as Submit accepts it, in place of the configured latencies and
// bandwidth; a negative result counts as zero. Tests of layers above use
// it to force a completion order. f must not change r. A nil f restores
// the configured service times.
func (d *MemDevice) SetLatency(f func(r *sim.Request) time.Duration) { d.latency = f }

// read copies the contents at off into p; unwritten bytes read as zero.
func (d *MemDevice) read(p []byte, off int64) {
	for len(p) > 0 {
		in := off & chunkMask
		n := min(int64(len(p)), chunkSize-in)
		if c := d.chunks[off>>chunkShift]; c != nil {
			copy(p[:n], c[in:in+n])
		} else {
			clear(p[:n])
		}
		p, off = p[n:], off+n
	}
}

// write stores p at off, allocating a chunk only when a non-zero byte
// lands in it.
func (d *MemDevice) write(p []byte, off int64) {
	for len(p) > 0 {
		in := off & chunkMask
		n := min(int64(len(p)), chunkSize-in)
		idx := off >> chunkShift
		c := d.chunks[idx]
		if c == nil && !allZero(p[:n]) {
			c = new(chunk)
			d.chunks[idx] = c
		}
		if c != nil {
			copy(c[in:in+n], p[:n])
		}
		p, off = p[n:], off+n
	}
}

// zero clears [off, off+n): a trimmed range reads back as zeroes. Whole
// chunks are released.
func (d *MemDevice) zero(off, n int64) {
	for n > 0 {
		in := off & chunkMask
		k := min(n, chunkSize-in)
		idx := off >> chunkShift
		if c := d.chunks[idx]; c != nil {
			if k == chunkSize {
				delete(d.chunks, idx)
			} else {
				clear(c[in : in+k])
			}
		}
		off, n = off+k, n-k
	}
}

func allZero(p []byte) bool {
	for _, b := range p {
		if b != 0 {
			return false
		}
	}
	return true
}

// ReadAt copies the device contents at off into p at once, outside
// virtual time, and implements io.ReaderAt. Reading past the capacity
// returns the bytes up to it and io.EOF.
func (d *MemDevice) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("simtest: MemDevice.ReadAt: negative offset %d", off)
	}
	if off >= d.cfg.Capacity {
		return 0, io.EOF
	}
	n := int(min(int64(len(p)), d.cfg.Capacity-off))
	d.read(p[:n], off)
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// WriteAt stores p at off at once, outside virtual time, and implements
// io.WriterAt. Neither alignment nor virtual time applies; a write that
// would cross the capacity stores nothing and returns an error.
func (d *MemDevice) WriteAt(p []byte, off int64) (int, error) {
	if off < 0 || off > d.cfg.Capacity || int64(len(p)) > d.cfg.Capacity-off {
		return 0, fmt.Errorf("simtest: MemDevice.WriteAt: %d bytes at %d outside capacity %d", len(p), off, d.cfg.Capacity)
	}
	d.write(p, off)
	return len(p), nil
}

// Allocated returns the bytes of backing storage allocated so far: 64 KiB
// for each 64 KiB-aligned chunk of the device that a non-zero byte has
// been written to, and nothing for the rest, whatever the capacity.
func (d *MemDevice) Allocated() int64 { return int64(len(d.chunks)) * chunkSize }

// Equal reports whether d and o have the same capacity and contents.
func (d *MemDevice) Equal(o *MemDevice) bool {
	_, same := d.Diff(o)
	return same
}

// Diff compares the contents of d and o and returns the lowest offset at
// which they differ and false, or 0 and true when capacities and contents
// are equal. When only the capacities differ it returns the smaller
// capacity and false.
func (d *MemDevice) Diff(o *MemDevice) (int64, bool) {
	var zero chunk
	first := int64(-1)
	look := func(idx int64, a, b *chunk) {
		if a == nil {
			a = &zero
		}
		if b == nil {
			b = &zero
		}
		if *a == *b {
			return
		}
		for i := range a {
			if a[i] != b[i] {
				off := idx<<chunkShift + int64(i)
				if first < 0 || off < first {
					first = off
				}
				return
			}
		}
	}
	for idx, c := range d.chunks {
		look(idx, c, o.chunks[idx])
	}
	for idx, c := range o.chunks {
		if d.chunks[idx] == nil {
			look(idx, nil, c)
		}
	}
	if first >= 0 {
		return first, false
	}
	if d.cfg.Capacity != o.cfg.Capacity {
		return min(d.cfg.Capacity, o.cfg.Capacity), false
	}
	return 0, true
}

// Checksum returns a 64-bit FNV-1a hash of the contents that costs time
// in proportion to the bytes written, not the capacity: all-zero chunks
// are skipped, so two devices with equal contents have equal checksums
// however they got there. Use it to compare contents compactly in golden
// files and logs.
func (d *MemDevice) Checksum() uint64 {
	idxs := make([]int64, 0, len(d.chunks))
	for idx, c := range d.chunks {
		if !allZero(c[:]) {
			idxs = append(idxs, idx)
		}
	}
	slices.Sort(idxs)
	h := fnv.New64a()
	var b [8]byte
	for _, idx := range idxs {
		for i := range b {
			b[i] = byte(uint64(idx) >> (8 * i))
		}
		h.Write(b[:])
		h.Write(d.chunks[idx][:])
	}
	return h.Sum64()
}
