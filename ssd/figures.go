package ssd

import (
	"math"
	"time"
)

// Figures are a model's figures derived by arithmetic on its parameters
// (no simulation): each throughput is the bound of the slowest resource
// on its path (link, controller, dies, channels), for a fresh drive.
// Rates are bytes per second.
type Figures struct {
	// Capacity is the user capacity, RawFlash the flash behind it
	// (capacity x (1 + over-provisioning)), both in bytes.
	Capacity, RawFlash int64
	// Dies is channels x ways x dies per chip.
	Dies int
	// ReadLatency4K is an unloaded 4 KiB read: command latency,
	// controller, page read, channel and link transfer.
	ReadLatency4K time.Duration
	// RandomRead4K and RandomWrite4K are 4 KiB IOPS bounds.
	RandomRead4K, RandomWrite4K float64
	// SeqRead and SeqWrite are 128 KiB sequential bounds; SeqWriteNative
	// is the write bound past a pseudo-SLC cache (equal to SeqWrite
	// without one).
	SeqRead, SeqWrite, SeqWriteNative float64
	// SteadyWA is the analytic write amplification of uniform random
	// writes under greedy GC at the model's over-provisioning and block
	// size (see GreedyWriteAmplificationBlock).
	SteadyWA float64
}

// GreedyWriteAmplification returns the analytic write amplification of
// uniform random writes under greedy (or FIFO) garbage collection in the
// limit of large blocks (GreedyWriteAmplificationBlock for a given size), alpha being physical over user space (1 +
// over-provisioning): the valid fraction u of a cleaned block solves
// u = exp(-alpha (1-u)) and WA = 1/(1-u) (Desnoyers, SYSTOR 2012;
// Xiang & Kurkoski 2012). It returns +Inf for alpha <= 1.
func GreedyWriteAmplification(alpha float64) float64 {
	if !(alpha > 1) {
		return math.Inf(1)
	}
	lo, hi := 0.0, 1.0-1e-12
	for range 200 {
		u := (lo + hi) / 2
		if u-math.Exp(-alpha*(1-u)) < 0 {
			lo = u
		} else {
			hi = u
		}
	}
	return 1 / (1 - lo)
}

// ComputeFigures derives the figures of a valid model.
func (m *Model) ComputeFigures() Figures {
	p, g := &m.p, &m.g
	unit := float64(g.unitSize)
	link := func(n float64) float64 { return p.LinkCommandTime.Seconds() + n/p.LinkRate }
	per := func(d time.Duration) float64 {
		if d <= 0 {
			return math.Inf(1)
		}
		return 1 / d.Seconds()
	}
	dies, ch := float64(g.dies), float64(p.Channels)
	prog := float64(g.unitsPerProgram) * unit
	native := p.ProgramTime
	if p.ProgramTimeSlow > 0 {
		native = (p.ProgramTime + p.ProgramTimeSlow) / 2
	}
	first := native
	if p.SLCCache > 0 {
		first = p.SLCProgramTime
	}
	const seq = 128 << 10
	f := Figures{
		Capacity: p.Capacity, RawFlash: g.slots() * g.unitSize, Dies: g.dies,
		ReadLatency4K: p.CommandLatency + p.ReadCost + p.ReadTime +
			time.Duration(4096/p.ChannelRate*1e9) + time.Duration(link(4096)*1e9),
		RandomRead4K: min(1/link(4096), per(p.ReadCost), dies/p.ReadTime.Seconds(), ch*p.ChannelRate/4096),
		RandomWrite4K: min(1/link(4096), per(p.WriteCost), dies*float64(g.unitsPerProgram)/first.Seconds(),
			ch*p.ChannelRate/4096),
		SeqRead:        min(seq/link(seq), per(p.ReadCost)*seq, dies*prog/p.ReadTime.Seconds(), ch*p.ChannelRate),
		SeqWrite:       min(seq/link(seq), per(p.WriteCost)*seq, dies*prog/first.Seconds(), ch*p.ChannelRate),
		SeqWriteNative: min(seq/link(seq), per(p.WriteCost)*seq, dies*prog/native.Seconds(), ch*p.ChannelRate),
		SteadyWA:       GreedyWriteAmplificationBlock(float64(g.slots())/float64(g.units), g.unitsPerBlock),
	}
	return f
}
