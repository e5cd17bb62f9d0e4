package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/raidsim/raidsim/disk"
	"github.com/raidsim/raidsim/metrics"
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
}

// drivesHelp introduces `raidsim drives --help`.
const drivesHelp = `Usage: raidsim drives [--json]

Lists the drive presets (raidsim run --drive NAME, stack.drive.preset in a
config) with figures derived from each model.
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
		t.AddRow(f.Name, metrics.FormatFixed(float64(f.CapacityBytes)/1e9, 1), fmt.Sprint(f.RPM),
			metrics.FormatFixed(f.MeanRotationalLatencyMS, 2), metrics.FormatFixed(f.AverageSeekMS, 2),
			metrics.FormatFixed(f.RandomAccess4KMS, 2),
			metrics.FormatFixed(f.OuterMediaMBps, 1), metrics.FormatFixed(f.InnerMediaMBps, 1),
			metrics.FormatFixed(f.OuterSustainedMBps, 1), metrics.FormatFixed(f.InnerSustainedMBps, 1),
			metrics.FormatFixed(float64(f.BufferBytes)/(1<<20), 0))
	}
	return t.WriteText(stdout)
}
