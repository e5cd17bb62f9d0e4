package cache

import "fmt"

// Replacement names the policy that chooses which clean data to evict
// when the cache needs room. Dirty data is never evicted: it is not
// clean data until its destage completes (see the package doc).
type Replacement uint8

const (
	// LRU evicts the least recently used clean extent (the default).
	LRU Replacement = iota
	// FIFO evicts the clean extent that came in first; hits change
	// nothing.
	FIFO
	// CLOCK is FIFO with one reference bit per extent: a hit sets it,
	// and the hand gives an extent whose bit is set a second chance.
	CLOCK
	// TwoQ is Johnson and Shasha's full 2Q: a FIFO for data seen once
	// (A1in, 25% of Size), ghosts of what it evicted (A1out, 50% of
	// Size), and an LRU for data seen again (Am).
	TwoQ
	// ARC is Megiddo and Modha's Adaptive Replacement Cache: LRU lists
	// of data seen once and seen twice or more, their ghosts, and a
	// target split that adapts to ghost hits.
	ARC
	// S3FIFO is Yang et al.'s S3-FIFO: a small FIFO (10% of Size) that
	// quickly demotes data seen once, a main FIFO with 2-bit frequency
	// reinsertion, and ghosts of what the small FIFO evicted, as many
	// as the main FIFO holds.
	S3FIFO
	// SIEVE is Zhang et al.'s SIEVE: a FIFO with one visited bit per
	// extent and a hand that evicts the first unvisited extent it meets,
	// leaving survivors where they are.
	SIEVE
	numReplacements
)

var replacementNames = []string{"lru", "fifo", "clock", "2q", "arc", "s3fifo", "sieve"}

// Replacements returns every replacement policy, LRU first.
func Replacements() []Replacement {
	out := make([]Replacement, numReplacements)
	for i := range out {
		out[i] = Replacement(i)
	}
	return out
}

// String returns "lru", "fifo", "clock", "2q", "arc", "s3fifo" or
// "sieve", the names the CLI's --cache-policy flag takes.
func (p Replacement) String() string { return name(replacementNames, uint8(p), "replacement") }

// ParseReplacement parses a replacement policy's name (any case).
func ParseReplacement(s string) (Replacement, error) {
	return parse[Replacement](replacementNames, s, "replacement policy")
}

// MarshalText returns the policy's name.
func (p Replacement) MarshalText() ([]byte, error) {
	return marshal(p < numReplacements, p.String())
}

// UnmarshalText parses a policy's name.
func (p *Replacement) UnmarshalText(b []byte) error {
	x, err := ParseReplacement(string(b))
	if err == nil {
		*p = x
	}
	return err
}

// replacer orders the clean extents of a cache for eviction. The cache
// tells it what happens to clean data; it never sees dirty data. Each
// policy is in a file of its own.
//
// Making room for a read's data below goes: miss (the range about to
// come in, so a policy with ghosts can look it up and adapt), victim
// until there is room, then admit. Making room for dirty data calls
// miss with an empty range first.
type replacer interface {
	// miss announces that room is being made for [off, end) (empty:
	// for dirty data).
	miss(off, end int64)
	// admit places e, new clean data, after miss made room for it.
	admit(e *extent)
	// hit records that a read was served from e.
	hit(e *extent)
	// victim takes the next extent to evict out of the policy and
	// returns it, or nil when it holds none.
	victim() *extent
	// remove takes e out: its data is overwritten, trimmed or lost.
	remove(e *extent)
	// split places r, new, which holds the end of what e held before e
	// shrank (shrink was called for all that e lost), beside e with e's
	// standing.
	split(e, r *extent)
	// shrink records that e, held, lost by bytes.
	shrink(e *extent, by int64)
}

// newReplacer returns the policy p for a cache of size bytes.
func newReplacer(p Replacement, size int64) replacer {
	switch p {
	case FIFO:
		return &fifoPolicy{}
	case CLOCK:
		return &clockPolicy{}
	case TwoQ:
		return newTwoQ(size)
	case ARC:
		return newARC(size)
	case S3FIFO:
		return newS3FIFO(size)
	case SIEVE:
		return &sievePolicy{}
	}
	return &lruPolicy{}
}

// queue is a list of clean extents, oldest first, that counts their
// bytes. The policies build on queues linked through lk[0] (clean
// extents use no other list); an extent's q says which of its
// policy's queues holds it.
type queue struct {
	list
	bytes int64
}

func (q *queue) pushBack(e *extent) {
	q.list.pushBack(e)
	q.bytes += e.end - e.off
}

func (q *queue) insertAfter(e, at *extent) {
	q.list.insertAfter(e, at)
	q.bytes += e.end - e.off
}

func (q *queue) unlink(e *extent) {
	q.list.unlink(e)
	q.bytes -= e.end - e.off
}

// popFront unlinks and returns the oldest extent, or nil.
func (q *queue) popFront() *extent {
	e := q.head
	if e != nil {
		q.unlink(e)
	}
	return e
}

// queues are a policy's queues, indexed by extent.q, with the methods
// every policy shares.
type queues struct{ q [2]queue }

func (p *queues) remove(e *extent)           { p.q[e.q].unlink(e) }
func (p *queues) shrink(e *extent, by int64) { p.q[e.q].bytes -= by }
func (p *queues) split(e, r *extent) {
	r.q, r.freq = e.q, e.freq
	p.q[e.q].insertAfter(r, e)
}

// push appends e to queue i.
func (p *queues) push(i uint8, e *extent) {
	e.q = i
	p.q[i].pushBack(e)
}

// move takes e from its queue to the back of queue i.
func (p *queues) move(i uint8, e *extent) {
	p.q[e.q].unlink(e)
	p.push(i, e)
}

// frac returns f of size, at least 1 byte.
func frac(size int64, f float64) int64 { return max(1, int64(f*float64(size))) }

// check reports a queue whose byte count differs from its extents', for
// the invariant checks.
func (p *queues) check(in map[*extent]bool) error {
	n := 0
	for i := range p.q {
		q := &p.q[i]
		var b int64
		for e := q.head; e != nil; e = q.next(e) {
			if !in[e] || e.q != uint8(i) {
				return fmt.Errorf("replacement queue %d holds [%d, %d), not clean or marked queue %d", i, e.off, e.end, e.q)
			}
			b += e.end - e.off
			n++
		}
		if b != q.bytes {
			return fmt.Errorf("replacement queue %d counts %d bytes, holds %d", i, q.bytes, b)
		}
	}
	if n != len(in) {
		return fmt.Errorf("replacement queues hold %d extents, the clean tree %d", n, len(in))
	}
	return nil
}
