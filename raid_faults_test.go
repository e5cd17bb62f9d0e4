package raidsim_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/faults"
	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
)

// faultyArray is an array over MemDevices (real bytes), each behind a
// TLER fault wrapper.
type faultyArray struct {
	eng  *sim.Engine
	a    *raid.Array
	mems []*simtest.MemDevice
	f    []*faults.Device
}

const memberBytes = 4 << 20

func newFaultyArray(t *testing.T, level raid.Level, n int) *faultyArray {
	t.Helper()
	return newFaultyArrayPolicy(t, level, n, raid.WriteAuto)
}

// newFaultyArrayPolicy is newFaultyArray with RAID 5 writes planned by
// policy.
func newFaultyArrayPolicy(t *testing.T, level raid.Level, n int, policy raid.WritePolicy) *faultyArray {
	t.Helper()
	fa := &faultyArray{eng: sim.NewEngine(1)}
	devs := make([]sim.Device, n)
	for i := range n {
		m, err := simtest.NewMemDevice(fa.eng, simtest.MemConfig{Capacity: memberBytes, ReadLatency: time.Millisecond, WriteLatency: time.Millisecond})
		require.NoError(t, err)
		f, err := faults.New(fa.eng, m, faults.Config{ERC: faults.TLER}, fmt.Sprintf("disk%d", i))
		require.NoError(t, err)
		fa.mems, fa.f, devs[i] = append(fa.mems, m), append(fa.f, f), f
	}
	a, err := raid.New(fa.eng, raid.Config{Level: level, StripeUnit: 16 << 10, RebuildData: true, Raid5Write: policy}, devs, "md0", nil)
	require.NoError(t, err)
	fa.a = a
	return fa
}

// io runs one request to completion and returns its error.
func (fa *faultyArray) io(t *testing.T, op sim.Op, off int64, data []byte) error {
	t.Helper()
	r := &sim.Request{Op: op, Offset: off, Length: int64(len(data)), Data: data, Done: func(*sim.Request) {}}
	require.NoError(t, fa.a.Submit(r))
	fa.eng.Run()
	return r.Err
}

// fill writes random bytes over the whole array and returns them.
func (fa *faultyArray) fill(t *testing.T) []byte {
	t.Helper()
	want := make([]byte, fa.a.Capacity())
	rng := rand.New(rand.NewPCG(7, 7))
	for i := range want {
		want[i] = byte(rng.Uint32())
	}
	const chunk = 256 << 10
	for off := int64(0); off < int64(len(want)); off += chunk {
		require.NoError(t, fa.io(t, sim.Write, off, want[off:off+chunk]))
	}
	return want
}

// TestRepairOnRead: md's read-error repair, checked with real bytes. A
// member sector made unreadable (a latent sector error) fails the
// member read; the array serves the bytes from the redundancy, rewrites
// the sector, and the member holds the right bytes again.
func TestRepairOnRead(t *testing.T) {
	for _, c := range []struct {
		level raid.Level
		n     int
	}{{raid.RAID5, 4}, {raid.RAID1, 2}, {raid.RAID10, 4}} {
		t.Run(c.level.String(), func(t *testing.T) {
			fa := newFaultyArray(t, c.level, c.n)
			want := fa.fill(t)
			off := int64(3*16<<10 + 4096) // inside the fourth chunk
			ad := fa.a.Mapping().Locate(off)
			if c.level != raid.RAID5 { // the copy a read of the chunk goes to
				before := make([]int64, c.n)
				for i, f := range fa.f {
					before[i] = f.Stats().Requests
				}
				require.NoError(t, fa.io(t, sim.Read, 0, make([]byte, 64<<10)))
				for i, f := range fa.f {
					if f.Stats().Requests > before[i] && (c.level == raid.RAID1 || i/2 == ad.Member/2) {
						ad.Member = i
					}
				}
			}
			sector := ad.Offset / 512
			fa.f[ad.Member].MarkBad(sector)
			// Corrupt the medium too, so only a real rewrite makes it right.
			_, err := fa.mems[ad.Member].WriteAt(make([]byte, 512), sector*512)
			require.NoError(t, err)

			got := make([]byte, 64<<10)
			require.NoError(t, fa.io(t, sim.Read, 0, got))
			assert.True(t, bytes.Equal(want[:64<<10], got), "the read returns the written bytes")
			st := fa.a.Stats()
			assert.Equal(t, int64(1), st.Repairs)
			assert.Empty(t, fa.f[ad.Member].BadSectors(), "the rewrite remapped the sector")
			assert.Equal(t, int64(1), fa.f[ad.Member].Stats().Rewritten)
			onDisk := make([]byte, 512)
			_, err = fa.mems[ad.Member].ReadAt(onDisk, sector*512)
			require.NoError(t, err)
			assert.Equal(t, want[off-off%512:off-off%512+512], onDisk, "the member holds the right bytes again")
		})
	}
}

// rebuildBadRow is the row of member 2 that rebuildPastBadSector makes
// unreadable.
const rebuildBadRow = 37

// rebuildPastBadSector fills the array, fails member 0, makes a sector
// of member 2 in row rebuildBadRow unreadable and rebuilds member 0 onto
// a new spare to the end. It returns the bytes written, member 0's
// bytes before it failed, and the spare.
func (fa *faultyArray) rebuildPastBadSector(t *testing.T) (want, original []byte, spare *simtest.MemDevice) {
	t.Helper()
	want = fa.fill(t)
	original = make([]byte, memberBytes)
	_, err := fa.mems[0].ReadAt(original, 0)
	require.NoError(t, err)
	require.NoError(t, fa.a.Fail(0))
	const u = 16 << 10
	fa.f[2].MarkBad(rebuildBadRow*u/512 + 5)
	spare, err = simtest.NewMemDevice(fa.eng, simtest.MemConfig{Capacity: memberBytes, WriteLatency: time.Millisecond})
	require.NoError(t, err)
	require.NoError(t, fa.a.Rebuild(spare))
	fa.eng.Run()
	return want, original, spare
}

// TestUREDuringRAID5Rebuild: a sector of a surviving member unreadable
// while member 0 is rebuilt loses that stripe's units of members 0 and
// the bad member, exactly; reads there fail with ErrLostInRebuild and
// every other byte reads back as written (real bytes). The spare holds
// member 0's bytes except in the lost row.
func TestUREDuringRAID5Rebuild(t *testing.T) {
	fa := newFaultyArray(t, raid.RAID5, 4)
	want, original, spare := fa.rebuildPastBadSector(t)
	const u, row = int64(16 << 10), int64(rebuildBadRow)
	rb := fa.a.Stats().Rebuild
	require.True(t, rb.Done, "the rebuild records the loss and goes on: %v", rb.Err)

	var wantLost []raid.Extent
	for _, m := range []int{0, 2} {
		if off, ok := fa.a.Mapping().Logical(raid.Addr{Member: m, Offset: row * u}); ok {
			wantLost = append(wantLost, raid.Extent{Offset: off, Length: u})
		}
	}
	require.NotEmpty(t, wantLost)
	assert.ElementsMatch(t, wantLost, mergeAdjacent(fa.a.LostRanges()))
	assert.Equal(t, int64(len(wantLost))*u, fa.a.LostBytes())
	for _, e := range wantLost {
		err := fa.io(t, sim.Read, e.Offset, make([]byte, 4096))
		assert.ErrorIs(t, err, raid.ErrLostInRebuild)
		assert.ErrorIs(t, err, raid.ErrDataLost)
	}
	lostAt := func(off int64) bool {
		for _, e := range wantLost {
			if off >= e.Offset && off < e.End() {
				return true
			}
		}
		return false
	}
	for off := int64(0); off < int64(len(want)); off += u {
		if lostAt(off) {
			continue
		}
		got := make([]byte, u)
		require.NoError(t, fa.io(t, sim.Read, off, got))
		require.True(t, bytes.Equal(want[off:off+u], got), "bytes at %d", off)
	}
	rebuilt := make([]byte, memberBytes)
	_, err := spare.ReadAt(rebuilt, 0)
	require.NoError(t, err)
	rows := fa.a.Geometry().MemberBytes / u
	for r := range rows {
		if r == row {
			continue
		}
		require.True(t, bytes.Equal(original[r*u:(r+1)*u], rebuilt[r*u:(r+1)*u]), "spare row %d", r)
	}
}

// mergeAdjacent joins touching extents (the array merges them too; the
// expected list is unit by unit).
func mergeAdjacent(es []raid.Extent) []raid.Extent {
	var out []raid.Extent
	for _, e := range es {
		for off := e.Offset; off < e.End(); off += 16 << 10 {
			out = append(out, raid.Extent{Offset: off, Length: 16 << 10})
		}
	}
	return out
}

// TestUREDuringRAID6RebuildLosesNothing: the same unreadable sector
// during a RAID 6 rebuild of one member is solved from Q: nothing is
// lost, every byte reads back as written, the spare holds the failed
// member's bytes, and the bad sector is rewritten (real bytes).
func TestUREDuringRAID6RebuildLosesNothing(t *testing.T) {
	fa := newFaultyArray(t, raid.RAID6, 4)
	want, original, spare := fa.rebuildPastBadSector(t)
	require.True(t, fa.a.Stats().Rebuild.Done)
	assert.Zero(t, fa.a.LostBytes())
	assert.Empty(t, fa.f[2].BadSectors(), "the unreadable unit was solved and rewritten")
	got := make([]byte, len(want))
	require.NoError(t, fa.io(t, sim.Read, 0, got))
	assert.True(t, bytes.Equal(want, got))
	rebuilt := make([]byte, fa.a.Geometry().MemberBytes)
	_, err := spare.ReadAt(rebuilt, 0)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(original[:len(rebuilt)], rebuilt))
}

// TestRAID5WritePrereadError: a RAID 5 write whose pre-read meets an
// unreadable sector is planned again the other way round instead of
// failing, as md computes around a read error (real bytes): old data or
// old parity unreadable under read-modify-write, or the untouched data
// unreadable under reconstruct-write. The write lands, every byte of the
// array reads back as written, and the unreadable sector is either
// rewritten by the write or repaired by md on the next read of it.
func TestRAID5WritePrereadError(t *testing.T) {
	const u = 16 << 10
	off := int64(8*3*u + 4096) // stripe 8, data chunk 0, 4 KiB in
	for _, c := range []struct {
		name   string
		policy raid.WritePolicy
		bad    func(p *raid.StripePlan) int // the member whose sector goes bad
	}{
		{"rmw/old-data", raid.WriteRMW, func(p *raid.StripePlan) int { return p.Member(0) }},
		{"rmw/old-parity", raid.WriteRMW, func(p *raid.StripePlan) int { return p.ParityMember }},
		{"rcw/untouched-data", raid.WriteRCW, func(p *raid.StripePlan) int { return p.Member(1) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			fa := newFaultyArrayPolicy(t, raid.RAID5, 4, c.policy)
			want := fa.fill(t)
			var p raid.StripePlan
			require.NoError(t, raid.PlanStripeWrite(raid.StripeWrite{Mapping: fa.a.Mapping(), Stripe: 8, Offset: off, End: off + 4096,
				Failed: make([]bool, 4), Policy: c.policy}, &p))
			bad := c.bad(&p)
			fa.f[bad].MarkBad((8*u + 4096) / 512)

			data := bytes.Repeat([]byte{0xA5}, 4096)
			require.NoError(t, fa.io(t, sim.Write, off, data), "the write is planned around the unreadable sector")
			copy(want[off:], data)
			got := make([]byte, len(want))
			require.NoError(t, fa.io(t, sim.Read, 0, got))
			assert.True(t, bytes.Equal(want, got), "every byte reads back as written")
			assert.Empty(t, fa.f[bad].BadSectors(), "the sector was rewritten, by the write or by md's repair on read")
			require.NoError(t, fa.a.Fail(bad))
			require.NoError(t, fa.io(t, sim.Read, 0, got))
			assert.True(t, bytes.Equal(want, got), "the parity is right: with member %d failed every byte reconstructs", bad)
		})
	}
}
