package raidz

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// Every loss of up to Parity columns of records of every shape is
// solved: parity from real bytes, columns wiped, Reconstruct, compare.
func TestReconstructEveryLoss(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 27))
	for np := 1; np <= 3; np++ {
		for disks := np + 2; disks <= 9; disks++ {
			g := Geometry{Disks: disks, Parity: np, Ashift: 9}
			for _, sectors := range []int64{1, 2, 3, int64(disks), 7, 32, 33, 256} {
				cols := g.Map(0, sectors<<9)
				units := make([][]byte, len(cols))
				for i, c := range cols {
					units[i] = make([]byte, c.Size)
					if i >= np {
						for j := range units[i] {
							units[i][j] = byte(rng.Uint32())
						}
					}
				}
				Generate(units, np)
				want := make([][]byte, len(units))
				for i := range units {
					want[i] = bytes.Clone(units[i])
				}
				forEachLoss(len(units), min(np, len(units)), func(lost []int) {
					for _, l := range lost {
						for j := range units[l] {
							units[l][j] = 0xee
						}
					}
					name := fmt.Sprintf("raidz%d/%d disks/%d sectors/lost %v", np, disks, sectors, lost)
					if !Reconstruct(units, np, lost) {
						t.Fatalf("%s: not solved", name)
					}
					for i := range units {
						if !bytes.Equal(units[i], want[i]) {
							t.Fatalf("%s: column %d differs", name, i)
						}
					}
				})
				if Reconstruct(units, np, make([]int, np+1)) {
					t.Fatalf("raidz%d: %d lost columns reported solved", np, np+1)
				}
			}
		}
	}
}

// forEachLoss calls f with every set of 1..k of n columns.
func forEachLoss(n, k int, f func([]int)) {
	var rec func(start int, cur []int)
	rec = func(start int, cur []int) {
		if len(cur) > 0 {
			f(cur)
		}
		if len(cur) == k {
			return
		}
		for i := start; i < n; i++ {
			rec(i+1, append(cur, i))
		}
	}
	rec(0, nil)
}
