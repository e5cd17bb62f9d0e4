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
