package raid_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recorded makes an array over Recorders over MemDevices.
func recorded(t *testing.T, cfg raid.Config, n int) (*sim.Engine, *raid.Array, []*simtest.Recorder) {
	t.Helper()
	eng := sim.NewEngine(1)
	_, devs := memMembers(t, eng, n, 1<<20)
	recs := make([]*simtest.Recorder, n)
	for i := range devs {
		recs[i] = simtest.NewRecorder(eng, devs[i])
		devs[i] = recs[i]
	}
	a, err := raid.New(eng, cfg, devs, "md0", nil)
	require.NoError(t, err)
	return eng, a, recs
}

// log lists what each member saw, "m0: read 4096@0, write 4096@0".
func log(recs []*simtest.Recorder) string {
	var lines []string
	for i, r := range recs {
		var ops []string
		for _, q := range r.Requests() {
			ops = append(ops, fmt.Sprintf("%v %d@%d", q.Op, q.Length, q.Offset))
		}
		lines = append(lines, fmt.Sprintf("m%d: %s", i, strings.Join(ops, ", ")))
		r.Reset()
	}
	return strings.Join(lines, "\n")
}

func do(t *testing.T, eng *sim.Engine, a *raid.Array, op sim.Op, off, n int64) error {
	t.Helper()
	var got error
	done := false
	r := &sim.Request{Op: op, Offset: off, Length: n, Done: func(r *sim.Request) { got, done = r.Err, true }}
	require.NoError(t, a.Submit(r))
	eng.Run()
	require.True(t, done)
	return got
}

func TestRaid0FailureLosesData(t *testing.T) {
	eng, a, _ := recorded(t, raid.Config{Level: raid.RAID0, StripeUnit: 4096}, 2)
	require.NoError(t, a.Fail(1))
	assert.NoError(t, do(t, eng, a, sim.Read, 0, 4096))
	err := do(t, eng, a, sim.Read, 0, 8192)
	assert.True(t, errors.Is(err, raid.ErrDataLost), "%v", err)
	assert.EqualError(t, err, "raid: md0: read 8192@0: stripe 0: members [1] have failed: raid: data lost: too many members failed")
	assert.Error(t, a.Rebuild(nil))
	assert.EqualError(t, a.Fail(1), "raid: md0: member 1 has already failed")
	assert.EqualError(t, a.Fail(2), "raid: md0: no member 2 (the array has 2)")
}

func TestMirrorReadPolicies(t *testing.T) {
	for _, p := range []raid.ReadPolicy{raid.ReadSoonest, raid.ReadRoundRobin} {
		eng, a, recs := recorded(t, raid.Config{Level: raid.RAID1, StripeUnit: 4096, ReadPolicy: p}, 2)
		for i := range 8 {
			require.NoError(t, a.Submit(&sim.Request{Op: sim.Read, Offset: int64(i) * 20 << 12, Length: 4096, Done: func(*sim.Request) {}}))
		}
		eng.Run()
		assert.Len(t, recs[0].Requests(), 4, "%v spreads 8 concurrent reads evenly", p)
		assert.Len(t, recs[1].Requests(), 4)
		s := a.Stats()
		assert.Equal(t, int64(4), s.Members[0].IOs)
		// Member 0 reads in 100µs, member 1 in 137µs: the run lasts 137µs.
		assert.InDelta(t, 100.0/137, s.Members[0].Utilization, 1e-9)
		assert.InDelta(t, 1.0, s.Members[1].Utilization, 1e-9)
	}
}

func TestFlushReachesEveryLiveMember(t *testing.T) {
	eng, a, recs := recorded(t, raid.Config{Level: raid.RAID10, StripeUnit: 4096}, 4)
	require.NoError(t, a.Fail(2))
	require.NoError(t, do(t, eng, a, sim.Flush, 0, 0))
	assert.Equal(t, "m0: flush 0@0\nm1: flush 0@0\nm2: \nm3: flush 0@0", log(recs))
}

func TestObserverSeesRequests(t *testing.T) {
	eng := sim.NewEngine(1)
	_, devs := memMembers(t, eng, 3, 1<<20)
	var seen []string
	obs := &sim.Observer{
		Submitted: func(dev string, r *sim.Request, now sim.Time) {
			seen = append(seen, fmt.Sprintf("%s submit %v", dev, r))
		},
		Phase: func(dev string, r *sim.Request, p sim.Phase, s, e sim.Time) {
			seen = append(seen, fmt.Sprintf("%s %v %v %v", dev, r, p, e.Sub(s)))
		},
		Completed: func(dev string, r *sim.Request, now sim.Time) { seen = append(seen, fmt.Sprintf("%s done %v", dev, r)) },
	}
	a, err := raid.New(eng, raid.Config{Level: raid.RAID5, StripeUnit: 4096}, devs, "md0", obs)
	require.NoError(t, err)
	for range 2 {
		require.NoError(t, a.Submit(&sim.Request{Op: sim.Write, Offset: 0, Length: 4096, Done: func(*sim.Request) {}}))
	}
	eng.Run()
	assert.Equal(t, []string{
		"md0 submit write 4096@0", "md0 submit write 4096@0",
		"md0 write 4096@0 queue 333µs", // the second waits for the first: same stripe
		"md0 done write 4096@0", "md0 done write 4096@0",
	}, seen)
	assert.Equal(t, int64(1), a.Stats().OrderingWaits)
}

func TestMemberErrorsPropagate(t *testing.T) {
	eng := sim.NewEngine(1)
	mems, devs := memMembers(t, eng, 4, 1<<20)
	a, err := raid.New(eng, raid.Config{Level: raid.RAID5, StripeUnit: 4096}, devs, "md0", nil)
	require.NoError(t, err)
	media := errors.New("media error")
	// A pre-read fails (reconstruct-write reads chunks 1 and 2): md
	// plans the stripe the other way round, reading old data and old
	// parity instead, and the write lands.
	mems[1].FailNext(media)
	require.NoError(t, do(t, eng, a, sim.Write, 0, 4096))
	assert.Equal(t, int64(1), mems[0].Stats().Writes, "the data write after the second plan's pre-reads")
	// When the second plan's pre-read fails too, two pages of the
	// stripe are unreadable, more than RAID 5 solves: the stripe is left
	// alone and the write fails.
	mems[1].FailNext(media)
	mems[0].FailNext(media)
	err = do(t, eng, a, sim.Write, 0, 4096)
	require.ErrorIs(t, err, raid.ErrDataLost)
	assert.EqualError(t, err, "raid: md0: write 4096@0: stripe 0: members [] have failed, [0 1] are unreadable there: raid: data lost: too many members failed")
	assert.Equal(t, int64(1), mems[0].Stats().Writes, "no write after the failed pre-reads")
	// A read error on one chunk of a spanning read is repaired from the
	// redundancy, as md does: served, and written back to the member.
	mems[2].FailNext(media)
	writes := mems[2].Stats().Writes
	err = do(t, eng, a, sim.Read, 0, 3*4096)
	assert.NoError(t, err)
	st := a.Stats()
	assert.Equal(t, int64(1), st.Errors, "only the write failed")
	assert.Equal(t, int64(1), st.Members[2].Errors)
	assert.Equal(t, int64(1), st.Repairs)
	assert.Equal(t, int64(4096), st.RepairedBytes)
	assert.Equal(t, writes+1, mems[2].Stats().Writes, "the chunk is written back")
	assert.NoError(t, do(t, eng, a, sim.Read, 0, 3*4096), "the array goes on")
}

func TestTextForms(t *testing.T) {
	for _, l := range raid.Layouts() {
		b, err := l.MarshalText()
		require.NoError(t, err)
		var back raid.Layout
		require.NoError(t, back.UnmarshalText(b))
		assert.Equal(t, l, back)
	}
	for _, p := range []raid.WritePolicy{raid.WriteAuto, raid.WriteRMW, raid.WriteRCW} {
		b, _ := p.MarshalText()
		var back raid.WritePolicy
		require.NoError(t, back.UnmarshalText(b))
		assert.Equal(t, p, back)
	}
	for _, p := range []raid.ReadPolicy{raid.ReadSoonest, raid.ReadRoundRobin} {
		back, err := raid.ParseReadPolicy(p.String())
		require.NoError(t, err)
		assert.Equal(t, p, back)
	}
	assert.Equal(t, "RAID 10", raid.RAID10.String())
	var l raid.Layout
	assert.Error(t, l.UnmarshalText([]byte("zigzag")))
}
