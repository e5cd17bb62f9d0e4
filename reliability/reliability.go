package reliability

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// HoursPerYear is the hours of a (365-day) year.
const HoursPerYear = 8760

// Params describes an array and its drives.
type Params struct {
	// Level is 1, 5, 6 or 10.
	Level int
	// Disks is the number of drives: RAID 1 at least 2, RAID 5 at least
	// 3, RAID 6 at least 4, RAID 10 an even number of at least 4.
	Disks int
	// Capacity is each drive's capacity in bytes.
	Capacity int64
	// AFR is the annualized failure rate, 0..1 (0.02 for 2 %); or give
	// MTTFHours instead (one of the two, positive).
	AFR       float64
	MTTFHours float64
	// UREPerBit is the unrecoverable read error rate per bit read, 0..1
	// (1e-14 on most desktop data sheets).
	UREPerBit float64
	// Rebuild is the time to rebuild one failed drive onto a spare.
	Rebuild time.Duration
}

// Validate reports every problem at once, naming the field.
func (p Params) Validate() error {
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, fmt.Errorf("reliability: %s: %s", field, fmt.Sprintf(format, args...)))
	}
	switch p.Level {
	case 1:
		if p.Disks < 2 {
			bad("Disks", "RAID 1 needs at least 2 drives, got %d", p.Disks)
		}
	case 5, 6:
		if p.Disks < p.Level-2 {
			bad("Disks", "RAID %d needs at least %d drives, got %d", p.Level, p.Level-2, p.Disks)
		}
	case 10:
		if p.Disks < 4 || p.Disks%2 != 0 {
			bad("Disks", "RAID 10 needs an even number of at least 4 drives, got %d", p.Disks)
		}
	default:
		bad("Level", "%d: want 1, 5, 6 or 10", p.Level)
	}
	if p.Disks > 1<<16 {
		bad("Disks", "%d is more than %d", p.Disks, 1<<16)
	}
	if p.Capacity <= 0 {
		bad("Capacity", "%d bytes is not positive", p.Capacity)
	}
	switch {
	case p.AFR != 0 && p.MTTFHours != 0:
		bad("AFR", "give AFR or MTTFHours, not both")
	case p.AFR == 0 && p.MTTFHours == 0:
		bad("AFR", "give AFR (0..1) or MTTFHours")
	case p.AFR != 0 && !(p.AFR > 0 && p.AFR < 1):
		bad("AFR", "%v is not a rate between 0 and 1", p.AFR)
	case p.MTTFHours != 0 && !(p.MTTFHours > 0 && p.MTTFHours < 1e12):
		bad("MTTFHours", "%v is not a positive number of hours", p.MTTFHours)
	}
	if !(p.UREPerBit >= 0 && p.UREPerBit <= 1) {
		bad("UREPerBit", "%v is not a probability (0..1)", p.UREPerBit)
	}
	if p.Rebuild <= 0 {
		bad("Rebuild", "%v is not a positive time", p.Rebuild)
	}
	return errors.Join(errs...)
}

// rate is λ, failures per drive-hour.
func (p Params) rate() float64 {
	if p.MTTFHours > 0 {
		return 1 / p.MTTFHours
	}
	return -math.Log1p(-p.AFR) / HoursPerYear
}

// group is the redundancy group the models solve: n drives tolerating
// t failures, a rebuild with none to spare reading `reads` drives.
type group struct {
	n, t, reads int
	copies      float64 // RAID 10: independent groups in series
}

func (p Params) group() group {
	switch p.Level {
	case 1:
		return group{n: p.Disks, t: p.Disks - 1, reads: 1, copies: 1}
	case 5:
		return group{n: p.Disks, t: 1, reads: p.Disks - 1, copies: 1}
	case 6:
		return group{n: p.Disks, t: 2, reads: p.Disks - 2, copies: 1}
	}
	return group{n: 2, t: 1, reads: 1, copies: float64(p.Disks / 2)} // RAID 10
}

// ureLoss is h: the probability that a rebuild with no redundancy left
// meets an unrecoverable error in the data it reads.
func (p Params) ureLoss(g group) float64 {
	bits := 8 * float64(p.Capacity) * float64(g.reads)
	return -math.Expm1(-bits * p.UREPerBit)
}

// RebuildURE returns the probability that a rebuild with no redundancy
// left (RAID 5 with one drive failed, say) meets an unrecoverable read
// error.
func (p Params) RebuildURE() float64 { return p.ureLoss(p.group()) }

// PerYear turns an MTTDL in hours into the probability of a loss within
// a year: 1 - exp(-8760/MTTDL).
func PerYear(mttdlHours float64) float64 {
	if math.IsInf(mttdlHours, 1) {
		return 0
	}
	return -math.Expm1(-HoursPerYear / mttdlHours)
}

// Markov returns the MTTDL in hours from the birth-death chain (see the
// package doc): the expected time from all drives healthy to a loss.
func Markov(p Params) (float64, error) {
	if err := p.Validate(); err != nil {
		return 0, err
	}
	g := p.group()
	lambda, mu := p.rate(), 1/p.Rebuild.Hours()
	h := p.ureLoss(g)
	// T[k] is the expected time to loss from k failed drives:
	// T[k] = (1 + f_k T[k+1] + r_k T[k-1]) / (f_k + r_k), with
	// f_k = (n-k)λ (T[t+1] = 0: loss), r_k = μ (times 1-h at k = t),
	// T[-1] unused (r_0 = 0). Write T[k] = a_k + b_k T[k-1] from the top.
	a, b := make([]float64, g.t+1), make([]float64, g.t+1)
	for k := g.t; k >= 0; k-- {
		f := float64(g.n-k) * lambda
		r, back := mu, mu
		if k == 0 {
			r, back = 0, 0
		}
		if k == g.t {
			back = mu * (1 - h) // the rest of μ goes to loss
		}
		var an, bn float64 // T[k+1] = an + bn T[k]
		if k < g.t {
			an, bn = a[k+1], b[k+1]
		}
		den := f + r - f*bn
		a[k] = (1 + f*an) / den
		b[k] = back / den
	}
	return a[0] / g.copies, nil
}
