package cache_test

import (
	"fmt"
	"os"
	"strconv"

	"github.com/raidsim/raidsim/sim"
)

// watch is a byte offset whose traffic TestProperty logs when the
// CACHE_WATCH environment variable names it (debugging aid).
var watch = func() int64 {
	v, err := strconv.ParseInt(os.Getenv("CACHE_WATCH"), 10, 64)
	if err != nil {
		return -1
	}
	return v
}()

func watched(r *sim.Request) bool {
	return watch >= 0 && (r.Op == sim.Flush || (r.Offset <= watch && watch < r.End()))
}

func logf(eng *sim.Engine, format string, args ...any) {
	fmt.Printf("%12v  %s\n", eng.Now(), fmt.Sprintf(format, args...))
}

// logDev wraps a device and logs requests touching the watched byte.
type logDev struct {
	sim.Device
	eng *sim.Engine
}

type logReq struct {
	sim.Request
	parent *sim.Request
}

func (d *logDev) Submit(r *sim.Request) error {
	if !watched(r) {
		return d.Device.Submit(r)
	}
	lr := &logReq{parent: r}
	lr.Op, lr.Offset, lr.Length, lr.FUA, lr.Data = r.Op, r.Offset, r.Length, r.FUA, r.Data
	lr.Done = func(x *sim.Request) {
		b := -1
		if x.Data != nil && x.Op != sim.Flush {
			b = int(x.Data[watch-x.Offset])
		}
		logf(d.eng, "  below done %v byte=%#x", x, b)
		r.Completed, r.Err = x.Completed, x.Err
		r.Done(r)
	}
	b := -1
	if r.Data != nil && r.Op == sim.Write {
		b = int(r.Data[watch-r.Offset])
	}
	logf(d.eng, "  below submit %v byte=%#x", r, b)
	r.Issued = d.eng.Now()
	return d.Device.Submit(&lr.Request)
}
