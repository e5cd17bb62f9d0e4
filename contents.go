package raidsim

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/raid/crashcheck"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/spec"
)

// ContentsReport is what a power loss did to an array's bytes
// (RunOptions.CheckContents): the run's writes carried real bytes, and
// at the power loss the members' bytes were compared with them
// (raid/crashcheck).
type ContentsReport struct {
	// Writes counts the host writes up to the power loss; Acked those
	// acknowledged.
	Writes int `json:"writes"`
	Acked  int `json:"acked"`
	// LostWrites counts acknowledged writes none of whose bytes are on
	// the members; TornWrites writes, acknowledged or in flight, some of
	// whose sectors are and some not.
	LostWrites int `json:"lost_writes"`
	TornWrites int `json:"torn_writes"`
	// WrongBytes is the bytes of the array that read back neither the
	// last acknowledged write's bytes nor an in-flight write's;
	// WrongRanges names the first of them as OFFSET+LENGTH in bytes from
	// the array's start, and WrongRangeCount counts them.
	WrongBytes      int64    `json:"wrong_bytes"`
	WrongRanges     []string `json:"wrong_ranges,omitempty"`
	WrongRangeCount int      `json:"wrong_range_count"`
	// Inconsistent counts the stripes whose parity (or mirror copies)
	// disagree with their data, the write hole; InconsistentStripes
	// names the first.
	Inconsistent        int     `json:"inconsistent"`
	InconsistentStripes []int64 `json:"inconsistent_stripes,omitempty"`
}

// contentsShown bounds the ranges and stripes a ContentsReport names.
const contentsShown = 10

// maxContentsBytes bounds the bytes a contents check keeps: the host
// writes' payloads, and each member's bytes read whole at the check.
const maxContentsBytes = crashcheck.MaxMemberBytes / 4

// errContents is the prefix of the errors of a contents check.
var errContents = errors.New("--check-contents")

// contentsCheck gives every host write real bytes and records them, and
// at the power loss compares the members' bytes with them.
type contentsCheck struct {
	next    sim.Device
	s       *Stack
	rng     *rand.Rand
	writes  []crashcheck.HostWrite
	acked   []int // indices into writes, in acknowledgement order
	bytes   int64
	stopped bool // past the power loss: writes are no longer kept
	eng     *sim.Engine
}

// checkContentsPlan says why pl's stack cannot have its contents checked,
// or nil.
func checkContentsPlan(pl *spec.Plan) error {
	switch {
	case !pl.PowerLoss:
		return fmt.Errorf("%w needs --power-loss-at: the instant whose contents it checks", errContents)
	case pl.RAID == nil || pl.RAID.Level == raid.RAID0:
		return fmt.Errorf("%w checks an array with redundancy (--raid 1, 5, 6 or 10)", errContents)
	case pl.Host != nil:
		return fmt.Errorf("%w checks the array's bytes: leave out the host (--host none)", errContents)
	case len(pl.Failures) > 0 || pl.Rebuild != nil || pl.Faults != nil:
		return fmt.Errorf("%w checks a healthy array's write hole: leave out --fail-disk, --rebuild and the fault keys", errContents)
	}
	if b := hostWriteBytes(pl); b > maxContentsBytes {
		return fmt.Errorf("%w keeps every write's bytes: this run writes up to %s, more than %s: give fewer --ios or a smaller --bs", errContents, approxBytes(b), approxBytes(maxContentsBytes))
	}
	for _, ph := range pl.Phases {
		if ph.Trace != nil {
			return fmt.Errorf("%w gives synthetic writes their bytes: it does not replay traces", errContents)
		}
	}
	return nil
}

// newContentsCheck puts the check above s's top device.
func newContentsCheck(eng *sim.Engine, s *Stack) (*contentsCheck, error) {
	for _, d := range s.Drives {
		st, ok := d.(interface{ WritesThrough() bool })
		if _, reads := d.(interface{ StoredAt([]byte, int64) }); !ok || !reads {
			return nil, fmt.Errorf("%w reads the members' bytes, which %s does not keep", errContents, d.Name())
		}
		if !st.WritesThrough() {
			return nil, fmt.Errorf("%w reads the members' bytes as a power loss leaves them, and %s acknowledges writes from a volatile cache: add --write-cache off (--power-loss-at alone names what drive caches lose)", errContents, d.Name())
		}
	}
	c := &contentsCheck{next: s.Top, s: s, rng: eng.Rand("contents"), eng: eng}
	s.Top = c
	return c, nil
}

// Submit gives a write its bytes and keeps them until the power loss.
func (c *contentsCheck) Submit(r *sim.Request) error {
	if r.Op != sim.Write || r.Length == 0 {
		return c.next.Submit(r)
	}
	data := make([]byte, r.Length)
	for i := 0; i < len(data); i += 8 {
		v := c.rng.Uint64()
		for j := i; j < min(i+8, len(data)); j++ {
			data[j], v = byte(v), v>>8
		}
	}
	r.Data = data
	idx := -1
	if !c.stopped {
		idx = len(c.writes)
		c.writes = append(c.writes, crashcheck.HostWrite{Offset: r.Offset, Data: data})
		c.bytes += r.Length
		if c.bytes > maxContentsBytes {
			c.eng.Stop(fmt.Errorf("%w: the writes' bytes passed %s before the power loss: give fewer --ios", errContents, approxBytes(maxContentsBytes)))
		}
	}
	done := r.Done
	r.Done = func(q *sim.Request) {
		q.Data, q.Done = nil, done
		if idx >= 0 && q.Err == nil && !c.stopped {
			c.writes[idx].Acked = true
			c.acked = append(c.acked, idx)
		}
		done(q)
	}
	if err := c.next.Submit(r); err != nil {
		r.Data, r.Done = nil, done
		if idx >= 0 {
			c.writes = c.writes[:idx]
			c.bytes -= r.Length
		}
		return err
	}
	return nil
}

// Capacity is the device below's.
func (c *contentsCheck) Capacity() int64 { return c.next.Capacity() }

// SectorSize is the device below's.
func (c *contentsCheck) SectorSize() int { return c.next.SectorSize() }

// check compares the members' bytes now with the writes so far.
func (c *contentsCheck) check() (*ContentsReport, error) {
	c.stopped = true
	a := c.s.Array
	m := a.Mapping()
	var end int64
	for _, w := range c.writes {
		end = max(end, w.Offset+int64(len(w.Data)))
	}
	rows := (end + m.FullStripe() - 1) / m.FullStripe()
	in := crashcheck.Input{Mapping: m, SectorSize: a.SectorSize(), MemberBytes: rows * m.StripeUnit}
	for _, d := range c.s.Drives {
		in.Members = append(in.Members, storedReader{d.(interface{ StoredAt([]byte, int64) })})
	}
	for _, i := range c.acked {
		in.Writes = append(in.Writes, c.writes[i])
	}
	for _, w := range c.writes {
		if !w.Acked {
			in.Writes = append(in.Writes, w)
		}
	}
	res, err := crashcheck.Check(in)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errContents, err)
	}
	rep := &ContentsReport{Writes: len(c.writes), Acked: len(c.acked), LostWrites: len(res.LostWrites), TornWrites: len(res.TornWrites),
		WrongRangeCount: len(res.WrongSectors), Inconsistent: len(res.Inconsistent)}
	for _, e := range res.WrongSectors {
		rep.WrongBytes += e.Length
	}
	for _, e := range res.WrongSectors[:min(contentsShown, len(res.WrongSectors))] {
		rep.WrongRanges = append(rep.WrongRanges, fmt.Sprintf("%d+%d", e.Offset, e.Length))
	}
	rep.InconsistentStripes = res.Inconsistent[:min(contentsShown, len(res.Inconsistent))]
	return rep, nil
}

// storedReader reads a drive's stored bytes as an io.ReaderAt.
type storedReader struct {
	d interface{ StoredAt([]byte, int64) }
}

func (r storedReader) ReadAt(p []byte, off int64) (int, error) {
	r.d.StoredAt(p, off)
	return len(p), nil
}

var _ io.ReaderAt = storedReader{}
