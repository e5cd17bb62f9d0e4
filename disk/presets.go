package disk

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// Every preset ships as drives do: write cache on, queue depth 32, SATF
// scheduling (what NCQ firmware does), 16 read segments, read-ahead
// filling the segment. Facts come from shared/DRIVES.md beside the repository (the
// project's calibration notes, which cite the vendors' data sheets) and
// the measured tables of seeds 003 and 004; what is inferred is said so.
// Figures in MB/s are 10^6 bytes per second.
//
// # Presets and the validated model structure
//
// The drive model is validated on DiskSim's measured models of the
// Quantum Atlas 10K and HP C3323A (package disk/disksim; demerit 0.110 ms
// and 0.250 ms on their measured traces, against DiskSim's 0.268 and
// 0.306 ms). Those models fill every part of Params from measurements
// extracted from the drives: a zone table with per-zone sectors per
// track, track and cylinder skews, first-block offsets, spares and slips;
// a seek table of about a hundred measured distances; head switch and
// write settle; per-case command overheads (read or write, buffer hit or
// miss, after a read or a write) and completion overheads; a per-block
// interface time; buffer segments, read-ahead scheme and read watermark.
//
// The presets fill the same structure from data sheets, not
// measurements, and so carry less information:
//
//   - From spec sheets (DRIVES.md, cited per preset): rpm, capacity,
//     buffer size, interface rate, average seek (and, where published,
//     track-to-track, full stroke and the read/write seek difference),
//     the number of heads where a platter count is given, and the outer
//     and inner media rates.
//   - Derived by rule (Spec.Params): the zone table (sectors per track
//     falling linearly, equal-width zones), skews (the switch times
//     rounded up to whole sectors), the head switch where a pair of
//     instantaneous and sustained rates gives it, and the seek curve
//     (Lee's three-point equation through track-to-track, average and
//     full stroke, in place of a measured table).
//   - Inferred (said so in each preset): zone count, track-to-track and
//     full stroke where unpublished, head switch otherwise, write settle
//     where unpublished, a single command overhead for every case
//     (Params.ReadOverhead; no per-case Params.Overheads, no completion
//     overhead), 16 segments with read-ahead filling the segment.
//   - Not modelled for presets (zero values): first-block offsets,
//     reserved, spare and slipped sectors, serpentine mapping, zero-latency
//     access, read-any-free, the read watermark. Capacity is the IDEMA
//     figure; the derived geometry holds at most a cylinder more.
//
// A preset is therefore as good as its data sheet: the validated drives
// show what the structure achieves when every field is measured, not
// what a preset achieves.

const (
	mb  = 1e6
	mib = 1 << 20
	ms  = time.Millisecond
	us  = time.Microsecond
)

// Deskstar7K500Spec is the Hitachi Deskstar 7K500 (3.5-inch, 500 GB,
// SATA 3 Gb/s, NCQ).
//
// From DRIVES.md: 7200 rpm, 16 MB buffer, 8.5 ms average read seek, 30
// zones, 10 heads (derived there from 5 platters), zone 0 76.3 MB/s
// instantaneous / 64.8 MB/s sustained, zone 29 36.5 / 31.0 MB/s; the
// head switch time (about 1.5 ms) is derived from the zone 0 pair. The
// spec's random-read test (~77 IOPS at queue depth 1) is a check.
// Inferred: track-to-track 1.1 ms, full stroke 17 ms, write settle
// 0.5 ms, command overhead 0.3 ms; capacity is the IDEMA 500 GB figure
// (976,773,168 sectors).
func Deskstar7K500Spec() Spec {
	return Spec{
		Name: "deskstar-7k500", Capacity: 976773168 * 512, RPM: 7200, Heads: 10, Zones: 30,
		OuterInstant: 76.3 * mb, InnerInstant: 36.5 * mb, OuterSustained: 64.8 * mb, InnerSustained: 31.0 * mb,
		TrackToTrack: 1100 * us, AverageSeek: 8500 * us, FullStroke: 17 * ms, WriteSettle: 500 * us,
		ReadOverhead: 300 * us, InterfaceRate: 300 * mb, BufferSize: 16 * mib, WriteCache: true,
	}
}

// Deskstar7K1000Spec is the Hitachi Deskstar 7K1000 (HDS721010KLA330,
// 1 TB, SATA 3 Gb/s).
//
// From DRIVES.md: 7200 rpm, 32 MB buffer, 8.7 ms average seek, 5
// platters / 10 heads; sustained 86.9 MB/s outer and 46.4 MB/s inner
// (StorageReview figures quoted in seed 004). The data sheet's 134 MB/s
// "media transfer rate" counts format overhead and is not used.
// Inferred: 30 zones, track-to-track 1.0 ms, full stroke 17.5 ms, head
// switch 1.5 ms (as derived for the 7K500), write settle 0.5 ms, command
// overhead 0.3 ms; capacity 1,953,525,168 sectors (IDEMA 1 TB).
func Deskstar7K1000Spec() Spec {
	return Spec{
		Name: "deskstar-7k1000", Capacity: 1953525168 * 512, RPM: 7200, Heads: 10, Zones: 30,
		OuterSustained: 86.9 * mb, InnerSustained: 46.4 * mb,
		TrackToTrack: 1 * ms, AverageSeek: 8700 * us, FullStroke: 17500 * us, WriteSettle: 500 * us, HeadSwitch: 1500 * us,
		ReadOverhead: 300 * us, InterfaceRate: 300 * mb, BufferSize: 32 * mib, WriteCache: true,
	}
}

// Deskstar7K160Spec is the Hitachi Deskstar 7K160 in its 160 GB size
// (the drive of seed 003; seed 004 used the 80 GB HDS721680PLA380 of the
// same platter generation).
//
// From DRIVES.md / seed 004: 7200 rpm, sustained 75.8 MB/s max and
// 36.2 MB/s min; 8 MB buffer and ~8.5 ms average seek are marked
// unverified there. Seed 003 measured HD Tach averages of ~65 MB/s and
// 13.1-13.3 ms random access, and IOMeter sequential 74.7 MB/s: checks,
// not inputs. Inferred: 2 platters / 4 heads, 30 zones, track-to-track
// 1.1 ms, full stroke 17 ms, head switch 1.5 ms, write settle 0.5 ms,
// command overhead 0.3 ms; capacity 312,581,808 sectors (IDEMA 160 GB).
// Calibrated: the write cache holds 8 writes, from seed 003's IOMeter
// 32 KiB random writes at one outstanding I/O (113.7 ops/s measured; the
// model gives 118 with 8 entries, 165 with the default 32).
func Deskstar7K160Spec() Spec {
	return Spec{
		Name: "deskstar-7k160", Capacity: 312581808 * 512, RPM: 7200, Heads: 4, Zones: 30,
		OuterSustained: 75.8 * mb, InnerSustained: 36.2 * mb,
		TrackToTrack: 1100 * us, AverageSeek: 8500 * us, FullStroke: 17 * ms, WriteSettle: 500 * us, HeadSwitch: 1500 * us,
		ReadOverhead: 300 * us, InterfaceRate: 300 * mb, BufferSize: 8 * mib, WriteCache: true,
		WriteCacheEntries: 8,
	}
}

// Travelstar7K500Spec is the Hitachi Travelstar 7K500 (HTS7250xxA9A36x), the
// 2.5-inch 500 GB notebook drive of scenario S1 (not the Deskstar 7K500).
//
// From DRIVES.md: 7200 rpm, 16 MB buffer, SATA 3 Gb/s, NCQ; outer zone
// about 100-110 MB/s (a CrystalDiskMark sequential read of 110.4 MB/s),
// used as 110 MB/s sustained. Marked unverified there: 2 platters
// (4 heads) and an 11-12 ms average seek (11.5 ms used). Inferred: inner
// zone 55 MB/s (outer zones are about 2x the inner, DRIVES.md), 24
// zones, track-to-track 1.0 ms, full stroke 22 ms, head switch 1.0 ms,
// write settle 0.5 ms, command overhead 0.3 ms; capacity 976,773,168
// sectors.
func Travelstar7K500Spec() Spec {
	return Spec{
		Name: "travelstar-7k500", Capacity: 976773168 * 512, RPM: 7200, Heads: 4, Zones: 24,
		OuterSustained: 110 * mb, InnerSustained: 55 * mb,
		TrackToTrack: 1 * ms, AverageSeek: 11500 * us, FullStroke: 22 * ms, WriteSettle: 500 * us, HeadSwitch: 1 * ms,
		ReadOverhead: 300 * us, InterfaceRate: 300 * mb, BufferSize: 16 * mib, WriteCache: true,
	}
}

// WD1600AJSSpec is the Western Digital Caviar WD1600AJS (160 GB, SATA
// 3 Gb/s) of seed 003.
//
// From DRIVES.md (era-typical WD figures, partly unverified): 7200 rpm,
// 8 MB buffer, 8.9 ms average seek, track-to-track 2.0 ms, full stroke
// 21 ms, write seeks ~2 ms longer (write settle 2 ms). From seed 003:
// IOMeter sequential read 76.2 MB/s on a single drive, used as the outer
// sustained rate. Inferred: inner 50 MB/s so that the LBA-averaged rate
// comes near seed 003's HD Tach average of ~66 MB/s, 2 platters / 4
// heads, 30 zones, head switch 1.0 ms, command overhead 0.3 ms; capacity
// 312,581,808 sectors.
// Calibrated: the write cache holds 16 writes, from seed 003's IOMeter
// 32 KiB random writes at one outstanding I/O (121.7 ops/s measured; the
// model gives 117 with 16 entries, 132 with the default 32).
func WD1600AJSSpec() Spec {
	return Spec{
		Name: "wd-1600ajs", Capacity: 312581808 * 512, RPM: 7200, Heads: 4, Zones: 30,
		OuterSustained: 76.2 * mb, InnerSustained: 50 * mb,
		TrackToTrack: 2 * ms, AverageSeek: 8900 * us, FullStroke: 21 * ms, WriteSettle: 2 * ms, HeadSwitch: 1 * ms,
		ReadOverhead: 300 * us, InterfaceRate: 300 * mb, BufferSize: 8 * mib, WriteCache: true,
		WriteCacheEntries: 16,
	}
}

// Cheetah15K5Spec is the Seagate Cheetah 15K.5 (300 GB, 15000 rpm).
//
// From DRIVES.md: 15000 rpm, 16 MB buffer, 4 ms average seek, 4
// platters (8 heads), 125 MB/s maximum (outer sustained); write settle
// 0.5 ms from the comparable Ultrastar 15K450's 3.3 read / 3.8 write.
// Inferred: inner 73 MB/s, 24 zones, track-to-track 0.2 ms, full stroke
// 8 ms (two revolutions), head switch 0.5 ms, command overhead 0.15 ms,
// a 300 MB/s (SAS 3 Gb/s) interface; capacity 300e9 bytes.
func Cheetah15K5Spec() Spec {
	return Spec{
		Name: "cheetah-15k5", Capacity: 585937500 * 512, RPM: 15000, Heads: 8, Zones: 24,
		OuterSustained: 125 * mb, InnerSustained: 73 * mb,
		TrackToTrack: 200 * us, AverageSeek: 4 * ms, FullStroke: 8 * ms, WriteSettle: 500 * us, HeadSwitch: 500 * us,
		ReadOverhead: 150 * us, InterfaceRate: 300 * mb, BufferSize: 16 * mib, WriteCache: true,
	}
}

// UltrastarHC310Spec is a modern 7200 rpm drive, the WD Ultrastar DC
// HC310 (6 TB, 4Kn sectors, SATA 6 Gb/s).
//
// From DRIVES.md: 7200 rpm, 256 MB buffer, 7.4 ms read / 8.2 ms write
// average seek (write settle 0.8 ms), single-track seek 0.23 ms, ~250
// MB/s outer. Inferred: inner 120 MB/s, 5 platters / 10 heads, 30
// zones, full stroke 16 ms, head switch 0.5 ms, command overhead 0.1 ms,
// 4096-byte sectors (the 4Kn model); capacity 1,465,130,646 sectors of
// 4096 bytes.
func UltrastarHC310Spec() Spec {
	return Spec{
		Name: "ultrastar-hc310", Capacity: 1465130646 * 4096, SectorSize: 4096, RPM: 7200, Heads: 10, Zones: 30,
		OuterSustained: 250 * mb, InnerSustained: 120 * mb,
		TrackToTrack: 230 * us, AverageSeek: 7400 * us, FullStroke: 16 * ms, WriteSettle: 800 * us, HeadSwitch: 500 * us,
		ReadOverhead: 100 * us, InterfaceRate: 600 * mb, BufferSize: 256 * mib, WriteCache: true,
	}
}

var presetSpecs = map[string]func() Spec{
	"deskstar-7k160":   Deskstar7K160Spec,
	"deskstar-7k500":   Deskstar7K500Spec,
	"deskstar-7k1000":  Deskstar7K1000Spec,
	"travelstar-7k500": Travelstar7K500Spec,
	"wd-1600ajs":       WD1600AJSSpec,
	"cheetah-15k5":     Cheetah15K5Spec,
	"ultrastar-hc310":  UltrastarHC310Spec,
}

// PresetNames returns the names of the built-in drives, sorted.
func PresetNames() []string {
	names := make([]string, 0, len(presetSpecs))
	for n := range presetSpecs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// PresetSpec returns the data-sheet figures of the built-in drive called
// name.
func PresetSpec(name string) (Spec, error) {
	f, ok := presetSpecs[name]
	if !ok {
		return Spec{}, fmt.Errorf("disk: unknown preset %q (known: %s)", name, strings.Join(PresetNames(), ", "))
	}
	return f(), nil
}

// Preset returns the Params of the built-in drive called name, derived
// from its Spec with Spec.Params and defaults filled.
func Preset(name string) (Params, error) {
	s, err := PresetSpec(name)
	if err != nil {
		return Params{}, err
	}
	p, err := s.Params()
	if err != nil {
		return Params{}, err
	}
	p.FillDefaults()
	return p, nil
}
