package raid

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/raidsim/raidsim/sim"
)

// Level is a RAID level: 0, 1, 5 or 10. The zero value is RAID 0.
type Level int

// The supported levels.
const (
	RAID0  Level = 0
	RAID1  Level = 1
	RAID5  Level = 5
	RAID6  Level = 6
	RAID10 Level = 10
)

// String returns "RAID 0", "RAID 5" and so on.
func (l Level) String() string { return "RAID " + strconv.Itoa(int(l)) }

// Valid reports whether l is 0, 1, 5, 6 or 10.
func (l Level) Valid() bool {
	return l == RAID0 || l == RAID1 || l == RAID5 || l == RAID6 || l == RAID10
}

// parity reports whether l keeps parity (RAID 5 and 6): its writes and
// degraded reads work on whole stripes.
func (l Level) parity() bool { return l == RAID5 || l == RAID6 }

// ParseLevel reads "0", "1", "5", "6", "10" (optionally prefixed "raid").
func ParseLevel(s string) (Level, error) {
	t := strings.TrimPrefix(strings.ToLower(strings.TrimSpace(s)), "raid")
	n, err := strconv.Atoi(strings.TrimSpace(t))
	if err != nil || !Level(n).Valid() {
		return 0, fmt.Errorf("raid: unknown level %q (want 0, 1, 5, 6 or 10)", s)
	}
	return Level(n), nil
}

// Layout is the RAID 5 parity placement, with Linux md's names. The zero
// value is LeftSymmetric, md's default.
type Layout uint8

// The four md RAID 5 layouts. "Left" layouts put the parity of stripe 0
// on the last member and move it one member left per stripe; "right"
// layouts start on member 0 and move right. "Symmetric" layouts start
// each stripe's data on the member after the parity, wrapping round;
// "asymmetric" layouts fill members in order, skipping the parity.
const (
	LeftSymmetric Layout = iota
	LeftAsymmetric
	RightSymmetric
	RightAsymmetric
)

var layoutNames = [...]string{"left-symmetric", "left-asymmetric", "right-symmetric", "right-asymmetric"}

// Layouts returns every layout, default first.
func Layouts() []Layout {
	return []Layout{LeftSymmetric, LeftAsymmetric, RightSymmetric, RightAsymmetric}
}

// String returns md's name for l, e.g. "left-symmetric".
func (l Layout) String() string {
	if int(l) < len(layoutNames) {
		return layoutNames[l]
	}
	return fmt.Sprintf("layout(%d)", uint8(l))
}

// Valid reports whether l is one of the four layouts.
func (l Layout) Valid() bool { return int(l) < len(layoutNames) }

// ParseLayout reads md's layout names ("left-symmetric", "ls", ...).
func ParseLayout(s string) (Layout, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	for i, n := range layoutNames {
		short := string(n[0]) + string(n[strings.IndexByte(n, '-')+1])
		if t == n || t == short {
			return Layout(i), nil
		}
	}
	return 0, fmt.Errorf("raid: unknown layout %q (want %s)", s, strings.Join(layoutNames[:], ", "))
}

// MarshalText returns String.
func (l Layout) MarshalText() ([]byte, error) {
	if !l.Valid() {
		return nil, fmt.Errorf("raid: unknown layout %d", uint8(l))
	}
	return []byte(l.String()), nil
}

// UnmarshalText reads a name ParseLayout accepts.
func (l *Layout) UnmarshalText(b []byte) error {
	v, err := ParseLayout(string(b))
	if err == nil {
		*l = v
	}
	return err
}

// WritePolicy chooses how RAID 5 updates the parity of a stripe that a
// write covers only in part. Full-stripe writes never read.
type WritePolicy uint8

const (
	// WriteAuto picks, stripe by stripe, the method that reads fewer
	// bytes, as Linux md does; ties go to reconstruct-write.
	WriteAuto WritePolicy = iota
	// WriteRMW always uses read-modify-write (read old data and old
	// parity) where it is possible.
	WriteRMW
	// WriteRCW always uses reconstruct-write (read the data the write
	// does not cover).
	WriteRCW
)

var writeNames = [...]string{"auto", "rmw", "rcw"}

// String returns "auto", "rmw" or "rcw".
func (p WritePolicy) String() string {
	if int(p) < len(writeNames) {
		return writeNames[p]
	}
	return fmt.Sprintf("write-policy(%d)", uint8(p))
}

// Valid reports whether p is known.
func (p WritePolicy) Valid() bool { return int(p) < len(writeNames) }

// ParseWritePolicy reads "auto", "rmw" or "rcw".
func ParseWritePolicy(s string) (WritePolicy, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	for i, n := range writeNames {
		if t == n {
			return WritePolicy(i), nil
		}
	}
	return 0, fmt.Errorf("raid: unknown RAID 5 write policy %q (want auto, rmw or rcw)", s)
}

// MarshalText returns String.
func (p WritePolicy) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText reads a name ParseWritePolicy accepts.
func (p *WritePolicy) UnmarshalText(b []byte) error {
	v, err := ParseWritePolicy(string(b))
	if err == nil {
		*p = v
	}
	return err
}

// ReadPolicy chooses which copy serves a read in RAID 1 and RAID 10.
type ReadPolicy uint8

const (
	// ReadSoonest sends a read to the live copy with the fewest requests
	// outstanding, breaking ties by the shortest distance from the end
	// of that member's last request (a stand-in for head position, as
	// md's read balancing does).
	ReadSoonest ReadPolicy = iota
	// ReadRoundRobin rotates reads over the live copies.
	ReadRoundRobin
)

var readNames = [...]string{"soonest", "round-robin"}

// String returns "soonest" or "round-robin".
func (p ReadPolicy) String() string {
	if int(p) < len(readNames) {
		return readNames[p]
	}
	return fmt.Sprintf("read-policy(%d)", uint8(p))
}

// Valid reports whether p is known.
func (p ReadPolicy) Valid() bool { return int(p) < len(readNames) }

// ParseReadPolicy reads "soonest" or "round-robin".
func ParseReadPolicy(s string) (ReadPolicy, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	for i, n := range readNames {
		if t == n {
			return ReadPolicy(i), nil
		}
	}
	return 0, fmt.Errorf("raid: unknown read policy %q (want soonest or round-robin)", s)
}

// DefaultStripeUnit is the stripe unit a Config gets when it leaves
// StripeUnit at zero: 64 KiB, a common hardware-controller default (md's
// own default chunk is 512 KiB).
const DefaultStripeUnit = 64 << 10

// Config describes an array. It is plain data: fill it and call New,
// which applies WithDefaults and Validate.
type Config struct {
	// Level is RAID 0 (striping), 1 (mirroring over every member), 5
	// (striping with rotating parity) or 10 (md's near-2 layout: with an
	// even member count this is RAID 0 over mirrored pairs of adjacent
	// members, 0+1, 2+3, ...).
	Level Level
	// StripeUnit is the bytes each member holds of one stripe (md's
	// chunk size); a positive multiple of the members' sector size. Zero
	// means DefaultStripeUnit. RAID 1 uses it only as the unit of rebuild
	// and of capacity rounding.
	StripeUnit int64
	// Layout is the RAID 5 parity placement; other levels ignore it.
	Layout Layout
	// Raid5Write chooses between read-modify-write and reconstruct-write
	// for partial-stripe RAID 5 writes; other levels ignore it.
	Raid5Write WritePolicy
	// Raid6Write is the same choice for RAID 6. The default, WriteAuto,
	// is md since Linux 4.1 (read-modify-write with the partial Q
	// syndrome when it reads fewer pages); WriteRCW is the older md,
	// which updated RAID 6 stripes by reconstruct-write only.
	Raid6Write WritePolicy
	// Page is the unit, in bytes, RAID 5 and 6 writes read and write in:
	// md's stripe cache page (its stripe_size, PAGE_SIZE), so a write
	// covering part of a page reads the page and writes it whole. It
	// must divide StripeUnit and be a multiple of the members' sector
	// size. Zero means DefaultPage (4 KiB), or StripeUnit when that is
	// not a multiple of 4 KiB.
	Page int64
	// ParityRate is the speed of the parity engine in bytes per second:
	// computing a stripe's parity takes (bytes XORed)/ParityRate of
	// virtual time before the writes go out. Zero makes it free.
	ParityRate int64
	// ReadPolicy balances reads over the copies of RAID 1 and RAID 10.
	ReadPolicy ReadPolicy
	// RebuildRate caps rebuild onto a spare, in bytes of the spare per
	// second: rebuild steps of one stripe unit start at least
	// StripeUnit/RebuildRate apart. Zero rebuilds as fast as the members
	// allow, one step at a time, competing with foreground I/O.
	RebuildRate int64
	// RebuildMinRate is md's speed_limit_min in bytes of the spare per
	// second: while foreground requests arrive at the array the rebuild
	// is held to this rate (md throttles resync when the array is not
	// idle), and it goes at RebuildRate (speed_limit_max) otherwise.
	// Zero never throttles: the rebuild competes with the foreground.
	RebuildMinRate int64
	// RebuildData makes a rebuild move real bytes (reconstructing them
	// with XOR), for members that keep data such as simtest.MemDevice.
	// Performance runs leave it false: the rebuild then only takes time.
	RebuildData bool
}

// WithDefaults returns c with a zero StripeUnit set to DefaultStripeUnit.
func (c Config) WithDefaults() Config {
	if c.StripeUnit == 0 {
		c.StripeUnit = DefaultStripeUnit
	}
	return c
}

// MinMembers returns the fewest members level needs: 2 for RAID 0, 1
// and 10 (which also needs an even count), 3 for RAID 5.
func MinMembers(level Level) int {
	switch level {
	case RAID5:
		return 3
	case RAID6:
		return 4
	}
	return 2
}

// Validate reports every problem with c, and with the members when they
// are given, joined with errors.Join. It does not apply defaults: New
// validates c.WithDefaults(). Members of unequal capacity are not an
// error: each is used up to the smallest (rounded down to whole stripe
// units), as md does; Notes says so.
func (c Config) Validate(members ...sim.Device) error {
	var errs []error
	add := func(format string, args ...any) { errs = append(errs, fmt.Errorf("raid: "+format, args...)) }
	if !c.Level.Valid() {
		add("Config.Level: unknown level %d (want 0, 1, 5, 6 or 10)", int(c.Level))
	}
	if c.StripeUnit <= 0 {
		add("Config.StripeUnit must be positive, got %d bytes", c.StripeUnit)
	}
	if !c.Layout.Valid() {
		add("Config.Layout: unknown layout %d", uint8(c.Layout))
	} else if c.Level == RAID6 && c.Layout != LeftSymmetric {
		add("Config.Layout: RAID 6 is modelled in md's left-symmetric layout only, got %v", c.Layout)
	}
	if !c.Raid5Write.Valid() {
		add("Config.Raid5Write: unknown write policy %d", uint8(c.Raid5Write))
	}
	if !c.Raid6Write.Valid() {
		add("Config.Raid6Write: unknown write policy %d", uint8(c.Raid6Write))
	}
	if c.Page < 0 || c.Page > 0 && c.StripeUnit > 0 && c.StripeUnit%c.Page != 0 {
		add("Config.Page %d bytes does not divide the stripe unit (%d bytes)", c.Page, c.StripeUnit)
	}
	if !c.ReadPolicy.Valid() {
		add("Config.ReadPolicy: unknown read policy %d", uint8(c.ReadPolicy))
	}
	if c.ParityRate < 0 {
		add("Config.ParityRate must not be negative, got %d bytes/s", c.ParityRate)
	}
	if c.RebuildMinRate < 0 || c.RebuildRate > 0 && c.RebuildMinRate > c.RebuildRate {
		add("Config.RebuildMinRate must be between 0 and RebuildRate, got %d bytes/s", c.RebuildMinRate)
	}
	if c.RebuildRate < 0 {
		add("Config.RebuildRate must not be negative, got %d bytes/s", c.RebuildRate)
	}
	if members == nil {
		return errors.Join(errs...)
	}
	n := len(members)
	if c.Level.Valid() {
		if min := MinMembers(c.Level); n < min {
			add("%v needs at least %d members, got %d", c.Level, min, n)
		}
		if c.Level == RAID10 && n%2 != 0 {
			add("RAID 10 needs an even number of members, got %d", n)
		}
	}
	ss, minCap := 0, int64(-1)
	for i, m := range members {
		if m == nil {
			add("member %d is nil", i)
			continue
		}
		s := m.SectorSize()
		if s <= 0 {
			add("member %d has sector size %d bytes", i, s)
			continue
		}
		if ss == 0 {
			ss = s
		} else if s != ss {
			add("members have different sector sizes: member 0 has %d bytes, member %d has %d", ss, i, s)
		}
		if c.StripeUnit > 0 && c.StripeUnit%int64(s) != 0 {
			add("Config.StripeUnit %d bytes is not a multiple of member %d's sector size (%d bytes)", c.StripeUnit, i, s)
		}
		if c.Page > 0 && c.Page%int64(s) != 0 {
			add("Config.Page %d bytes is not a multiple of member %d's sector size (%d bytes)", c.Page, i, s)
		}
		if cp := m.Capacity(); minCap < 0 || cp < minCap {
			minCap = cp
		}
	}
	if c.StripeUnit > 0 && minCap >= 0 && minCap < c.StripeUnit {
		add("the smallest member (%d bytes) is smaller than one stripe unit (%d bytes)", minCap, c.StripeUnit)
	}
	return errors.Join(errs...)
}

// Notes returns remarks about members that are not errors, such as
// members of unequal capacity being used only up to the smallest.
func (c Config) Notes(members ...sim.Device) []string {
	var notes []string
	if len(members) == 0 {
		return nil
	}
	lo, hi := int64(-1), int64(0)
	for _, m := range members {
		if m == nil {
			continue
		}
		cp := m.Capacity()
		if lo < 0 || cp < lo {
			lo = cp
		}
		hi = max(hi, cp)
	}
	if lo >= 0 && hi != lo {
		notes = append(notes, fmt.Sprintf("raid: members have unequal capacities (%d to %d bytes); each is used up to %d bytes", lo, hi, lo))
	}
	return notes
}
