package raidz

import (
	"slices"

	"github.com/raidsim/raidsim/raid"
)

// RAIDZ's parity, as vdev_raidz computes it over GF(2^8) with
// polynomial 0x11d (md's field, package raid): with data columns D_0 ..
// D_(n-1), shorter columns read as zeros past their end,
//
//	P = D_0 + D_1 + ... + D_(n-1)                      (XOR)
//	Q = 2^(n-1) D_0 + 2^(n-2) D_1 + ... + D_(n-1)     (Horner: Q = 2Q + D_i)
//	R = 4^(n-1) D_0 + 4^(n-2) D_1 + ... + D_(n-1)     (R = 4R + D_i)
//
// Q is md's Q of the data columns in reverse order, so one or two lost
// columns are solved by md's own RAID 6 code (raid.SolvePQ); a loss that
// needs R is solved by inverting the matrix of the parities' coefficients,
// as vdev_raidz_reconstruct_general does.

// coef is the coefficient of data column i of n in parity p (0 P, 1 Q,
// 2 R): (2^p)^(n-1-i).
func coef(p, i, n int) byte { return raid.GFPow(p * (n - 1 - i)) }

// Generate computes the parity columns units[:np] from the data
// columns units[np:]; each parity column is at least as long as every
// data column.
func Generate(units [][]byte, np int) {
	n := len(units) - np
	for p := range np {
		par := units[p]
		clear(par)
		for i, d := range units[np:] {
			raid.GFMulAdd(par[:len(d)], d, coef(p, i, n))
		}
	}
}

// Reconstruct recomputes the columns listed in missing (indices into
// units, parity first then data) from the others, whose bytes must be
// present. It reports false when they cannot be: more columns missing
// than there are parity columns.
func Reconstruct(units [][]byte, np int, missing []int) bool {
	if len(missing) > np {
		return false
	}
	var lostData, lostPar []int
	for _, m := range missing {
		if m < np {
			lostPar = append(lostPar, m)
		} else {
			lostData = append(lostData, m-np)
		}
	}
	var rows []int // the parity columns that solve the lost data
	for p := 0; p < np && len(rows) < len(lostData); p++ {
		if !slices.Contains(lostPar, p) {
			rows = append(rows, p)
		}
	}
	if len(rows) < len(lostData) {
		return false
	}
	if len(lostData) > 0 {
		if rows[len(rows)-1] <= 1 {
			solvePQ(units, np, lostData, rows)
		} else {
			solveGeneral(units, np, lostData, rows)
		}
	}
	if len(lostPar) > 0 {
		n := len(units) - np
		for _, p := range lostPar {
			par := units[p]
			clear(par)
			for i, d := range units[np:] {
				raid.GFMulAdd(par[:len(d)], d, coef(p, i, n))
			}
		}
	}
	return true
}

// solvePQ solves one or two lost data columns from P (and Q) with md's
// RAID 6 code: md's data units are RAIDZ's data columns reversed, each
// padded to the parity's length.
func solvePQ(units [][]byte, np int, lost, rows []int) {
	n := len(units) - np
	size := len(units[0])
	md := make([][]byte, n+2)
	for i := range n {
		d := units[np+i]
		u := make([]byte, size)
		copy(u, d)
		md[n-1-i] = u
	}
	md[n] = units[0]
	if np > 1 {
		md[n+1] = units[1]
	} else {
		md[n+1] = make([]byte, size)
	}
	var miss []int
	for _, i := range lost {
		miss = append(miss, n-1-i)
	}
	if len(lost) == 1 && rows[0] == 1 { // P is lost too: md solves from Q when told P is missing
		p := make([]byte, size)
		md[n] = p
		miss = append(miss, n)
	}
	raid.SolvePQ(md, miss)
	for _, i := range lost {
		copy(units[np+i], md[n-1-i])
	}
}

// solveGeneral solves the lost data columns from the parity columns
// rows: with S_r the parity r less the known data's share, the lost
// columns x solve A x = S, A[r][k] the coefficient of lost column k in
// parity rows[r]; A is inverted by Gauss-Jordan elimination over GF(2^8).
func solveGeneral(units [][]byte, np int, lost, rows []int) {
	n := len(units) - np
	m := len(lost)
	size := len(units[0])
	syn := make([][]byte, m)
	for r, p := range rows {
		s := slices.Clone(units[p])
		for i, d := range units[np:] {
			if !slices.Contains(lost, i) {
				raid.GFMulAdd(s[:len(d)], d, coef(p, i, n))
			}
		}
		syn[r] = s
	}
	a := make([][]byte, m)
	inv := make([][]byte, m)
	for r, p := range rows {
		a[r] = make([]byte, m)
		inv[r] = make([]byte, m)
		inv[r][r] = 1
		for k, i := range lost {
			a[r][k] = coef(p, i, n)
		}
	}
	for col := range m {
		piv := col
		for a[piv][col] == 0 {
			piv++ // the matrix is a Vandermonde-like one: invertible
		}
		a[col], a[piv] = a[piv], a[col]
		inv[col], inv[piv] = inv[piv], inv[col]
		c := raid.GFInv(a[col][col])
		for j := range m {
			a[col][j] = raid.GFMul(a[col][j], c)
			inv[col][j] = raid.GFMul(inv[col][j], c)
		}
		for r := range m {
			if r != col && a[r][col] != 0 {
				f := a[r][col]
				for j := range m {
					a[r][j] ^= raid.GFMul(f, a[col][j])
					inv[r][j] ^= raid.GFMul(f, inv[col][j])
				}
			}
		}
	}
	for k, i := range lost {
		out := make([]byte, size)
		for r := range m {
			raid.GFMulAdd(out, syn[r], inv[k][r])
		}
		copy(units[np+i], out[:len(units[np+i])])
	}
}
