package trace

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"

	"github.com/raidsim/raidsim/sim"
)

// Workload describes a synthetic workload with fio's vocabulary. It is
// plain data: print it, load it, sweep it. The random seed is not here: a
// Synthetic draws from the stream it is given, normally the engine's
// Rand("trace") or a name of the caller's choosing, so the run seed and
// the stream name fix the sequence.
type Workload struct {
	// RW is the access pattern (fio rw). The zero value is sequential
	// reads.
	RW RW
	// RWMixRead is the percentage of reads, 0..100, for the mixed
	// patterns RWReadWrite and RWRandRW; other patterns ignore it. Zero
	// means no reads: fio's default of 50 comes from DefaultWorkload.
	RWMixRead int
	// BS is the block size in bytes, a multiple of the sector size (fio
	// bs). Zero takes 4096 in WithDefaults. Ignored when BSSplit is set.
	BS int64
	// BSSplit, when not empty, draws each request's size from these
	// shares instead of using BS (fio bssplit).
	BSSplit []BSSplitEntry
	// IODepth is the number of requests kept outstanding by closed-loop
	// replay (fio iodepth). The generator itself does not use it; pass it
	// to ReplayOptions. Zero takes 1 in WithDefaults.
	IODepth int
	// Offset is where the region starts, in bytes from the start of the
	// device, a multiple of the sector size (fio offset).
	Offset int64
	// Size is the length of the region in bytes, a multiple of the sector
	// size; zero means from Offset to the end of the device (fio size).
	Size int64
	// NumIOs is the number of requests to generate (fio number_ios). Zero
	// means as many as it takes to transfer Size bytes, fio's default
	// (io_size = size): one pass over the region for sequential patterns.
	NumIOs int64
	// RandomDistribution shapes random offsets (fio random_distribution).
	// Sequential patterns ignore it.
	RandomDistribution Distribution
	// NoScatter keeps the ranks of a Zipf or Pareto distribution in
	// order, so the hottest block is the first of the region, the next
	// hottest the second and so on. By default ranks are scattered over
	// the region by a seeded permutation, as fio scatters them with a
	// hash, so hot blocks are not all neighbours. Normal is never
	// scattered: it is a bell around the middle of the region.
	NoScatter bool
	// PercentageRandom, 0..100, makes that share of a sequential
	// pattern's requests (read, write, rw) go to random offsets drawn
	// like a random pattern's (RandomDistribution, block-aligned slots);
	// the others continue sequentially from the end of the request
	// before, whichever kind it was, as in fio (percentage_random). Zero
	// keeps the pattern fully sequential. Random patterns are always
	// fully random and ignore it.
	PercentageRandom int
	// Fsync, when positive, follows every Fsync-th write record with a
	// sim.Flush record (fio fsync=N), so a device with a volatile write
	// cache must put the writes on stable media. Flushes are extra
	// records: NumIOs and Size count only reads and writes, and the flush
	// due after the last write is still returned. Zero never flushes.
	Fsync int
	// Pacing paces the job's requests (fio rate, rate_iops,
	// rate_process, thinktime...); the generator does not use it: pass
	// it to RunJobs. The zero value is a closed loop.
	Pacing Pacing
}

// MaxIODepth is the largest IODepth a Workload or a closed-loop Replay
// accepts: replay keeps one request per slot, so the bound keeps a typo
// from allocating gigabytes.
const MaxIODepth = 65536

// DefaultWorkload returns fio's defaults: sequential 4 KiB reads at
// iodepth 1 over the whole device, uniform random offsets, and a 50% read
// mix should RW be changed to a mixed pattern.
func DefaultWorkload() Workload {
	return Workload{RW: RWRead, RWMixRead: 50, BS: 4096, IODepth: 1}
}

// WithDefaults returns w with zero fields that cannot be meant literally
// filled in: BS 4096 when neither BS nor BSSplit is given, and IODepth 1.
func (w Workload) WithDefaults() Workload {
	if w.BS == 0 && len(w.BSSplit) == 0 {
		w.BS = 4096
	}
	if w.IODepth == 0 {
		w.IODepth = 1
	}
	return w
}

// blockSizes returns the smallest and largest request size.
func (w *Workload) blockSizes() (lo, hi int64) {
	if len(w.BSSplit) == 0 {
		return w.BS, w.BS
	}
	lo, hi = math.MaxInt64, 0
	for _, e := range w.BSSplit {
		lo, hi = min(lo, e.Size), max(hi, e.Size)
	}
	return lo, hi
}

// Validate checks w against a device of capacity bytes with sectorSize
// byte sectors and reports every problem at once (joined with
// errors.Join), each naming the field and the value. It does not fill
// defaults: validate w.WithDefaults() to accept zero BS and IODepth.
func (w Workload) Validate(capacity int64, sectorSize int) error {
	v := &workloadCheck{ss: int64(sectorSize)}
	if capacity <= 0 {
		v.errs = append(v.errs, fmt.Errorf("trace: device capacity %d bytes is not positive", capacity))
	}
	if sectorSize <= 0 {
		v.errs = append(v.errs, fmt.Errorf("trace: device sector size %d bytes is not positive", sectorSize))
		v.ss = 1
	}
	if !w.RW.Valid() {
		v.bad("RW", "unknown rw %d", uint8(w.RW))
	}
	if w.RW.Mixed() && (w.RWMixRead < 0 || w.RWMixRead > 100) {
		v.bad("RWMixRead", "%d is outside 0..100", w.RWMixRead)
	}
	w.validateBlockSizes(v)
	if w.IODepth < 1 || w.IODepth > MaxIODepth {
		v.bad("IODepth", "%d is outside 1..%d", w.IODepth, MaxIODepth)
	}
	w.validateRegion(v, capacity)
	if w.NumIOs < 0 {
		v.bad("NumIOs", "%d is negative", w.NumIOs)
	}
	if w.PercentageRandom < 0 || w.PercentageRandom > 100 {
		v.bad("PercentageRandom", "%d is outside 0..100", w.PercentageRandom)
	}
	if w.Fsync < 0 {
		v.bad("Fsync", "%d is negative (0 never flushes)", w.Fsync)
	}
	if err := w.RandomDistribution.Validate(); err != nil {
		v.bad("RandomDistribution", "%v", err)
	}
	if err := w.Pacing.Validate(); err != nil {
		v.errs = append(v.errs, err)
	}
	return errors.Join(v.errs...)
}

// workloadCheck collects Validate's problems; ss is the sector size
// sizes must be multiples of.
type workloadCheck struct {
	errs []error
	ss   int64
}

// bad records a problem with field.
func (v *workloadCheck) bad(field, format string, args ...any) {
	v.errs = append(v.errs, fmt.Errorf("trace: Workload.%s: "+format, append([]any{field}, args...)...))
}

// aligned records a problem if x is not a whole number of sectors.
func (v *workloadCheck) aligned(field string, x int64) {
	if x%v.ss != 0 {
		v.bad(field, "%d is not a multiple of the %d-byte sector", x, v.ss)
	}
}

// validateBlockSizes checks BS, or BSSplit when it is given.
func (w *Workload) validateBlockSizes(v *workloadCheck) {
	if len(w.BSSplit) == 0 {
		if w.BS <= 0 {
			v.bad("BS", "%d is not a positive block size (or give BSSplit)", w.BS)
		} else {
			v.aligned("BS", w.BS)
		}
		return
	}
	var sum float64
	for i, e := range w.BSSplit {
		f := fmt.Sprintf("BSSplit[%d]", i)
		if e.Size <= 0 {
			v.bad(f+".Size", "%d is not a positive block size", e.Size)
		} else {
			v.aligned(f+".Size", e.Size)
		}
		if !(e.Percent >= 0 && e.Percent <= 100) {
			v.bad(f+".Percent", "%g is outside 0..100", e.Percent)
		}
		sum += e.Percent
	}
	if math.Abs(sum-100) > percentTolerance {
		v.bad("BSSplit", "percents sum to %g, not 100", sum)
	}
}

// validateRegion checks that Offset and Size make a region of the device
// that holds the largest block.
func (w *Workload) validateRegion(v *workloadCheck, capacity int64) {
	regionOK := true
	if w.Offset < 0 || (capacity > 0 && w.Offset >= capacity) {
		v.bad("Offset", "%d is outside the %d-byte device", w.Offset, capacity)
		regionOK = false
	} else {
		v.aligned("Offset", w.Offset)
	}
	if w.Size < 0 {
		v.bad("Size", "%d is negative", w.Size)
		regionOK = false
	} else {
		v.aligned("Size", w.Size)
		if regionOK && capacity > 0 && w.Size > capacity-w.Offset {
			v.bad("Size", "region %d+%d bytes ends past the %d-byte device", w.Offset, w.Size, capacity)
			regionOK = false
		}
	}
	if _, hi := w.blockSizes(); regionOK && capacity > 0 && hi > 0 {
		if region := w.regionSize(capacity); region < hi {
			v.bad("Size", "region of %d bytes is smaller than the %d-byte block size", region, hi)
		}
	}
}

func (w *Workload) regionSize(capacity int64) int64 {
	if w.Size == 0 {
		return capacity - w.Offset
	}
	return w.Size
}

// Synthetic generates the records of a Workload. It implements Reader and
// allocates nothing per record.
//
// Sequential patterns start at the region's first byte and advance by
// each request's length; a request that would cross the region's end
// starts again at its first byte. The mixed sequential pattern (rw) has
// one offset shared by reads and writes, as in fio.
//
// Random patterns draw a slot from RandomDistribution and place the
// request at Offset + slot*align, where align is the smallest block size
// (fio's default blockalign). Slots run up to the last one where the
// largest block still fits, so every request lies inside the region; with
// one block size that is every whole block of the region.
//
// A sequential pattern with PercentageRandom set sends that share of its
// requests to random slots drawn the same way; the sequential ones go on
// from the end of the request before.
//
// Each record draws, in this order and only when the pattern needs it,
// its size (BSSplit), its direction (mixed patterns), whether it is
// random (sequential patterns with 0 < PercentageRandom < 100) and its
// slot (random requests).
//
// With Fsync = N, a sim.Flush record (offset and length zero) follows
// every N-th write; it draws nothing.
type Synthetic struct {
	w      Workload
	src    *rand.Rand
	start  int64 // region start, bytes
	end    int64 // region end, bytes
	align  int64
	cum    []float64 // cumulative BSSplit percents; nil with one size
	slots  slotSampler
	pos    int64 // next sequential offset
	count  int64 // read and write records returned
	bytes  int64 // bytes returned
	limitN int64 // records to return, or 0 to stop on bytes
	random bool  // some requests draw slots (a random pattern or PercentageRandom)
	writes int   // writes since the last flush (Fsync)
	flush  bool  // a flush record is due next
}

// NewSynthetic returns a generator for w (after WithDefaults) on a device
// of capacity bytes with sectorSize-byte sectors, drawing random numbers
// from src. It returns Validate's errors when w does not fit the device.
// Setup costs the same whatever the region's size.
func NewSynthetic(w Workload, src *rand.Rand, capacity int64, sectorSize int) (*Synthetic, error) {
	w = w.WithDefaults()
	if err := w.Validate(capacity, sectorSize); err != nil {
		return nil, err
	}
	if src == nil {
		return nil, errors.New("trace: NewSynthetic: nil random source")
	}
	w.BSSplit = append([]BSSplitEntry(nil), w.BSSplit...) // own a copy
	lo, hi := w.blockSizes()
	s := &Synthetic{
		w:      w,
		src:    src,
		start:  w.Offset,
		end:    w.Offset + w.regionSize(capacity),
		align:  lo,
		limitN: w.NumIOs,
	}
	s.pos = s.start
	if len(w.BSSplit) > 0 {
		s.cum = make([]float64, len(w.BSSplit))
		var c float64
		for i, e := range w.BSSplit {
			c += e.Percent
			s.cum[i] = c
		}
	}
	s.random = w.RW.Random() || w.PercentageRandom > 0
	if s.random {
		n := uint64((s.end-s.start-hi)/s.align) + 1
		s.slots = newSlotSampler(w.RandomDistribution, n, src, !w.NoScatter)
	}
	return s, nil
}

// Workload returns the workload being generated, with defaults filled.
func (s *Synthetic) Workload() Workload { return s.w }

// Next returns the next record, or io.EOF once NumIOs records (or Size
// bytes when NumIOs is zero) have been returned, plus the flush due after
// the last write. Records have Time zero.
func (s *Synthetic) Next() (Record, error) {
	if s.flush {
		s.flush = false
		return Record{Op: sim.Flush}, nil
	}
	if s.limitN > 0 {
		if s.count >= s.limitN {
			return Record{}, io.EOF
		}
	} else if s.bytes >= s.end-s.start {
		return Record{}, io.EOF
	}
	size := s.w.BS
	if s.cum != nil {
		size = s.pickSize()
	}
	op := sim.Read
	switch s.w.RW {
	case RWWrite, RWRandWrite:
		op = sim.Write
	case RWTrim, RWRandTrim:
		op = sim.Trim
	case RWReadWrite, RWRandRW:
		if s.src.IntN(100) >= s.w.RWMixRead {
			op = sim.Write
		}
	}
	random := s.w.RW.Random()
	if !random && s.random {
		random = s.w.PercentageRandom >= 100 || s.src.IntN(100) < s.w.PercentageRandom
	}
	var off int64
	if random {
		off = s.start + int64(s.slots.next())*s.align
	} else {
		if s.pos+size > s.end {
			s.pos = s.start
		}
		off = s.pos
	}
	s.pos = off + size
	if op == sim.Write && s.w.Fsync > 0 {
		if s.writes++; s.writes >= s.w.Fsync {
			s.writes, s.flush = 0, true
		}
	}
	s.count++
	s.bytes += size
	return Record{Op: op, Offset: off, Length: size}, nil
}

func (s *Synthetic) pickSize() int64 {
	u := s.src.Float64() * s.cum[len(s.cum)-1]
	for i, c := range s.cum {
		if u < c {
			return s.w.BSSplit[i].Size
		}
	}
	return s.w.BSSplit[len(s.cum)-1].Size
}
