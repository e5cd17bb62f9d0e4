package campaign

import (
	"fmt"
	"hash/crc32"
	"os"

	"github.com/raidsim/raidsim/sim"
)

// CAMPAIGN_WATCH=1 go test ./internal/campaign -run TestCampaign -seed N
// logs every request to the members and from the cache to the array, to
// debug one schedule.

// logDev logs every request to a member, to debug a schedule.
type logDev struct {
	name string
	eng  *sim.Engine
	sim.Device
}

type logged struct {
	done func(*sim.Request)
	at   sim.Time
}

var logCtx = map[*sim.Request]logged{}

func sum(b []byte) string {
	if b == nil {
		return "-"
	}
	return fmt.Sprintf("%08x", crc32.ChecksumIEEE(b))
}

func (l *logDev) Submit(q *sim.Request) error {
	logCtx[q] = logged{q.Done, l.eng.Now()}
	if q.Op == sim.Write {
		fmt.Fprintf(os.Stderr, "%12v %s submit %v data %s\n", l.eng.Now(), l.name, q, sum(q.Data))
	} else {
		fmt.Fprintf(os.Stderr, "%12v %s submit %v\n", l.eng.Now(), l.name, q)
	}
	q.Done = func(q *sim.Request) {
		c := logCtx[q]
		delete(logCtx, q)
		extra := ""
		if q.Op == sim.Read {
			extra = " data " + sum(q.Data)
		}
		fmt.Fprintf(os.Stderr, "%12v %s done %v (from %v) err %v%s\n", l.eng.Now(), l.name, q, c.at, q.Err, extra)
		q.Done = c.done
		q.Done(q)
	}
	return l.Device.Submit(q)
}

func init() {
	if os.Getenv("CAMPAIGN_WATCH") != "" {
		watch = func(name string, eng *sim.Engine, d sim.Device) sim.Device { return &logDev{name, eng, d} }
	}
}
