package crashcheck

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/raidsim/raidsim/raid"
)

// HostWrite is one write a host sent to an array: where, its bytes, and
// whether the array acknowledged it before the power failed.
type HostWrite struct {
	Offset int64
	Data   []byte
	Acked  bool
}

// Input is what a power loss left: the members' bytes as they
// restart, and the host's writes, for Check to compare. The
// members are read whole, so it is for test- and teaching-sized arrays
// (at most MaxMemberBytes per member).
type Input struct {
	// Mapping is the array's layout (raid.Array.Mapping).
	Mapping raid.Mapping
	// SectorSize is the unit compared, bytes.
	SectorSize int
	// MemberBytes is the bytes used on each member.
	MemberBytes int64
	// Members are the members' surviving bytes after the restart (a
	// simtest.MemDevice is an io.ReaderAt).
	Members []io.ReaderAt
	// Before is the array's logical contents before Writes (nil: zeros).
	Before []byte
	// Writes are the host's writes: acknowledged ones in the order they
	// were acknowledged, unacknowledged ones (in flight at the crash)
	// anywhere.
	Writes []HostWrite
	// CacheLost lists, per member, the member byte ranges its volatile
	// write cache had acknowledged and lost (faults.Device.Unpersisted
	// at the crash), to tell which inconsistent stripes the drive caches
	// made.
	CacheLost [][]raid.Extent
}

// MaxMemberBytes bounds Input.MemberBytes.
const MaxMemberBytes = 1 << 30

// Result is what Check found.
type Result struct {
	// LostWrites are the indices (in Writes) of acknowledged writes none
	// of whose bytes (those no later acknowledged write replaced) are on
	// the members; TornWrites those of writes, acknowledged or not, some
	// of whose sectors are and some are not.
	LostWrites, TornWrites []int
	// WrongSectors are the logical ranges whose bytes are neither the
	// last acknowledged write's (or Before's) nor an unacknowledged
	// write's: acknowledged data that did not survive.
	WrongSectors []raid.Extent
	// Inconsistent are the stripes whose parity (RAID 5, 6) or copies
	// (RAID 1, 10) disagree with their data: a later member failure
	// reconstructs them wrong. CacheMade are those among them where a
	// member's volatile write cache lost a write.
	Inconsistent, CacheMade []int64
}

// checker is Check's working state.
type checker struct {
	in     Input
	mem    [][]byte // each member's bytes
	want   []byte   // the logical image the acknowledged writes imply
	alt    map[int64][][]byte
	ss     int64
	stripe int64 // member bytes per stripe row
}

// Check compares the members' bytes after a power loss with the
// host's writes: acknowledged writes lost or torn, logical sectors
// holding bytes no write put there, and stripes left inconsistent.
func Check(in Input) (*Result, error) {
	c, err := newChecker(in)
	if err != nil {
		return nil, err
	}
	out := &Result{}
	got := c.logical()
	for i, w := range in.Writes {
		on, off := c.writeState(i, w, got)
		switch {
		case w.Acked && on == 0 && off > 0:
			out.LostWrites = append(out.LostWrites, i)
		case on > 0 && off > 0:
			out.TornWrites = append(out.TornWrites, i)
		}
	}
	out.WrongSectors = c.wrong(got)
	out.Inconsistent, out.CacheMade = c.inconsistent()
	return out, nil
}

// ReconstructWrong returns the logical ranges that would read back wrong
// (holding no version the host wrote) were member fail to fail now:
// the data a degraded array computes from the others' bytes where an
// inconsistent stripe makes it wrong, the write hole shown.
func (in Input) ReconstructWrong(fail int) ([]raid.Extent, error) {
	c, err := newChecker(in)
	if err != nil {
		return nil, err
	}
	if fail < 0 || fail >= len(c.mem) {
		return nil, fmt.Errorf("crashcheck: no member %d", fail)
	}
	if c.in.Mapping.Level == raid.RAID0 {
		return nil, errors.New("crashcheck: RAID 0 cannot reconstruct a failed member")
	}
	img := c.logical()
	for row := int64(0); row*c.stripe < c.in.MemberBytes; row++ {
		off, ok := c.in.Mapping.Logical(raid.Addr{Member: fail, Offset: row * c.stripe})
		if !ok || c.in.Mapping.Level == raid.RAID1 && fail != 0 {
			continue // parity, or a mirror copy reads do not use
		}
		copy(img[off:off+c.stripe], c.rebuilt(fail, row))
	}
	return c.wrong(img), nil
}

// unit returns member m's stripe unit of row.
func (c *checker) unit(m int, row int64) []byte {
	return c.mem[m][row*c.stripe : (row+1)*c.stripe]
}

// rebuilt returns what a degraded array computes for member fail's unit
// of row from the other members, as md does for one missing member.
func (c *checker) rebuilt(fail int, row int64) []byte {
	m := c.in.Mapping
	switch m.Level {
	case raid.RAID1:
		return c.unit((fail+1)%m.Members, row)
	case raid.RAID10:
		return c.unit(fail^1, row)
	}
	out := make([]byte, c.stripe)
	for o := range m.Members {
		if o == fail || m.Level == raid.RAID6 && raid.DataIndex6(m.Members, row, o) == -2 {
			continue // RAID 6 solves one missing unit from P alone
		}
		for i, b := range c.unit(o, row) {
			out[i] ^= b
		}
	}
	return out
}

// inconsistent returns the rows whose redundancy disagrees with their
// data, and those of them a member's volatile cache lost a write in.
func (c *checker) inconsistent() (bad, cache []int64) {
	for row := int64(0); row*c.stripe < c.in.MemberBytes; row++ {
		if c.rowConsistent(row) {
			continue
		}
		bad = append(bad, row)
		for _, lost := range c.in.CacheLost {
			if slices.ContainsFunc(lost, func(e raid.Extent) bool {
				return e.Offset < (row+1)*c.stripe && row*c.stripe < e.End()
			}) {
				cache = append(cache, row)
				break
			}
		}
	}
	return bad, cache
}

// rowConsistent checks one row's parity or copies against its data.
func (c *checker) rowConsistent(row int64) bool {
	m := c.in.Mapping
	switch m.Level {
	case raid.RAID0:
		return true
	case raid.RAID1:
		for o := 1; o < m.Members; o++ {
			if !bytes.Equal(c.unit(0, row), c.unit(o, row)) {
				return false
			}
		}
		return true
	case raid.RAID10:
		for o := 0; o < m.Members; o += 2 {
			if !bytes.Equal(c.unit(o, row), c.unit(o+1, row)) {
				return false
			}
		}
		return true
	case raid.RAID6:
		data := make([][]byte, m.Members-2)
		var p, q []byte
		for o := range m.Members {
			switch d := raid.DataIndex6(m.Members, row, o); d {
			case -1:
				p = c.unit(o, row)
			case -2:
				q = c.unit(o, row)
			default:
				data[d] = c.unit(o, row)
			}
		}
		wp, wq := make([]byte, c.stripe), make([]byte, c.stripe)
		raid.Syndromes(data, wp, wq)
		return bytes.Equal(p, wp) && bytes.Equal(q, wq)
	}
	x := make([]byte, c.stripe)
	for o := range m.Members {
		for i, b := range c.unit(o, row) {
			x[i] ^= b
		}
	}
	return !slices.ContainsFunc(x, func(b byte) bool { return b != 0 })
}

func newChecker(in Input) (*checker, error) {
	m := in.Mapping
	switch {
	case in.SectorSize <= 0:
		return nil, errors.New("crashcheck: Input.SectorSize must be positive")
	case in.MemberBytes <= 0 || in.MemberBytes > MaxMemberBytes || in.MemberBytes%m.StripeUnit != 0:
		return nil, fmt.Errorf("crashcheck: Input.MemberBytes: %d is not a whole number of stripe units up to %d", in.MemberBytes, int64(MaxMemberBytes))
	case len(in.Members) != m.Members:
		return nil, fmt.Errorf("crashcheck: Input.Members: %d readers for %d members", len(in.Members), m.Members)
	}
	c := &checker{in: in, ss: int64(in.SectorSize), stripe: m.StripeUnit, alt: map[int64][][]byte{}}
	for i, r := range in.Members {
		b := make([]byte, in.MemberBytes)
		if _, err := r.ReadAt(b, 0); err != nil && err != io.EOF {
			return nil, fmt.Errorf("crashcheck: member %d: %w", i, err)
		}
		c.mem = append(c.mem, b)
	}
	capacity := m.Capacity(in.MemberBytes)
	c.want = make([]byte, capacity)
	copy(c.want, in.Before)
	for i, w := range in.Writes {
		if w.Offset < 0 || w.Offset%c.ss != 0 || int64(len(w.Data))%c.ss != 0 || w.Offset+int64(len(w.Data)) > capacity {
			return nil, fmt.Errorf("crashcheck: Input.Writes[%d]: %d bytes at %d is not whole sectors inside the %d-byte array", i, len(w.Data), w.Offset, capacity)
		}
		if w.Acked {
			copy(c.want[w.Offset:], w.Data)
			continue
		}
		for s := int64(0); s < int64(len(w.Data)); s += c.ss {
			c.alt[w.Offset+s] = append(c.alt[w.Offset+s], w.Data[s:s+c.ss])
		}
	}
	return c, nil
}

// logical returns the array's contents as a healthy array reads them.
func (c *checker) logical() []byte {
	got := make([]byte, len(c.want))
	for off := int64(0); off < int64(len(got)); off += c.stripe {
		a := c.in.Mapping.Locate(off)
		copy(got[off:off+c.stripe], c.mem[a.Member][a.Offset:a.Offset+c.stripe])
	}
	return got
}

// ok reports whether sector off of img holds an allowed version: the
// acknowledged one, or an unacknowledged write's.
func (c *checker) ok(img []byte, off int64) bool {
	s := img[off : off+c.ss]
	if bytes.Equal(s, c.want[off:off+c.ss]) {
		return true
	}
	return slices.ContainsFunc(c.alt[off], func(b []byte) bool { return bytes.Equal(b, s) })
}

// writeState counts write i's sectors that hold its bytes (on) and those
// that do not (off), leaving out sectors a later acknowledged write
// replaced, and sectors where its bytes equal what was there anyway.
func (c *checker) writeState(i int, w HostWrite, got []byte) (on, off int) {
	for s := int64(0); s < int64(len(w.Data)); s += c.ss {
		abs := w.Offset + s
		mine := w.Data[s : s+c.ss]
		if w.Acked && !bytes.Equal(c.want[abs:abs+c.ss], mine) {
			continue // a later acknowledged write replaced it
		}
		if !w.Acked && bytes.Equal(c.want[abs:abs+c.ss], mine) {
			continue // indistinguishable from the old bytes
		}
		if bytes.Equal(got[abs:abs+c.ss], mine) {
			on++
		} else {
			off++
		}
	}
	return on, off
}

// wrong returns the logical sectors of img holding no allowed version,
// merged into ranges.
func (c *checker) wrong(img []byte) []raid.Extent {
	var out []raid.Extent
	for off := int64(0); off < int64(len(img)); off += c.ss {
		if c.ok(img, off) {
			continue
		}
		if n := len(out); n > 0 && out[n-1].End() == off {
			out[n-1].Length += c.ss
		} else {
			out = append(out, raid.Extent{Offset: off, Length: c.ss})
		}
	}
	return out
}
