package main

import (
	"encoding/json"
	"io"

	"github.com/raidsim/raidsim/drive"
	"github.com/raidsim/raidsim/metrics"
	"github.com/raidsim/raidsim/spec"
)

// drivesHelp introduces `raidsim drives --help`.
const drivesHelp = `Usage: raidsim drives [--json]

Lists the drive and SSD presets (raidsim run --drive NAME, stack.drive.preset
in a config) with figures derived from each model.
`

// runDrives lists every kind's presets (spec.DriveKinds) with their
// models' datasheets: one table per kind, or one JSON list.
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
	var sheets []drive.Datasheet
	for _, k := range spec.DriveKinds() {
		for _, name := range k.Presets() {
			m, err := k.Preset(name)
			if err != nil {
				return err
			}
			ds, err := m.Datasheet()
			if err != nil {
				return err
			}
			sheets = append(sheets, ds)
		}
	}
	if *asJSON {
		b, err := json.MarshalIndent(sheets, "", "  ")
		if err != nil {
			return err
		}
		_, err = stdout.Write(append(b, '\n'))
		return err
	}
	rows := make([]drive.Row, len(sheets))
	for i, ds := range sheets {
		rows[i] = ds.Row()
	}
	for _, t := range drive.Tables(rows) {
		mt := metrics.Table{Title: t.Title, Header: t.Header, Notes: t.Notes, Rows: t.Rows}
		if err := mt.WriteText(stdout); err != nil {
			return err
		}
	}
	return nil
}
