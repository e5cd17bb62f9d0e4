package campaign

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/raid/crashcheck"
	"github.com/raidsim/raidsim/sim"
)

// Result is what one schedule's checks found.
type Result struct {
	// Violations are the property's breaches, each a sentence; empty when
	// the schedule passed.
	Violations []string
	// Exceeded reports that the faults may have exceeded the
	// redundancy; Volatile that a power loss met volatile caches.
	Exceeded, Volatile bool
	// Wrong, Lost and Torn count the sectors read back wrong and those
	// named lost and torn.
	Wrong, Lost, Torn int
	// Acked and Failed count the writes acknowledged and failed.
	Acked, Failed int
}

func (res *Result) violate(format string, args ...any) {
	res.Violations = append(res.Violations, fmt.Sprintf(format, args...))
}

// sectors is a set of logical sectors.
type sectors []bool

func (s sectors) addRange(off, n int64) {
	for o := max(off, 0) / sectorSize; o*sectorSize < off+n && o < int64(len(s)); o++ {
		s[o] = true
	}
}

func (s sectors) count() int {
	n := 0
	for _, b := range s {
		if b {
			n++
		}
	}
	return n
}

// firstIn returns the first sector set in both s and o, or -1.
func (s sectors) firstIn(o sectors) int64 {
	for i, b := range s {
		if b && o[i] {
			return int64(i)
		}
	}
	return -1
}

// firstNotIn returns the first sector set in s and not in any of others,
// or -1.
func (s sectors) firstNotIn(others ...sectors) int64 {
	for i, b := range s {
		if !b {
			continue
		}
		in := false
		for _, o := range others {
			in = in || o[i]
		}
		if !in {
			return int64(i)
		}
	}
	return -1
}

// expected returns the image the acknowledged writes imply over the
// initial contents (applied in
// the order they were acknowledged: the last acknowledged stays) and, by
// sector, the other versions a sector may hold: those of writes that did
// not complete (failed, or in flight at a power loss) and were still in
// flight when the write whose bytes the image holds there was sent.
func (r *runner) expected() (want []byte, alt map[int64][][]byte) {
	want = slices.Clone(r.before)
	last := make([]sim.Time, len(want)/sectorSize) // when the image's writer was sent
	for i := range last {
		last[i] = -1
	}
	for _, w := range r.ackOrder {
		copy(want[w.off:], w.data)
		for s := w.off / sectorSize; s < (w.off+int64(len(w.data)))/sectorSize; s++ {
			last[s] = w.submitted
		}
	}
	alt = map[int64][][]byte{}
	for _, w := range r.writes {
		if w.acked {
			continue
		}
		for i := int64(0); i < int64(len(w.data)); i += sectorSize {
			if s := (w.off + i) / sectorSize; w.ended > last[s] {
				alt[s] = append(alt[s], w.data[i:i+sectorSize])
			}
		}
	}
	return want, alt
}

// readback is what reading the array back found, by sector.
type readback struct {
	// wrong: an error, or bytes that are none of the allowed versions.
	wrong sectors
	// acked: the bytes of the last acknowledged write (or the initial
	// zeros where none was).
	acked sectors
	// got keeps what wrong sectors read, to describe them.
	got map[int64][]byte
}

// readBack reads every sector of dev on eng.
func readBack(eng *sim.Engine, dev sim.Device, want []byte, alt map[int64][][]byte) readback {
	n := len(want) / sectorSize
	rb := readback{wrong: make(sectors, n), acked: make(sectors, n), got: map[int64][]byte{}}
	judge := func(s int64, got []byte, err error) {
		if err != nil {
			rb.wrong[s] = true
			return
		}
		if bytes.Equal(got, want[s*sectorSize:(s+1)*sectorSize]) {
			rb.acked[s] = true
			return
		}
		for _, a := range alt[s] {
			if bytes.Equal(got, a) {
				return
			}
		}
		rb.wrong[s], rb.got[s] = true, got
	}
	read := func(off, n int64) {
		q := &sim.Request{Op: sim.Read, Offset: off, Length: n, Data: make([]byte, n)}
		q.Done = func(q *sim.Request) {
			if q.Err == nil {
				for i := int64(0); i < n; i += sectorSize {
					judge((off+i)/sectorSize, q.Data[i:i+sectorSize], nil)
				}
				return
			}
			for o := off; o < off+n; o += sectorSize { // find which sectors fail
				q := &sim.Request{Op: sim.Read, Offset: o, Length: sectorSize, Data: make([]byte, sectorSize)}
				q.Done = func(q *sim.Request) { judge(o/sectorSize, q.Data, q.Err) }
				_ = dev.Submit(q)
			}
		}
		_ = dev.Submit(q)
	}
	const chunk = 4096
	for off := int64(0); off < int64(len(want)); off += chunk {
		read(off, min(chunk, int64(len(want))-off))
	}
	eng.Run()
	return rb
}

// settledReadBack reads arr back until a pass changes nothing of what
// its reports name (reading fails members whose rewrites fail, and
// records losses), and returns the last pass: what the array reads once
// the reports are final.
func settledReadBack(eng *sim.Engine, arr *raid.Array, want []byte, alt map[int64][][]byte) readback {
	for range 4 {
		failed, lost := arr.Failed(), arr.LostRanges()
		rb := readBack(eng, arr, want, alt)
		if slices.Equal(failed, arr.Failed()) && slices.Equal(lost, arr.LostRanges()) {
			return rb
		}
	}
	return readBack(eng, arr, want, alt)
}

// beyondTolerance adds to named the data held by members missing beyond
// what the level survives, row by row.
func beyondTolerance(m raid.Mapping, rows int64, missing []bool, named sectors) {
	tol := tolerance(m.Level, m.Members)
	for row := range rows {
		for mem := range m.Members {
			if !missing[mem] {
				continue
			}
			gone := 0
			for o := range m.Members {
				if missing[o] && (m.Level != raid.RAID10 || o/2 == mem/2) {
					gone++
				}
			}
			if gone <= tol {
				continue
			}
			if off, ok := m.Logical(raid.Addr{Member: mem, Offset: row * m.StripeUnit}); ok {
				named.addRange(off, m.StripeUnit)
			}
		}
	}
}

// afterRun checks a schedule that ran to its end.
func (r *runner) afterRun() (*Result, error) {
	res := r.result()
	want, alt := r.expected()
	top := readBack(r.eng, r.top, want, alt)
	if r.cache != nil { // and the array itself, once the cache has destaged
		f := &sim.Request{Op: sim.Flush, Done: func(*sim.Request) {}}
		if err := r.cache.Submit(f); err == nil {
			r.eng.Run()
		}
	}
	rb := settledReadBack(r.eng, r.arr, want, alt)
	lost := make(sectors, len(want)/sectorSize)
	for _, e := range r.arr.LostRanges() {
		lost.addRange(e.Offset, e.Length)
	}
	missing := make([]bool, r.s.Members)
	for _, m := range r.arr.Failed() {
		missing[m] = true
	}
	beyondTolerance(r.arr.Mapping(), r.s.Rows, missing, lost)
	torn := make(sectors, len(lost))
	if r.cache != nil { // the cache dropped what it could not destage: some may have landed
		for _, e := range r.cache.LostRanges() {
			torn.addRange(e.Offset, e.Length)
		}
	}
	res.Wrong, res.Lost, res.Torn = rb.wrong.count(), lost.count(), torn.count()
	if s := top.wrong.firstNotIn(lost, torn); s >= 0 {
		res.violate("sector %d (byte %d) reads wrong through the stack and no report names it", s, s*sectorSize)
	}
	r.compare(res, rb, lost, torn)
	if !res.Exceeded && (len(r.errs) > 0 || res.Lost > 0) {
		res.violate("within the redundancy, yet %d requests failed (%v) and %d sectors are named lost", len(r.errs), first(r.errs), res.Lost)
	}
	r.scrub(res, lost)
	return res, nil
}

// compare checks what read back wrong against lost plus torn (nothing
// else may), and lost against what read back its acknowledged bytes
// (nothing lost may).
func (r *runner) compare(res *Result, rb readback, lost, torn sectors) {
	wrong := rb.wrong
	if s := wrong.firstNotIn(lost, torn); s >= 0 {
		res.violate("sector %d (byte %d) reads wrong and no report names it (%s)", s, s*sectorSize, describeWrites(r, s, rb.got[s]))
	}
	if s := lost.firstIn(rb.acked); s >= 0 {
		res.violate("sector %d (byte %d) is named lost and reads back its acknowledged bytes (%s)", s, s*sectorSize, describeWrites(r, s, nil))
	}
}

// scrub checks that every stripe whose members are all present has its
// parity or copies consistent with its data (md's check), after a run
// without a power loss.
func (r *runner) scrub(res *Result, lost sectors) {
	g := r.arr.Geometry()
	readers := make([]io.ReaderAt, len(r.slots))
	for i, sl := range r.slots {
		readers[i] = sl.mem
	}
	out, err := crashcheck.Check(crashcheck.Input{Mapping: r.arr.Mapping(), SectorSize: sectorSize, MemberBytes: g.MemberBytes, Members: readers})
	if err != nil {
		res.violate("scrub: %v", err)
		return
	}
	failed := r.arr.Failed()
	for _, row := range out.Inconsistent {
		excused := len(failed) > 0
		for m := range r.s.Members { // a row with data lost in it (md's bad blocks) is garbage there
			if off, ok := r.arr.Mapping().Logical(raid.Addr{Member: m, Offset: row * g.StripeUnit}); ok {
				excused = excused || slices.Contains(lost[off/sectorSize:(off+g.StripeUnit)/sectorSize], true)
			}
		}
		if !excused {
			res.violate("scrub: stripe %d's redundancy disagrees with its data, every member present", row)
			return
		}
	}
}

// result starts the Result of the run so far.
func (r *runner) result() *Result {
	res := &Result{Exceeded: r.exceeded()}
	for _, w := range r.writes {
		switch {
		case w.acked:
			res.Acked++
		case w.failed:
			res.Failed++
		}
	}
	return res
}

// describeWrites names the writes over sector s and which of them got
// (what s read, nil for an error) holds.
func describeWrites(r *runner, s int64, got []byte) string {
	var b strings.Builder
	for _, w := range r.writes {
		if w.off <= s*sectorSize && s*sectorSize < w.off+int64(len(w.data)) {
			d := w.data[s*sectorSize-w.off : s*sectorSize-w.off+sectorSize]
			fmt.Fprintf(&b, "write #%d %d+%d acked %v failed %v, read back %v; ", w.seq, w.off, len(w.data), w.acked, w.failed, bytes.Equal(d, got))
		}
	}
	for i, w := range r.ackOrder {
		if w.off <= s*sectorSize && s*sectorSize < w.off+int64(len(w.data)) {
			fmt.Fprintf(&b, "ack %d: #%d; ", i, w.seq)
		}
	}
	switch {
	case got == nil:
		b.WriteString("read back an error or the acknowledged bytes")
	default:
		fmt.Fprintf(&b, "read back zeros %v", bytes.Equal(got, make([]byte, sectorSize)))
	}
	return b.String()
}

func first(xs []string) string {
	if len(xs) == 0 {
		return "none"
	}
	return xs[0]
}
