package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/metrics"
	"github.com/raidsim/raidsim/ssd"
)

// driveFigures is the JSON form of one preset's derived figures.
type driveFigures struct {
	Name                    string  `json:"name"`
	CapacityBytes           int64   `json:"capacity_bytes"`
	RPM                     int     `json:"rpm"`
	Surfaces                int     `json:"surfaces"`
	Cylinders               int     `json:"cylinders"`
	Zones                   int     `json:"zones"`
	MeanRotationalLatencyMS float64 `json:"mean_rotational_latency_ms"`
	AverageSeekMS           float64 `json:"average_seek_ms"`
	RandomAccess4KMS        float64 `json:"random_4k_access_ms"`
	OuterMediaMBps          float64 `json:"outer_media_mb_per_s"`
	InnerMediaMBps          float64 `json:"inner_media_mb_per_s"`
	OuterSustainedMBps      float64 `json:"outer_sustained_mb_per_s"`
	InnerSustainedMBps      float64 `json:"inner_sustained_mb_per_s"`
	InterfaceMBps           float64 `json:"interface_mb_per_s"`
	BufferBytes             int64   `json:"buffer_bytes"`
	// SSD holds an SSD preset's figures (the disk fields are then zero).
	SSD *ssdFigures `json:"ssd,omitempty"`
}

// ssdFigures is the JSON form of an SSD preset's derived figures.
type ssdFigures struct {
	Interface          string  `json:"interface"`
	Dies               int     `json:"dies"`
	RawFlashBytes      int64   `json:"raw_flash_bytes"`
	OverProvisioning   float64 `json:"over_provisioning"`
	ReadLatency4KMS    float64 `json:"read_latency_4k_ms"`
	RandomRead4KIOPS   float64 `json:"random_read_4k_iops"`
	RandomWrite4KIOPS  float64 `json:"random_write_4k_iops"`
	SeqReadMBps        float64 `json:"seq_read_mb_per_s"`
	SeqWriteMBps       float64 `json:"seq_write_mb_per_s"`
	SeqWriteNativeMBps float64 `json:"seq_write_after_slc_mb_per_s"`
	SLCCacheBytes      int64   `json:"slc_cache_bytes"`
	WriteBufferBytes   int64   `json:"write_buffer_bytes"`
	SteadyWA           float64 `json:"steady_write_amplification"`
}

// drivesHelp introduces `raidsim drives --help`.
const drivesHelp = `Usage: raidsim drives [--json]

Lists the drive and SSD presets (raidsim run --drive NAME, stack.drive.preset
in a config) with figures derived from each model.
`

func runDrives(args []string, stdout, _ io.Writer) error {
	fs := newFlags("drives")
	asJSON := fs.Bool("json", false, "print JSON instead of a table")
	rest, err := parseFlags(fs, args, stdout, func(w io.Writer) { writeHelp(w, drivesHelp, fs) }, nil)
	if err != nil {
		return err
	}
	if err := noArgs(rest); err != nil {
		return err
	}
	var all []driveFigures
	for _, name := range disk.PresetNames() {
		p, err := disk.Preset(name)
		if err != nil {
			return err
		}
		f, err := disk.ComputeFigures(p)
		if err != nil {
			return err
		}
		all = append(all, driveFigures{
			Name: name, CapacityBytes: f.Capacity, RPM: f.RPM,
			Surfaces: f.Surfaces, Cylinders: f.Cylinders, Zones: f.Zones,
			MeanRotationalLatencyMS: ms(f.MeanRotationalLatency),
			AverageSeekMS:           ms(f.AverageSeek),
			RandomAccess4KMS:        ms(f.RandomAccess4K),
			OuterMediaMBps:          f.OuterInstant / 1e6, InnerMediaMBps: f.InnerInstant / 1e6,
			OuterSustainedMBps: f.OuterSustained / 1e6, InnerSustainedMBps: f.InnerSustained / 1e6,
			InterfaceMBps: f.InterfaceRate / 1e6, BufferBytes: f.BufferSize,
		})
	}
	ssds, err := ssdPresetFigures()
	if err != nil {
		return err
	}
	all = append(all, ssds...)
	if *asJSON {
		b, err := json.MarshalIndent(all, "", "  ")
		if err != nil {
			return err
		}
		_, err = stdout.Write(append(b, '\n'))
		return err
	}
	t := metrics.Table{
		Title: "Drive presets (figures derived from each model, MB/s = 10^6 bytes/s)",
		Header: []string{"preset", "capacity GB", "rpm", "rot. latency ms", "avg seek ms",
			"random 4K ms", "outer MB/s", "inner MB/s", "outer sust.", "inner sust.", "buffer MiB"},
		Notes: []string{
			"rot. latency: half a revolution. avg seek: the fitted curve averaged over uniformly random cylinder pairs.",
			"random 4K: overhead + average seek + half a revolution + transfer, the mean access at queue depth 1.",
			"outer/inner MB/s: one track's media rate; sust.: whole cylinders with head and cylinder switches.",
		},
	}
	for _, f := range all {
		if f.SSD != nil {
			continue
		}
		t.AddRow(f.Name, metrics.FormatFixed(float64(f.CapacityBytes)/1e9, 1), fmt.Sprint(f.RPM),
			metrics.FormatFixed(f.MeanRotationalLatencyMS, 2), metrics.FormatFixed(f.AverageSeekMS, 2),
			metrics.FormatFixed(f.RandomAccess4KMS, 2),
			metrics.FormatFixed(f.OuterMediaMBps, 1), metrics.FormatFixed(f.InnerMediaMBps, 1),
			metrics.FormatFixed(f.OuterSustainedMBps, 1), metrics.FormatFixed(f.InnerSustainedMBps, 1),
			metrics.FormatFixed(float64(f.BufferBytes)/(1<<20), 0))
	}
	if err := t.WriteText(stdout); err != nil {
		return err
	}
	return ssdTable(ssds).WriteText(stdout)
}

// ssdPresetFigures derives each SSD preset's figures.
func ssdPresetFigures() ([]driveFigures, error) {
	var out []driveFigures
	for _, name := range ssd.PresetNames() {
		p, err := ssd.Preset(name)
		if err != nil {
			return nil, err
		}
		m, err := ssd.NewModel(p)
		if err != nil {
			return nil, err
		}
		f := m.ComputeFigures()
		out = append(out, driveFigures{Name: name, CapacityBytes: f.Capacity, InterfaceMBps: p.LinkRate / 1e6,
			BufferBytes: p.WriteBuffer, SSD: &ssdFigures{
				Interface: p.Interface.String(), Dies: f.Dies, RawFlashBytes: f.RawFlash, OverProvisioning: p.OverProvisioning,
				ReadLatency4KMS: ms(f.ReadLatency4K), RandomRead4KIOPS: f.RandomRead4K, RandomWrite4KIOPS: f.RandomWrite4K,
				SeqReadMBps: f.SeqRead / 1e6, SeqWriteMBps: f.SeqWrite / 1e6, SeqWriteNativeMBps: f.SeqWriteNative / 1e6,
				SLCCacheBytes: p.SLCCache, WriteBufferBytes: p.WriteBuffer, SteadyWA: f.SteadyWA,
			}})
	}
	return out, nil
}

// ssdTable is the SSD presets' figures as a table.
func ssdTable(ssds []driveFigures) *metrics.Table {
	t := &metrics.Table{
		Title: "\nSSD presets (bounds of the slowest resource on each path, fresh drive)",
		Header: []string{"preset", "capacity GB", "interface", "dies", "OP %", "read 4K ms", "rand read IOPS",
			"rand write IOPS", "seq read MB/s", "seq write MB/s", "after SLC", "steady WA"},
		Notes: []string{
			"read 4K: an unloaded read (command, controller, page read, channel, link).",
			"IOPS, MB/s: the least of link, controller, dies and channels (4 KiB, 128 KiB).",
			"steady WA: greedy GC, uniform random writes, the preset's spare (Desnoyers 2012).",
			"Measure them: raidsim run --drive NAME --precondition fill.",
		},
	}
	for _, f := range ssds {
		s := f.SSD
		t.AddRow(f.Name, metrics.FormatFixed(float64(f.CapacityBytes)/1e9, 1), s.Interface, fmt.Sprint(s.Dies),
			metrics.FormatFixed(100*s.OverProvisioning, 1), metrics.FormatFixed(s.ReadLatency4KMS, 3),
			metrics.FormatFixed(s.RandomRead4KIOPS, 0), metrics.FormatFixed(s.RandomWrite4KIOPS, 0),
			metrics.FormatFixed(s.SeqReadMBps, 0), metrics.FormatFixed(s.SeqWriteMBps, 0),
			metrics.FormatFixed(s.SeqWriteNativeMBps, 0), metrics.FormatFixed(s.SteadyWA, 2))
	}
	return t
}
