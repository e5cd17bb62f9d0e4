package tracestats

import "time"

// burstRing counts requests in windows of one width, aligned on the
// first record, keeping the last ringSize windows so records a little
// late still land in theirs; the peak is taken as windows leave the
// ring.
type burstRing struct {
	width time.Duration
	base  int64 // index of the oldest window in the ring
	count [ringSize]int64
	peak  int64
}

// ringSize is how many windows a burstRing keeps.
const ringSize = 64

// add counts a request at time at from the first record. A request more
// than ringSize windows late counts in the oldest window kept.
func (b *burstRing) add(at time.Duration) {
	idx := int64(max(at, 0) / b.width)
	if idx >= b.base+2*ringSize { // a long quiet spell: skip the empty windows
		for range ringSize {
			b.retire()
		}
		b.base = idx - ringSize + 1
	}
	for idx >= b.base+ringSize {
		b.retire()
	}
	idx = max(idx, b.base)
	b.count[idx%ringSize]++
}

// retire takes the oldest window's count into the peak and frees it.
func (b *burstRing) retire() {
	slot := &b.count[b.base%ringSize]
	b.peak = max(b.peak, *slot)
	*slot = 0
	b.base++
}

// finish returns the burstiness of records requests over span (from the
// first record to the latest): the peak window against the mean over
// the span's windows.
func (b *burstRing) finish(span time.Duration, records int64) Burst {
	for range ringSize {
		b.retire()
	}
	windows := int64(max(span, 0)/b.width) + 1
	out := Burst{WindowS: b.width.Seconds(), Peak: b.peak, Mean: float64(records) / float64(windows)}
	if out.Mean > 0 {
		out.PeakToMean = float64(out.Peak) / out.Mean
	}
	return out
}

// timelineBins bounds the time line's bins; past it, bins double in
// width.
const timelineBins = 512

// timeBin is one bin of the time line.
type timeBin struct{ count, bytes int64 }

// binner is a time line whose bins double in width (merging pairs)
// whenever a time falls past the last, so it keeps at most
// timelineBins.
type binner struct {
	width time.Duration
	bins  []timeBin
}

// add counts a request of n bytes at time at.
func (t *binner) add(at time.Duration, n int64) {
	at = max(at, 0)
	for at/t.width >= timelineBins {
		t.coarsen()
	}
	i := int(at / t.width)
	for len(t.bins) <= i {
		t.bins = append(t.bins, timeBin{})
	}
	t.bins[i].count++
	t.bins[i].bytes += n
}

// coarsen doubles the bin width.
func (t *binner) coarsen() {
	for i := range (len(t.bins) + 1) / 2 {
		b := t.bins[2*i]
		if 2*i+1 < len(t.bins) {
			b.count += t.bins[2*i+1].count
			b.bytes += t.bins[2*i+1].bytes
		}
		t.bins[i] = b
	}
	t.bins = t.bins[:(len(t.bins)+1)/2]
	t.width *= 2
}

// points returns the time line's rates.
func (t *binner) points() []TimePoint {
	out := make([]TimePoint, len(t.bins))
	w := t.width.Seconds()
	for i, b := range t.bins {
		out[i] = TimePoint{StartS: float64(i) * w, IOPS: float64(b.count) / w, MBPerS: float64(b.bytes) / w / 1e6}
	}
	return out
}

// The hot-spot grid's size: time columns by offset rows.
const (
	heatCols = 64
	heatRows = 32
)

// heatGrid counts requests by time and offset in bins that double in
// width on either axis as the trace outgrows them.
type heatGrid struct {
	colWidth time.Duration
	rowBytes int64
	cols     int // columns in use
	rows     int // rows in use
	count    [heatRows][heatCols]int64
}

func newHeatGrid() heatGrid { return heatGrid{colWidth: time.Millisecond, rowBytes: 1 << 20} }

// add counts a request at time at and offset off.
func (h *heatGrid) add(at time.Duration, off int64) {
	at, off = max(at, 0), max(off, 0)
	for at/h.colWidth >= heatCols {
		h.halveCols()
	}
	for off/h.rowBytes >= heatRows {
		h.halveRows()
	}
	col, row := int(at/h.colWidth), int(off/h.rowBytes)
	h.count[row][col]++
	h.cols, h.rows = max(h.cols, col+1), max(h.rows, row+1)
}

func (h *heatGrid) halveCols() {
	for r := range heatRows {
		for c := range heatCols / 2 {
			h.count[r][c] = h.count[r][2*c] + h.count[r][2*c+1]
		}
		clear(h.count[r][heatCols/2:])
	}
	h.colWidth *= 2
	h.cols = (h.cols + 1) / 2
}

func (h *heatGrid) halveRows() {
	for r := range heatRows / 2 {
		for c := range heatCols {
			h.count[r][c] = h.count[2*r][c] + h.count[2*r+1][c]
		}
	}
	for r := heatRows / 2; r < heatRows; r++ {
		clear(h.count[r][:])
	}
	h.rowBytes *= 2
	h.rows = (h.rows + 1) / 2
}

// result returns the grid's used rows and columns.
func (h *heatGrid) result() HeatMap {
	out := HeatMap{BinS: h.colWidth.Seconds(), BinBytes: h.rowBytes}
	for r := range h.rows {
		out.Counts = append(out.Counts, append([]int64(nil), h.count[r][:h.cols]...))
	}
	return out
}
