package cache

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestIndexAgainstSortedSlice drives the extent index with random
// inserts and deletes and checks every answer against a sorted slice
// of the same keys, and the tree's shape after every change: keys in
// order within the separators, nodes filled, leaves linked in order,
// and no node lost from or added twice to the pool.
func TestIndexAgainstSortedSlice(t *testing.T) {
	deepest := 0
	for seed := uint64(1); seed <= 8; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		pool := new(nodePool)
		ix := &extentIndex{pool: pool}
		var ref []int64
		span := int64(50 + rng.IntN(5000))
		steps := 4000 + rng.IntN(4000)
		for step := range steps {
			k := rng.Int64N(span)
			// Grow for the first half, shrink for the second, so that
			// merges and root collapses happen.
			grow := rng.IntN(100) < 70
			if step > steps/2 {
				grow = !grow
			}
			i, found := slices.BinarySearch(ref, k)
			switch {
			case grow && !found:
				ix.insert(&extent{off: k, end: k + 1})
				ref = slices.Insert(ref, i, k)
			case !grow:
				if got := ix.delete(k); got != found {
					t.Fatalf("seed %d step %d: delete(%d) = %v, want %v", seed, step, k, got, found)
				}
				if found {
					ref = slices.Delete(ref, i, i+1)
				}
			}
			deepest = max(deepest, height(ix.root))
			if err := checkIndex(ix, ref); err != nil {
				t.Fatalf("seed %d step %d: %v", seed, step, err)
			}
			q := rng.Int64N(span+2) - 1
			if err := checkQueries(ix, ref, q); err != nil {
				t.Fatalf("seed %d step %d: %v", seed, step, err)
			}
		}
	}
	if deepest < 3 {
		t.Errorf("the tree grew to %d levels only: inner rebalancing untested", deepest)
	}
}

// height returns the levels of the subtree x.
func height(x *bnode) int {
	h := 0
	for ; x != nil; h++ {
		if x.leaf {
			return h + 1
		}
		x = x.kids[0]
	}
	return h
}

// checkQueries compares atOrAfter and atOrBefore at q, and a walk from
// each both ways, with ref.
func checkQueries(ix *extentIndex, ref []int64, q int64) error {
	i, found := slices.BinarySearch(ref, q)
	want := func(j int) int64 {
		if j < 0 || j >= len(ref) {
			return -1
		}
		return ref[j]
	}
	key := func(c cursor) int64 {
		if !c.ok() {
			return -1
		}
		return c.ext().off
	}
	c := ix.atOrAfter(q)
	if got := key(c); got != want(i) {
		return fmt.Errorf("atOrAfter(%d) = %d, want %d", q, got, want(i))
	}
	if c.ok() {
		c.prev()
		if got := key(c); got != want(i-1) {
			return fmt.Errorf("atOrAfter(%d) then prev = %d, want %d", q, got, want(i-1))
		}
	}
	b := i - 1
	if found {
		b = i
	}
	c = ix.atOrBefore(q)
	if got := key(c); got != want(b) {
		return fmt.Errorf("atOrBefore(%d) = %d, want %d", q, got, want(b))
	}
	if c.ok() {
		c.next()
		if got := key(c); got != want(b+1) {
			return fmt.Errorf("atOrBefore(%d) then next = %d, want %d", q, got, want(b+1))
		}
	}
	return nil
}

// checkIndex checks ix's shape and that it holds exactly ref.
func checkIndex(ix *extentIndex, ref []int64) error {
	if ix.count != len(ref) {
		return fmt.Errorf("count %d, want %d", ix.count, len(ref))
	}
	var keys []int64
	ix.ascend(func(e *extent) bool { keys = append(keys, e.off); return true })
	if !slices.Equal(keys, ref) {
		return fmt.Errorf("holds %v, want %v", keys, ref)
	}
	if ix.root == nil {
		if len(ref) > 0 {
			return fmt.Errorf("no root with %d keys", len(ref))
		}
		return nil
	}
	var leaves []*bnode
	depth := -1
	if err := checkNode(ix.root, true, -1<<62, 1<<62, 0, &depth, &leaves); err != nil {
		return err
	}
	for i, l := range leaves {
		var prev, next *bnode
		if i > 0 {
			prev = leaves[i-1]
		}
		if i+1 < len(leaves) {
			next = leaves[i+1]
		}
		if l.prev != prev || l.next != next {
			return fmt.Errorf("leaf %d of %d badly linked", i, len(leaves))
		}
	}
	for _, x := range *ix.pool {
		if x.n != 0 || x.prev != nil || x.next != nil {
			return fmt.Errorf("a pooled node was not cleared")
		}
	}
	return nil
}

// checkNode checks the subtree x: every key in [lo, hi), keys sorted,
// fill within bounds, leaves all at one depth (collected in order).
func checkNode(x *bnode, root bool, lo, hi int64, d int, depth *int, leaves *[]*bnode) error {
	if x.n >= fanout || (!root && x.n < minFill) || (x.n == 0) {
		return fmt.Errorf("node with %d keys (root %v)", x.n, root)
	}
	if x.leaf {
		for i := range x.n {
			if x.keys[i] < lo || x.keys[i] >= hi || (i > 0 && x.keys[i] <= x.keys[i-1]) || x.exts[i].off != x.keys[i] {
				return fmt.Errorf("leaf keys %v out of [%d, %d)", x.keys[:x.n], lo, hi)
			}
		}
		if *depth >= 0 && d != *depth {
			return fmt.Errorf("leaves at depths %d and %d", *depth, d)
		}
		*depth = d
		*leaves = append(*leaves, x)
		return nil
	}
	if root && x.n < 2 {
		return fmt.Errorf("inner root with %d child", x.n)
	}
	for i := range x.n {
		a, b := lo, hi
		if i > 0 {
			a = x.keys[i]
		}
		if i+1 < x.n {
			b = x.keys[i+1]
		}
		if a >= b || a < lo || b > hi {
			return fmt.Errorf("separators %v out of order in [%d, %d)", x.keys[1:x.n], lo, hi)
		}
		if err := checkNode(x.kids[i], false, a, b, d+1, depth, leaves); err != nil {
			return err
		}
	}
	return nil
}
