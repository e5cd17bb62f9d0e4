package raid_test

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
)

// TestRAID6Layout: md's left-symmetric RAID 6 on 4 members, one row per
// stripe: P where RAID 5's parity goes, Q on the next member (wrapping),
// the data after Q.
func TestRAID6Layout(t *testing.T) {
	want := []string{"Q D0 D1 P", "D2 D3 P Q", "D5 P Q D4", "P Q D6 D7"}
	m := raid.Mapping{Level: raid.RAID6, Members: 4, StripeUnit: 4096}
	for s, row := range want {
		got := make([]string, 4)
		for mem := range 4 {
			switch d := raid.DataIndex6(4, int64(s), mem); d {
			case -1:
				got[mem] = "P"
			case -2:
				got[mem] = "Q"
			default:
				got[mem] = "D" + string(rune('0'+s*2+d))
				require.Equal(t, mem, raid.DataMember6(4, int64(s), d))
				off, ok := m.Logical(raid.Addr{Member: mem, Offset: int64(s) * 4096})
				require.True(t, ok)
				assert.Equal(t, mem, m.Locate(off).Member)
			}
		}
		assert.Equal(t, row, got[0]+" "+got[1]+" "+got[2]+" "+got[3], "stripe %d", s)
		assert.Equal(t, (raid.ParityMember(raid.LeftSymmetric, 4, int64(s))+1)%4, raid.QMember(4, int64(s)))
	}
}

// raid6Array is a 6-member RAID 6 over MemDevices filled with random
// writes of random sizes; it returns the array, the members and the
// bytes written.
func raid6Array(t *testing.T, rebuildData bool) (*sim.Engine, *raid.Array, []*simtest.MemDevice, []byte) {
	t.Helper()
	eng := sim.NewEngine(1)
	mems, devs := memMembers(t, eng, 6, 1<<20)
	a, err := raid.New(eng, raid.Config{Level: raid.RAID6, StripeUnit: 8 << 10, RebuildData: rebuildData}, devs, "md0", nil)
	require.NoError(t, err)
	want := make([]byte, a.Capacity())
	rng := rand.New(rand.NewPCG(3, 4))
	for range 300 {
		off := rng.Int64N(a.Capacity()/512) * 512
		n := min(a.Capacity()-off, (1+rng.Int64N(96))*512)
		buf := make([]byte, n)
		for i := range buf {
			buf[i] = byte(rng.Uint32())
		}
		copy(want[off:], buf)
		r := &sim.Request{Op: sim.Write, Offset: off, Length: n, Data: buf, Done: func(r *sim.Request) { require.NoError(t, r.Err) }}
		require.NoError(t, a.Submit(r))
		if rng.IntN(4) == 0 {
			eng.Run()
		}
	}
	eng.Run()
	return eng, a, mems, want
}

// TestRAID6SyndromesOnTheMembers: after random overlapping writes, every
// stripe's P member holds the XOR of its data units and its Q member
// their GF(2^8) syndrome, checked on the members' real bytes.
func TestRAID6SyndromesOnTheMembers(t *testing.T) {
	_, a, mems, _ := raid6Array(t, false)
	const u = 8 << 10
	rows := a.Geometry().MemberBytes / u
	for s := range rows {
		data := make([][]byte, 4)
		var p, q []byte
		for m, md := range mems {
			b := make([]byte, u)
			_, err := md.ReadAt(b, s*u)
			require.NoError(t, err)
			switch d := raid.DataIndex6(6, s, m); d {
			case -1:
				p = b
			case -2:
				q = b
			default:
				data[d] = b
			}
		}
		wp, wq := make([]byte, u), make([]byte, u)
		raid.Syndromes(data, wp, wq)
		require.True(t, bytes.Equal(wp, p), "stripe %d: P", s)
		require.True(t, bytes.Equal(wq, q), "stripe %d: Q", s)
	}
}

// TestRAID6SurvivesTwoFailures: with any two members failed every byte
// reads back as written (solved from P and Q), writes keep working, and
// a third failure loses data; two spares rebuilt one after the other
// end holding the failed members' exact bytes.
func TestRAID6SurvivesTwoFailures(t *testing.T) {
	for _, pair := range [][2]int{{0, 1}, {2, 5}, {3, 4}} {
		eng, a, mems, want := raid6Array(t, true)
		orig := make([][]byte, 6)
		for m := range orig {
			orig[m] = make([]byte, 1<<20)
			_, err := mems[m].ReadAt(orig[m], 0)
			require.NoError(t, err)
		}
		require.NoError(t, a.Fail(pair[0]))
		require.NoError(t, a.Fail(pair[1]))
		got := make([]byte, len(want))
		r := &sim.Request{Op: sim.Read, Offset: 0, Length: int64(len(got)), Data: got, Done: func(*sim.Request) {}}
		require.NoError(t, a.Submit(r))
		eng.Run()
		require.NoError(t, r.Err)
		require.True(t, bytes.Equal(want, got), "failed %v: every byte solved", pair)

		for _, m := range pair {
			spare, err := simtest.NewMemDevice(eng, simtest.MemConfig{Capacity: 1 << 20})
			require.NoError(t, err)
			require.NoError(t, a.Rebuild(spare))
			eng.Run()
			require.True(t, a.Stats().Rebuild.Done)
			rebuilt := make([]byte, a.Geometry().MemberBytes)
			_, err = spare.ReadAt(rebuilt, 0)
			require.NoError(t, err)
			require.True(t, bytes.Equal(orig[m][:len(rebuilt)], rebuilt), "member %d rebuilt", m)
		}
		assert.Empty(t, a.Failed())
	}
	eng, a, _, _ := raid6Array(t, false)
	for _, m := range []int{0, 2, 4} {
		require.NoError(t, a.Fail(m))
	}
	err := do(t, eng, a, sim.Read, 0, a.Capacity())
	assert.ErrorIs(t, err, raid.ErrDataLost)
}

// TestRAID6SmallWritesInPages: RAID 6 plans in md's 4 KiB stripe-cache
// pages, choosing read-modify-write (old data, old P and Q, Q updated by
// the partial syndrome) or reconstruct-write by pages read, as md does
// since Linux 4.1. 200 random 4 KiB writes to a 6-member array with
// 64 KiB chunks pre-read at most 4 KiB per member touched (8 KiB when a
// write straddles two pages) and write 4 KiB of P and of Q (8 KiB
// straddling); they used to read and write whole 64 KiB chunks (50 MiB
// of pre-reads for 200 writes). On 6 members both methods read 3 pages
// and reconstruct-write wins the tie; on 8 members read-modify-write
// reads 3 pages where reconstruct-write reads 5. With Raid6Write set to
// WriteRCW (md before 4.1) every write reconstructs.
func TestRAID6SmallWritesInPages(t *testing.T) {
	const u = 64 << 10
	for _, tc := range []struct {
		members  int
		policy   raid.WritePolicy
		misalign int64 // bytes off the page grid
		rmw, rcw int64 // stripes updated each way
		preread  int64 // bytes over the 200 writes
	}{
		{6, raid.WriteAuto, 0, 0, 200, 200 * 3 * 4096},
		{8, raid.WriteAuto, 0, 200, 0, 200 * 3 * 4096},
		{8, raid.WriteRCW, 0, 0, 200, 200 * 5 * 4096},
		{8, raid.WriteAuto, 512, 205, 0, 200 * 3 * 8192}, // 5 writes cross into the next stripe
	} {
		eng, a, recs := recorded(t, raid.Config{Level: raid.RAID6, StripeUnit: u, Raid6Write: tc.policy}, tc.members)
		rng := rand.New(rand.NewPCG(1, 2))
		pages := a.Capacity()/4096 - 1
		for range 200 {
			off := rng.Int64N(pages)*4096 + tc.misalign
			s := off / a.FullStripe()
			require.NoError(t, do(t, eng, a, sim.Write, off, 4096))
			pg := int64(4096)
			if tc.misalign != 0 {
				pg = 8192
			}
			for m, rec := range recs {
				var read, wrote int64
				for _, q := range rec.Requests() {
					if q.Op == sim.Read {
						read += q.Length
					} else {
						wrote += q.Length
					}
				}
				rec.Reset()
				assert.LessOrEqual(t, read, pg, "%d members, member %d reads", tc.members, m)
				switch raid.DataIndex6(tc.members, s, m) {
				case -1, -2:
					assert.Equal(t, pg, wrote, "%d members: P and Q pages written", tc.members)
				default:
					assert.LessOrEqual(t, wrote, pg)
				}
			}
		}
		st := a.Stats()
		assert.Equal(t, [3]int64{tc.rmw, tc.rcw, tc.preread}, [3]int64{st.RMWWrites, st.RCWWrites, st.PrereadBytes},
			"%d members, %v, misaligned %d: rmw, rcw stripes, pre-read bytes", tc.members, tc.policy, tc.misalign)
	}
}
