package host

import (
	"errors"
	"fmt"
	"time"
)

// Params describes a host: its CPU and what each kind of work costs on
// one core, its memory and the page cache the kernel keeps in it, and
// optionally the network link between a benchmark client and this host
// (a NAS). It is plain data: fill it (or start from a [Preset]) and call
// [New], which applies WithDefaults and Validate. Every cost is the time
// one core spends; requests wait for a free core.
type Params struct {
	// Name labels the host in reports ("nas-1gb").
	Name string

	// Cores is the number of CPU cores that serve requests, 1..1024.
	Cores int
	// SyscallCost is the core time of one request at the file layer: the
	// system call, the file system and page cache lookup (Linux read(2)
	// or write(2) of a cached page: a few µs on a 2007 desktop).
	SyscallCost time.Duration
	// CopyRate is how fast one core copies between a program's buffer
	// and the page cache, bytes per second (memcpy bandwidth); buffered
	// reads and writes pay Length/CopyRate. Zero makes the copy free.
	CopyRate int64
	// CommandCost is the core time of one command to a drive: the
	// driver building it and handling its completion interrupt (AHCI or
	// a vendor driver). Charged per command each drive receives, so RAID
	// and cache destages pay it for every member command.
	CommandCost time.Duration
	// DriverPerKiB is the core time per KiB a drive command moves beyond
	// DMA set-up (programmed I/O or bounce buffering); zero for a
	// bus-mastering controller.
	DriverPerKiB time.Duration
	// XORRate is software RAID's parity speed on one core, in bytes of
	// data per second (Linux md prints it at boot: "raid5: using
	// function ... (N MB/sec)"). Zero means no host parity work (no
	// parity RAID, or a hardware controller computes it).
	XORRate int64
	// StripeCachePerPage is the core time software RAID 4/5/6 spends per
	// 4 KiB page it passes through its stripe cache (Linux md's
	// handle_stripe, and the copy between the stripe cache and the
	// request); writes pay it, and reads unless RAIDReadBypass. Zero
	// for hardware RAID.
	StripeCachePerPage time.Duration
	// RAIDReadBypass says whether software RAID reads a healthy array's
	// data chunks straight from the members, bypassing the stripe cache,
	// so that reads pay no StripeCachePerPage (only the members' driver
	// commands): Linux md's chunk_aligned_read, since 2.6.20 (the block
	// layer splits reads at chunk boundaries, so every read of a
	// non-degraded array qualifies). False: every page read passes the
	// stripe cache, as in md before 2.6.20 (and writes always do).
	RAIDReadBypass bool
	// RAIDReadAheadStripes is how many whole stripes of a software
	// parity array the read-ahead window must cover: Linux md's raid5
	// run() raises the array's read-ahead to 2 x data members x chunk
	// when it is smaller (2 for md; 0 leaves PageCache.ReadAhead alone,
	// as on a host whose RAID driver does not, e.g. Windows' chipset
	// RAID). See [Params.ReadAheadFor].
	RAIDReadAheadStripes int
	// VolumeCacheLookup and VolumeCacheCopyRate are the cost of a volume
	// write-back cache kept in host memory by the RAID driver (Intel
	// Matrix Storage's "Volume Write Back Cache"): core time per request
	// to look it up, and its memory copy rate in bytes per second (zero:
	// free). Charged only when the stack has such a cache.
	VolumeCacheLookup   time.Duration
	VolumeCacheCopyRate int64

	// RAM is the host's memory in bytes.
	RAM int64
	// Reserve is the memory, in bytes, the kernel and programs keep for
	// themselves; the page cache gets RAM - Reserve unless PageCache.Size
	// says otherwise.
	Reserve int64
	// PageCache configures the OS page cache.
	PageCache PageCache
	// Direct makes every request bypass the page cache, as O_DIRECT does
	// on Linux (and IOMeter's and HD Tach's raw-device access on
	// Windows): it still pays the file layer and driver costs.
	Direct bool

	// Network, when set, puts a link between the benchmark client that
	// issues the requests and this host.
	Network *Link
}

// PageCache is the kernel's page cache, with Linux's knobs and defaults
// (Documentation/admin-guide/sysctl/vm.rst).
type PageCache struct {
	// Off runs without a page cache: every request goes to the storage,
	// as if opened with O_DIRECT.
	Off bool
	// Size overrides the page cache size, in bytes (a multiple of 4 KiB);
	// zero means RAM - Reserve.
	Size int64
	// DirtyRatio is vm.dirty_ratio as a fraction of the page cache
	// (default 0.20): a writer that would take dirty data past it waits
	// for writeback (balance_dirty_pages' throttling).
	DirtyRatio float64
	// DirtyBackgroundRatio is vm.dirty_background_ratio as a fraction of
	// the page cache (default 0.10): above it the flusher writes dirty
	// data back in the background. It must be below DirtyRatio.
	DirtyBackgroundRatio float64
	// DirtyExpire is vm.dirty_expire_centisecs (default 30 s): data dirty
	// that long is written back at the flusher's next wake-up.
	DirtyExpire time.Duration
	// WritebackInterval is vm.dirty_writeback_centisecs (default 5 s):
	// how often the flusher wakes to look for expired data.
	WritebackInterval time.Duration
	// ReadAhead is the file read-ahead window in bytes, a multiple of
	// 4 KiB (default 128 KiB, Linux's read_ahead_kb).
	ReadAhead int64
	// MaxWriteback is the largest write the flusher sends down, in bytes,
	// a multiple of 4 KiB (default 512 KiB, the block layer's
	// max_sectors_kb for SATA drives of the time).
	MaxWriteback int64
	// MaxInFlight bounds the writeback writes in flight at once
	// (default 32: one NCQ queue's worth; inferred, the kernel's
	// nr_requests of 128 is rarely reached by writeback alone).
	MaxInFlight int
}

// Link is a network link between the benchmark client and the host:
// full duplex, each direction a first-come first-served wire.
type Link struct {
	// Rate is the payload bytes per second one direction carries: for
	// gigabit Ethernet with TCP, 125e6 x 1448/1538 = 117.7e6 (1448 bytes
	// of payload in each 1538-byte frame on the wire).
	Rate int64
	// Latency is the one-way delay of a message beyond its time on the
	// wire (switch, NICs, interrupt moderation), e.g. 50µs.
	Latency time.Duration
	// Overhead is the protocol bytes of each request and each reply
	// (SMB or NFS header and RPC framing), e.g. 100.
	Overhead int64
	// CPUPerRequest and CPUPerKiB are the host's core time for the
	// protocol server (smbd, nfsd) and its TCP stack: per request, and
	// per KiB carried either way.
	CPUPerRequest time.Duration
	CPUPerKiB     time.Duration
}

// Defaults that WithDefaults fills in (Linux's, DRIVES.md "Host and
// NAS").
const (
	DefaultDirtyRatio           = 0.20
	DefaultDirtyBackgroundRatio = 0.10
	DefaultDirtyExpire          = 30 * time.Second
	DefaultWritebackInterval    = 5 * time.Second
	DefaultReadAhead            = 128 << 10
	DefaultMaxWriteback         = 512 << 10
	DefaultMaxInFlight          = 32
	// PageSize is the page cache's unit, bytes.
	PageSize = 4096
	// MaxCores bounds Params.Cores.
	MaxCores = 1024
	// MaxRAM bounds Params.RAM and page cache sizes (16 TiB).
	MaxRAM = 16 << 40
)

// WithDefaults returns a copy of p with zero page cache fields filled
// with Linux's defaults and a zero Cores set to 1.
func (p Params) WithDefaults() Params {
	if p.Cores == 0 {
		p.Cores = 1
	}
	c := &p.PageCache
	if c.DirtyRatio == 0 {
		c.DirtyRatio = DefaultDirtyRatio
	}
	if c.DirtyBackgroundRatio == 0 {
		c.DirtyBackgroundRatio = DefaultDirtyBackgroundRatio
	}
	if c.DirtyExpire == 0 {
		c.DirtyExpire = DefaultDirtyExpire
	}
	if c.WritebackInterval == 0 {
		c.WritebackInterval = DefaultWritebackInterval
	}
	if c.ReadAhead == 0 {
		c.ReadAhead = DefaultReadAhead
	}
	if c.MaxWriteback == 0 {
		c.MaxWriteback = DefaultMaxWriteback
	}
	if c.MaxInFlight == 0 {
		c.MaxInFlight = DefaultMaxInFlight
	}
	return p
}

// PageCacheSize returns the bytes the page cache holds: PageCache.Size,
// else RAM - Reserve, rounded down to whole pages; zero when the page
// cache is off or Direct is set.
func (p Params) PageCacheSize() int64 {
	if p.PageCache.Off || p.Direct {
		return 0
	}
	s := p.PageCache.Size
	if s == 0 {
		s = p.RAM - p.Reserve
	}
	return s &^ (PageSize - 1)
}

// DirtyLimit returns the dirty bytes at which writers are throttled:
// DirtyRatio of the page cache, in whole pages.
func (p Params) DirtyLimit() int64 {
	return int64(p.PageCache.DirtyRatio*float64(p.PageCacheSize())) &^ (PageSize - 1)
}

// MaxRAIDReadAheadStripes bounds Params.RAIDReadAheadStripes.
const MaxRAIDReadAheadStripes = 64

// ReadAheadFor returns the read-ahead window, in bytes, of the page
// cache over st: PageCache.ReadAhead, raised for a software parity array
// to RAIDReadAheadStripes whole stripes (data members x stripe unit
// each) when that is larger, as Linux md does when it starts a RAID 4,
// 5 or 6 array (3 drives with 64 KiB chunks: 2 x 2 x 64 KiB = 256 KiB).
func (p Params) ReadAheadFor(st Storage) int64 {
	ra := p.PageCache.ReadAhead
	if st.Parity > 0 && p.RAIDReadAheadStripes > 0 {
		ra = max(ra, int64(p.RAIDReadAheadStripes)*int64(st.DataMembers)*st.StripeUnit)
	}
	return ra
}

// Validate reports every problem with p at once, each naming its field
// and value. It does not apply defaults: validate p.WithDefaults() to
// check what New uses.
func (p Params) Validate() error {
	var ps problems
	p.validateCPU(&ps)
	p.validateMemory(&ps)
	if p.Network != nil {
		p.Network.validate(&ps)
	}
	return errors.Join(ps...)
}

// problems collects Validate's errors.
type problems []error

// add records a problem; format starts with the field's name.
func (ps *problems) add(format string, args ...any) {
	*ps = append(*ps, fmt.Errorf("host: Params."+format, args...))
}

// notNegative checks durations that may be zero.
func (ps *problems) notNegative(fields ...namedDuration) {
	for _, f := range fields {
		if f.v < 0 {
			ps.add("%s must not be negative, got %v", f.name, f.v)
		}
	}
}

type namedDuration struct {
	name string
	v    time.Duration
}

// validateCPU checks the cores and the costs.
func (p Params) validateCPU(ps *problems) {
	if p.Cores < 1 || p.Cores > MaxCores {
		ps.add("Cores must be in 1..%d, got %d", MaxCores, p.Cores)
	}
	if p.RAIDReadAheadStripes < 0 || p.RAIDReadAheadStripes > MaxRAIDReadAheadStripes {
		ps.add("RAIDReadAheadStripes must be in 0..%d, got %d", MaxRAIDReadAheadStripes, p.RAIDReadAheadStripes)
	}
	ps.notNegative(
		namedDuration{"SyscallCost", p.SyscallCost}, namedDuration{"CommandCost", p.CommandCost},
		namedDuration{"DriverPerKiB", p.DriverPerKiB}, namedDuration{"StripeCachePerPage", p.StripeCachePerPage},
		namedDuration{"VolumeCacheLookup", p.VolumeCacheLookup})
	for _, r := range []struct {
		name string
		v    int64
	}{{"CopyRate", p.CopyRate}, {"XORRate", p.XORRate}, {"VolumeCacheCopyRate", p.VolumeCacheCopyRate}} {
		if r.v < 0 {
			ps.add("%s must not be negative, got %d bytes/s", r.name, r.v)
		}
	}
}

// validateMemory checks RAM and the page cache.
func (p Params) validateMemory(ps *problems) {
	if p.RAM < 0 || p.RAM > MaxRAM {
		ps.add("RAM must be in 0..%d bytes, got %d", int64(MaxRAM), p.RAM)
	}
	if p.Reserve < 0 || p.Reserve > p.RAM {
		ps.add("Reserve must be in 0..RAM (%d bytes), got %d", p.RAM, p.Reserve)
	}
	c := p.PageCache
	if c.Size < 0 || c.Size > MaxRAM || c.Size%PageSize != 0 {
		ps.add("PageCache.Size must be a multiple of %d bytes in 0..%d, got %d", PageSize, int64(MaxRAM), c.Size)
	}
	if !c.Off && !p.Direct && p.RAM >= 0 && p.Reserve >= 0 && p.PageCacheSize() < 16*PageSize {
		ps.add("PageCache: the page cache would hold %d bytes (RAM %d - Reserve %d, or PageCache.Size): give at least %d, or turn it off", p.PageCacheSize(), p.RAM, p.Reserve, 16*PageSize)
	}
	if !(c.DirtyRatio > 0 && c.DirtyRatio <= 1) {
		ps.add("PageCache.DirtyRatio must be in (0, 1], got %v", c.DirtyRatio)
	}
	if !(c.DirtyBackgroundRatio > 0 && c.DirtyBackgroundRatio < c.DirtyRatio) {
		ps.add("PageCache.DirtyBackgroundRatio must be in (0, DirtyRatio %v), got %v", c.DirtyRatio, c.DirtyBackgroundRatio)
	}
	if c.DirtyExpire <= 0 {
		ps.add("PageCache.DirtyExpire must be positive, got %v", c.DirtyExpire)
	}
	if c.WritebackInterval <= 0 {
		ps.add("PageCache.WritebackInterval must be positive, got %v", c.WritebackInterval)
	}
	for _, f := range []struct {
		name string
		v    int64
	}{{"ReadAhead", c.ReadAhead}, {"MaxWriteback", c.MaxWriteback}} {
		if f.v < 0 || f.v > 1<<30 || f.v%PageSize != 0 {
			ps.add("PageCache.%s must be a multiple of %d bytes in 0..1GiB, got %d", f.name, PageSize, f.v)
		}
	}
	if c.MaxWriteback == 0 {
		ps.add("PageCache.MaxWriteback must be positive")
	}
	if c.MaxInFlight < 1 || c.MaxInFlight > 1<<16 {
		ps.add("PageCache.MaxInFlight must be in 1..65536, got %d", c.MaxInFlight)
	}
}

// validate checks a link.
func (l *Link) validate(ps *problems) {
	if l.Rate <= 0 {
		ps.add("Network.Rate must be positive, got %d bytes/s", l.Rate)
	}
	if l.Overhead < 0 || l.Overhead > 1<<20 {
		ps.add("Network.Overhead must be in 0..1MiB, got %d bytes", l.Overhead)
	}
	ps.notNegative(namedDuration{"Network.Latency", l.Latency},
		namedDuration{"Network.CPUPerRequest", l.CPUPerRequest}, namedDuration{"Network.CPUPerKiB", l.CPUPerKiB})
}
