package cache_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/raidsim/raidsim/cache"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
)

// TestProtocolLog records a short script through a write-back cache with
// stripe alignment over a slow device, host side and device side
// interleaved in time, as a golden file that doubles as teaching
// material (go test ./cache -run TestProtocolLog -update rewrites it).
func TestProtocolLog(t *testing.T) {
	eng := sim.NewEngine(1)
	dev, err := simtest.NewMemDevice(eng, simtest.MemConfig{Capacity: 64 << 20, ReadLatency: 500 * time.Microsecond,
		WriteLatency: time.Millisecond, FlushLatency: 200 * time.Microsecond, Serial: true})
	require.NoError(t, err)
	var lines []string
	add := func(at sim.Time, format string, args ...any) {
		lines = append(lines, fmt.Sprintf("%10v  ", at)+fmt.Sprintf(format, args...))
	}
	below := &tapDev{Device: dev, eng: eng, log: func(format string, args ...any) { add(eng.Now(), format, args...) }}
	obs := &sim.Observer{
		Submitted: func(_ string, r *sim.Request, now sim.Time) { add(now, "host   submit   %v", r) },
		Phase: func(_ string, r *sim.Request, p sim.Phase, s, e sim.Time) {
			add(eng.Now(), "host   %-8v %v (%v from %v)", p, r, e.Sub(s), s)
		},
		Completed: func(_ string, r *sim.Request, now sim.Time) {
			add(now, "host   done     %v (%v)", r, now.Sub(r.Issued))
		},
	}
	c, err := cache.New(eng, cache.Config{
		Size: 128 << 10, Align: cache.AlignStripe, StripeUnit: 16 << 10, DataMembers: 2,
		MaxOutstandingDestages: 2, HighWater: 0.5, LowWater: 0.25,
	}, below, "vc", obs)
	require.NoError(t, err)

	// A queue-depth-1 stream of 8 KiB writes starting mid-stripe, then a
	// read across dirty and missing data, a FUA write, and a flush.
	var script []*sim.Request
	for i := range 8 {
		script = append(script, &sim.Request{Op: sim.Write, Offset: 8192 + int64(i)*8192, Length: 8192})
	}
	script = append(script,
		&sim.Request{Op: sim.Read, Offset: 57344, Length: 32768},
		&sim.Request{Op: sim.Write, Offset: 1 << 20, Length: 4096, FUA: true},
		&sim.Request{Op: sim.Flush},
	)
	var next func(*sim.Request)
	next = func(*sim.Request) {
		if len(script) == 0 {
			return
		}
		r := script[0]
		script = script[1:]
		r.Done = next
		require.NoError(t, c.Submit(r))
	}
	next(nil)
	eng.Run()
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	st := c.Stats()
	fmt.Fprintf(&b, "destages %d (%d full-stripe), coalescing %.2f, read hits %d/%d, dirty peak %d\n",
		st.Destages, st.FullStripeDestages, st.CoalescingFactor(), st.ReadHits+st.ReadPartialHits, st.Reads, st.DirtyPeak)
	simtest.Golden(t, "protocol.log", []byte(b.String()))
}

// tapDev logs every request passing to the device it wraps, at submit
// and at completion.
type tapDev struct {
	sim.Device
	eng *sim.Engine
	log func(format string, args ...any)
}

type tapReq struct {
	sim.Request
	parent *sim.Request
}

func (d *tapDev) Submit(r *sim.Request) error {
	tr := &tapReq{parent: r}
	tr.Op, tr.Offset, tr.Length, tr.FUA, tr.Data = r.Op, r.Offset, r.Length, r.FUA, r.Data
	tr.Done = func(x *sim.Request) {
		d.log("device done     %v", x)
		r.Completed, r.Err = x.Completed, x.Err
		r.Done(r)
	}
	r.Issued = d.eng.Now()
	d.log("device submit   %v", r)
	return d.Device.Submit(&tr.Request)
}
