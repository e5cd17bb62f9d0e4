package oracle

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/raidsim/raidsim/disk/disksim/exact"
)

// StreamSpec names a request stream: it is drawn again from these
// values, so the corpus records them and not the requests.
type StreamSpec struct {
	// Format is "validate" (one request at a time, each after the
	// previous one's completion and its gap) or "ascii" (arrival
	// times, requests queue).
	Format string
	// Kind is the access pattern: random, sequential, reread,
	// writeread, strided, large or mixed.
	Kind string
	// Gaps is the idle time between requests: zero, small (under a
	// revolution), large (the buffer's read-ahead finishes) or mixed.
	Gaps string
	// Size is the disk's block count the stream stays within.
	Size int
	// N is the number of requests.
	N int
	// Seed draws the requests.
	Seed uint64
}

// StreamKinds and StreamGaps are the values the generator covers.
var (
	StreamKinds   = []string{"random", "sequential", "reread", "writeread", "strided", "large", "mixed"}
	StreamGaps    = []string{"zero", "small", "large", "mixed"}
	StreamFormats = []string{"validate", "ascii"}
)

// PickStream draws pair i's stream shape with the coverage windows.
func (g *gen) stream(size, n int) StreamSpec {
	format := g.queueing("stream format", g.pick("stream format", "validate", "ascii"), "validate", "ascii")
	if format == "ascii" {
		n += 10 // DiskSim stops at the last arrival: a few stay outstanding
	}
	return StreamSpec{
		Format: format,
		Kind:   g.pick("stream kind", "mixed", "random", "sequential", "reread", "writeread", "strided", "large"),
		Gaps:   g.queueing("stream gaps", g.pick("stream gaps", "mixed", "zero", "small", "large"), "large", "zero"),
		Size:   size, N: n, Seed: g.r.Uint64(),
	}
}

// queueing returns val, the value drawn for dimension name, or alt in
// its place when val is idle (keeps the queues short) and the model
// schedules by a policy other than FCFS, unless a coverage window or
// the caller forced val: so that those policies see queues to order.
func (g *gen) queueing(name, val, idle, alt string) string {
	return g.queueingIf(g.scheduling, name, val, idle, alt)
}

// queueingIf is queueing for a model that schedules when sched is set.
func (g *gen) queueingIf(sched bool, name, val, idle, alt string) string {
	if val != idle || !sched {
		return val
	}
	if _, forced := g.force[name]; forced || g.window(name, len(g.valsOf(name))) >= 0 {
		return val
	}
	g.used[name] = alt
	return alt
}

// Record is one request of a stream.
type Record struct {
	Read          bool
	Hit           string // the validate trace's hit column
	Blkno, Bcount int
	Measured      float64 // validate: the trace's service time, ms
	Gap           float64 // validate: idle time after completion, ms; ascii: time since the previous arrival
}

// Requests draws the stream's requests.
func (s StreamSpec) Requests() []Record {
	r := rand.New(rand.NewPCG(s.Seed, 0x5eed))
	out := make([]Record, 0, s.N)
	hits := []string{"Hit", "Miss", "Doub", "Trip"}
	next := r.IntN(max(1, s.Size))
	var hot []int
	var written []Record
	for len(out) < s.N {
		kind := s.Kind
		if kind == "mixed" {
			kind = StreamKinds[r.IntN(len(StreamKinds)-1)]
		}
		rec := Record{Read: r.IntN(3) != 0, Hit: hits[r.IntN(len(hits))]}
		size := []int{1, 1, 2, 4, 8, 8, 16, 32, 64}[r.IntN(9)]
		switch kind {
		case "random":
			rec.Blkno = r.IntN(max(1, s.Size))
		case "sequential":
			if r.IntN(40) == 0 {
				next = r.IntN(max(1, s.Size))
			}
			rec.Blkno = next
			if r.IntN(2) == 0 {
				rec.Read = len(out) > 0 && out[len(out)-1].Read
			}
		case "reread":
			if len(hot) < 8 || r.IntN(10) == 0 {
				hot = append(hot, r.IntN(max(1, s.Size)))
				if len(hot) > 16 {
					hot = hot[1:]
				}
			}
			rec.Blkno = hot[r.IntN(len(hot))] + r.IntN(8)
			rec.Read = r.IntN(6) != 0
		case "writeread":
			if len(written) > 0 && r.IntN(2) == 0 {
				w := written[r.IntN(len(written))]
				rec.Blkno, size, rec.Read = w.Blkno+r.IntN(w.Bcount), 1+r.IntN(w.Bcount), true
			} else {
				rec.Blkno, rec.Read = r.IntN(max(1, s.Size)), false
			}
		case "strided":
			next += r.IntN(3 * size)
			rec.Blkno = next
			rec.Read = true
		case "large":
			size = 64 + r.IntN(700)
			rec.Blkno = r.IntN(max(1, s.Size))
		}
		rec.Bcount = size
		if rec.Bcount > s.Size {
			rec.Bcount = s.Size
		}
		if rec.Blkno+rec.Bcount > s.Size {
			rec.Blkno = s.Size - rec.Bcount
		}
		if rec.Blkno < 0 {
			rec.Blkno = 0
		}
		next = rec.Blkno + rec.Bcount
		if next >= s.Size {
			next = 0
		}
		if !rec.Read {
			written = append(written, rec)
			if len(written) > 32 {
				written = written[1:]
			}
		}
		gaps := s.Gaps
		if gaps == "mixed" {
			gaps = StreamGaps[r.IntN(3)]
		}
		switch gaps {
		case "zero":
			rec.Gap = 0
		case "small":
			rec.Gap = float64(r.IntN(4000)) / 1000
		default:
			rec.Gap = float64(5000+r.IntN(45000)) / 1000
		}
		if s.Format == "ascii" {
			// interarrival times: requests queue now and then (zero
			// gaps come in bursts of a few), but the disk keeps up
			switch gaps {
			case "zero":
				rec.Gap = float64(1+r.IntN(200)) / 1000
				if len(out)%4 == 3 {
					rec.Gap = float64(100000+r.IntN(100000)) / 1000
				}
			case "small":
				rec.Gap = float64(5000+r.IntN(60000)) / 1000
			default:
				rec.Gap = float64(30000+r.IntN(120000)) / 1000
			}
		}
		rec.Measured = float64(100+r.IntN(30000)) / 1000
		out = append(out, rec)
	}
	return out
}

// Trace renders the requests as a DiskSim trace file of s.Format.
func (s StreamSpec) Trace(recs []Record) string {
	var b strings.Builder
	at := 0.0
	for i, r := range recs {
		rw := "W"
		if r.Read {
			rw = "R"
		}
		if s.Format == "validate" {
			fmt.Fprintf(&b, "%s %s %10d %3d %12.5f %12.5f\n", rw, r.Hit, r.Blkno, r.Bcount, r.Measured*1000, r.Gap*1000)
			continue
		}
		if i > 0 {
			at += r.Gap
		}
		flags := 0
		if r.Read {
			flags = 1
		}
		fmt.Fprintf(&b, "%.6f\t0\t%d\t%d\t%d\n", at, r.Blkno, r.Bcount, flags)
	}
	return b.String()
}

// ExactRequests converts the records to package exact's requests, with
// the times as DiskSim reads them from the trace text.
func (s StreamSpec) ExactRequests(recs []Record) []exact.Request {
	out := make([]exact.Request, len(recs))
	at := 0.0
	for i, r := range recs {
		q := exact.Request{Blkno: r.Blkno, Bcount: r.Bcount, Read: r.Read}
		if s.Format == "validate" {
			// DiskSim reads the gap in microseconds
			q.GapUs = parseF(fmt.Sprintf("%.5f", r.Gap*1000))
		} else {
			if i > 0 {
				at += r.Gap
			}
			q.Arrival = parseF(fmt.Sprintf("%.6f", at))
		}
		out[i] = q
	}
	return out
}

func parseF(s string) float64 {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		panic(err)
	}
	return f
}
