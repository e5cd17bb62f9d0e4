package simtest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// bugs are the ways buggyDevice breaks the Device contract.
type bugs struct {
	doubleDone      bool // calls Done twice
	syncDone        bool // calls Done inside Submit
	doneForRejected bool // calls Done later for requests it rejects
	acceptMisalign  bool // serves misaligned requests
	wrongSentinel   bool // reports misalignment as ErrOutOfRange
	acceptZero      bool // serves zero-length requests
	panicNegative   bool // panics on a negative length
	noIssued        bool // leaves Issued alone
	issuedLate      bool // sets Issued one tick after the submit time
	completedEarly  bool // sets Completed before Issued
	completedLate   bool // sets Completed after the time Done runs
	dropEvery       int  // never completes every n-th request
	endless         bool // keeps a timer running forever
	clearFUA        bool // clears FUA on the request
	rejectFUA       bool // rejects FUA writes
	failEvery       int  // completes every n-th request with an error
	corruptReads    bool // flips a bit of every read
	zeroReads       bool // reads return zeros (no data kept)
	ackBeforeApply  bool // stores writes at submit, acknowledges in random order
	rejectFlushJunk bool // checks flush ranges as if they were reads
	trimKeepsData   bool // a trim leaves the data readable
}

// buggyDevice is a small device with a MemDevice for storage and
// switchable bugs, to show that the suite catches each of them.
type buggyDevice struct {
	eng  *sim.Engine
	mem  *MemDevice
	b    bugs
	n    int
	h    sim.HandlerFunc
	tick sim.HandlerFunc
}

func newBuggy(eng *sim.Engine, b bugs) *buggyDevice {
	mem, err := NewMemDevice(eng, MemConfig{Capacity: 16 << 20})
	if err != nil {
		panic(err)
	}
	d := &buggyDevice{eng: eng, mem: mem, b: b}
	d.h = d.complete
	d.tick = func(sim.Time, any) { d.eng.After(time.Millisecond, d.tick, nil) }
	return d
}

func (d *buggyDevice) Capacity() int64 { return d.mem.Capacity() }
func (d *buggyDevice) SectorSize() int { return d.mem.SectorSize() }

func (d *buggyDevice) Submit(r *sim.Request) error {
	now := d.eng.Now()
	if d.b.panicNegative && r.Op != sim.Flush && r.Length < 0 {
		panic("negative length")
	}
	check := *r
	if d.b.rejectFlushJunk && check.Op == sim.Flush {
		check.Op = sim.Read
		if check.Offset == 0 && check.Length == 0 {
			check.Length = 512
		}
	}
	err := sim.CheckRequest(&check, d.Capacity(), d.SectorSize())
	if errors.Is(err, sim.ErrMisaligned) && d.b.acceptMisalign {
		err = nil
	}
	if errors.Is(err, sim.ErrMisaligned) && d.b.wrongSentinel {
		err = fmt.Errorf("buggy: %w", sim.ErrOutOfRange)
	}
	if errors.Is(err, sim.ErrZeroLength) && d.b.acceptZero {
		err = nil
	}
	if err == nil && d.b.rejectFUA && r.FUA && r.Op == sim.Write {
		err = fmt.Errorf("buggy: no FUA: %w", sim.ErrBadOp)
	}
	if err != nil {
		if d.b.doneForRejected && r.Done != nil {
			d.eng.After(time.Microsecond, d.h, r)
		}
		return err
	}
	d.n++
	if d.b.endless && d.n == 1 {
		d.eng.After(time.Millisecond, d.tick, nil)
	}
	switch {
	case d.b.noIssued:
	case d.b.issuedLate:
		r.Issued = now + 1
	default:
		r.Issued = now
	}
	if d.b.dropEvery > 0 && d.n%d.b.dropEvery == 0 {
		return nil
	}
	if d.b.syncDone {
		d.complete(now, r)
		return nil
	}
	lat := 10 * time.Microsecond
	if d.b.ackBeforeApply {
		if r.Op == sim.Write && r.Data != nil {
			d.mem.WriteAt(r.Data, r.Offset)
		}
		lat = time.Duration(1+d.eng.Rand("buggy").IntN(100)) * time.Microsecond
	}
	d.eng.After(lat, d.h, r)
	return nil
}

func (d *buggyDevice) complete(now sim.Time, arg any) {
	r := arg.(*sim.Request)
	r.Completed = now
	switch {
	case d.b.completedEarly:
		r.Completed = r.Issued - 1
	case d.b.completedLate:
		r.Completed = now + 1
	}
	if r.Op == sim.Trim && !d.b.trimKeepsData && r.Offset >= 0 && r.Length <= d.Capacity()-r.Offset {
		d.mem.zero(r.Offset, r.Length)
	}
	if r.Data != nil && r.Offset >= 0 && r.Offset+int64(len(r.Data)) <= d.Capacity() {
		switch r.Op {
		case sim.Read:
			if d.b.zeroReads {
				clear(r.Data)
			} else {
				d.mem.ReadAt(r.Data, r.Offset)
			}
			if d.b.corruptReads && len(r.Data) > 0 {
				r.Data[len(r.Data)/2] ^= 0x10
			}
		case sim.Write:
			if !d.b.ackBeforeApply {
				d.mem.WriteAt(r.Data, r.Offset)
			}
		}
	}
	if d.b.failEvery > 0 && d.n%d.b.failEvery == 0 {
		r.Err = errors.New("buggy: media error")
	}
	if d.b.clearFUA {
		r.FUA = false
	}
	r.Done(r)
	if d.b.doubleDone {
		r.Done(r)
	}
}

// runChecks runs every check of the suite on the device made by mk and
// returns the errors by check name.
func runChecks(mk func(eng *sim.Engine) sim.Device) map[string]error {
	s := newSuite([]Option{WithData(), WithRequests(200), WithMaxSteps(100_000)})
	out := make(map[string]error)
	for _, c := range deviceChecks {
		out[c.name] = s.runCheck(c, func() (sim.Device, *sim.Engine) {
			eng := sim.NewEngine(7)
			return mk(eng), eng
		})
	}
	return out
}

func TestSuitePassesHealthyBuggyDevice(t *testing.T) {
	for name, err := range runChecks(func(eng *sim.Engine) sim.Device { return newBuggy(eng, bugs{}) }) {
		if err != nil {
			t.Errorf("%s: the bug-free buggyDevice failed: %v", name, err)
		}
	}
}

func TestSuiteCatchesBugs(t *testing.T) {
	tests := []struct {
		name  string
		b     bugs
		check string // the check that must fail
		want  string // in its error
	}{
		{"Done twice", bugs{doubleDone: true}, "Lifecycle", "Done called 2 times"},
		{"Done inside Submit", bugs{syncDone: true}, "Lifecycle", "synchronously from inside Submit"},
		{"Done for rejected", bugs{doneForRejected: true}, "Reject", "for a request Submit rejected"},
		{"accepts misaligned", bugs{acceptMisalign: true}, "Reject", "Submit accepted it, want an error wrapping \"sim: request not aligned"},
		{"wrong sentinel", bugs{wrongSentinel: true}, "Reject", "want an error wrapping \"sim: request not aligned"},
		{"accepts zero length", bugs{acceptZero: true}, "Reject", "zero-length write"},
		{"panics", bugs{panicNegative: true}, "Reject", "panicked: negative length"},
		{"Issued not set", bugs{noIssued: true}, "Lifecycle", "Issued not set"},
		{"Issued wrong", bugs{issuedLate: true}, "Lifecycle", "want the submit time"},
		{"completes before issue", bugs{completedEarly: true}, "Lifecycle", "before it was issued"},
		{"Completed in the future", bugs{completedLate: true}, "Lifecycle", "after the time Done was called"},
		{"loses requests", bugs{dropEvery: 7}, "Lifecycle", "never completed"},
		{"never idle", bugs{endless: true}, "Lifecycle", "never goes idle"},
		{"changes fields", bugs{clearFUA: true}, "Lifecycle", "FUA true -> false"},
		{"rejects valid", bugs{rejectFUA: true}, "Lifecycle", "rejected a valid request"},
		{"fails valid", bugs{failEvery: 5}, "Lifecycle", "buggy: media error"},
		{"rejects flush", bugs{rejectFlushJunk: true}, "Flush", "a flush ignores Offset and Length"},
		{"corrupts reads", bugs{corruptReads: true}, "RoundTrip", "byte at offset"},
		{"keeps no data", bugs{zeroReads: true}, "RoundTrip", "byte at offset"},
		{"acks out of order", bugs{ackBeforeApply: true}, "OverlappingWrites", "the last acknowledged write must win"},
		{"trim keeps data", bugs{trimKeepsData: true}, "TrimZeroes", "want 0x00"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errs := runChecks(func(eng *sim.Engine) sim.Device { return newBuggy(eng, tt.b) })
			err := errs[tt.check]
			if err == nil {
				t.Fatalf("check %s passed a device that is broken: %s", tt.check, tt.name)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("check %s error does not mention %q:\n%v", tt.check, tt.want, err)
			}
		})
	}
}

func TestSuiteGeometry(t *testing.T) {
	bad := []struct {
		name string
		dev  sim.Device
	}{
		{"zero sector", fakeGeometry{capacity: 4096, sector: 0}},
		{"zero capacity", fakeGeometry{capacity: 0, sector: 512}},
		{"ragged capacity", fakeGeometry{capacity: 1000, sector: 512}},
	}
	for _, tt := range bad {
		errs := runChecks(func(*sim.Engine) sim.Device { return tt.dev })
		for name, err := range errs {
			if err == nil {
				t.Errorf("%s: check %s passed", tt.name, name)
			}
		}
	}
}

// fakeGeometry is a device with chosen geometry that serves nothing.
type fakeGeometry struct {
	capacity int64
	sector   int
}

func (f fakeGeometry) Submit(*sim.Request) error { return errors.New("fake") }
func (f fakeGeometry) Capacity() int64           { return f.capacity }
func (f fakeGeometry) SectorSize() int           { return f.sector }

// TestDeviceFailsEndToEnd runs TestDevice on a broken device in a child
// test binary and checks that it fails, naming the bug and the seed.
func TestDeviceFailsEndToEnd(t *testing.T) {
	if os.Getenv("SIMTEST_BROKEN_CHILD") == "1" {
		TestDevice(t, func(t *testing.T) (sim.Device, *sim.Engine) {
			eng := sim.NewEngine(1)
			return newBuggy(eng, bugs{doubleDone: true}), eng
		}, WithSeed(42))
		return
	}
	if testing.Short() {
		t.Skip("runs a child test binary")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestDeviceFailsEndToEnd$", "-test.count=1")
	cmd.Env = append(os.Environ(), "SIMTEST_BROKEN_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("TestDevice passed a device that calls Done twice:\n%s", out)
	}
	for _, want := range []string{"--- FAIL: TestDeviceFailsEndToEnd/Lifecycle", "Done called 2 times", "simtest.WithSeed(0x2a)"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("child output lacks %q:\n%s", want, out)
		}
	}
}
