package cache

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// pattern runs seq through a BlockSim of blocks blocks under p and
// returns a hit (H) or miss (M) per access.
func pattern(t *testing.T, p Replacement, blocks int64, seq ...int64) (string, *BlockSim) {
	t.Helper()
	s, err := NewBlockSim(p, blocks)
	require.NoError(t, err)
	var b strings.Builder
	for _, x := range seq {
		if s.Access(x) {
			b.WriteByte('H')
		} else {
			b.WriteByte('M')
		}
	}
	return b.String(), s
}

// order returns the blocks of queue i of s's policy, oldest first.
func order(s *BlockSim, i int) []int64 {
	var out []int64
	q := &s.rp.(interface{ queue(int) *queue }).queue(i).list
	for e := q.head; e != nil; e = q.next(e) {
		out = append(out, e.off/blockSimUnit)
	}
	return out
}

func (p *queues) queue(i int) *queue { return &p.q[i] }

// ghostBlocks returns the blocks g remembers, oldest first.
func ghostBlocks(g *ghosts) []int64 {
	var out []int64
	for _, x := range g.fifo[g.head:] {
		if cur, ok := g.t.Get(x); ok && cur.seq == x.seq {
			out = append(out, x.off/blockSimUnit)
		}
	}
	return out
}

// The sequences below are worked by hand in the comments; each policy's
// answer differs from LRU's where its rule says it should.

func TestLRUSequence(t *testing.T) {
	// 3 blocks. 1 2 3 miss; 2, 1 hit (order 3 2 1); 4 evicts 3; 5
	// evicts 2; 1 hits (order 4 5 1); 2 evicts 4; 3 evicts 5.
	got, s := pattern(t, LRU, 3, 1, 2, 3, 2, 1, 4, 5, 1, 2, 3)
	require.Equal(t, "MMMHHMMHMM", got)
	require.Equal(t, []int64{1, 2, 3}, order(s, 0))
}

func TestFIFOSequence(t *testing.T) {
	// 3 blocks. Hits on 2 and 1 change nothing: 4 evicts 1, 5 evicts 2,
	// 1 misses and evicts 3, 2 evicts 4, 3 evicts 5.
	got, s := pattern(t, FIFO, 3, 1, 2, 3, 2, 1, 4, 5, 1, 2, 3)
	require.Equal(t, "MMMHHMMMMM", got)
	require.Equal(t, []int64{1, 2, 3}, order(s, 0))
}

func TestCLOCKSequence(t *testing.T) {
	// 3 blocks. 1 is hit (bit set); 4 finds the hand on 1, clears its
	// bit and moves on, and evicts 2: queue 3 1 4. 1 hits again (FIFO
	// would have evicted it), setting its bit. 5 finds 3 (bit clear):
	// evicts it (queue 1 4 5). 2 finds 1 (set): clears it, moves on and
	// evicts 4 (queue 5 1 2). 6 evicts 5.
	got, s := pattern(t, CLOCK, 3, 1, 2, 3, 1, 4, 1, 5, 2, 6)
	require.Equal(t, "MMMHMHMMM", got)
	require.Equal(t, []int64{1, 2, 6}, order(s, 0))
	fifo, _ := pattern(t, FIFO, 3, 1, 2, 3, 1, 4, 1)
	require.Equal(t, "MMMHMM", fifo, "FIFO evicts 1 for 4")
}

func TestSIEVESequence(t *testing.T) {
	// 3 blocks. 1 is hit (visited). 4: the hand starts at the oldest,
	// 1, clears it, evicts 2 and rests on 3: queue 1 3 4. 2: evicts 3,
	// rests on 4. 5: evicts 4, rests on 2 (1 stays, behind the hand).
	// 1 hits. 3: evicts 2, rests on 5. LRU evicts 1 at 5 instead.
	got, s := pattern(t, SIEVE, 3, 1, 2, 3, 1, 4, 2, 5, 1, 3)
	require.Equal(t, "MMMHMMMHM", got)
	require.Equal(t, []int64{1, 5, 3}, order(s, 0))
	require.EqualValues(t, 5, s.rp.(*sievePolicy).hand.off/blockSimUnit)
	lru, _ := pattern(t, LRU, 3, 1, 2, 3, 1, 4, 2, 5, 1, 3)
	require.Equal(t, "MMMHMMMMM", lru)
}

func TestTwoQSequence(t *testing.T) {
	// 4 blocks: Kin 1 block, Kout 2. 1-4 fill A1in; 5 evicts 1 to
	// A1out. 1 hits its ghost: it goes to Am and 2 goes to A1out; the
	// same for 2 (3 to A1out). 1 hits in Am. 6 evicts 4 (A1out 3 4), 7
	// evicts 5 (A1out 4 5: 3 forgotten). 3 misses into A1in, evicting 6
	// (A1out 5 6). 2 hits in Am. 5 hits its ghost: into Am, evicting 7
	// (A1out 6 7). 8: A1in holds only Kin, so Am's least recent, 1, is
	// evicted without a ghost; 1 then misses into A1in, evicting 3.
	got, s := pattern(t, TwoQ, 4, 1, 2, 3, 4, 5, 1, 2, 1, 6, 7, 3, 2, 5, 8, 1)
	require.Equal(t, "MMMMMMMHMMMHMMM", got)
	p := s.rp.(*twoQPolicy)
	require.Equal(t, []int64{8, 1}, order(s, twoQIn))
	require.Equal(t, []int64{2, 5}, order(s, twoQMain))
	require.Equal(t, []int64{7, 3}, ghostBlocks(p.out))
}

func TestARCSequence(t *testing.T) {
	// 4 blocks (c = 4, in blocks). 1-4 into T1; 1 and 2 hit: into T2.
	// 5: T1 (3 4) is over p = 0, so 3 goes to B1; 6 sends 4 to B1.
	// 3 hits B1: p = 0 + max(1, |B2|/|B1|) = 1, 5 goes to B1, 3 into
	// T2 (1 2 3). 7: T1 (6) is not over p = 1, so T2's 1 goes to B2.
	// 1 hits B2: p = max(0, 1 - max(1, |B1|/|B2| = 2)) = 0, T1's 6 goes
	// to B1. 6 hits B1: p = 1, T2's 2 goes to B2. 3 hits in T2.
	got, s := pattern(t, ARC, 4, 1, 2, 3, 4, 1, 2, 5, 6, 3, 7, 1, 6, 3)
	require.Equal(t, "MMMMHHMMMMMMH", got)
	a := s.rp.(*arcPolicy)
	require.EqualValues(t, 1*blockSimUnit, a.p)
	require.Equal(t, []int64{7}, order(s, arcT1))
	require.Equal(t, []int64{1, 6, 3}, order(s, arcT2))
	require.Equal(t, []int64{4, 5}, ghostBlocks(a.b1))
	require.Equal(t, []int64{2}, ghostBlocks(a.b2))
}

func TestS3FIFOSequence(t *testing.T) {
	// 10 blocks: S's share is 1 block, M's 9, G remembers 9. 1-10 fill
	// S; 1 and 2 are hit twice, 3 once. 11: S (10 blocks) is over its
	// share: 1 and 2 (hit more than once) move to M, 3 (once) is
	// evicted to G. 12 evicts 4 to G, 13 evicts 5. 3 hits its ghost:
	// into M, evicting 6 to G. 1 hits in M.
	got, s := pattern(t, S3FIFO, 10, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1, 1, 2, 2, 3, 11, 12, 13, 3, 1)
	require.Equal(t, "MMMMMMMMMMHHHHHMMMMH", got)
	p := s.rp.(*s3fifoPolicy)
	require.Equal(t, []int64{7, 8, 9, 10, 11, 12, 13}, order(s, s3Small))
	require.Equal(t, []int64{1, 2, 3}, order(s, s3Main))
	require.Equal(t, []int64{4, 5, 6}, ghostBlocks(p.g))
}

func TestS3FIFOMainReinsertion(t *testing.T) {
	// 10 blocks. 1 is hit twice and moves to M when 11 comes; with S at
	// its share (1 block) or below, evictions come from M: 1 (freq 2)
	// goes round twice, losing a count each time, before it is evicted.
	seq := []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1, 1, 11}
	_, s := pattern(t, S3FIFO, 10, seq...)
	require.Equal(t, []int64{1}, order(s, s3Main))
	require.EqualValues(t, 2, s.rp.(*s3fifoPolicy).q[s3Main].head.freq)
}
