package sim

import (
	"fmt"
	"time"
)

// Time is an instant of virtual time: nanoseconds since the simulation
// began. The zero Time is the start of the run.
type Time int64

// Add returns t+d.
func (t Time) Add(d time.Duration) Time { return t + Time(d) }

// Sub returns the span t-u.
func (t Time) Sub(u Time) time.Duration { return time.Duration(t - u) }

// Seconds returns t as seconds since the start of the run.
func (t Time) Seconds() float64 { return float64(t) / 1e9 }

// String formats t as a duration since the start, e.g. "12.5ms".
func (t Time) String() string { return fmt.Sprint(time.Duration(t)) }

// Never is a Time later than any event a simulation schedules.
const Never Time = 1<<63 - 1
