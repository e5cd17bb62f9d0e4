package raidsim

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strings"

	"github.com/raidsim/raidsim/drive"
	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/spec"
	"github.com/raidsim/raidsim/trace"
)

// Memory a run holds besides its drives, bytes.
const (
	// memoryBase is the process, the engine, the metrics and the report
	// (the CLI's small runs peak at about 24 MB resident).
	memoryBase = 64 << 20
	// memoryPerDrive is a drive model that cannot bound itself: a disk
	// holds about 19 KB when built, an SMR drive 2.1 MB (measured); an
	// SMR media cache's index grows with the writes it holds, which this
	// leaves out.
	memoryPerDrive = 8 << 20
	// memoryPerCacheBlock is a volume cache block's index entry (spec's
	// cacheExtentBytes, measured by cache.TestExtentIndexBytes); a host
	// page cache page is counted the same (inferred: one index entry
	// per page, as the volume cache keeps one per block).
	memoryPerCacheBlock = 220
)

// MemoryPart is one part of a MemoryEstimate.
type MemoryPart struct {
	// What names the part ("4 x samsung-970-evo-plus mapping tables").
	What string
	// Bytes is its estimate in bytes.
	Bytes int64
	// Knob says what makes it smaller.
	Knob string
}

// MemoryEstimate is an upper estimate, made before anything is built,
// of the memory a run of a plan holds: the drives' state (an SSD's map
// grows with what the run writes to it, up to its whole capacity), the
// volume cache's and page cache's indexes, and the rest of the run.
// Trace replays' writes are not known before the trace is read: for
// them the drives count as built, and the run's heap is watched instead
// (RunOptions.MaxMemory).
type MemoryEstimate struct {
	// Bytes is the total in bytes.
	Bytes int64
	// Parts are its parts, largest first.
	Parts []MemoryPart
}

// EstimateMemory estimates what a run of pl holds in memory.
func EstimateMemory(pl *spec.Plan) MemoryEstimate {
	var e MemoryEstimate
	add := func(what string, b int64, knob string) {
		e.Parts = append(e.Parts, MemoryPart{What: what, Bytes: b, Knob: knob})
		e.Bytes = satAdd(e.Bytes, b)
	}
	add("the run itself", memoryBase, "")
	host := hostWriteBytes(pl)
	perMember := memberWriteBytes(pl, host)
	if pl.Drive != nil {
		b := driveMemory(pl.Drive, perMember)
		add(fmt.Sprintf("%d x %s (%s)", pl.Disks, pl.Drive.Name(), pl.Drive.Kind()), satMul(b, int64(pl.Disks)),
			"fewer drives (--disks), less written (--ios, --size), smaller drives")
	}
	if pl.Rebuild != nil {
		m := cmp.Or[drive.Model](pl.RebuildDrive, pl.Drive)
		if m != nil {
			add("the rebuild's spare "+m.Name(), driveMemory(m, m.Capacity()), "no rebuild (--rebuild)")
		}
	}
	if c := pl.Cache; c != nil && c.Block > 0 {
		add("the volume cache's index", satMul(c.Size/c.Block, memoryPerCacheBlock), "a smaller cache or larger blocks (--cache)")
		if pl.CacheDevice != nil {
			add("the cache device "+pl.CacheDevice.Name(), driveMemory(pl.CacheDevice, min(host, c.Size)), "a smaller cache (--cache)")
		}
	}
	if h := pl.Host; h != nil {
		pages := min(h.PageCacheSize(), satAdd(host, hostReadBytes(pl))) / 4096
		add("the host's page cache index", satMul(pages, memoryPerCacheBlock), "a smaller page cache (--page-cache)")
	}
	slices.SortStableFunc(e.Parts, func(a, b MemoryPart) int { return cmp.Compare(b.Bytes, a.Bytes) })
	return e
}

// driveMemory bounds one drive of m that is written `written` bytes.
func driveMemory(m drive.Model, written int64) int64 {
	if b, ok := m.(interface{ MemoryBound(int64) int64 }); ok {
		return b.MemoryBound(min(written, m.Capacity()))
	}
	return memoryPerDrive
}

// hostWriteBytes bounds the bytes the synthetic phases of pl write (a
// phase bounded only by its runtime counts as writing the whole stack).
func hostWriteBytes(pl *spec.Plan) int64 { return hostBytes(pl, 1) }

// hostReadBytes bounds the bytes the synthetic phases of pl read.
func hostReadBytes(pl *spec.Plan) int64 { return hostBytes(pl, 0) }

// hostBytes bounds the bytes pl's synthetic phases move in direction
// dir (0 read, 1 write).
func hostBytes(pl *spec.Plan, dir int) int64 {
	var total int64
	one := func(w trace.Workload, bounded bool) {
		w = w.WithDefaults()
		bs, small := w.BS, w.BS
		for _, s := range w.BSSplit {
			bs, small = max(bs, s.Size), min(cmp.Or(small, s.Size), s.Size)
		}
		n := w.NumIOs
		if n == 0 && small > 0 {
			n = cmp.Or(w.Size, pl.Capacity-w.Offset) / small
		}
		var b int64
		if bounded {
			b = satMul(n, bs)
		} else {
			b = pl.Capacity
		}
		share := directionShare(w)[dir]
		total = satAdd(total, int64(math.Ceil(float64(b)*share)))
	}
	for _, ph := range pl.Phases {
		if ph.Trace != nil {
			continue
		}
		if len(ph.Jobs) > 0 {
			for _, j := range ph.Jobs {
				one(j.Workload, j.Runtime == 0 && ph.Runtime == 0 && j.Workload.NumIOs >= 0)
			}
			continue
		}
		one(ph.Workload, true)
		for _, bw := range ph.Background {
			one(bw, bw.NumIOs > 0)
		}
	}
	return total
}

// directionShare returns the shares of w's requests that read and
// write (trims count as writes: they touch an SSD's map).
func directionShare(w trace.Workload) [2]float64 {
	switch w.RW {
	case trace.RWWrite, trace.RWRandWrite, trace.RWTrim, trace.RWRandTrim:
		return [2]float64{0, 1}
	case trace.RWReadWrite, trace.RWRandRW:
		r := float64(w.RWMixRead) / 100
		return [2]float64{r, 1 - r}
	}
	return [2]float64{1, 0}
}

// memberWriteBytes spreads host writes over an array's members: each
// host byte is written to the members once (RAID 0), to every copy
// (RAID 1, 10), with parity (RAID 5, 6: 2 and 3 members for a small
// write), or with RAIDZ's parity.
func memberWriteBytes(pl *spec.Plan, host int64) int64 {
	n := int64(max(pl.Disks, 1))
	copies := int64(1)
	switch {
	case pl.RAIDZ != nil:
		copies = int64(pl.RAIDZ.Config.Parity) + 1
	case pl.RAID == nil:
	case pl.RAID.Level == raid.RAID1:
		copies = n
	case pl.RAID.Level == raid.RAID10:
		copies = 2
	case pl.RAID.Level == raid.RAID5:
		copies = 2
	case pl.RAID.Level == raid.RAID6:
		copies = 3
	}
	return satMul(host, copies) / n
}

// ErrMemory is the error a run refused or stopped for its memory wraps.
var ErrMemory = errors.New("raidsim: not enough memory for the run")

// MemoryLimit returns the memory limit a run is held to when its
// RunOptions.MaxMemory is zero: the Go runtime's (GOMEMLIMIT, or
// debug.SetMemoryLimit) when one is set, else the machine's physical
// memory, else none (math.MaxInt64); and which it is.
func MemoryLimit() (int64, string) {
	if l := debug.SetMemoryLimit(-1); l > 0 && l < math.MaxInt64 {
		return l, "GOMEMLIMIT"
	}
	if m := physicalMemory(); m > 0 {
		return m, "the machine's memory"
	}
	return math.MaxInt64, "none"
}

// checkMemory refuses pl when its estimate passes the limit.
func checkMemory(pl *spec.Plan, limit int64, source string) error {
	e := EstimateMemory(pl)
	if e.Bytes <= limit {
		return nil
	}
	var parts []string
	knob := ""
	for _, p := range e.Parts {
		if p.Bytes >= e.Bytes/100 {
			parts = append(parts, fmt.Sprintf("%s %s", p.What, approxBytes(p.Bytes)))
		}
		if knob == "" && p.Knob != "" {
			knob = p.Knob
		}
	}
	return fmt.Errorf("%w: it would hold about %s (%s), more than the %s limit (%s; --max-memory or GOMEMLIMIT sets it): %s",
		ErrMemory, approxBytes(e.Bytes), strings.Join(parts, "; "), approxBytes(limit), source, knob)
}

// heapBytes returns the bytes the Go heap holds in live and
// not-yet-swept objects (a variable, for tests).
var heapBytes = func() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}

func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

func satMul(a, b int64) int64 {
	if a <= 0 || b <= 0 {
		return 0
	}
	if a > math.MaxInt64/b {
		return math.MaxInt64
	}
	return a * b
}

// approxBytes formats n bytes in decimal units to three figures
// ("2.63 TB", "512 MB").
func approxBytes(n int64) string {
	f := float64(n)
	for _, u := range []string{"B", "kB", "MB", "GB", "TB", "PB"} {
		if f < 999.5 || u == "PB" {
			if u == "B" {
				return fmt.Sprintf("%d B", n)
			}
			return fmt.Sprintf("%.3g %s", f, u)
		}
		f /= 1000
	}
	return ""
}
