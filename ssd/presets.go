package ssd

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// Presets: the data-sheet figures come from shared/DRIVES.md (which cites
// the vendors' product specifications); every other parameter is
// inferred, and says why beside its value. Figures in MB/s are 10^6
// bytes per second. A preset models the drive's data-sheet behaviour
// through mechanisms (link, controller, dies, channels, FTL); where a
// data-sheet figure is the only evidence for a parameter, the comment
// says which figure and the arithmetic.

// IntelX25MG2 returns the Intel X25-M G2 160 GB (SSDSA2MH160G2), a 2009
// SATA 3 Gb/s MLC drive of seed 001's era. Data sheet: sequential read
// 250 MB/s, write 100 MB/s; random 4 KiB read 35,000 IOPS and write 8,600
// IOPS at queue depth 32 over an 8 GB span; latency 65 us read, 85 us
// write; 10 channels; 34 nm MLC.
func IntelX25MG2() Params {
	return Params{
		Name:       "intel-x25m-g2",
		Capacity:   160e9, // data sheet
		SectorSize: 512,
		Interface:  SATA,
		QueueDepth: 32, // NCQ
		// Inferred: 3 Gb/s is 300 MB/s after 8b/10b; FIS framing,
		// primitives and flow control leave about 90% for payload.
		LinkRate: 270e6,
		// Inferred: the NCQ command exchange (command, DMA setup and set
		// device bits FISes) serialized on the half-duplex link. With the
		// 4 KiB payload it makes 29.2 us per random read on the link: the
		// 35,000 IOPS ceiling of the data sheet (34,200).
		LinkCommandTime: 14 * time.Microsecond,
		// Inferred: firmware processing per read (mapping lookup in DRAM).
		ReadCost: 8 * time.Microsecond,
		// Inferred from the data sheet's random write rate: 8,600 IOPS is
		// far below what 40 dies program (the 100 MB/s sequential rate is
		// 25,600 pages/s), so the controller's per-write work (mapping
		// and bookkeeping updates) limits it: 1/8,600 s = 116 us.
		WriteCost: 116 * time.Microsecond,
		// Inferred: the X25-M's DRAM is reported to hold the mapping
		// table, not user data; a small controller buffer takes writes
		// (its 85 us write latency is far below a program).
		WriteBuffer:    1 << 20,
		Channels:       10, // data sheet
		WaysPerChannel: 2,  // inferred: 20 packages of 8 GB on 10 channels
		DiesPerChip:    2,  // inferred: 32 Gbit (4 GB) 34 nm dies
		// Inferred: no multi-plane programs; 40 dies x 4 KiB / 1.6 ms
		// mean program = 102 MB/s, the data sheet's sequential write.
		PlanesPerDie:  1,
		PageSize:      4096, // inferred: 4 KiB pages, typical of 34 nm MLC
		PagesPerBlock: 128,  // inferred: 512 KiB blocks, typical of the generation
		// Inferred: 34 nm MLC reads within 50 us (data sheet maximum of
		// the generation); 30 us typical puts QD1 read latency near the
		// data sheet's 65 us plus link time.
		ReadTime: 30 * time.Microsecond,
		// Inferred: MLC LSB/MSB program asymmetry, 0.6 / 2.6 ms (mean 1.6).
		ProgramTime:      600 * time.Microsecond,
		ProgramTimeSlow:  2600 * time.Microsecond,
		EraseTime:        3 * time.Millisecond,  // inferred: MLC 2-5 ms
		ChannelRate:      200e6,                 // inferred: ONFI 2.0 (Intel co-founded it; 34 nm parts), 200 MT/s
		MapUnit:          4096,                  // page-level mapping
		OverProvisioning: 160*(1<<30)/160e9 - 1, // inferred: 160 GiB of flash sold as 160 GB: 7.37%
		GC:               Greedy,
		// Intel's product manual of the 34 nm X25-M (order 322296),
		// Reliability: fewer than 1 sector per 10^15 bits read
		// uncorrectable, MTBF 1.2 million hours (unverified: recalled from
		// the manual, not checked against a copy here).
		UBER:      1e-15,
		MTBFHours: 1_200_000,
	}
}

// Samsung970EVOPlus returns the Samsung 970 EVO Plus 1 TB (2019), PCIe 3.0
// x4 NVMe with TLC V-NAND and a pseudo-SLC write cache (TurboWrite, 42 GB
// on the 1 TB model). Data sheet: sequential read 3,500 MB/s, write 3,300
// MB/s inside the cache and about 1,700 MB/s after it; random 4 KiB read
// 600,000 IOPS and write 550,000 IOPS at 32 deep x 4 threads; 1 GB DRAM.
func Samsung970EVOPlus() Params {
	return Params{
		Name:       "samsung-970-evo-plus",
		Capacity:   1000e9, // data sheet
		SectorSize: 512,
		Interface:  NVMe,
		// Inferred: commands the controller holds at once (NVMe allows far
		// more; the data sheet measures 128).
		QueueDepth: 1024,
		// Inferred: PCIe 3.0 x4 is 3.94 GB/s after 128b/130b; TLP headers
		// with 256-byte payloads leave about 3.6 GB/s.
		LinkRate:        3.6e9,
		LinkCommandTime: 100 * time.Nanosecond, // inferred: 64-byte command fetch and 16-byte completion
		// Inferred: submission-to-completion firmware latency that does not
		// limit throughput (the controller's cores pipeline it); brings QD1
		// 4 KiB reads to the ~70 us reviews measure.
		CommandLatency: 10 * time.Microsecond,
		// Inferred from the data sheet's 600,000 / 550,000 IOPS: the
		// controller's serialized work per command (1.5 us and 1.7 us).
		ReadCost:  1500 * time.Nanosecond,
		WriteCost: 1700 * time.Nanosecond,
		// Inferred: part of the 1 GB DRAM stages writes; the rest holds
		// the mapping table.
		WriteBuffer:    8 << 20,
		Channels:       8, // inferred: the Phoenix controller's 8 channels
		WaysPerChannel: 4, // inferred: 32 dies of 256 Gbit make 1 TB
		DiesPerChip:    1,
		PlanesPerDie:   2,                     // inferred: two-plane operations
		PageSize:       16 << 10,              // inferred: 16 KiB pages of V-NAND
		PagesPerBlock:  384,                   // inferred
		ReadTime:       50 * time.Microsecond, // inferred: V-NAND v5 tR
		// Inferred: TLC one-shot programs 3 pages in about 1.8 ms, 600 us
		// per page; 32 dies x 32 KiB / 600 us = 1.75 GB/s, the data
		// sheet's after-cache write.
		ProgramTime: 600 * time.Microsecond,
		EraseTime:   3500 * time.Microsecond, // inferred: TLC 3-5 ms
		ChannelRate: 800e6,                   // inferred: Toggle DDR 3.0, 800 MT/s
		MapUnit:     4096,
		// Inferred: 1 TiB of flash sold as 1 TB: 9.95%.
		OverProvisioning: float64(1<<40)/1000e9 - 1,
		GC:               Greedy,
		SLCCache:         42e9, // data sheet: TurboWrite 42 GB (6 static + 36 dynamic)
		// Inferred: SLC-mode program of 250 us; 32 dies x 32 KiB / 250 us
		// = 4.2 GB/s, so the link (3.6 GB/s) bounds writes in the cache.
		SLCProgramTime: 250 * time.Microsecond,
		// Data sheet: MTBF 1.5 million hours. Inferred: the consumer
		// sheet gives no UBER; JEDEC JESD218's client class requires at
		// most 1 uncorrectable sector per 10^15 bits read.
		UBER:      1e-15,
		MTBFHours: 1_500_000,
	}
}

// IntelD7P5500 returns the Intel SSD D7-P5500 7.68 TB (2020), a data
// centre U.2 drive on PCIe 4.0 x4 (NVMe 1.3c) with Intel's 96-layer TLC
// NAND, rated 1 drive write a day: the "8 TB" drive of an array built
// today. Data sheet (Intel's launch figures, as reported at the launch):
// sequential read 7,000 MB/s and write 4,300 MB/s, random 4 KiB read
// 1,000,000 IOPS and write 130,000 IOPS. Reliability (Intel's data centre
// SSD data sheets of the line: the P4500's 2,000,000 h MTBF and fewer
// than 1 uncorrectable sector per 10^17 bits read, as Lenovo reprints
// them; the P5500's own sheet not at hand here: unverified). Data centre
// drives hold their write buffer with power-loss capacitors.
func IntelD7P5500() Params {
	return Params{
		Name:       "intel-d7-p5500",
		Capacity:   7680e9, // data sheet
		SectorSize: 512,
		Interface:  NVMe,
		// Inferred: commands the controller holds at once (data sheets
		// measure at queue depths up to 256 with several workers).
		QueueDepth: 1024,
		// Inferred: PCIe 4.0 x4 carries 7.88 GB/s after 128b/130b; TLP
		// headers with 256-byte payloads leave about 7.2 GB/s, which
		// bounds the data sheet's 7,000 MB/s sequential read.
		LinkRate:        7.2e9,
		LinkCommandTime: 100 * time.Nanosecond, // inferred: command fetch and completion
		// Inferred: firmware latency that does not limit throughput.
		CommandLatency: 10 * time.Microsecond,
		// Inferred from the data sheet's 1,000,000 read IOPS: the
		// controller's serialized work per read, 1 us; writes alike.
		ReadCost:  time.Microsecond,
		WriteCost: time.Microsecond,
		// Inferred: a few MiB of DRAM stage writes (most of it holds the
		// page map); capacitors make it durable.
		WriteBuffer:         16 << 20,
		PowerLossProtection: true,
		// Inferred: 8 TiB of NAND in 512 Gbit (64 GiB) dies is 128 dies:
		// 16 channels of 8.
		Channels:       16,
		WaysPerChannel: 8,
		DiesPerChip:    1,
		PlanesPerDie:   4,        // inferred: 96-layer TLC of the generation is 4-plane
		PageSize:       16 << 10, // inferred
		// Inferred: 1,152 pages of 16 KiB a block (18 MiB a plane, 72 MiB
		// a four-plane block), of the order of 96-layer TLC's.
		PagesPerBlock: 1152,
		ReadTime:      70 * time.Microsecond, // inferred: 96-layer TLC tR
		// Inferred from the data sheet's 4,300 MB/s sequential write: 128
		// dies x 64 KiB a four-plane program in 1.95 ms (TLC programs of
		// 1.5-3 ms).
		ProgramTime: 1950 * time.Microsecond,
		EraseTime:   5 * time.Millisecond, // inferred: TLC 3-10 ms
		ChannelRate: 800e6,                // inferred: ONFI 4 at 800 MT/s
		MapUnit:     4096,
		// Inferred: 8 TiB of NAND for 7.68 TB leaves 14.5% spare, but the
		// data sheet's 130,000 random-write IOPS (measured in the steady
		// state, as data centre sheets do: unverified for this one) needs
		// a steady write amplification of about 7.2: a host unit's die
		// time (its share of a program, 122 us, times WA, plus WA-1 copy
		// reads of 17.5 us) is then 985 us, and 128 dies do 130,000 a
		// second. Greedy GC reaches that at 7.7% spare (alpha 1.077); the
		// rest of the raw spare holds what the model has no room for
		// (parity across dies, spare blocks, the map's journal).
		OverProvisioning: 0.077,
		GC:               Greedy,
		UBER:             1e-17,     // Intel data centre sheets: < 1 sector per 10^17 bits read (unverified for the P5500)
		MTBFHours:        2_000_000, // Intel data centre sheets (unverified for the P5500)
	}
}

var presets = map[string]func() Params{
	"intel-x25m-g2":        IntelX25MG2,
	"samsung-970-evo-plus": Samsung970EVOPlus,
	"intel-d7-p5500":       IntelD7P5500,
}

// PresetNames returns the preset names, sorted.
func PresetNames() []string {
	names := make([]string, 0, len(presets))
	for n := range presets {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// IsPreset reports whether name is an SSD preset.
func IsPreset(name string) bool {
	_, ok := presets[strings.ToLower(name)]
	return ok
}

// Preset returns the parameters of the named preset.
func Preset(name string) (Params, error) {
	f, ok := presets[strings.ToLower(name)]
	if !ok {
		return Params{}, fmt.Errorf("ssd: unknown preset %q (known: %s)", name, strings.Join(PresetNames(), ", "))
	}
	return f(), nil
}
