package faults

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// Defaults and bounds of a Config.
const (
	// DesktopRecovery is how long a desktop drive (no TLER/ERC) spends
	// in deep recovery on an unreadable sector before it reports the
	// error. Inferred: Western Digital's support note says the deep
	// recovery cycle "can take up to 2 minutes"; a sector that stays
	// unreadable uses it all.
	DesktopRecovery = 2 * time.Minute
	// TLER is the error recovery cap of Western Digital's RAID edition
	// drives (time-limited error recovery, 7 s); SCT ERC drives are
	// usually set to 7 s as well (smartctl -l scterc,70,70).
	TLER = 7 * time.Second
	// LinuxTimeout is the Linux SCSI layer's default command timer
	// (/sys/block/sdX/device/timeout), 30 s.
	LinuxTimeout = 30 * time.Second

	// MaxBadSectors bounds Config.BadSectors.
	MaxBadSectors = 1 << 20
	maxTime       = 10 * 365 * 24 * time.Hour
)

// Config is plain data describing the faults of one device. The zero
// value injects nothing. Fill it, add Rules if needed, and pass it to
// New, which applies WithDefaults and Validate.
type Config struct {
	// UREPerBit is the probability that a bit read is unrecoverable,
	// 0..1 (data sheets: 1e-14 for desktop drives, 1e-15 for enterprise
	// ones). Each error makes one sector unreadable until written.
	UREPerBit float64
	// BadSectors are sectors (LBAs, in units of the device's sector
	// size) unreadable from the start, until written.
	BadSectors []int64
	// Recovery is how long the drive retries an unreadable sector
	// before failing the read; zero means DesktopRecovery.
	Recovery time.Duration
	// ERC caps Recovery (TLER / SCT ERC / CCTL), e.g. TLER; zero means
	// no cap (a desktop drive).
	ERC time.Duration
	// Timeout is the host's command timer: a request outstanding that
	// long completes with ErrTimeout. Zero means none.
	Timeout time.Duration
	// FailAt fails the whole device this long after New; zero means
	// never (use 1ns to fail it at once).
	FailAt time.Duration
	// FailAfterIOs fails the device once this many requests have
	// completed; zero means never.
	FailAfterIOs int64
	// SlowFraction of the requests, 0..1, chosen at random, take
	// SlowDelay longer.
	SlowFraction float64
	SlowDelay    time.Duration
	// Rules are further faults, applied in order; the first whose
	// predicate matches decides (see Rule).
	Rules []Rule
	// WriteCache acknowledges writes at once, as a drive with a
	// volatile write cache does, and passes them (a copy of their Data)
	// to the device below; a Flush completes once every write
	// acknowledged before it has reached that device, a FUA write once
	// it has. Device.Unpersisted lists what a power loss would lose.
	WriteCache bool
}

// WithDefaults returns c with Recovery filled.
func (c Config) WithDefaults() Config {
	if c.Recovery == 0 {
		c.Recovery = DesktopRecovery
	}
	return c
}

// RecoveryTime is how long a read of an unreadable sector takes before
// it fails: Recovery, capped by ERC when set.
func (c Config) RecoveryTime() time.Duration {
	c = c.WithDefaults()
	if c.ERC > 0 && c.ERC < c.Recovery {
		return c.ERC
	}
	return c.Recovery
}

// Validate reports every problem of c at once, naming the field and its
// value. sectors is the device's capacity in sectors (0: unknown), for
// BadSectors.
func (c Config) Validate(sectors int64) error {
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, fmt.Errorf("faults: Config.%s: %s", field, fmt.Sprintf(format, args...)))
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"UREPerBit", c.UREPerBit}, {"SlowFraction", c.SlowFraction}} {
		if !(f.v >= 0 && f.v <= 1) || math.IsNaN(f.v) {
			bad(f.name, "%v is not a probability (0..1)", f.v)
		}
	}
	for _, f := range []struct {
		name string
		v    time.Duration
	}{{"Recovery", c.Recovery}, {"ERC", c.ERC}, {"Timeout", c.Timeout}, {"FailAt", c.FailAt}, {"SlowDelay", c.SlowDelay}} {
		if f.v < 0 || f.v > maxTime {
			bad(f.name, "%v is outside 0..%v", f.v, maxTime)
		}
	}
	if c.FailAfterIOs < 0 {
		bad("FailAfterIOs", "%d is negative", c.FailAfterIOs)
	}
	if len(c.BadSectors) > MaxBadSectors {
		bad("BadSectors", "%d sectors, more than %d", len(c.BadSectors), MaxBadSectors)
	} else {
		for i, s := range c.BadSectors {
			if s < 0 || sectors > 0 && s >= sectors {
				bad(fmt.Sprintf("BadSectors[%d]", i), "%d is not a sector of the device (0..%d)", s, sectors-1)
				break
			}
		}
	}
	for i, r := range c.Rules {
		if r.When == nil {
			bad(fmt.Sprintf("Rules[%d].When", i), "missing predicate")
		}
		if r.Delay < 0 || r.Delay > maxTime {
			bad(fmt.Sprintf("Rules[%d].Delay", i), "%v is outside 0..%v", r.Delay, maxTime)
		}
	}
	return errors.Join(errs...)
}
