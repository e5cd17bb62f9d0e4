package raid

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// failEvent is a failure scheduled by FailAt.
type failEvent struct{ member int }

// Fail marks member as failed at the current virtual time, as when its
// drive dies or md fails it: every request in flight on it ends now with
// an error, from the event loop (the member's own answers to them, when
// they come, are ignored), and md's handling serves those requests
// degraded; nothing more is sent to it. From now on reads of what it
// held are reconstructed from the other members (RAID 5, 6) or served by
// another copy (RAID 1, 10), writes skip it, and RAID 5 and 6 keep the
// parity of every stripe they write consistent, so the lost member's
// data stays recoverable. A request that needs data no longer available
// (RAID 0, a second RAID 5 failure, a third RAID 6 failure, every copy
// of a mirror) completes with an error wrapping ErrDataLost; nothing
// panics.
//
// The array also fails a member itself when a write to it fails (see
// Stats: MemberStats.Kicked), as md_error does. Failing the slot being
// rebuilt fails the spare: the rebuild stops with an error. Failing a
// member twice is an error.
func (a *Array) Fail(member int) error {
	if member < 0 || member >= a.n {
		return fmt.Errorf("raid: %s: no member %d (the array has %d)", a.name, member, a.n)
	}
	now := a.eng.Now()
	if rb := a.rb; rb != nil && rb.active && rb.member == member {
		rb.active = false
		rb.finished = now
		rb.err = fmt.Errorf("raid: %s: spare for member %d failed during rebuild at %v", a.name, member, now)
		a.mem[member].failedAt = now
		a.abandon(member)
		return nil
	}
	if a.mem[member].failed {
		return fmt.Errorf("raid: %s: member %d has already failed", a.name, member)
	}
	a.mem[member].failed = true
	a.mem[member].failedAt = now
	a.abandon(member)
	return nil
}

// FailAt schedules Fail(member) at virtual time t (now or later).
func (a *Array) FailAt(t sim.Time, member int) error {
	if member < 0 || member >= a.n {
		return fmt.Errorf("raid: %s: no member %d (the array has %d)", a.name, member, a.n)
	}
	if now := a.eng.Now(); t < now {
		return fmt.Errorf("raid: %s: failure of member %d at %v is before now (%v)", a.name, member, t, now)
	}
	a.eng.Schedule(t, &a.hFail, &failEvent{member})
	return nil
}

// Failed returns the members that have failed and are not rebuilt, in
// order.
func (a *Array) Failed() []int {
	var out []int
	for i := range a.mem {
		if a.mem[i].failed {
			out = append(out, i)
		}
	}
	return out
}

// Degraded reports whether some member has failed and is not yet
// rebuilt.
func (a *Array) Degraded() bool { return a.anyFailed() }

// Failure is a member failure planned for a run: member Member fails At
// after the start.
type Failure struct {
	Member int
	At     time.Duration
}

// String returns "I@TIME", e.g. "1@1.5s".
func (f Failure) String() string { return fmt.Sprintf("%d@%v", f.Member, f.At) }

// ParseFailure reads "I@TIME" (member index, '@', a Go duration such as
// "1s" or "250ms"), the form of a --fail-disk flag. Schedule it with
// a.FailAt(start.Add(f.At), f.Member).
func ParseFailure(s string) (Failure, error) {
	m, at, ok := strings.Cut(strings.TrimSpace(s), "@")
	if !ok {
		return Failure{}, fmt.Errorf("raid: failure %q: want MEMBER@TIME, e.g. 1@1s", s)
	}
	i, err := strconv.Atoi(m)
	if err != nil || i < 0 {
		return Failure{}, fmt.Errorf("raid: failure %q: member %q is not a member index", s, m)
	}
	d, err := time.ParseDuration(at)
	if err != nil || d < 0 {
		return Failure{}, fmt.Errorf("raid: failure %q: time %q is not a duration like 1s or 250ms", s, at)
	}
	return Failure{Member: i, At: d}, nil
}
