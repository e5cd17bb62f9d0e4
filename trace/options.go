package trace

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"strings"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// This file holds the replay options that shape a trace before Replay
// sees it. Each is a Reader wrapping a Reader, so they stack:
//
//	r = trace.Reorder(r, 4096)             // sort a not-quite-sorted trace
//	r = trace.FilterDevice(r, 0)           // one disk of a multi-disk trace
//	r = trace.Window(r, 10*time.Second, time.Minute)
//	r, err = trace.MapOffsets(r, trace.OffsetMap{Mode: trace.MapWrap, Capacity: dev.Capacity(), SectorSize: dev.SectorSize()})
//
// Every wrapper forwards Position to the reader it wraps and adds what it
// drops to the wrapped reader's Skipped.

// inner gives every wrapper Position and Skipped.
type inner struct {
	src     Reader
	dropped int64
}

// Position returns the position of the wrapped reader.
func (w *inner) Position() (string, int64) { return Position(w.src) }

// Skipped returns what this wrapper dropped plus what the wrapped reader
// skipped.
func (w *inner) Skipped() int64 { return w.dropped + Skipped(w.src) }

// where names the last record read, for errors: "hm_0.csv:17" or
// "record 17".
func (w *inner) where(n int64) string {
	if f, l := Position(w.src); l > 0 {
		return fmt.Sprintf("%s:%d", f, l)
	}
	return fmt.Sprintf("record %d", n)
}

// FilterReader returns the records of a Reader that a predicate keeps.
type FilterReader struct {
	inner
	keep func(*Record) bool
}

// Filter returns the records of r for which keep returns true; the
// others count as skipped.
func Filter(r Reader, keep func(*Record) bool) *FilterReader {
	return &FilterReader{inner: inner{src: r}, keep: keep}
}

// FilterDevice keeps the records of one device (disk or volume number).
func FilterDevice(r Reader, device int) *FilterReader {
	return Filter(r, func(rec *Record) bool { return rec.Device == device })
}

// FilterOps keeps the records whose Op is one of ops.
func FilterOps(r Reader, ops ...sim.Op) *FilterReader {
	var mask uint32
	for _, o := range ops {
		mask |= 1 << (o & 31)
	}
	return Filter(r, func(rec *Record) bool { return mask&(1<<(rec.Op&31)) != 0 })
}

// Next returns the next record kept.
func (f *FilterReader) Next() (Record, error) {
	for {
		rec, err := f.src.Next()
		if err != nil || f.keep(&rec) {
			return rec, err
		}
		f.dropped++
	}
}

// WindowReader returns the records of a time window; see Window.
type WindowReader struct {
	inner
	from, to time.Duration
	started  bool
	first    sim.Time
	done     bool
}

// Window returns the records of r whose time, measured from the first
// record's, is at least from and less than to (to <= 0: no end). It ends
// at the first record at or past to without reading further, so r must
// be sorted by time (wrap it in Reorder first if it is not). Records
// keep their own times: Replay measures from the first record it sees.
func Window(r Reader, from, to time.Duration) *WindowReader {
	return &WindowReader{inner: inner{src: r}, from: from, to: to}
}

// Next returns the next record in the window, or io.EOF past it.
func (w *WindowReader) Next() (Record, error) {
	for !w.done {
		rec, err := w.src.Next()
		if err != nil {
			return rec, err
		}
		if !w.started {
			w.started, w.first = true, rec.Time
		}
		at := rec.Time.Sub(w.first)
		if w.to > 0 && at >= w.to {
			w.done = true
			break
		}
		if at < w.from {
			w.dropped++
			continue
		}
		return rec, nil
	}
	return Record{}, io.EOF
}

// MapMode says what MapOffsets does with a request that does not fit the
// target device.
type MapMode uint8

const (
	// MapReject stops the replay with an error naming the record.
	MapReject MapMode = iota
	// MapWrap takes the offset modulo the capacity.
	MapWrap
	// MapScale multiplies offsets by Capacity/SourceCapacity, so the
	// trace's address space is spread over the whole target.
	MapScale
)

var mapModeNames = [...]string{"reject", "wrap", "scale"}

// String returns "reject", "wrap" or "scale".
func (m MapMode) String() string {
	if int(m) < len(mapModeNames) {
		return mapModeNames[m]
	}
	return fmt.Sprintf("mapmode(%d)", uint8(m))
}

// ParseMapMode reads "reject", "wrap" or "scale".
func ParseMapMode(s string) (MapMode, error) {
	for i, n := range mapModeNames {
		if strings.EqualFold(strings.TrimSpace(s), n) {
			return MapMode(i), nil
		}
	}
	return 0, fmt.Errorf("trace: offset mapping %q: want reject, wrap or scale", s)
}

// OffsetMap configures MapOffsets.
type OffsetMap struct {
	// Mode is MapReject (the zero value), MapWrap or MapScale.
	Mode MapMode
	// Capacity is the target device's size in bytes.
	Capacity int64
	// SectorSize, when positive, aligns requests to the target's
	// sectors first: the offset is rounded down and the end up, so a
	// trace of 512-byte requests replays on a 4096-byte-sector device.
	SectorSize int
	// SourceCapacity is the size in bytes of the address space the trace
	// covers (the traced disk's capacity); MapScale needs it. A request
	// starting at or past it is an error.
	SourceCapacity int64
}

// MapReader maps the offsets of a Reader onto a target; see MapOffsets.
type MapReader struct {
	inner
	m   OffsetMap
	cap int64 // capacity rounded down to the sector
	// ssMask is the sector size less 1 when it is a power of two
	// above 1, else 0.
	ssMask int64
	n      int64
	moved  int64
}

// Moved returns how many records so far ended past the target and were
// moved onto it (wrapped round it, or scaled; under MapScale every
// record but those at offset 0 moves).
func (p *MapReader) Moved() int64 { return p.moved }

// defaultMapModes are the modes DefaultMapMode gives, by format: the
// published traces of many volumes interleaved in one file.
var defaultMapModes = map[Format]MapMode{
	// SYSTOR '17 records the LUNs of an enterprise VDI cluster, several
	// TB each (the sample in ../shared/traces reaches 5.0 TB).
	FormatSystor17: MapWrap,
	// Tencent CBS records thousands of cloud volumes in one file, each
	// from offset 0 (the sample: 2,038 volumes, reaching 1.7 TB).
	FormatTencent: MapWrap,
}

// DefaultMapMode returns what a replay of a trace of format f does by
// default with a record that ends past the target: MapWrap for the
// multi-volume cloud traces SYSTOR '17 and Tencent CBS, whose address
// spaces are far larger than one stack and are published to be
// replayed as they are; MapReject for every other format, whose trace
// is of one device.
func DefaultMapMode(f Format) MapMode { return defaultMapModes[f] }

// MapOffsets returns r with offsets mapped onto a device of m.Capacity
// bytes as m.Mode says. Flushes pass unchanged. A request longer than
// the capacity is an error in every mode, naming the record.
func MapOffsets(r Reader, m OffsetMap) (*MapReader, error) {
	var errs []error
	if m.Capacity <= 0 {
		errs = append(errs, fmt.Errorf("trace: OffsetMap.Capacity: %d is not positive", m.Capacity))
	}
	if m.SectorSize < 0 {
		errs = append(errs, fmt.Errorf("trace: OffsetMap.SectorSize: %d is negative", m.SectorSize))
	}
	if int(m.Mode) >= len(mapModeNames) {
		errs = append(errs, fmt.Errorf("trace: OffsetMap.Mode: unknown mode %d", uint8(m.Mode)))
	}
	if m.Mode == MapScale && m.SourceCapacity <= 0 {
		errs = append(errs, fmt.Errorf("trace: OffsetMap.SourceCapacity: %d is not positive (scale needs it)", m.SourceCapacity))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	c := m.Capacity
	if ss := int64(m.SectorSize); ss > 1 {
		c -= c % ss
	}
	mr := &MapReader{inner: inner{src: r}, m: m, cap: c}
	if ss := int64(m.SectorSize); ss > 1 && ss&(ss-1) == 0 {
		mr.ssMask = ss - 1
	}
	return mr, nil
}

// Next returns the next record with its offset mapped.
func (p *MapReader) Next() (Record, error) {
	rec, err := p.src.Next()
	if err != nil {
		return rec, err
	}
	p.n++
	if rec.Op == sim.Flush {
		return rec, nil
	}
	ss := int64(p.m.SectorSize)
	if rec.Offset < 0 || rec.Length < 0 || rec.Offset > math.MaxInt64-rec.Length-ss {
		return rec, fmt.Errorf("trace: %s: %v %d bytes at %d: negative or unrepresentable extent", p.where(p.n), rec.Op, rec.Length, rec.Offset)
	}
	off, end := rec.Offset, rec.End()
	if ss > 1 {
		off = p.alignDown(off)
		if a := p.alignDown(end); a != end {
			end = a + ss
		}
	}
	length := end - off
	if length > p.cap {
		return rec, fmt.Errorf("trace: %s: %v of %d bytes is larger than the %d-byte device", p.where(p.n), rec.Op, rec.Length, p.m.Capacity)
	}
	switch p.m.Mode {
	case MapReject:
		if end > p.cap {
			return rec, fmt.Errorf("trace: %s: %v %d bytes at %d ends past the %d-byte device (map offsets with wrap or scale)",
				p.where(p.n), rec.Op, rec.Length, rec.Offset, p.m.Capacity)
		}
	case MapWrap:
		if end > p.cap {
			p.moved++
		}
		off %= p.cap
	case MapScale:
		if off >= p.m.SourceCapacity {
			return rec, fmt.Errorf("trace: %s: %v at %d is past the trace's %d-byte source capacity", p.where(p.n), rec.Op, rec.Offset, p.m.SourceCapacity)
		}
		hi, lo := bits.Mul64(uint64(off), uint64(p.cap))
		q, _ := bits.Div64(hi, lo, uint64(p.m.SourceCapacity))
		if int64(q) != off {
			p.moved++
		}
		off = int64(q)
	}
	if ss > 1 {
		off = p.alignDown(off)
	}
	if off+length > p.cap {
		off = p.cap - length
		if ss > 1 {
			off = p.alignDown(off)
		}
	}
	rec.Offset, rec.Length = off, length
	return rec, nil
}

// alignDown rounds a non-negative offset down to a multiple of the
// sector size (above 1): by a mask when the size is a power of two, as
// sector sizes are, sparing the division.
func (p *MapReader) alignDown(off int64) int64 {
	if p.ssMask != 0 {
		return off &^ p.ssMask
	}
	return off - off%int64(p.m.SectorSize)
}

// MaxReorderWindow is the largest window Reorder accepts, and the most
// records ReorderWithin holds.
const MaxReorderWindow = 1 << 20

// ReorderReader sorts a Reader's records by time within a bounded window;
// see Reorder.
type ReorderReader struct {
	inner
	heap    recordHeap
	window  int
	n       int64    // records read from src
	first   sim.Time // time of the first record read
	emitted bool
	last    sim.Time // time of the last record returned
	eof     bool
	late    lateness
	pos     sortedPos
}

// Reorder returns r's records sorted by time, for traces whose records
// are only roughly in order (Tencent CBS, SYSTOR '17). It holds up to
// window records in a fixed-size heap (records of equal time keep their
// order) and returns the earliest once the heap is full, so memory is
// bounded by window. A record earlier than one already returned is out
// of order by more than the window and cannot be put in order: Next
// returns an *OrderError, in a *ParseError naming its line (or an error
// naming its record number when r does not know lines), that says to
// widen the window. window must be 1..MaxReorderWindow.
func Reorder(r Reader, window int) (*ReorderReader, error) {
	if window < 1 || window > MaxReorderWindow {
		return nil, fmt.Errorf("trace: reorder window %d is outside 1..%d", window, MaxReorderWindow)
	}
	return &ReorderReader{inner: inner{src: r}, heap: recordHeap{items: make([]reorderItem, 0, window)}, window: window}, nil
}

// Next returns the earliest record of the window.
func (o *ReorderReader) Next() (Record, error) {
	for !o.eof && o.heap.len() < o.window {
		rec, err := o.src.Next()
		if err == io.EOF {
			o.eof = true
			break
		}
		if err != nil {
			return Record{}, err
		}
		o.n++
		if o.n == 1 {
			o.first = rec.Time
		}
		if o.emitted && rec.Time < o.last {
			return Record{}, orderError(o.src, o.n, &OrderError{
				Time: rec.Time.Sub(o.first), Previous: o.last.Sub(o.first), Window: o.window})
		}
		o.late.note(rec.Time)
		var line int64
		o.pos.file, line = Position(o.src)
		o.heap.push(rec, line)
	}
	if o.heap.len() == 0 {
		return Record{}, io.EOF
	}
	rec, line := o.heap.pop()
	o.emitted, o.last, o.pos.line = true, rec.Time, line
	return rec, nil
}

// Position returns the file and line of the last record returned.
func (o *ReorderReader) Position() (string, int64) { return o.pos.Position() }

// Stats says how many records were late, and by how much, among those
// read so far.
func (o *ReorderReader) Stats() ReorderStats { return o.late.ReorderStats }

// MaxReorderTime is the largest window ReorderWithin accepts.
const MaxReorderTime = time.Hour

// TimeReorderReader sorts a Reader's records by time within a window of
// time; see ReorderWithin.
type TimeReorderReader struct {
	inner
	heap    recordHeap
	window  time.Duration
	n       int64
	first   sim.Time
	emitted bool
	last    sim.Time
	eof     bool
	late    lateness
	pos     sortedPos
}

// ReorderWithin returns r's records sorted by time, for traces whose
// records arrive at most window late: a record is held until a record
// at least window later has been read (or the trace ends), then
// returned in time order (records of equal time keep their order). This
// fits traces whose disorder is bounded in time rather than in records,
// such as Tencent CBS's one-second timestamps that step back across
// thousands of records (DefaultReorderWindow gives each format's).
// Memory is the records of one window, at most MaxReorderWindow: past
// that the earliest is returned early. A record earlier than one
// already returned is out of order by more than the window: Next
// returns an *OrderError (WindowTime set), in a *ParseError naming its
// line when r knows lines. window must be 1ns..MaxReorderTime.
func ReorderWithin(r Reader, window time.Duration) (*TimeReorderReader, error) {
	if window <= 0 || window > MaxReorderTime {
		return nil, fmt.Errorf("trace: reorder window %v is outside 1ns..%v", window, MaxReorderTime)
	}
	return &TimeReorderReader{inner: inner{src: r}, window: window}, nil
}

// Next returns the earliest record held once it is safe to return.
func (o *TimeReorderReader) Next() (Record, error) {
	for !o.eof && !o.ready() {
		rec, err := o.src.Next()
		if err == io.EOF {
			o.eof = true
			break
		}
		if err != nil {
			return Record{}, err
		}
		o.n++
		if o.n == 1 {
			o.first = rec.Time
		}
		if o.emitted && rec.Time < o.last {
			return Record{}, orderError(o.src, o.n, &OrderError{
				Time: rec.Time.Sub(o.first), Previous: o.last.Sub(o.first), WindowTime: o.window})
		}
		o.late.note(rec.Time)
		var line int64
		o.pos.file, line = Position(o.src)
		o.heap.push(rec, line)
	}
	if o.heap.len() == 0 {
		return Record{}, io.EOF
	}
	rec, line := o.heap.pop()
	o.emitted, o.last, o.pos.line = true, rec.Time, line
	return rec, nil
}

// ready reports whether the earliest record held may be returned: a
// record a window later has been read, or the heap is full.
func (o *TimeReorderReader) ready() bool {
	if o.heap.len() == 0 {
		return false
	}
	if o.heap.len() >= MaxReorderWindow {
		return true
	}
	head := o.heap.head().Time
	return o.late.latest-head >= sim.Time(o.window) && o.late.latest >= head
}

// Position returns the file and line of the last record returned.
func (o *TimeReorderReader) Position() (string, int64) { return o.pos.Position() }

// Stats says how many records were late, and by how much, among those
// read so far.
func (o *TimeReorderReader) Stats() ReorderStats { return o.late.ReorderStats }

// Reordering is implemented by the reorder readers: what they sorted.
type Reordering interface {
	Reader
	Stats() ReorderStats
}

var (
	_ Reordering = (*ReorderReader)(nil)
	_ Reordering = (*TimeReorderReader)(nil)
)

// reorderItem is a record with its arrival number, which breaks ties
// between records of equal time.
type reorderItem struct {
	rec  Record
	seq  uint64
	line int64 // where the record was read, when its reader knows lines
}

func (a *reorderItem) less(b *reorderItem) bool {
	return a.rec.Time < b.rec.Time || (a.rec.Time == b.rec.Time && a.seq < b.seq)
}

// recordHeap is a binary min-heap of records by (time, arrival).
type recordHeap struct {
	items []reorderItem
	seq   uint64 // arrival number of the next push
}

func (h *recordHeap) len() int { return len(h.items) }

// head returns the earliest record; the heap must not be empty.
func (h *recordHeap) head() *Record { return &h.items[0].rec }

// push adds rec, read at line, numbered after every record pushed
// before.
func (h *recordHeap) push(rec Record, line int64) {
	it := append(h.items, reorderItem{rec: rec, seq: h.seq, line: line})
	h.seq++
	i := len(it) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !it[i].less(&it[p]) {
			break
		}
		it[i], it[p] = it[p], it[i]
		i = p
	}
	h.items = it
}

// pop removes and returns the earliest record and its line; the heap
// must not be empty.
func (h *recordHeap) pop() (Record, int64) {
	it := h.items
	top, line := it[0].rec, it[0].line
	n := len(it) - 1
	it[0] = it[n]
	it = it[:n]
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && it[r].less(&it[l]) {
			m = r
		}
		if !it[m].less(&it[i]) {
			break
		}
		it[i], it[m] = it[m], it[i]
		i = m
	}
	h.items = it
	return top, line
}

// sortedPos gives a reorder reader the position of the record it
// returned last, rather than its source's, which has read ahead.
type sortedPos struct {
	file string
	line int64
}

// Position returns the file and line of the last record returned.
func (p *sortedPos) Position() (string, int64) { return p.file, p.line }
