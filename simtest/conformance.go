package simtest

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime/debug"
	"testing"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// DefaultSeed is the seed TestDevice uses unless WithSeed gives another.
const DefaultSeed = 0x5eed_1e55

// Option adjusts TestDevice.
type Option func(*suite)

// WithData tells TestDevice that the device carries data: reads return
// what writes stored. It adds the data subtests (RoundTrip and
// OverlappingWrites).
func WithData() Option { return func(s *suite) { s.data = true } }

// WithTrimZeroes tells TestDevice that a trimmed range reads back as
// zeroes (as SSDs with deterministic read-zero-after-trim do). With
// WithData it adds the TrimZeroes subtest.
func WithTrimZeroes() Option { return func(s *suite) { s.trimZeroes = true } }

// WithSeed sets the seed of the suite's random requests. A failing run
// prints its seed; pass it here to reproduce the failure.
func WithSeed(seed uint64) Option { return func(s *suite) { s.seed = seed } }

// WithRequests sets how many random requests the Lifecycle subtest
// submits (default 400). Values below 1 are ignored.
func WithRequests(n int) Option {
	return func(s *suite) {
		if n > 0 {
			s.requests = n
		}
	}
}

// WithMaxSteps bounds the engine steps one drain of the engine may take
// (default 1,000,000) before the suite declares that the device never
// goes idle. Values below 1 are ignored.
func WithMaxSteps(n int) Option {
	return func(s *suite) {
		if n > 0 {
			s.maxSteps = n
		}
	}
}

// suite holds the options of one TestDevice run.
type suite struct {
	data       bool
	trimZeroes bool
	seed       uint64
	requests   int
	maxSteps   int
}

func newSuite(opts []Option) *suite {
	s := &suite{seed: DefaultSeed, requests: 400, maxSteps: 1_000_000}
	for _, o := range opts {
		o(s)
	}
	return s
}

// factory makes a fresh device and the engine it runs on.
type factory func() (sim.Device, *sim.Engine)

// deviceCheck is one subtest of TestDevice. Checks return an error
// rather than calling t, so that simtest's own tests can run them on
// broken devices and see that they fail.
type deviceCheck struct {
	name string
	data bool // runs only WithData
	run  func(s *suite, rng *rand.Rand, newDev factory) error
}

var deviceChecks = []deviceCheck{
	{"Geometry", false, checkGeometry},
	{"Reject", false, checkReject},
	{"Flush", false, checkFlush},
	{"Lifecycle", false, checkLifecycle},
	{"RoundTrip", true, checkRoundTrip},
	{"OverlappingWrites", true, checkOverlap},
	{"TrimZeroes", true, checkTrimZeroes},
}

// TestDevice runs a conformance suite against the sim.Device made by
// newDevice, which is called once per subtest for a fresh device and the
// engine it runs on (events already pending on the engine are run first).
// The subtests check the Device contract:
//
//   - Geometry: a positive sector size, and a capacity that is a
//     positive multiple of it.
//   - Reject: requests that can never be served (unknown op, nil Done,
//     zero or negative length, a trim carrying Data, offset or length not a multiple of the
//     sector size, negative offset, past the capacity or with
//     Offset+Length overflowing int64, Data of the wrong length) make
//     Submit return an error wrapping the matching sim sentinel, Done is
//     never called for them, Submit does not panic, and valid requests
//     submitted afterwards are still served.
//   - Flush: flushes are accepted whatever their Offset and Length.
//   - Lifecycle: hundreds of random reads, writes (some FUA, some with
//     Data), trims and flushes, several outstanding, submitted from outside and
//     from inside the event loop: every one is accepted and its Done is
//     called exactly once, never from inside Submit, with Err nil; Issued
//     equals the virtual time of Submit; Issued <= Completed <= the time
//     Done runs; the submitter's fields (Op, Offset, Length, FUA, Data,
//     Ctx, ID) are left alone; and the engine drains within the step
//     bound (see WithMaxSteps), so the device must not schedule events
//     forever once idle.
//   - RoundTrip (WithData): random writes, one at a time, read back
//     byte for byte, some while writing and all at the end.
//   - OverlappingWrites (WithData): batches of concurrent overlapping
//     writes; afterwards every byte holds the data of the write whose
//     Done was called last.
//   - TrimZeroes (WithData and WithTrimZeroes): random writes, then
//     trims of random sector ranges (whole 4 KiB units or not); a
//     trimmed range reads back as zeroes and the rest keeps its data.
//
// Requests stay within the first and last 4 MiB of the device and are at
// most 128 KiB long, so the suite is fast for any capacity. It is seeded
// (WithSeed) and prints its seed when it fails. A panic inside the device
// fails the subtest with the panic value and stack rather than crashing
// the test binary.
func TestDevice(t *testing.T, newDevice func(t *testing.T) (sim.Device, *sim.Engine), opts ...Option) {
	t.Helper()
	s := newSuite(opts)
	for _, c := range deviceChecks {
		if c.data && !s.data || c.name == "TrimZeroes" && !s.trimZeroes {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			t.Helper()
			err := s.runCheck(c, func() (sim.Device, *sim.Engine) { return newDevice(t) })
			if err != nil {
				t.Errorf("%v\n(simtest.TestDevice seed %#x: reproduce with simtest.WithSeed(%#x))", err, s.seed, s.seed)
			}
		})
	}
}

// runCheck runs c with its own random stream, turning a panic into an
// error.
func (s *suite) runCheck(c deviceCheck, newDev factory) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v\n%s", p, debug.Stack())
		}
	}()
	checked := func() (sim.Device, *sim.Engine) {
		dev, eng := newDev()
		if dev == nil || eng == nil {
			panic("simtest: newDevice returned a nil device or engine")
		}
		return dev, eng
	}
	rng := rand.New(rand.NewPCG(s.seed, sim.StreamSeed(c.name)))
	return c.run(s, rng, checked)
}

// geometryError returns why dev's geometry is unusable, or nil.
func geometryError(dev sim.Device) error {
	ss, c := dev.SectorSize(), dev.Capacity()
	var errs []error
	if ss <= 0 {
		errs = append(errs, fmt.Errorf("SectorSize() = %d, want a positive number of bytes", ss))
	}
	if c <= 0 {
		errs = append(errs, fmt.Errorf("Capacity() = %d, want a positive number of bytes", c))
	} else if ss > 0 && c%int64(ss) != 0 {
		errs = append(errs, fmt.Errorf("Capacity() = %d is not a multiple of SectorSize() = %d", c, ss))
	}
	return errors.Join(errs...)
}

func checkGeometry(_ *suite, _ *rand.Rand, newDev factory) error {
	dev, _ := newDev()
	return geometryError(dev)
}

// unset marks Issued and Completed before Submit, to see that the device
// sets them.
const unset sim.Time = -1 << 62

// maxErrors bounds the problems one check reports.
const maxErrors = 12

// harness submits requests to one device and watches every Done.
type harness struct {
	s        *suite
	dev      sim.Device
	eng      *sim.Engine
	ss       int64
	capacity int64

	recs        []*tracked
	inSubmit    *tracked // the request whose Submit is running, if any
	outstanding int
	errs        []error
	dropped     int
	onDone      func(t *tracked) // optional per-check hook, after checks
	done        func(*sim.Request)
}

// tracked is one submitted request with a copy of the submitter's fields.
type tracked struct {
	idx       int
	r         *sim.Request
	want      sim.Request // fields as submitted
	submitAt  sim.Time
	returned  bool // Submit has returned
	rejected  bool
	submitErr error
	dones     int
	doneAt    sim.Time
}

func newHarness(s *suite, dev sim.Device, eng *sim.Engine) *harness {
	h := &harness{s: s, dev: dev, eng: eng, ss: int64(dev.SectorSize()), capacity: dev.Capacity()}
	h.done = h.handleDone
	return h
}

func (h *harness) fail(format string, args ...any) {
	if len(h.errs) >= maxErrors {
		h.dropped++
		return
	}
	h.errs = append(h.errs, fmt.Errorf(format, args...))
}

func (h *harness) err() error {
	if h.dropped > 0 {
		h.errs = append(h.errs, fmt.Errorf("... and %d more problems", h.dropped))
	}
	return errors.Join(h.errs...)
}

// submit fills in the suite's Done (unless noDone), Ctx and ID, submits
// r and returns the tracking record and Submit's error. A panic in
// Submit is recorded as a failure and returned as an error.
func (h *harness) submit(r *sim.Request, noDone bool) (t *tracked, err error) {
	t = &tracked{idx: len(h.recs), r: r, submitAt: h.eng.Now()}
	h.recs = append(h.recs, t)
	r.ID = uint64(t.idx)
	r.Ctx = t
	if !noDone {
		r.Done = h.done
	}
	r.Issued, r.Completed = unset, unset
	t.want = *r

	defer func() {
		h.inSubmit = nil
		t.returned = true
		if p := recover(); p != nil {
			err = &submitPanic{req: t.want.String(), v: p}
			h.fail("%v\n%s", err, debug.Stack())
			t.rejected = true
			t.submitErr = err
		}
	}()
	h.inSubmit = t
	err = h.dev.Submit(r)
	h.inSubmit = nil
	if err != nil {
		t.rejected = true
		t.submitErr = err
		if t.dones > 0 {
			h.fail("%v: Submit returned an error (%v) but Done was called", &t.want, err)
		}
		return t, err
	}
	if t.dones == 0 {
		h.outstanding++
	}
	if r.Issued != t.submitAt {
		if r.Issued == unset {
			h.fail("%v: Issued not set by Submit (want %v)", &t.want, t.submitAt)
		} else {
			h.fail("%v: Issued = %v after Submit, want the submit time %v", &t.want, r.Issued, t.submitAt)
		}
	}
	return t, nil
}

// handleDone is the Done of every request the harness submits.
func (h *harness) handleDone(r *sim.Request) {
	if r.ID >= uint64(len(h.recs)) || h.recs[r.ID].r != r {
		h.fail("Done called with a request whose ID (%d) the suite did not give it: the device changed ID or called Done on a request it was not given", r.ID)
		return
	}
	t := h.recs[r.ID]
	t.dones++
	now := h.eng.Now()
	if h.inSubmit != nil {
		if h.inSubmit == t {
			h.fail("%v: Done called synchronously from inside Submit", &t.want)
		} else {
			h.fail("%v: Done called from inside Submit of %v", &t.want, &h.inSubmit.want)
		}
	}
	if t.dones > 1 {
		h.fail("%v: Done called %d times (at %v and %v)", &t.want, t.dones, t.doneAt, now)
		return
	}
	t.doneAt = now
	if t.rejected {
		h.fail("%v: Done called at %v for a request Submit rejected (%v)", &t.want, now, t.submitErr)
		return
	}
	if t.returned {
		h.outstanding--
	}
	switch {
	case r.Completed == unset:
		h.fail("%v: Completed not set when Done was called at %v", &t.want, now)
	case r.Completed < r.Issued:
		h.fail("%v: completed at %v, before it was issued at %v", &t.want, r.Completed, r.Issued)
	case r.Completed > now:
		h.fail("%v: Completed = %v is after the time Done was called (%v)", &t.want, r.Completed, now)
	}
	if now < t.submitAt {
		h.fail("%v: Done called at %v, before the submit time %v", &t.want, now, t.submitAt)
	}
	if r.Issued != t.submitAt && r.Issued != unset {
		h.fail("%v: Issued = %v when Done was called, want the submit time %v", &t.want, r.Issued, t.submitAt)
	}
	if r.Err != nil {
		h.fail("%v: failed: %v (a healthy device should serve every valid request)", &t.want, r.Err)
	}
	if d := fieldChanges(&t.want, r); d != "" {
		h.fail("%v: the device changed the submitter's fields: %s", &t.want, d)
	}
	if h.onDone != nil {
		h.onDone(t)
	}
}

// fieldChanges describes how the submitter-owned fields of r differ from
// want, or returns "".
func fieldChanges(want, r *sim.Request) string {
	var s string
	add := func(format string, args ...any) {
		if s != "" {
			s += ", "
		}
		s += fmt.Sprintf(format, args...)
	}
	if r.Op != want.Op {
		add("Op %v -> %v", want.Op, r.Op)
	}
	if r.Offset != want.Offset {
		add("Offset %d -> %d", want.Offset, r.Offset)
	}
	if r.Length != want.Length {
		add("Length %d -> %d", want.Length, r.Length)
	}
	if r.FUA != want.FUA {
		add("FUA %v -> %v", want.FUA, r.FUA)
	}
	if len(r.Data) != len(want.Data) || (r.Data == nil) != (want.Data == nil) ||
		(len(r.Data) > 0 && &r.Data[0] != &want.Data[0]) {
		add("Data replaced (len %d -> %d)", len(want.Data), len(r.Data))
	}
	if r.Ctx != want.Ctx {
		add("Ctx changed")
	}
	if r.ID != want.ID {
		add("ID %d -> %d", want.ID, r.ID)
	}
	return s
}

// drain runs the engine until it is idle, within the step bound.
func (h *harness) drain() error {
	for steps := 0; h.eng.Step(); steps++ {
		if steps >= h.s.maxSteps {
			err := fmt.Errorf("engine still has %d pending events after %d steps (now %v, %d requests outstanding): "+
				"the device never goes idle, or schedules events forever", h.eng.Pending(), steps, h.eng.Now(), h.outstanding)
			h.fail("%v", err)
			return err
		}
	}
	return nil
}

// finish drains the engine and reports accepted requests never
// completed.
func (h *harness) finish() error {
	if h.drain() == nil {
		n := 0
		for _, t := range h.recs {
			if !t.rejected && t.dones == 0 {
				if n < 5 {
					h.fail("%v (submitted at %v): never completed: Done not called by the time the engine ran out of events", &t.want, t.submitAt)
				}
				n++
			}
		}
		if n > 5 {
			h.fail("... %d requests never completed in all", n)
		}
	}
	return h.err()
}

// start makes a device, checks its geometry and returns a harness.
func start(s *suite, newDev factory) (*harness, error) {
	dev, eng := newDev()
	if err := geometryError(dev); err != nil {
		return nil, fmt.Errorf("unusable geometry: %w", err)
	}
	h := newHarness(s, dev, eng)
	if err := h.drain(); err != nil { // events the constructor scheduled
		return nil, fmt.Errorf("before any request: %w", err)
	}
	return h, nil
}

// badCase is one request that must be rejected.
type badCase struct {
	name   string
	req    sim.Request
	noDone bool
	want   error
}

func badCases(ss, c int64) []badCase {
	rd := func(off, n int64) sim.Request { return sim.Request{Op: sim.Read, Offset: off, Length: n} }
	wr := func(off, n int64) sim.Request { return sim.Request{Op: sim.Write, Offset: off, Length: n} }
	maxAligned := math.MaxInt64 / ss * ss
	cases := []badCase{
		{"op 4", sim.Request{Op: sim.Op(4), Length: ss}, false, sim.ErrBadOp},
		{"nil Done trim", sim.Request{Op: sim.Trim, Length: ss}, true, sim.ErrNoDone},
		{"zero-length trim", sim.Request{Op: sim.Trim}, false, sim.ErrZeroLength},
		{"trim with data", sim.Request{Op: sim.Trim, Length: ss, Data: make([]byte, ss)}, false, sim.ErrDataLength},
		{"trim past capacity", sim.Request{Op: sim.Trim, Offset: c, Length: ss}, false, sim.ErrOutOfRange},
		{"op 255", sim.Request{Op: sim.Op(255), Length: ss}, false, sim.ErrBadOp},
		{"nil Done read", rd(0, ss), true, sim.ErrNoDone},
		{"nil Done write", wr(0, ss), true, sim.ErrNoDone},
		{"nil Done flush", sim.Request{Op: sim.Flush}, true, sim.ErrNoDone},
		{"zero-length read", rd(0, 0), false, sim.ErrZeroLength},
		{"zero-length write", wr(0, 0), false, sim.ErrZeroLength},
		{"negative length", wr(0, -ss), false, sim.ErrZeroLength},
		{"length MinInt64", rd(0, math.MinInt64), false, sim.ErrZeroLength},
		{"negative offset", rd(-ss, ss), false, sim.ErrOutOfRange},
		{"offset -capacity", wr(-c, ss), false, sim.ErrOutOfRange},
		{"offset near MinInt64", rd(math.MinInt64/ss*ss, ss), false, sim.ErrOutOfRange},
		{"offset at capacity", rd(c, ss), false, sim.ErrOutOfRange},
		{"crossing capacity", wr(c-ss, 2*ss), false, sim.ErrOutOfRange},
		{"huge offset", rd(maxAligned, ss), false, sim.ErrOutOfRange},
		{"offset+length overflows", wr(c-ss, maxAligned), false, sim.ErrOutOfRange},
		{"offset+length overflows FUA", sim.Request{Op: sim.Write, FUA: true, Offset: ss, Length: maxAligned}, false, sim.ErrOutOfRange},
		{"empty non-nil data", sim.Request{Op: sim.Write, Length: ss, Data: []byte{}}, false, sim.ErrDataLength},
		{"long read data", sim.Request{Op: sim.Read, Length: ss, Data: make([]byte, ss+1)}, false, sim.ErrDataLength},
	}
	if c-ss >= ss {
		cases = append(cases, badCase{"length beyond capacity", rd(0, c+ss), false, sim.ErrOutOfRange})
	}
	if c >= 2*ss {
		cases = append(cases, badCase{"short write data", sim.Request{Op: sim.Write, Length: 2 * ss, Data: make([]byte, ss)}, false, sim.ErrDataLength})
	}
	if ss > 1 {
		cases = append(cases,
			badCase{"offset 1", rd(1, ss), false, sim.ErrMisaligned},
			badCase{"offset half a sector", wr(ss/2, ss), false, sim.ErrMisaligned},
			badCase{"offset one past a sector", sim.Request{Op: sim.Write, FUA: true, Offset: ss + 1, Length: ss}, false, sim.ErrMisaligned},
			badCase{"length 1", rd(0, 1), false, sim.ErrMisaligned},
			badCase{"length a sector plus 1", wr(0, ss+1), false, sim.ErrMisaligned},
			badCase{"length half a sector", rd(ss, ss/2), false, sim.ErrMisaligned},
		)
	}
	return cases
}

func checkReject(s *suite, _ *rand.Rand, newDev factory) error {
	h, err := start(s, newDev)
	if err != nil {
		return err
	}
	for _, bc := range badCases(h.ss, h.capacity) {
		r := bc.req
		t, err := h.submit(&r, bc.noDone)
		switch {
		case err == nil:
			h.fail("%s (%v): Submit accepted it, want an error wrapping %q", bc.name, &t.want, bc.want)
		case !errors.Is(err, bc.want) && !isPanic(err): // panics are already reported
			h.fail("%s (%v): Submit returned %q, want an error wrapping %q", bc.name, &t.want, err, bc.want)
		}
	}
	// The rejections leave the device working.
	for _, r := range []*sim.Request{
		{Op: sim.Write, Offset: h.capacity - h.ss, Length: h.ss, Data: make([]byte, h.ss)},
		{Op: sim.Read, Length: h.ss},
	} {
		if _, err := h.submit(r, false); err != nil && !isPanic(err) {
			h.fail("%v after the bad requests: Submit rejected a valid request: %v", r, err)
		}
	}
	return h.finish()
}

// submitPanic is the error submit returns when Submit panicked.
type submitPanic struct {
	req string
	v   any
}

func (p *submitPanic) Error() string { return fmt.Sprintf("Submit(%s) panicked: %v", p.req, p.v) }

func isPanic(err error) bool {
	var p *submitPanic
	return errors.As(err, &p)
}

func checkFlush(s *suite, _ *rand.Rand, newDev factory) error {
	h, err := start(s, newDev)
	if err != nil {
		return err
	}
	ranges := [][2]int64{{0, 0}, {-1, -1}, {1, 3}, {h.capacity, h.ss}, {math.MaxInt64, math.MaxInt64}, {math.MinInt64, math.MinInt64}}
	for i, rg := range ranges {
		r := &sim.Request{Op: sim.Flush, Offset: rg[0], Length: rg[1], FUA: i%2 == 1}
		if _, err := h.submit(r, false); err != nil {
			h.fail("flush with Offset %d, Length %d: Submit returned %v; a flush ignores Offset and Length", rg[0], rg[1], err)
		}
	}
	return h.finish()
}

// window is a region of the device random requests stay in.
type window struct{ lo, hi int64 }

// windows returns where random requests go: the first and last few MiB
// of the device (one window when it is small), rounded to sectors.
func windows(ss, c, size int64) []window {
	size = max(size/ss*ss, ss)
	if c <= 2*size {
		return []window{{0, c}}
	}
	return []window{{0, size}, {c - size, c}}
}

// randExtent returns a random sector-aligned extent of at most maxLen
// bytes inside w.
func randExtent(rng *rand.Rand, w window, ss, maxLen int64) (off, n int64) {
	maxSectors := max(min(maxLen, w.hi-w.lo)/ss, 1)
	n = ss * (1 + rng.Int64N(maxSectors))
	off = w.lo + ss*rng.Int64N((w.hi-w.lo-n)/ss+1)
	return off, n
}

const (
	windowSize = 4 << 20
	maxReqLen  = 128 << 10
)

func checkLifecycle(s *suite, rng *rand.Rand, newDev factory) error {
	h, err := start(s, newDev)
	if err != nil {
		return err
	}
	ws := windows(h.ss, h.capacity, windowSize)
	depth := 1 + rng.IntN(8)
	submitted := 0
	idle := false
	var tick sim.HandlerFunc

	one := func() {
		var r sim.Request
		switch p := rng.IntN(20); {
		case p < 2:
			r.Op = sim.Flush
			if rng.IntN(2) == 0 { // junk range, which a flush ignores
				r.Offset, r.Length = rng.Int64N(1000)-500, rng.Int64N(1000)-500
			}
		case p == 19:
			r.Op = sim.Trim
			r.Offset, r.Length = randExtent(rng, ws[rng.IntN(len(ws))], h.ss, maxReqLen)
		default:
			r.Op = sim.Read
			if p >= 11 {
				r.Op = sim.Write
				r.FUA = rng.IntN(4) == 0
			}
			r.Offset, r.Length = randExtent(rng, ws[rng.IntN(len(ws))], h.ss, maxReqLen)
			if rng.IntN(2) == 0 {
				r.Data = make([]byte, r.Length)
				if r.Op == sim.Write {
					fill(rng, r.Data)
				}
			}
		}
		submitted++
		if _, err := h.submit(&r, false); err != nil && !isPanic(err) {
			h.fail("%v: Submit rejected a valid request: %v", &r, err)
		}
	}
	burst := func() {
		for n := 1 + rng.IntN(4); n > 0 && submitted < s.requests && h.outstanding < depth; n-- {
			one()
		}
	}
	tick = func(sim.Time, any) {
		burst()
		if submitted < s.requests && h.outstanding < depth {
			h.eng.After(randDelay(rng), tick, nil)
		} else {
			idle = true
		}
	}
	h.onDone = func(*tracked) {
		if idle && submitted < s.requests {
			idle = false
			h.eng.After(randDelay(rng), tick, nil)
		}
	}
	// The first requests come from outside the event loop, the rest from
	// events and from inside Done.
	burst()
	tick(h.eng.Now(), nil)
	if err := h.finish(); err != nil {
		return err
	}
	if submitted < s.requests {
		return fmt.Errorf("only %d of %d requests were submitted: the device stopped completing requests", submitted, s.requests)
	}
	return nil
}

// randDelay returns zero a quarter of the time (same-instant events) and
// otherwise up to 2ms.
func randDelay(rng *rand.Rand) time.Duration {
	if rng.IntN(4) == 0 {
		return 0
	}
	return time.Duration(rng.Int64N(int64(2 * time.Millisecond)))
}

func fill(rng *rand.Rand, p []byte) {
	for i := 0; i < len(p); i += 8 {
		v := rng.Uint64()
		for j := 0; j < 8 && i+j < len(p); j++ {
			p[i+j] = byte(v >> (8 * j))
		}
	}
}

// model is what a window of the device should hold: its bytes, and for
// each sector the write that last stored it (-1: never written).
type model struct {
	w      window
	ss     int64
	bytes  []byte
	writer []int
}

func newModel(w window, ss int64) *model {
	m := &model{w: w, ss: ss, bytes: make([]byte, w.hi-w.lo), writer: make([]int, (w.hi-w.lo)/ss)}
	for i := range m.writer {
		m.writer[i] = -1
	}
	return m
}

func (m *model) apply(off int64, data []byte, writer int) {
	copy(m.bytes[off-m.w.lo:], data)
	for s := (off - m.w.lo) / m.ss; s < (off-m.w.lo+int64(len(data)))/m.ss; s++ {
		m.writer[s] = writer
	}
}

// compare reports the first byte of a read of data at off that differs
// from the model, ignoring never-written sectors.
func (m *model) compare(off int64, data []byte) error {
	for i := range data {
		pos := off - m.w.lo + int64(i)
		wr := m.writer[pos/m.ss]
		if wr >= 0 && data[i] != m.bytes[pos] {
			return fmt.Errorf("byte at offset %d = %#02x, want %#02x (stored by write #%d)", off+int64(i), data[i], m.bytes[pos], wr)
		}
	}
	return nil
}

// one submits one request and drains the engine, returning an
// error when it was rejected, failed or never completed.
func (h *harness) one(r *sim.Request) error {
	t, err := h.submit(r, false)
	if err != nil {
		return fmt.Errorf("%v: Submit rejected a valid request: %v", &t.want, err)
	}
	if err := h.drain(); err != nil {
		return err
	}
	if t.dones == 0 {
		return fmt.Errorf("%v: never completed", &t.want)
	}
	if r.Err != nil {
		return fmt.Errorf("%v: failed: %v", &t.want, r.Err)
	}
	return nil
}

func checkRoundTrip(s *suite, rng *rand.Rand, newDev factory) error {
	h, err := start(s, newDev)
	if err != nil {
		return err
	}
	var models []*model
	for _, w := range windows(h.ss, h.capacity, 1<<20) {
		models = append(models, newModel(w, h.ss))
	}
	readBack := func(m *model, off, n int64) error {
		r := &sim.Request{Op: sim.Read, Offset: off, Length: n, Data: make([]byte, n)}
		for i := range r.Data {
			r.Data[i] = 0xa5 // so a read that fills nothing shows
		}
		if err := h.one(r); err != nil {
			return err
		}
		if err := m.compare(off, r.Data); err != nil {
			return fmt.Errorf("read %d@%d: %v", n, off, err)
		}
		return nil
	}
	for i := range 120 {
		m := models[rng.IntN(len(models))]
		off, n := randExtent(rng, m.w, h.ss, 64<<10)
		switch p := rng.IntN(10); {
		case p < 6:
			r := &sim.Request{Op: sim.Write, Offset: off, Length: n, FUA: rng.IntN(3) == 0, Data: make([]byte, n)}
			fill(rng, r.Data)
			if err := h.one(r); err != nil {
				return errors.Join(h.err(), err)
			}
			m.apply(off, r.Data, i)
		case p < 9:
			if err := readBack(m, off, n); err != nil {
				return errors.Join(h.err(), err)
			}
		default:
			if err := h.one(&sim.Request{Op: sim.Flush}); err != nil {
				return errors.Join(h.err(), err)
			}
		}
	}
	for _, m := range models {
		for off := m.w.lo; off < m.w.hi; {
			n := min(m.w.hi-off, maxReqLen/h.ss*h.ss)
			n = max(n, h.ss)
			if err := readBack(m, off, n); err != nil {
				return errors.Join(h.err(), err)
			}
			off += n
		}
	}
	return h.err()
}

func checkOverlap(s *suite, rng *rand.Rand, newDev factory) error {
	h, err := start(s, newDev)
	if err != nil {
		return err
	}
	// A small window, so that the writes of a batch overlap a lot.
	w := windows(h.ss, h.capacity, 32*h.ss)[0]
	w.hi = min(w.hi, w.lo+32*h.ss)
	m := newModel(w, h.ss)
	var acked []*tracked
	h.onDone = func(t *tracked) { acked = append(acked, t) }
	for round := range 12 {
		acked = acked[:0]
		n := 2 + rng.IntN(5)
		var batch []*tracked
		for range n {
			off, l := randExtent(rng, w, h.ss, w.hi-w.lo)
			r := &sim.Request{Op: sim.Write, Offset: off, Length: l, FUA: rng.IntN(4) == 0, Data: make([]byte, l)}
			fill(rng, r.Data)
			t, err := h.submit(r, false)
			if err != nil {
				return errors.Join(h.err(), fmt.Errorf("%v: Submit rejected a valid request: %v", r, err))
			}
			batch = append(batch, t)
		}
		if err := h.drain(); err != nil {
			return h.err()
		}
		if len(acked) != len(batch) {
			return errors.Join(h.err(), fmt.Errorf("round %d: %d of %d writes completed", round, len(acked), len(batch)))
		}
		order := ""
		for _, t := range acked {
			m.apply(t.r.Offset, t.r.Data, t.idx)
			order += fmt.Sprintf(" #%d %v;", t.idx, &t.want)
		}
		r := &sim.Request{Op: sim.Read, Offset: w.lo, Length: w.hi - w.lo, Data: make([]byte, w.hi-w.lo)}
		if err := h.one(r); err != nil {
			return errors.Join(h.err(), err)
		}
		if err := m.compare(w.lo, r.Data); err != nil {
			return errors.Join(h.err(), fmt.Errorf("round %d: %v; the last acknowledged write must win (completion order:%s)", round, err, order))
		}
	}
	return h.err()
}

func checkTrimZeroes(s *suite, rng *rand.Rand, newDev factory) error {
	h, err := start(s, newDev)
	if err != nil {
		return err
	}
	w := windows(h.ss, h.capacity, maxReqLen)[0]
	w.hi = min(w.hi, w.lo+maxReqLen/h.ss*h.ss)
	m := newModel(w, h.ss)
	for i := range 60 {
		off, n := randExtent(rng, m.w, h.ss, 64<<10)
		r := &sim.Request{Op: sim.Write, Offset: off, Length: n, Data: make([]byte, n)}
		if rng.IntN(3) == 0 {
			r = &sim.Request{Op: sim.Trim, Offset: off, Length: n}
		} else {
			fill(rng, r.Data)
		}
		if err := h.one(r); err != nil {
			return errors.Join(h.err(), err)
		}
		data := r.Data
		if r.Op == sim.Trim {
			data = make([]byte, n)
		}
		m.apply(off, data, i)
		rd := &sim.Request{Op: sim.Read, Offset: m.w.lo, Length: m.w.hi - m.w.lo, Data: make([]byte, m.w.hi-m.w.lo)}
		if err := h.one(rd); err != nil {
			return errors.Join(h.err(), err)
		}
		if err := m.compare(rd.Offset, rd.Data); err != nil {
			return errors.Join(h.err(), fmt.Errorf("after %v: read %d@%d: %v", r, rd.Length, rd.Offset, err))
		}
	}
	return h.err()
}
