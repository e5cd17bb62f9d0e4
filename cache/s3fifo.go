package cache

// s3fifoPolicy is S3-FIFO (Yang, Zhang, Qiu, Yue and Rashmi, "FIFO
// queues are all you need for cache eviction", SOSP 2023) with the
// paper's parameters: a small FIFO S of 10% of the cache, a main FIFO
// M, and a ghost FIFO G remembering as much as M's share holds (90%).
// Each extent has a 2-bit frequency (extent.freq, at most 3) that a
// hit raises. A miss that hits a ghost goes into M, any other into S.
// To evict: when S holds at least 10% of the cache (or M nothing), its
// oldest extent moves to M if it was hit more than once, else it is
// evicted and remembered in G; otherwise M's oldest extent is evicted
// if its frequency is 0, else it goes back into M with its frequency
// lowered by one. Sizes are bytes of the cache's Size, where the paper
// counts objects.
type s3fifoPolicy struct {
	queues           // q[0] is S, q[1] is M
	g        *ghosts // G
	small    int64   // S's share, bytes
	main     int64   // M's share and G's size, bytes
	ghostHit bool    // the range miss announced hit G
}

const (
	s3Small = iota
	s3Main
)

func newS3FIFO(size int64) *s3fifoPolicy {
	small := frac(size, 0.10)
	return &s3fifoPolicy{g: newGhosts(), small: small, main: max(1, size-small)}
}

func (p *s3fifoPolicy) miss(off, end int64) { p.ghostHit = p.g.take(off, end) }

func (p *s3fifoPolicy) admit(e *extent) {
	e.freq = 0
	if p.ghostHit {
		p.push(s3Main, e)
	} else {
		p.push(s3Small, e)
	}
	p.ghostHit = false
}

func (p *s3fifoPolicy) hit(e *extent) { e.freq = min(e.freq+1, 3) }

func (p *s3fifoPolicy) victim() *extent {
	s, m := &p.q[s3Small], &p.q[s3Main]
	for s.head != nil && (s.bytes >= p.small || m.head == nil) {
		t := s.head
		if t.freq > 1 {
			p.move(s3Main, t)
			if m.bytes >= p.main {
				if e := p.evictMain(); e != nil {
					return e
				}
			}
			continue
		}
		s.unlink(t)
		p.g.add(t.off, t.end)
		p.g.trim(p.main)
		return t
	}
	if e := p.evictMain(); e != nil {
		return e
	}
	return s.popFront()
}

// evictMain evicts M's oldest extent of frequency 0, reinserting those
// it passes with their frequency lowered, or returns nil if M is empty.
func (p *s3fifoPolicy) evictMain() *extent {
	m := &p.q[s3Main]
	for e := m.head; e != nil; e = m.head {
		if e.freq == 0 {
			return m.popFront()
		}
		e.freq--
		m.moveToBack(e)
	}
	return nil
}
