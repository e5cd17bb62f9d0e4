package raid

import (
	"math/rand/v2"
	"testing"
)

// TestGFField: the tables make a field: g generates all 255 non-zero
// bytes, every element has an inverse, multiplication distributes over
// XOR; and 2*0x80 wraps by the polynomial 0x11d to 0x1d.
func TestGFField(t *testing.T) {
	seen := map[byte]bool{}
	for i := range 255 {
		seen[gfPow(i)] = true
	}
	if len(seen) != 255 || seen[0] {
		t.Fatalf("g generates %d elements", len(seen))
	}
	if gfMul(2, 0x80) != 0x1d {
		t.Errorf("2*0x80 = %#x, want 0x1d", gfMul(2, 0x80))
	}
	for a := 1; a < 256; a++ {
		if gfMul(byte(a), gfInv(byte(a))) != 1 {
			t.Fatalf("%d * inv(%d) != 1", a, a)
		}
		for _, b := range []byte{3, 7, 0x53, 0xca} {
			for _, c := range []byte{1, 0x1d, 0xff} {
				if gfMul(byte(a), b^c) != gfMul(byte(a), b)^gfMul(byte(a), c) {
					t.Fatalf("distributivity fails at %d, %d, %d", a, b, c)
				}
			}
		}
	}
}

// TestSolve6EveryPair: for stripes of 3 to 8 data units of random bytes,
// losing any one or two of the units (data, P or Q) and solving gives
// back the exact bytes.
func TestSolve6EveryPair(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for k := 2; k <= 8; k++ {
		want := make([][]byte, k+2)
		for i := range want {
			want[i] = make([]byte, 64)
		}
		for i := range k {
			for j := range want[i] {
				want[i][j] = byte(rng.Uint32())
			}
		}
		Syndromes(want[:k], want[k], want[k+1])
		for x := range k + 2 {
			for y := x; y < k+2; y++ {
				units := make([][]byte, k+2)
				for i := range units {
					units[i] = append([]byte(nil), want[i]...)
				}
				missing := []int{y}
				if y != x {
					missing = append(missing, x) // either order
				}
				for _, m := range missing {
					for j := range units[m] {
						units[m][j] = 0xee
					}
				}
				if !solve6(units, missing) {
					t.Fatalf("k=%d missing %v: not solved", k, missing)
				}
				for i := range units {
					if string(units[i]) != string(want[i]) {
						t.Fatalf("k=%d missing %v: unit %d differs", k, missing, i)
					}
				}
			}
		}
	}
}
