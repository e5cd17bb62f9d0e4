package campaign

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/raidsim/raidsim/faults"
	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/sim"
)

// EventKind is a fault a schedule injects.
type EventKind uint8

// The faults of a schedule.
const (
	// FailMember fails a member in the array (raid.Array.Fail).
	FailMember EventKind = iota
	// KillDrive fails the member's drive (faults.Device.Fail): the array
	// learns of it from the errors.
	KillDrive
	// Rebuild puts a fresh spare in the first failed slot.
	Rebuild
	// BadSector makes one sector of a member unreadable.
	BadSector
)

var eventNames = [...]string{"fail", "kill", "rebuild", "bad-sector"}

func (k EventKind) String() string { return eventNames[k] }

// Event is one fault at an instant.
type Event struct {
	At     time.Duration
	Kind   EventKind
	Member int
	Sector int64 // BadSector: the member's LBA
}

// Request is one host request of the workload.
type Request struct {
	At          time.Duration
	Op          sim.Op
	Offset, Len int64
}

// Schedule is one drawn run: the stack, the workload, the faults.
type Schedule struct {
	Seed       uint64
	Level      raid.Level
	Members    int
	StripeUnit int64 // bytes
	Rows       int64 // stripe units per member
	// ReadLatency and WriteLatency are per member; Serial members serve
	// one request at a time.
	ReadLatency, WriteLatency []time.Duration
	Serial                    []bool
	// DriveCache gives every member a volatile write cache.
	DriveCache bool
	// Timeout is the host's command timer (0: none) and Recovery the
	// drives' error recovery (desktop 2 minutes, or TLER's 7 s).
	Timeout, Recovery time.Duration
	// Cache puts a volume write-back cache of CacheSize bytes on top;
	// CacheNV makes it non-volatile.
	Cache     bool
	CacheNV   bool
	CacheSize int64
	Requests  []Request
	Events    []Event
	// PowerLoss is when the power fails, 0 for never.
	PowerLoss time.Duration
}

// sectorSize is the members' sector size, bytes.
const sectorSize = 512

// Draw returns the schedule of seed.
func Draw(seed uint64) Schedule {
	rng := rand.New(rand.NewPCG(seed, 0x23b))
	s := Schedule{Seed: seed}
	switch rng.IntN(4) {
	case 0:
		s.Level, s.Members = raid.RAID1, 2+rng.IntN(2)
	case 1:
		s.Level, s.Members = raid.RAID5, 3+rng.IntN(3)
	case 2:
		s.Level, s.Members = raid.RAID6, 4+rng.IntN(3)
	default:
		s.Level, s.Members = raid.RAID10, 4+2*rng.IntN(2)
	}
	s.StripeUnit = []int64{2 << 10, 4 << 10, 8 << 10, 16 << 10}[rng.IntN(4)]
	s.Rows = 3 + rng.Int64N(6)
	for range s.Members {
		s.ReadLatency = append(s.ReadLatency, time.Duration(50+rng.IntN(2000))*time.Microsecond)
		s.WriteLatency = append(s.WriteLatency, time.Duration(50+rng.IntN(3000))*time.Microsecond)
		s.Serial = append(s.Serial, rng.IntN(2) == 0)
	}
	s.DriveCache = rng.IntN(3) == 0
	s.Recovery = faults.DesktopRecovery
	if rng.IntN(2) == 0 {
		s.Recovery = faults.TLER
	}
	if rng.IntN(3) == 0 {
		s.Timeout = faults.LinuxTimeout
	}
	if rng.IntN(2) == 0 {
		s.Cache, s.CacheSize = true, int64(4<<10)<<rng.IntN(4)
	}
	capacity := raid.Mapping{Level: s.Level, Members: s.Members, StripeUnit: s.StripeUnit}.Capacity(s.Rows * s.StripeUnit)
	span := s.drawRequests(rng, capacity)
	s.drawFaults(rng, span)
	if rng.IntN(3) == 0 {
		s.PowerLoss = time.Duration(rng.Int64N(int64(span) + int64(5*time.Millisecond)))
	} else if s.Cache {
		s.CacheNV = rng.IntN(3) == 0
	}
	return s
}

// drawRequests draws the workload and returns its span.
func (s *Schedule) drawRequests(rng *rand.Rand, capacity int64) time.Duration {
	span := time.Duration(5+rng.IntN(30)) * time.Millisecond
	fs := raid.Mapping{Level: s.Level, Members: s.Members, StripeUnit: s.StripeUnit}.FullStripe()
	for range 8 + rng.IntN(40) {
		r := Request{At: time.Duration(rng.Int64N(int64(span)))}
		switch k := rng.IntN(10); {
		case k < 6:
			r.Op = sim.Write
		case k < 9:
			r.Op = sim.Read
		default:
			r.Op = sim.Flush
		}
		if r.Op != sim.Flush {
			sectors := capacity / sectorSize
			n := 1 + rng.Int64N(min(sectors, 2*fs/sectorSize))
			if rng.IntN(4) == 0 { // page-sized and aligned, as file systems write
				n = min(8, sectors)
				r.Offset = rng.Int64N(sectors/8) * 8 * sectorSize
			} else {
				r.Offset = rng.Int64N(sectors-n+1) * sectorSize
			}
			r.Len = n * sectorSize
		}
		s.Requests = append(s.Requests, r)
	}
	return span
}

// drawFaults draws failures, rebuilds and unreadable sectors.
func (s *Schedule) drawFaults(rng *rand.Rand, span time.Duration) {
	at := func() time.Duration { return time.Duration(rng.Int64N(int64(span))) }
	for range rng.IntN(tolerance(s.Level, s.Members) + 2) {
		e := Event{At: at(), Kind: FailMember, Member: rng.IntN(s.Members)}
		if rng.IntN(2) == 0 {
			e.Kind = KillDrive
		}
		s.Events = append(s.Events, e)
		if rng.IntN(2) == 0 {
			s.Events = append(s.Events, Event{At: e.At + time.Duration(rng.Int64N(int64(span))), Kind: Rebuild})
		}
	}
	if rng.IntN(3) == 0 {
		for range 1 + rng.IntN(3) {
			s.Events = append(s.Events, Event{At: at(), Kind: BadSector, Member: rng.IntN(s.Members),
				Sector: rng.Int64N(s.Rows * s.StripeUnit / sectorSize)})
		}
	}
}

// tolerance returns how many members the level survives losing (RAID
// 10: per pair).
func tolerance(l raid.Level, n int) int {
	switch l {
	case raid.RAID1:
		return n - 1
	case raid.RAID6:
		return 2
	case raid.RAID0:
		return 0
	}
	return 1
}

// String describes s on a few lines.
func (s Schedule) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "seed %d: %v, %d members, stripe unit %d, %d rows", s.Seed, s.Level, s.Members, s.StripeUnit, s.Rows)
	fmt.Fprintf(&b, "; drive caches %v, timeout %v, recovery %v", s.DriveCache, s.Timeout, s.Recovery)
	if s.Cache {
		fmt.Fprintf(&b, "; volume cache %d bytes (non-volatile %v)", s.CacheSize, s.CacheNV)
	}
	if s.PowerLoss > 0 {
		fmt.Fprintf(&b, "; power loss at %v", s.PowerLoss)
	}
	b.WriteString("\n  faults:")
	for _, e := range s.Events {
		fmt.Fprintf(&b, " %v %d@%v", e.Kind, e.Member, e.At)
		if e.Kind == BadSector {
			fmt.Fprintf(&b, "(lba %d)", e.Sector)
		}
	}
	fmt.Fprintf(&b, "\n  %d requests", len(s.Requests))
	return b.String()
}
