package ssd

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Interface is the host interface protocol.
type Interface uint8

const (
	// SATA is Serial ATA with native command queueing: one queue of at
	// most 32 commands, a half-duplex link.
	SATA Interface = iota
	// NVMe is NVM Express over PCIe: several submission queues, a
	// full-duplex link.
	NVMe
)

// String returns "sata" or "nvme".
func (i Interface) String() string {
	switch i {
	case SATA:
		return "sata"
	case NVMe:
		return "nvme"
	}
	return fmt.Sprintf("interface(%d)", uint8(i))
}

// ParseInterface maps "sata" or "nvme" (any case) to its interface.
func ParseInterface(s string) (Interface, error) {
	switch strings.ToLower(s) {
	case "sata":
		return SATA, nil
	case "nvme":
		return NVMe, nil
	}
	return 0, fmt.Errorf("ssd: unknown interface %q (want sata or nvme)", s)
}

// GCPolicy chooses the victim block of garbage collection.
type GCPolicy uint8

const (
	// Greedy picks the block with the fewest valid pages.
	Greedy GCPolicy = iota
	// CostBenefit picks the block maximising age x (1-u) / 2u
	// (Rosenblum & Ousterhout's LFS cleaner, Kawaguchi et al. 1995),
	// where u is the block's valid fraction and age the host writes
	// since the block was filled.
	CostBenefit
)

// String returns "greedy" or "cost-benefit".
func (g GCPolicy) String() string {
	switch g {
	case Greedy:
		return "greedy"
	case CostBenefit:
		return "cost-benefit"
	}
	return fmt.Sprintf("gcpolicy(%d)", uint8(g))
}

// ParseGCPolicy maps "greedy" or "cost-benefit" to its policy.
func ParseGCPolicy(s string) (GCPolicy, error) {
	switch strings.ToLower(s) {
	case "greedy":
		return Greedy, nil
	case "cost-benefit", "costbenefit":
		return CostBenefit, nil
	}
	return 0, fmt.Errorf("ssd: unknown GC policy %q (want greedy or cost-benefit)", s)
}

// Precondition is the state a drive is put in before a run, as users of
// real SSDs prepare them before measuring (SNIA PTS).
type Precondition uint8

const (
	// FreshOutOfBox is a new, never written drive: every block erased.
	FreshOutOfBox Precondition = iota
	// Fill writes every logical page once, sequentially.
	Fill
	// Steady fills the drive, then overwrites uniformly random pages
	// until write amplification settles (changes by under 1% between
	// rounds of an eighth of the capacity).
	Steady
)

// String returns "none", "fill" or "steady".
func (p Precondition) String() string {
	switch p {
	case FreshOutOfBox:
		return "none"
	case Fill:
		return "fill"
	case Steady:
		return "steady"
	}
	return fmt.Sprintf("precondition(%d)", uint8(p))
}

// ParsePrecondition maps "none", "fill" or "steady" to its state.
func ParsePrecondition(s string) (Precondition, error) {
	switch strings.ToLower(s) {
	case "none", "", "fob", "fresh":
		return FreshOutOfBox, nil
	case "fill":
		return Fill, nil
	case "steady":
		return Steady, nil
	}
	return 0, fmt.Errorf("ssd: unknown precondition %q (want none, fill or steady)", s)
}

// Params describes one SSD. Sizes are bytes, rates bytes per second,
// times time.Duration. FillDefaults fills zero fields that have a
// default; Validate reports every impossible field at once.
type Params struct {
	// Name labels the model (a preset name).
	Name string

	// Capacity is the user-addressable size in bytes (the data sheet's
	// capacity, 10^9 bytes per GB). Required.
	Capacity int64
	// SectorSize is the logical block size in bytes: 512 (default) or
	// 4096.
	SectorSize int

	// Interface is SATA or NVMe.
	Interface Interface
	// QueueDepth is the number of commands the drive accepts at once:
	// NCQ's 32 for SATA (at most MaxSATAQueueDepth), queues x depth for
	// NVMe (at most MaxQueueDepth). Requests beyond it wait in the
	// host's queue. Default 32.
	QueueDepth int
	// LinkRate is the payload rate of the host link in bytes/s (SATA 3
	// Gb/s: 300e6 raw after 8b/10b; PCIe 3.0 x4: 3.94e9 raw). Required.
	LinkRate float64
	// LinkCommandTime is the link time of one command's protocol
	// exchange besides its data (FIS or TLP round trips), serialized on
	// the link.
	LinkCommandTime time.Duration
	// CommandLatency is a fixed firmware latency added to every command
	// that does not occupy the controller (pipelined).
	CommandLatency time.Duration
	// ReadCost, WriteCost and TrimCost are the controller's processing
	// time per read, write and trim command, serialized on the
	// controller (the mapping lookup or update, scheduling). A write's
	// cost is paid after it enters the write buffer, before its pages go
	// to the dies.
	ReadCost, WriteCost, TrimCost time.Duration

	// WriteBuffer is the DRAM (or SRAM) holding written data before it
	// is programmed, in bytes; 0 turns the write cache off (every write
	// completes once programmed, as with FUA).
	WriteBuffer int64
	// PowerLossProtection (capacitors) makes the write buffer durable:
	// a flush completes at once and a power loss loses nothing.
	PowerLossProtection bool

	// Channels, WaysPerChannel (chips on a channel), DiesPerChip and
	// PlanesPerDie give the flash array: Channels x WaysPerChannel x
	// DiesPerChip dies, each with PlanesPerDie planes programmed
	// together (a multi-plane program writes one page per plane).
	Channels, WaysPerChannel, DiesPerChip, PlanesPerDie int
	// PageSize is the flash page in bytes: a multiple of MapUnit.
	PageSize int
	// PagesPerBlock is the pages of one erase block (per plane).
	PagesPerBlock int
	// ReadTime is the array read time of one page (tR).
	ReadTime time.Duration
	// ProgramTime is the program time of one (multi-plane) page (tPROG);
	// with ProgramTimeSlow set, the time of the fast (LSB) pages.
	ProgramTime time.Duration
	// ProgramTimeSlow, when set, is the program time of the slow (MSB)
	// pages of MLC flash: pages alternate fast and slow.
	ProgramTimeSlow time.Duration
	// EraseTime is the erase time of one block (tBERS).
	EraseTime time.Duration
	// ChannelRate is one channel's transfer rate in bytes/s.
	ChannelRate float64

	// MapUnit is the mapping granularity in bytes (default 4096): the
	// FTL maps logical units of this size to physical slots of a page.
	MapUnit int
	// OverProvisioning is the spare flash as a fraction of the user
	// capacity: physical = Capacity x (1 + OverProvisioning). 0.0737 is
	// the usual "7%" (GiB of flash sold as GB). 0 to 0.9.
	OverProvisioning float64
	// GC is the victim policy (Greedy by default).
	GC GCPolicy
	// GCLowBlocks is the foreground trigger: a write that finds its die
	// with this many free blocks or fewer first collects garbage until it
	// has more. Default 2, at least 1.
	GCLowBlocks int
	// GCBackgroundBlocks is the background trigger: while the drive is
	// idle, a die with fewer free blocks collects garbage. Default
	// 2 x GCLowBlocks + 2; 0 after defaults means none.
	GCBackgroundBlocks int

	// SLCCache is the pseudo-SLC write cache in bytes (0: none): writes
	// are programmed in SLC mode (SLCProgramTime) while it has room;
	// past it they program at ProgramTime (the cliff). Idle time moves
	// SLC data to the native cells and frees the cache.
	SLCCache int64
	// SLCProgramTime is the program time of one page in SLC mode.
	SLCProgramTime time.Duration

	// UBER is the data sheet's uncorrectable bit error rate: sectors
	// that cannot be read back per bit read (a sheet's "1 sector per
	// 10^17 bits read" is 1e-17); 0 when not known. Reliability
	// estimates read it; the simulation does not inject errors from it
	// (package faults does).
	UBER float64
	// MTBFHours is the data sheet's mean time between failures, in
	// hours (0: not known); its annualized failure rate is 8,766 hours
	// over it, for reliability estimates.
	MTBFHours float64
}

// FillDefaults fills zero fields that have a default.
func (p *Params) FillDefaults() {
	if p.SectorSize == 0 {
		p.SectorSize = 512
	}
	if p.QueueDepth == 0 {
		p.QueueDepth = 32
	}
	if p.MapUnit == 0 {
		p.MapUnit = 4096
	}
	if p.PlanesPerDie == 0 {
		p.PlanesPerDie = 1
	}
	if p.DiesPerChip == 0 {
		p.DiesPerChip = 1
	}
	if p.GCLowBlocks == 0 {
		p.GCLowBlocks = 2
	}
	if p.GCBackgroundBlocks == 0 {
		p.GCBackgroundBlocks = 2*p.GCLowBlocks + 2
	}
	if p.TrimCost == 0 {
		p.TrimCost = p.ReadCost
	}
}

// Dies returns the number of dies.
func (p *Params) Dies() int { return p.Channels * p.WaysPerChannel * p.DiesPerChip }

// Queue depth bounds: SATA's native command queueing has 32 tags; an
// NVMe queue holds up to 65,536 entries, one of which stays empty.
const (
	// MaxSATAQueueDepth bounds QueueDepth over SATA.
	MaxSATAQueueDepth = 32
	// MaxQueueDepth bounds QueueDepth over NVMe.
	MaxQueueDepth = 65535
)

// MaxQueueDepth returns the deepest queue the interface allows:
// MaxSATAQueueDepth for SATA, MaxQueueDepth for NVMe.
func (i Interface) MaxQueueDepth() int {
	if i == SATA {
		return MaxSATAQueueDepth
	}
	return MaxQueueDepth
}

// maxDies bounds the flash array, so no allocation is sized by an
// unchecked field.
const maxDies = 4096

// Validate reports every impossible field of p (after FillDefaults on a
// copy) at once, joined with errors.Join. Each message names the field
// and its value, e.g. "ssd: Params.Channels: must be positive, got 0".
func (p Params) Validate() error {
	p.FillDefaults()
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, fmt.Errorf("ssd: Params.%s: "+format, append([]any{field}, args...)...))
	}
	p.checkHost(bad)
	arrayOK := p.checkArray(bad)
	p.checkTimes(bad)
	if arrayOK {
		p.checkFTL(bad)
	}
	return errors.Join(errs...)
}

type complain func(field, format string, args ...any)

func (p *Params) checkHost(bad complain) {
	if p.SectorSize != 512 && p.SectorSize != 4096 {
		bad("SectorSize", "must be 512 or 4096, got %d", p.SectorSize)
	}
	if p.Capacity <= 0 {
		bad("Capacity", "must be positive, got %d", p.Capacity)
	} else if p.SectorSize > 0 && p.Capacity%int64(p.SectorSize) != 0 {
		bad("Capacity", "%d is not a multiple of SectorSize %d", p.Capacity, p.SectorSize)
	}
	switch p.Interface {
	case SATA:
		if p.QueueDepth < 1 || p.QueueDepth > MaxSATAQueueDepth {
			bad("QueueDepth", "must be 1 to %d for SATA NCQ, got %d", MaxSATAQueueDepth, p.QueueDepth)
		}
	case NVMe:
		if p.QueueDepth < 1 || p.QueueDepth > MaxQueueDepth {
			bad("QueueDepth", "must be 1 to %d, got %d", MaxQueueDepth, p.QueueDepth)
		}
	default:
		bad("Interface", "unknown interface %d", uint8(p.Interface))
	}
	if !(p.LinkRate > 0) || p.LinkRate > 1e12 {
		bad("LinkRate", "must be positive bytes/s (at most 1e12), got %g", p.LinkRate)
	}
	if p.WriteBuffer < 0 {
		bad("WriteBuffer", "must not be negative, got %d", p.WriteBuffer)
	} else if p.WriteBuffer > 0 && p.MapUnit > 0 && p.WriteBuffer < int64(p.MapUnit) {
		bad("WriteBuffer", "%d bytes is smaller than one MapUnit (%d)", p.WriteBuffer, p.MapUnit)
	}
}

func (p *Params) checkArray(bad complain) bool {
	ok := true
	for _, f := range []struct {
		name string
		v    int
	}{{"Channels", p.Channels}, {"WaysPerChannel", p.WaysPerChannel}, {"DiesPerChip", p.DiesPerChip}, {"PlanesPerDie", p.PlanesPerDie}} {
		if f.v < 1 || f.v > maxDies {
			bad(f.name, "must be 1 to %d, got %d", maxDies, f.v)
			ok = false
		}
	}
	if ok && p.Dies() > maxDies {
		bad("Channels", "Channels x WaysPerChannel x DiesPerChip = %d dies, at most %d", p.Dies(), maxDies)
		ok = false
	}
	if p.MapUnit <= 0 || p.MapUnit%p.SectorSize != 0 || p.MapUnit > 1<<20 {
		bad("MapUnit", "must be a positive multiple of SectorSize %d up to 1 MiB, got %d", p.SectorSize, p.MapUnit)
		ok = false
	}
	if p.PageSize <= 0 || p.PageSize > 1<<20 || (p.MapUnit > 0 && p.PageSize%p.MapUnit != 0) || p.PageSize%p.SectorSize != 0 {
		bad("PageSize", "must be a positive multiple of the sector (%d) and of MapUnit (%d) up to 1 MiB, got %d", p.SectorSize, p.MapUnit, p.PageSize)
		ok = false
	}
	if p.PagesPerBlock < 1 || p.PagesPerBlock > 4096 {
		bad("PagesPerBlock", "must be 1 to 4096, got %d", p.PagesPerBlock)
		ok = false
	}
	if !(p.ChannelRate > 0) || p.ChannelRate > 1e12 {
		bad("ChannelRate", "must be positive bytes/s (at most 1e12), got %g", p.ChannelRate)
	}
	return ok
}

func (p *Params) checkTimes(bad complain) {
	pos := []struct {
		name string
		v    time.Duration
	}{{"ReadTime", p.ReadTime}, {"ProgramTime", p.ProgramTime}, {"EraseTime", p.EraseTime}}
	for _, f := range pos {
		if f.v <= 0 || f.v > time.Second {
			bad(f.name, "must be positive and at most 1s, got %v", f.v)
		}
	}
	nonneg := []struct {
		name string
		v    time.Duration
	}{{"LinkCommandTime", p.LinkCommandTime}, {"CommandLatency", p.CommandLatency}, {"ReadCost", p.ReadCost},
		{"WriteCost", p.WriteCost}, {"TrimCost", p.TrimCost}, {"ProgramTimeSlow", p.ProgramTimeSlow}, {"SLCProgramTime", p.SLCProgramTime}}
	for _, f := range nonneg {
		if f.v < 0 || f.v > time.Second {
			bad(f.name, "must be 0 to 1s, got %v", f.v)
		}
	}
}

func (p *Params) checkFTL(bad complain) {
	if !(p.UBER >= 0 && p.UBER < 1) {
		bad("UBER", "must be 0 (unknown) or a rate per bit read below 1, got %g", p.UBER)
	}
	if !(p.MTBFHours >= 0 && p.MTBFHours <= 1e12) {
		bad("MTBFHours", "must be 0 (unknown) or positive hours (at most 1e12), got %g", p.MTBFHours)
	}
	if !(p.OverProvisioning >= 0 && p.OverProvisioning <= 0.9) {
		bad("OverProvisioning", "must be 0 to 0.9 (a fraction of the capacity), got %g", p.OverProvisioning)
		return
	}
	switch p.GC {
	case Greedy, CostBenefit:
	default:
		bad("GC", "unknown policy %d", uint8(p.GC))
	}
	if p.GCLowBlocks < 1 {
		bad("GCLowBlocks", "must be at least 1, got %d", p.GCLowBlocks)
	}
	if p.GCBackgroundBlocks < 0 {
		bad("GCBackgroundBlocks", "must not be negative, got %d", p.GCBackgroundBlocks)
	}
	if p.SLCCache < 0 || p.SLCCache > p.Capacity {
		bad("SLCCache", "must be 0 to Capacity (%d), got %d", p.Capacity, p.SLCCache)
	}
	if p.SLCCache > 0 && p.SLCProgramTime <= 0 {
		bad("SLCProgramTime", "must be positive with an SLCCache, got %v", p.SLCProgramTime)
	}
	if p.Capacity <= 0 || p.Capacity > 1<<50 {
		if p.Capacity > 1<<50 {
			bad("Capacity", "at most 1 PiB, got %d", p.Capacity)
		}
		return
	}
	g := newGeometry(p)
	if g.units >= 1<<31 || g.slots() >= 1<<31 {
		bad("Capacity", "%d bytes is %d map units: at most 2^31 (raise MapUnit)", p.Capacity, g.units)
		return
	}
	need := g.unitsPerDie/int64(g.unitsPerBlock) + 1 + int64(p.GCLowBlocks) + 2
	if int64(g.blocksPerDie) < need {
		bad("OverProvisioning", "%g leaves %d blocks per die; garbage collection needs at least %d (user data, GCLowBlocks %d, two open blocks): raise it or shrink PagesPerBlock",
			p.OverProvisioning, g.blocksPerDie, need, p.GCLowBlocks)
	}
}
