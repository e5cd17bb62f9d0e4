package raid

// GF(2^8) arithmetic for RAID 6's Q syndrome, as Linux md computes it
// (H. Peter Anvin, "The mathematics of RAID-6"): the field of bytes
// modulo the polynomial x^8 + x^4 + x^3 + x^2 + 1 (0x11d) with generator
// g = 2. P is the XOR of a stripe's data units D_0..D_{k-1}; Q is
// g^0 D_0 + g^1 D_1 + ... + g^(k-1) D_(k-1), the sums being XOR.

var gfExp, gfLog = gfTables()

func gfTables() (exp [512]byte, log [256]int) {
	x := 1
	for i := range 255 {
		exp[i] = byte(x)
		log[x] = i
		x <<= 1
		if x&0x100 != 0 {
			x ^= 0x11d
		}
	}
	for i := 255; i < 512; i++ {
		exp[i] = exp[i-255]
	}
	return exp, log
}

// gfMul returns a*b in GF(2^8).
func gfMul(a, b byte) byte {
	if a == 0 || b == 0 {
		return 0
	}
	return gfExp[gfLog[a]+gfLog[b]]
}

// gfPow returns g^i for 0 <= i < 255.
func gfPow(i int) byte { return gfExp[i%255] }

// gfInv returns 1/a (a != 0).
func gfInv(a byte) byte { return gfExp[255-gfLog[a]] }

// gfMulAdd adds c*src into dst, byte by byte.
func gfMulAdd(dst, src []byte, c byte) {
	if c == 0 {
		return
	}
	if c == 1 {
		xorInto(dst, src)
		return
	}
	lc := gfLog[c]
	for i, s := range src {
		if s != 0 {
			dst[i] ^= gfExp[gfLog[s]+lc]
		}
	}
}

// gfScale multiplies buf by c in place.
func gfScale(buf []byte, c byte) {
	for i, s := range buf {
		buf[i] = gfMul(s, c)
	}
}

// Syndromes computes RAID 6's P (XOR) and Q (sum of g^i D_i) of the
// data units, each as long as p and q, into p and q.
func Syndromes(data [][]byte, p, q []byte) {
	clear(p)
	clear(q)
	for i, d := range data {
		xorInto(p, d)
		gfMulAdd(q, d, gfPow(i))
	}
}

// solve6 recomputes the missing units of one RAID 6 stripe range. units
// holds the k data units then P then Q (k+2 slices of equal length);
// missing lists the positions (0..k+1) to compute, at most two; the
// others must hold their bytes. It reports false when more than two are
// missing.
func solve6(units [][]byte, missing []int) bool {
	k := len(units) - 2
	P, Q := units[k], units[k+1]
	var dbuf [2]int
	data := dbuf[:0]
	needP, needQ := false, false
	for _, m := range missing {
		switch {
		case m == k:
			needP = true
		case m == k+1:
			needQ = true
		default:
			data = append(data, m)
		}
	}
	if len(missing) > 2 {
		return false
	}
	switch {
	case len(data) == 1 && !needP: // from P
		x := units[data[0]]
		copy(x, P)
		for i := range k {
			if i != data[0] {
				xorInto(x, units[i])
			}
		}
	case len(data) == 1: // P lost too: from Q
		xi := data[0]
		x := units[xi]
		copy(x, Q)
		for i := range k {
			if i != xi {
				gfMulAdd(x, units[i], gfPow(i))
			}
		}
		gfScale(x, gfInv(gfPow(xi)))
	case len(data) == 2: // from P and Q
		solveTwo(units, min(data[0], data[1]), max(data[0], data[1]))
	}
	if needP || needQ {
		p, q := P, Q
		if !needP {
			p = make([]byte, len(P))
		}
		if !needQ {
			q = make([]byte, len(Q))
		}
		Syndromes(units[:k], p, q)
	}
	return true
}

// solveTwo recovers data units x < y from P and Q:
// with Pxy = P + sum of the other D_i and Qxy = Q + sum of g^i D_i,
// D_x = (g^(y-x) Pxy + g^-x Qxy) / (g^(y-x) + 1) and D_y = Pxy + D_x.
func solveTwo(units [][]byte, x, y int) {
	k := len(units) - 2
	dx, dy := units[x], units[y]
	copy(dx, units[k])   // Pxy, built in dx
	copy(dy, units[k+1]) // Qxy, built in dy
	for i := range k {
		if i != x && i != y {
			xorInto(dx, units[i])
			gfMulAdd(dy, units[i], gfPow(i))
		}
	}
	gyx := gfPow(y - x)
	den := gfInv(gyx ^ 1)
	a := gfMul(gyx, den)             // coefficient of Pxy
	b := gfMul(gfInv(gfPow(x)), den) // coefficient of Qxy
	for i := range dx {
		pxy, qxy := dx[i], dy[i]
		v := gfMul(a, pxy) ^ gfMul(b, qxy)
		dx[i], dy[i] = v, pxy^v
	}
}

// GFMul returns a*b in GF(2^8) modulo x^8+x^4+x^3+x^2+1, the field of
// md's Q syndrome and of ZFS RAIDZ's Q and R (package raid/raidz).
func GFMul(a, b byte) byte { return gfMul(a, b) }

// GFInv returns 1/a in the same field; a must not be zero.
func GFInv(a byte) byte { return gfInv(a) }

// GFPow returns 2^i in the same field, for i >= 0.
func GFPow(i int) byte { return gfPow(i) }

// GFMulAdd adds c*src into dst, byte by byte (len(src) <= len(dst)).
func GFMulAdd(dst, src []byte, c byte) { gfMulAdd(dst, src, c) }

// SolvePQ recomputes at most two missing units of a P+Q code as md's
// RAID 6 does: units holds the k data units then P (their XOR) then Q
// (the sum of 2^i times data unit i), all of one length; missing lists
// the positions (0..k+1) to compute. It reports false when more than two
// are missing.
func SolvePQ(units [][]byte, missing []int) bool { return solve6(units, missing) }
