package cache

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Mode says how the cache treats writes.
type Mode uint8

const (
	// WriteBack acknowledges a write once its data is in cache memory and
	// writes it to the device below later (destage).
	WriteBack Mode = iota
	// WriteThrough sends every write to the device below and acknowledges
	// it when the device does; the cache keeps a clean copy for reads.
	WriteThrough
	// Off passes every request through unchanged: no caching at all.
	Off
	// WriteAround sends every write to the device below, acknowledges it
	// when the device does and keeps no copy (a cached copy of its range
	// is dropped); reads are cached. Data written once and not read soon
	// does not push read data out.
	WriteAround
	numModes
)

// Policy says when a write-back cache destages.
type Policy uint8

const (
	// Watermark starts destaging when dirty data reaches HighWater and
	// keeps going until it falls to LowWater.
	Watermark Policy = iota
	// Interval destages the dirty data written Interval or longer ago,
	// oldest first, so that data is "grouped and written at defined
	// intervals" and no byte stays dirty much longer than Interval.
	Interval
	// Idle destages everything once no host request has arrived for
	// Idle, and stops when one arrives.
	Idle
	// Linear destages with a number of outstanding writes that grows
	// linearly with dirty occupancy from none at LowWater to
	// MaxOutstandingDestages at HighWater (linear threshold scheduling,
	// Varma and Jacobson 1998; WOW uses 80% and 90%).
	Linear
	numPolicies
)

// Order says which dirty data a destage takes first.
type Order uint8

const (
	// OrderLBA sweeps the address space upwards and wraps (C-SCAN).
	OrderLBA Order = iota
	// OrderLRW takes the least recently written extent first.
	OrderLRW
	// OrderWOW sweeps like OrderLBA but skips, once, extents written
	// again since the sweep last passed them (a recency bit per extent,
	// after Gill and Modha's Wise Ordering for Writes, FAST 2005).
	OrderWOW
	numOrders
)

// Align says whether destages are shaped to the array's stripes.
type Align uint8

const (
	// AlignNone destages dirty extents as they lie, up to
	// MaxDestageBytes.
	AlignNone Align = iota
	// AlignStripe destages whole stripes when the dirty data covers them
	// and cuts other destages at stripe boundaries, so that a RAID 5
	// below can write full stripes without reading.
	AlignStripe
	numAligns
)

var (
	modeNames   = []string{"write-back", "write-through", "off", "write-around"}
	policyNames = []string{"wm", "interval", "idle", "linear"}
	orderNames  = []string{"lba", "lrw", "wow"}
	alignNames  = []string{"none", "stripe"}
)

func name(names []string, v uint8, kind string) string {
	if int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", kind, v)
}

func parse[T ~uint8](names []string, s, kind string) (T, error) {
	for i, n := range names {
		if strings.EqualFold(s, n) {
			return T(i), nil
		}
	}
	return 0, fmt.Errorf("cache: unknown %s %q (want one of %s)", kind, s, strings.Join(names, ", "))
}

// String returns "write-back", "write-through", "off" or
// "write-around".
func (m Mode) String() string { return name(modeNames, uint8(m), "mode") }

// String returns "wm", "interval", "idle" or "linear", the names the
// CLI's --destage flag takes.
func (p Policy) String() string { return name(policyNames, uint8(p), "policy") }

// String returns "lba", "lrw" or "wow".
func (o Order) String() string { return name(orderNames, uint8(o), "order") }

// String returns "none" or "stripe".
func (a Align) String() string { return name(alignNames, uint8(a), "align") }

// ParseMode parses "write-back", "write-through", "off" or
// "write-around" (any case, with or without the dash, as bcache spells
// them: "writeback").
func ParseMode(s string) (Mode, error) {
	for i, n := range modeNames {
		if strings.EqualFold(s, strings.ReplaceAll(n, "-", "")) {
			return Mode(i), nil
		}
	}
	return parse[Mode](modeNames, s, "mode")
}

// ParsePolicy parses "wm", "interval", "idle" or "linear" (any case).
func ParsePolicy(s string) (Policy, error) {
	if strings.EqualFold(s, "watermark") {
		return Watermark, nil
	}
	return parse[Policy](policyNames, s, "destage policy")
}

// ParseOrder parses "lba", "lrw" or "wow" (any case).
func ParseOrder(s string) (Order, error) { return parse[Order](orderNames, s, "destage order") }

// ParseAlign parses "none" or "stripe" (any case).
func ParseAlign(s string) (Align, error) { return parse[Align](alignNames, s, "alignment") }

// MarshalText returns the mode's name.
func (m Mode) MarshalText() ([]byte, error) { return marshal(m < numModes, m.String()) }

// UnmarshalText parses a mode name.
func (m *Mode) UnmarshalText(b []byte) error {
	x, err := ParseMode(string(b))
	if err == nil {
		*m = x
	}
	return err
}

// MarshalText returns the policy's name.
func (p Policy) MarshalText() ([]byte, error) { return marshal(p < numPolicies, p.String()) }

// UnmarshalText parses a policy name.
func (p *Policy) UnmarshalText(b []byte) error {
	x, err := ParsePolicy(string(b))
	if err == nil {
		*p = x
	}
	return err
}

// MarshalText returns the order's name.
func (o Order) MarshalText() ([]byte, error) { return marshal(o < numOrders, o.String()) }

// UnmarshalText parses an order name.
func (o *Order) UnmarshalText(b []byte) error {
	x, err := ParseOrder(string(b))
	if err == nil {
		*o = x
	}
	return err
}

// MarshalText returns the alignment's name.
func (a Align) MarshalText() ([]byte, error) { return marshal(a < numAligns, a.String()) }

// UnmarshalText parses an alignment name.
func (a *Align) UnmarshalText(b []byte) error {
	x, err := ParseAlign(string(b))
	if err == nil {
		*a = x
	}
	return err
}

func marshal(ok bool, s string) ([]byte, error) {
	if !ok {
		return nil, fmt.Errorf("cache: cannot marshal %s", s)
	}
	return []byte(s), nil
}

// Defaults that WithDefaults fills in. The figures in DRIVES.md's
// write-back notes: dm-writecache's watermarks (50% high, 45% low) and
// autocommit time (1 s), WOW's ~20 outstanding destages.
const (
	DefaultSize            = 64 << 20
	DefaultBlock           = 4096
	DefaultHighWater       = 0.50
	DefaultLowWater        = 0.45
	DefaultInterval        = time.Second
	DefaultIdle            = 100 * time.Millisecond
	DefaultMaxDestageBytes = 1 << 20
	DefaultMaxOutstanding  = 20
	DefaultHitLatency      = 2 * time.Microsecond
	DefaultCopyRate        = 2_000_000_000
	// DefaultSequentialCutoff is bcache's sequential_cutoff, 4 MiB: the
	// default for a cache whose data is on a device.
	DefaultSequentialCutoff = 4 << 20
)

// Config describes a Cache. It is plain data: fill it and call New,
// which applies WithDefaults and Validate. Zero fields that have a
// default get it.
type Config struct {
	// Size is the cache memory in bytes, shared by dirty and clean data
	// (default 64 MiB). It must hold at least one Block.
	Size int64
	// Block is the unit of cache memory in bytes (default 4096): every
	// extent is charged the whole blocks it touches. It must be a
	// multiple of the sector size of the device below.
	Block int64
	// Mode is WriteBack (the zero value), WriteThrough, WriteAround or
	// Off.
	Mode Mode
	// SequentialCutoff, in bytes, makes a sequential stream bypass the
	// cache once it has run this long (bcache's sequential_cutoff): its
	// reads are still served from what the cache holds but what they
	// read below is not kept, and its writes go below as in WriteAround.
	// A stream is requests each starting where the one before ended,
	// reads and writes alike. Zero means DefaultSequentialCutoff (4 MiB)
	// for a cache on a device (NewOnDevice) and none for one in memory;
	// negative means none.
	SequentialCutoff int64
	// NoReadCache turns off clean read caching: reads are served from
	// dirty data only and nothing read or destaged is kept. The default
	// keeps clean data, evicted in the order of Replacement.
	NoReadCache bool
	// Replacement is the policy that evicts clean data for room: LRU
	// (the zero value), FIFO, CLOCK, TwoQ, ARC, S3FIFO or SIEVE. Dirty
	// data is never evicted; it becomes clean data when its destage
	// completes.
	Replacement Replacement
	// ReadAhead, in bytes (a multiple of the sector size), is how far
	// the cache reads ahead of a sequential stream (a read that continues
	// the previous one), in the background, keeping the data clean. Zero
	// (the default) reads no more than asked.
	ReadAhead int64
	// HitLatency is the fixed time a request served from cache memory
	// takes (controller or driver overhead; default 2µs). Writes absorbed
	// in write-back mode pay it too.
	HitLatency time.Duration
	// CopyRate is the cache memory's copy bandwidth in bytes per second
	// (default 2e9, 2 GB/s): every hit and absorbed write copies its
	// bytes on one shared engine, in turn, taking length/CopyRate of it.
	CopyRate int64

	// Policy says when to destage: Watermark (the default), Interval,
	// Idle or Linear. Every policy also destages when a flush is pending
	// or a write waits for room, and Interval and Idle also drain above
	// HighWater.
	Policy Policy
	// MaxDirty bounds the cache memory dirty data may take, in bytes,
	// destages in flight included; a write that would exceed it waits
	// for destages, while the rest of Size still caches clean data. It
	// bounds what a crash of a volatile cache loses. Zero means Size.
	MaxDirty int64
	// HighWater and LowWater are fractions of MaxDirty in (0, 1],
	// LowWater below HighWater (defaults 0.50 and 0.45, dm-writecache's).
	// Dirty data not yet being destaged is measured against them.
	HighWater, LowWater float64
	// Interval is the age at which the Interval policy destages dirty
	// data (default 1 s, dm-writecache's autocommit time); the age of
	// an extent is that of its oldest byte.
	Interval time.Duration
	// Wakeup, when positive, makes the Interval policy look for aged
	// data only at multiples of Wakeup from time zero, as Linux's
	// flusher wakes every dirty_writeback_centisecs: data turns due
	// between Interval and Interval+Wakeup after it was written. Zero
	// wakes exactly when data turns Interval old.
	Wakeup time.Duration
	// Idle is the quiet period after which the Idle policy destages
	// (default 100ms).
	Idle time.Duration
	// Order is which dirty data goes first: OrderLBA (C-SCAN, the
	// default), OrderLRW or OrderWOW.
	Order Order
	// MaxDestageBytes is the largest destage write in bytes, a multiple of
	// the sector size (default 1 MiB). With AlignStripe a destage may be
	// one full stripe even when the stripe is larger.
	MaxDestageBytes int64
	// MaxOutstandingDestages bounds the destage writes in flight at once
	// (default 20).
	MaxOutstandingDestages int

	// Align is AlignNone (the default) or AlignStripe, which needs the
	// stripe geometry: FullStripe, or StripeUnit and DataMembers, or a
	// device below that implements Striped (New asks it).
	Align Align
	// StripeUnit is the bytes one member holds per stripe (the chunk).
	StripeUnit int64
	// DataMembers is the number of members holding data in each stripe
	// (RAID 5 over n drives: n-1; RAID 0: n).
	DataMembers int
	// FullStripe is the data bytes of one stripe. Zero means
	// StripeUnit*DataMembers; when both are given they must agree.
	FullStripe int64

	// NonVolatile makes the cache memory survive a crash (battery-backed
	// or flash-backed): Crash loses nothing.
	NonVolatile bool
	// NVIgnoresFlush lets a NonVolatile cache acknowledge FLUSH at once
	// instead of destaging and flushing the device below. The default is
	// to honor flushes.
	NVIgnoresFlush bool
}

// WithDefaults returns a copy of c with zero fields that have a default
// filled in.
func (c Config) WithDefaults() Config {
	if c.Size == 0 {
		c.Size = DefaultSize
	}
	if c.Block == 0 {
		c.Block = DefaultBlock
	}
	if c.HitLatency == 0 {
		c.HitLatency = DefaultHitLatency
	}
	if c.CopyRate == 0 {
		c.CopyRate = DefaultCopyRate
	}
	if c.MaxDirty == 0 {
		c.MaxDirty = c.Size
	}
	if c.HighWater == 0 && c.LowWater == 0 {
		c.HighWater, c.LowWater = DefaultHighWater, DefaultLowWater
	}
	if c.Interval == 0 {
		c.Interval = DefaultInterval
	}
	if c.Idle == 0 {
		c.Idle = DefaultIdle
	}
	if c.MaxDestageBytes == 0 {
		c.MaxDestageBytes = DefaultMaxDestageBytes
	}
	if c.MaxOutstandingDestages == 0 {
		c.MaxOutstandingDestages = DefaultMaxOutstanding
	}
	if c.Align == AlignStripe && c.FullStripe == 0 {
		c.FullStripe = c.StripeUnit * int64(c.DataMembers)
	}
	return c
}

// StripeBytes returns the full-stripe size destages align to, or zero
// when they are not aligned.
func (c Config) StripeBytes() int64 {
	if c.Align != AlignStripe {
		return 0
	}
	if c.FullStripe > 0 {
		return c.FullStripe
	}
	return c.StripeUnit * int64(c.DataMembers)
}

// Validate reports every problem with c at once, naming the field and
// its value. It does not apply defaults: validate c.WithDefaults() to
// check what New would use.
func (c Config) Validate() error {
	var p problems
	c.validateMemory(&p)
	c.validateDestage(&p)
	c.validateAlign(&p)
	if c.NVIgnoresFlush && !c.NonVolatile {
		p.add("NVIgnoresFlush needs NonVolatile")
	}
	return errors.Join(p...)
}

// problems collects Validate's errors.
type problems []error

// add records a problem with a field: format starts with its name.
func (p *problems) add(format string, args ...any) {
	*p = append(*p, fmt.Errorf("cache: Config."+format, args...))
}

// validateMemory checks the memory and its service: sizes, the mode,
// read-ahead and hit times.
func (c Config) validateMemory(p *problems) {
	if c.Size <= 0 {
		p.add("Size must be positive, got %d bytes", c.Size)
	}
	if c.Block <= 0 {
		p.add("Block must be positive, got %d bytes", c.Block)
	} else if c.Size > 0 && c.Size < c.Block {
		p.add("Size %d bytes is smaller than Block %d bytes", c.Size, c.Block)
	}
	if c.MaxDirty < 0 || c.MaxDirty > c.Size {
		p.add("MaxDirty must be in 0..Size (%d bytes), got %d bytes", c.Size, c.MaxDirty)
	} else if c.MaxDirty > 0 && c.Block > 0 && c.MaxDirty < c.Block {
		p.add("MaxDirty %d bytes is smaller than Block %d bytes", c.MaxDirty, c.Block)
	}
	if c.Mode >= numModes {
		p.add("Mode %d is unknown", uint8(c.Mode))
	}
	if c.Replacement >= numReplacements {
		p.add("Replacement %d is unknown", uint8(c.Replacement))
	}
	if c.ReadAhead < 0 {
		p.add("ReadAhead must not be negative, got %d bytes", c.ReadAhead)
	}
	if c.HitLatency < 0 {
		p.add("HitLatency must not be negative, got %v", c.HitLatency)
	}
	if c.CopyRate < 0 {
		p.add("CopyRate must not be negative, got %d bytes/s", c.CopyRate)
	}
}

// validateDestage checks the destage policy, its marks and timers, the
// order and the size and number of destages.
func (c Config) validateDestage(p *problems) {
	if c.Policy >= numPolicies {
		p.add("Policy %d is unknown", uint8(c.Policy))
	}
	if !(c.HighWater > 0 && c.HighWater <= 1) {
		p.add("HighWater must be in (0, 1], got %v", c.HighWater)
	}
	if !(c.LowWater >= 0 && c.LowWater < 1) {
		p.add("LowWater must be in [0, 1), got %v", c.LowWater)
	}
	if c.LowWater >= c.HighWater {
		p.add("LowWater %v must be below HighWater %v", c.LowWater, c.HighWater)
	}
	if c.Interval <= 0 {
		p.add("Interval must be positive, got %v", c.Interval)
	}
	if c.Idle <= 0 {
		p.add("Idle must be positive, got %v", c.Idle)
	}
	if c.Wakeup < 0 {
		p.add("Wakeup must not be negative, got %v", c.Wakeup)
	}
	if c.Order >= numOrders {
		p.add("Order %d is unknown", uint8(c.Order))
	}
	if c.MaxDestageBytes <= 0 {
		p.add("MaxDestageBytes must be positive, got %d bytes", c.MaxDestageBytes)
	}
	if c.MaxOutstandingDestages <= 0 {
		p.add("MaxOutstandingDestages must be positive, got %d", c.MaxOutstandingDestages)
	}
}

// validateAlign checks the alignment and the stripe geometry it needs.
func (c Config) validateAlign(p *problems) {
	switch c.Align {
	case AlignNone:
		return
	case AlignStripe:
	default:
		p.add("Align %d is unknown", uint8(c.Align))
		return
	}
	if c.StripeUnit < 0 {
		p.add("StripeUnit must not be negative, got %d bytes", c.StripeUnit)
	}
	if c.DataMembers < 0 {
		p.add("DataMembers must not be negative, got %d", c.DataMembers)
	}
	if c.FullStripe < 0 {
		p.add("FullStripe must not be negative, got %d bytes", c.FullStripe)
	}
	prod := c.StripeUnit * int64(c.DataMembers)
	switch {
	case c.FullStripe <= 0 && prod <= 0:
		p.add("Align stripe needs FullStripe, or StripeUnit and DataMembers, got %d, %d and %d", c.FullStripe, c.StripeUnit, c.DataMembers)
	case c.FullStripe > 0 && prod > 0 && c.FullStripe != prod:
		p.add("FullStripe %d bytes differs from StripeUnit %d x DataMembers %d", c.FullStripe, c.StripeUnit, c.DataMembers)
	}
}
