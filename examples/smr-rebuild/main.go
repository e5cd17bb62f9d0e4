// Command smr-rebuild answers the question NAS users asked in 2020, when
// drive-managed SMR disks turned up in WD's Red line: is this drive safe
// as the replacement in my array, and how long will the rebuild take?
//
// It rebuilds one failed member of a 4-drive array (members: the CMR WD
// Red 4 TB, WD40EFRX) onto a new WD40EFAX (SMR) or a new WD40EFRX, for
// ZFS RAIDZ1 (the pool half full, filled by 8 writers at once) and for
// Linux md RAID 5 and RAID 6 (512 KiB chunks), on a 64 GiB partition at
// the start of each drive (as Ars Technica partitioned its drives to fit
// the 4 TB replacement). It prints the rebuild times side by side, the
// replacement's writes and what its translation layer did; then sustained
// 4 KiB random writes on each SMR preset until the media cache fills,
// once it is full, and after an hour idle. With --plots DIR it draws
// the rebuilds' progress over time, the SMR replacement's media cache
// during the RAIDZ1 rebuild, and the random-write rates.
//
//	go run ./examples/smr-rebuild [--plots out/smr] [--force]
//
// The test (directions_long_test.go, -tags long) asserts the directions: the SMR
// replacement rebuilds RAIDZ1 several times slower than the CMR one, md's
// large sequential rebuild writes suffer far less, and idle cleaning
// restores random-write throughput.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/raidsim/raidsim/internal/outfile"
	"github.com/raidsim/raidsim/plot"
)

// The drives compared: the members and the CMR replacement are WD
// Red 4 TB CMR drives, the SMR replacement their EFAX sibling.
const (
	CMR = "wd40efrx"
	SMR = "wd40efax"
)

// SMRPresets are the drives of the random-write test.
var SMRPresets = []string{"wd40efax", "st8000as0002"}

func main() {
	dir := flag.String("plots", "", "write the figures (SVG) to this directory")
	force := flag.Bool("force", false, "replace existing figures")
	flag.Parse()
	if err := run(os.Stdout, FullSizes, *dir, *force); err != nil {
		fmt.Fprintln(os.Stderr, "smr-rebuild:", err)
		os.Exit(1)
	}
}

// Results are every run of the example.
type Results struct {
	Rebuilds []*Outcome
	Random   []*RandomWrites
}

// RunAll runs every rebuild and random-write test at sizes sz.
func RunAll(sz Sizes) (*Results, error) {
	res := &Results{}
	for _, level := range Levels {
		for _, spare := range []string{CMR, SMR} {
			o, err := RunRebuild(level, CMR, spare, sz)
			if err != nil {
				return nil, fmt.Errorf("%s onto %s: %w", level, spare, err)
			}
			res.Rebuilds = append(res.Rebuilds, o)
		}
	}
	for _, p := range SMRPresets {
		r, err := RunRandomWrites(p, sz)
		if err != nil {
			return nil, fmt.Errorf("random writes on %s: %w", p, err)
		}
		res.Random = append(res.Random, r)
	}
	return res, nil
}

func run(w io.Writer, sz Sizes, dir string, force bool) error {
	var targets []outfile.Target
	if dir != "" {
		for _, n := range []string{"rebuild-progress.svg", "smr-cache.svg", "random-writes.svg"} {
			targets = append(targets, outfile.Target{Name: "--plots", Path: filepath.Join(dir, n), Exts: []string{".svg"}})
		}
		pol := outfile.Policy{Force: force}
		if err := pol.Check(targets...); err != nil {
			return err
		}
	}
	res, err := RunAll(sz)
	if err != nil {
		return err
	}
	res.Print(w, sz)
	if dir == "" {
		return nil
	}
	pol := outfile.Policy{Force: force}
	for i, f := range res.Figures() {
		if err := pol.Write(targets[i], func(w io.Writer) error { return f.Render(w, "svg") }); err != nil {
			return err
		}
	}
	return nil
}

// Print writes the tables.
func (res *Results) Print(w io.Writer, sz Sizes) {
	fmt.Fprintf(w, "Rebuild of member 0 of 4 (members %s, %d GiB partitions; RAIDZ1 %.0f%% full, filled by %d writers)\n\n",
		CMR, sz.Partition>>30, 100*sz.Fill, sz.Streams)
	fmt.Fprintf(w, "%-10s %-9s %10s %8s %9s %10s %10s %10s %11s\n", "array", "spare", "rebuild s", "vs CMR",
		"writes", "mean KiB", "to cache", "to bands", "band cleans")
	cmr := map[string]float64{}
	for _, o := range res.Rebuilds {
		if o.Spare == CMR {
			cmr[o.Level] = o.Seconds
		}
		toCache, toBands, cleans := "-", "-", "-"
		if o.SMR != nil {
			toCache = fmt.Sprint(o.SMR.CacheWrites)
			toBands = fmt.Sprint(o.SMR.DirectWrites)
			cleans = fmt.Sprint(o.SMR.BandCleans)
		}
		fmt.Fprintf(w, "%-10s %-9s %10.0f %7.1fx %9d %10.1f %10s %10s %11s\n", o.Level, o.Spare, o.Seconds,
			o.Seconds/cmr[o.Level], o.Writes, o.MeanWrite/1024, toCache, toBands, cleans)
	}
	fmt.Fprintf(w, "\nSustained 4 KiB random writes at queue depth %d (every band holding data)\n\n", depth)
	fmt.Fprintf(w, "%-13s %14s %12s %12s %14s %12s\n", "drive", "cache filling", "writes", "cache full", "after idle", "idle cleans")
	for _, r := range res.Random {
		fmt.Fprintf(w, "%-13s %12.0f/s %12d %10.1f/s %12.0f/s %12d\n", r.Preset, r.Fresh, r.FillWrites, r.Full, r.AfterIdle, r.IdleCleans)
	}
	fmt.Fprintf(w, "\n(idle: %v between the full-cache and after-idle measurements)\n", sz.Idle)
}

// Figures are the rebuilds' progress, the SMR replacement's media cache
// during the RAIDZ1 rebuild, and the random-write rates.
func (res *Results) Figures() []plot.LinesFigure {
	prog := plot.LinesFigure{Title: "Rebuild progress", XLabel: "time since the failure (s)", YLabel: "rebuilt (%)"}
	cache := plot.LinesFigure{Title: "SMR replacement during the RAIDZ1 resilver", XLabel: "time (s)", YLabel: "media cache log (MiB); bands cleaned / 10"}
	for _, o := range res.Rebuilds {
		s := plot.LineSeries{Name: o.Level + " onto " + o.Spare}
		for i, t := range o.ProgressT {
			s.X, s.Y = append(s.X, t), append(s.Y, 100*o.Progress[i])
		}
		prog.Series = append(prog.Series, s)
		if o.Level == "RAIDZ1" && o.SMR != nil {
			used := plot.LineSeries{Name: "media cache log, MiB"}
			cleans := plot.LineSeries{Name: "bands cleaned / 10"}
			for _, p := range o.Cache {
				used.X, used.Y = append(used.X, p.T), append(used.Y, float64(p.CacheUsedBytes)/(1<<20))
				cleans.X, cleans.Y = append(cleans.X, p.T), append(cleans.Y, float64(p.BandCleans)/10)
			}
			cache.Series = append(cache.Series, used, cleans)
		}
	}
	rates := plot.LinesFigure{Title: "Sustained 4 KiB random writes", XLabel: "", YLabel: "writes/s", LogY: true}
	for _, r := range res.Random {
		rates.Series = append(rates.Series, plot.LineSeries{Name: r.Preset, Labels: []string{"cache filling", "cache full", "after idle"},
			Y: []float64{r.Fresh, r.Full, r.AfterIdle}})
	}
	return []plot.LinesFigure{prog, cache, rates}
}
