package host

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Gigabit returns gigabit Ethernet carrying SMB or NFS over TCP:
// 125e6 bytes/s on the wire less framing (1448 bytes of TCP payload per
// 1538-byte frame, Ethernet preamble, header, FCS and gap included:
// 117.7e6 bytes/s, the ~118 MB/s DRIVES.md gives), 50µs one-way latency
// (inferred: interrupt moderation on both NICs and a store-and-forward
// switch, tens of µs each) and 100 protocol bytes per message (inferred:
// an SMB1 ReadAndX/WriteAndX header of 63-69 bytes plus NetBIOS and
// response framing). The protocol CPU costs are left to the host preset.
func Gigabit() Link {
	return Link{Rate: 125_000_000 * 1448 / 1538, Latency: 50 * time.Microsecond, Overhead: 100}
}

// TenGigabit is Gigabit at ten times the rate and a 20µs latency
// (inferred: no switch hop difference, faster NIC interrupts).
func TenGigabit() Link {
	return Link{Rate: 1_250_000_000 * 1448 / 1538, Latency: 20 * time.Microsecond, Overhead: 100}
}

// presets are the built-in hosts.
var presets = map[string]func() Params{
	"desktop-ich8r":   desktopICH8R,
	"desktop-jmicron": desktopJMicron,
	"nas-1gb":         nas1GB,
	"server":          server,
}

// Presets returns the names of the built-in hosts, sorted.
func Presets() []string {
	names := make([]string, 0, len(presets))
	for n := range presets {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Preset returns the built-in host called name (any case).
func Preset(name string) (Params, error) {
	if f, ok := presets[strings.ToLower(name)]; ok {
		return f(), nil
	}
	return Params{}, fmt.Errorf("host: unknown preset %q (want one of %s)", name, strings.Join(Presets(), ", "))
}

// desktop2007 is seed 003's test machine ("Our test setup"): Intel Core
// 2 Duo E6300 (2 cores, 1.86 GHz), 4 x 512 MB DDR2-800, Windows XP SP2.
// Per-request costs come from the article's own single-drive IOMeter
// table (sequential 32 KiB, one outstanding, raw disk): CPU% x 2 cores /
// ops/s is the core time per request; the RAID 0 and random columns are
// left for the model to predict.
func desktop2007() Params {
	return Params{
		Cores: 2,
		// inferred: the Windows XP ReadFile/WriteFile path into the I/O
		// manager, ~10k cycles at 1.86 GHz; the rest of each request's
		// measured cost is the driver's (CommandCost).
		SyscallCost: 5 * time.Microsecond,
		// inferred: memcpy on a Core 2 with dual-channel DDR2-800 runs at
		// 2-3 GB/s.
		CopyRate: 2_000_000_000,
		// inferred: SSE parity on a Core 2 runs at several GB/s (Linux
		// md's boot benchmark reports 4-6 GB/s on such CPUs).
		XORRate: 4_000_000_000,
		RAM:     2 << 30, // 4 x 512 MB
		// inferred: Windows XP, the game and its assets keep ~half.
		Reserve: 1 << 30,
	}
}

// desktopICH8R is seed 003's desktop with the Intel ICH8R controller
// (AHCI, Intel Matrix Storage driver and its Volume Write Back Cache in
// host memory).
func desktopICH8R() Params {
	p := desktop2007()
	p.Name = "desktop-ich8r"
	// Seed 003, IOMeter sequential, single drive, Intel: 3.19% and 3.00%
	// of 2 cores at 2374 and 2373 reads/s, 2.72% and 3.18% at 2241 and
	// 2438 writes/s: 26.9, 25.3, 24.3 and 26.1 µs, mean 25.6µs per
	// request, less SyscallCost.
	p.CommandCost = 25600*time.Nanosecond - p.SyscallCost
	// inferred: a lookup in the driver's cache index (the cache
	// package's default hit latency) and a copy at memcpy speed.
	p.VolumeCacheLookup = 2 * time.Microsecond
	p.VolumeCacheCopyRate = 2_000_000_000
	return p
}

// desktopJMicron is seed 003's desktop with the J-Micron JMB363
// controller.
func desktopJMicron() Params {
	p := desktop2007()
	p.Name = "desktop-jmicron"
	// Seed 003, IOMeter sequential, single drive, J-Micron: 2.87% and
	// 2.77% of 2 cores at 2391 and 2438 reads/s, 3.31% and 2.81% at 2381
	// and 2433 writes/s: 24.0, 22.7, 27.8 and 23.1 µs, mean 24.4µs per
	// request, less SyscallCost.
	p.CommandCost = 24400*time.Nanosecond - p.SyscallCost
	return p
}

// nas1GB is seed 004's NAS: 1 GB of RAM, gigabit Ethernet to the
// benchmark client, Linux software RAID. The article does not name its
// CPU; DRIVES.md: "low-power NAS CPUs of the time did software RAID 5
// parity at tens to a few hundred MB/s". Every CPU figure below is
// inferred for a single low-power core of 2008 (an ~1 GHz embedded x86
// or ARM SoC with single-channel DDR2), with the reasoning beside it.
func nas1GB() Params {
	net := Gigabit()
	// inferred: Samba's request handling (~40k cycles) and the TCP
	// stack's checksum and copy, ~3k cycles per KiB, on a ~1 GHz core:
	// enough for the 40-70 MB/s such NASes served over SMB.
	net.CPUPerRequest = 40 * time.Microsecond
	net.CPUPerKiB = 3 * time.Microsecond
	return Params{
		Name:  "nas-1gb",
		Cores: 1,
		// inferred: a Linux system call and VFS path, ~10k cycles.
		SyscallCost: 10 * time.Microsecond,
		// inferred: memcpy with single-channel DDR2 on an embedded core,
		// 300-500 MB/s.
		CopyRate: 400_000_000,
		// inferred: libata command set-up and completion interrupt.
		CommandCost: 15 * time.Microsecond,
		// inferred: DRIVES.md's "tens to a few hundred MB/s" of parity.
		XORRate: 200_000_000,
		// inferred: per 4 KiB page md's raid5 passes through its stripe
		// cache twice (issue, completion) at ~10 µs each, submits and
		// completes a one-page bio per member (~15 µs) and copies the page
		// to or from the request (10 µs at CopyRate): 45 µs.
		StripeCachePerPage: 45 * time.Microsecond,
		// Linux md raises a RAID 5 array's read-ahead to two whole
		// stripes (raid5.c, run(); in every 2.6 kernel).
		RAIDReadAheadStripes: 2,
		// unknown, kept false: md reads bypass the stripe cache from
		// 2.6.20 on (chunk_aligned_read, NeilBrown's patches of November
		// 2006), but neither the article nor our sources give the NAS
		// firmware's kernel version; QNAP's firmware of the time is not
		// in them. With an older md every page read passes the stripe
		// cache, the cost above.
		RAIDReadBypass: false,
		RAM:            1 << 30, // seed 004: 1 GB
		// inferred: the kernel, Samba and the NAS's services take
		// ~128 MiB of a 1 GB NAS.
		Reserve: 128 << 20,
		Network: &net,
	}
}

// server is a current two-socket storage server running its benchmark
// locally (no link; add one with Network: Gigabit() or TenGigabit()).
func server() Params {
	return Params{
		Name:  "server",
		Cores: 32, // inferred: two 16-core sockets
		// inferred: a system call on a current core, ~1µs.
		SyscallCost: time.Microsecond,
		// inferred: single-thread memcpy on a current server core,
		// ~10 GB/s.
		CopyRate: 10_000_000_000,
		// inferred: an AHCI/SAS command and its interrupt, ~3µs.
		CommandCost: 3 * time.Microsecond,
		// inferred: Linux md's AVX2 xor benchmark reports 10-20 GB/s.
		XORRate: 10_000_000_000,
		// inferred: md's stripe handling per page on a current core.
		StripeCachePerPage: time.Microsecond,
		// A current Linux md: reads of a healthy array bypass the stripe
		// cache (since 2.6.20), and read-ahead covers two whole stripes.
		RAIDReadBypass:       true,
		RAIDReadAheadStripes: 2,
		RAM:                  128 << 30,
		Reserve:              16 << 30, // inferred: applications' share
	}
}
