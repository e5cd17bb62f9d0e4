package trace

import (
	"errors"
	"testing"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// TestReplayRefusesTimesPastTheRun: an open-loop record whose time from
// the first, over the speed, lies past sim.MaxInputTime stops the replay
// with a TimeRangeError naming the record and the speed (it overflowed
// virtual time into a panic); the records before it run.
func TestReplayRefusesTimesPastTheRun(t *testing.T) {
	for _, tc := range []struct {
		second sim.Time
		speed  float64
		want   string
	}{
		{9e18, 1, "trace: record 2: time 9000000000.000 s after the first record at speed 1 is 9e+09 s into the replay, past the latest a run can reach (4.612e+09 s, about 146 years): replay a shorter window of the trace or at a higher speed"},
		{sim.Time(time.Second), 1e-9, "trace: record 2: time 1.000 s after the first record at speed 1e-09 is 1e+09 s into the replay, past the latest a run can reach (4.612e+09 s, about 146 years): replay a shorter window of the trace or at a higher speed"},
		{sim.Time(10 * time.Second), 1e-9, "trace: record 2: time 10.000 s after the first record at speed 1e-09 is 1e+10 s into the replay, past the latest a run can reach (4.612e+09 s, about 146 years): replay a shorter window of the trace or at a higher speed"},
	} {
		recs := []Record{{Time: 0, Op: sim.Read, Length: 512}, {Time: tc.second, Op: sim.Read, Length: 512}}
		eng := sim.NewEngine(1)
		res, err := Replay(eng, &fakeDev{eng: eng, lat: time.Millisecond}, NewSliceReader(recs), ReplayOptions{Mode: OpenLoop, Speed: tc.speed})
		if float64(tc.second)/tc.speed < float64(sim.MaxInputTime) {
			if err != nil || res.Completed != 2 {
				t.Errorf("%v at speed %g: %v, %d completed; want both run", tc.second, tc.speed, err, res.Completed)
			}
			continue
		}
		var te *TimeRangeError
		if err == nil || err.Error() != tc.want || !errors.As(err, &te) {
			t.Errorf("error %v\nwant %s", err, tc.want)
		}
		if res.Completed != 1 {
			t.Errorf("%d completed, want the first record run", res.Completed)
		}
	}
}
