package host

import (
	"time"

	"github.com/raidsim/raidsim/sim"
)

// Directions of a link.
const (
	toHost   = 0 // client to host: requests, write data
	toClient = 1 // host to client: replies, read data
)

// wire is one direction of a link: messages go on it first come, first
// served, each taking its bytes at the link's rate, and arrive Latency
// after their last byte left.
type wire struct {
	free  sim.Time      // when the wire is next idle
	busy  time.Duration // time spent carrying bytes
	bytes int64         // bytes carried, protocol overhead included
	msgs  int64
}

// send puts a message of n bytes on w at now and returns when it
// arrives.
func (w *wire) send(now sim.Time, n int64, l *Link) sim.Time {
	d := perRate(n, l.Rate)
	start := max(now, w.free)
	w.free = addTime(start, d)
	w.busy += d
	w.bytes += n
	w.msgs++
	return addTime(w.free, l.Latency)
}
