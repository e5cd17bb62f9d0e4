package main

import (
	"fmt"
	"time"

	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/raid/raidz"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/smr"
)

// Sizes scale the runs; the test uses smaller ones.
type Sizes struct {
	// Partition is the bytes of each drive the arrays use: a partition
	// at the start of the disk, as Ars Technica partitioned its 12 TB
	// drives to test a 4 TB replacement. The SMR replacement keeps its
	// whole layout (media cache, bands) under the partition.
	Partition int64
	// Fill is the fraction of the RAIDZ volume holding data when the
	// disk fails; Streams the files written side by side that filled it
	// (a NAS's clients copying at once), so their records interleave.
	Fill    float64
	Streams int
	// HostRAM is the NAS's memory: OpenZFS's sorted resilver gathers as
	// many block pointers as 5% of it holds (zfs_scan_mem_lim_fact 20)
	// before issuing them sorted by disk offset.
	HostRAM int64
	// PoolBytes is the size of the real pool the example stands for (4
	// x 4 TB at Fill), which sets the share of it one sorted batch is.
	PoolBytes int64
	// RandomAfter is the random writes measured once the media cache is
	// full; Idle the idle time given to cleaning before measuring again.
	RandomAfter int
	Idle        time.Duration
}

// FullSizes are what `go run` uses.
var FullSizes = Sizes{Partition: 64 << 30, Fill: 0.5, Streams: 8, HostRAM: 16 << 30, PoolBytes: 12e12,
	RandomAfter: 200, Idle: time.Hour}

// scanBatch is the records one sorted batch of the resilver holds, scaled
// from the real pool to the example's. Inferred: about 200 bytes of
// memory per queued block pointer (OpenZFS's scan_io_t and its place in
// the sorted range tree), so 5% of HostRAM holds HostRAM/20/200 block
// pointers out of PoolBytes*Fill/recordsize: that share of the example's
// records makes one batch.
func (sz Sizes) scanBatch(records int64) int {
	held := float64(sz.HostRAM) / 20 / 200
	pool := float64(sz.PoolBytes) * sz.Fill / raidz.DefaultRecordSize
	share := min(held/pool, 1)
	return max(1, int(share*float64(records)))
}

// Level is one array of the comparison.
type Level struct {
	// Name is "RAIDZ1", "md RAID 5", "md RAID 6".
	Name string
}

// Levels are the arrays compared.
var Levels = []string{"RAIDZ1", "md RAID 5", "md RAID 6"}

// Outcome is one rebuild's result.
type Outcome struct {
	Level, Spare string
	// Seconds is the rebuild's duration; Bytes what it wrote to the
	// replacement.
	Seconds float64
	Bytes   int64
	// Writes counts the replacement's writes; MeanWrite their mean size.
	Writes    int64
	MeanWrite float64
	// SMR is the replacement's translation layer's counters (SMR only).
	SMR *smr.Stats
	// Progress samples the rebuild's progress (0..1) over time in s;
	// Cache the SMR replacement's media cache over time.
	ProgressT, Progress []float64
	Cache               []smr.Point
}

// partition is the first size bytes of a drive.
type partition struct {
	sim.Device
	size int64
}

func (p *partition) Capacity() int64 { return p.size }

func (p *partition) Submit(r *sim.Request) error {
	if r.Op != sim.Flush && r.End() > p.size {
		return fmt.Errorf("partition: %v: %w (%d bytes)", r, sim.ErrOutOfRange, p.size)
	}
	return p.Device.Submit(r)
}

// meter counts the writes a device is sent.
type meter struct {
	sim.Device
	writes, bytes int64
}

func (m *meter) Submit(r *sim.Request) error {
	if r.Op == sim.Write {
		m.writes++
		m.bytes += r.Length
	}
	return m.Device.Submit(r)
}

// newDrive builds a drive of preset on eng, partitioned to sz.
func newDrive(eng *sim.Engine, preset, name string, sz Sizes) (sim.Device, *smr.Drive, error) {
	p, err := smr.Preset(preset)
	if err != nil {
		return nil, nil, err
	}
	m, err := smr.NewModel(p)
	if err != nil {
		return nil, nil, err
	}
	d, err := m.NewDevice(eng, name, nil)
	if err != nil {
		return nil, nil, err
	}
	s, _ := d.(*smr.Drive)
	return &partition{Device: d, size: min(sz.Partition, d.Capacity())}, s, nil
}

// rebuilder is what the comparison needs of an array.
type rebuilder interface {
	Fail(m int) error
	Rebuild(spare sim.Device) error
}

// RunRebuild rebuilds member 0 of a 4-drive array of level (members of
// the CMR preset member) onto a new drive of preset spare, and reports
// it.
func RunRebuild(level, member, spare string, sz Sizes) (*Outcome, error) {
	eng := sim.NewEngine(27)
	members := make([]sim.Device, 4)
	for i := range members {
		d, _, err := newDrive(eng, member, fmt.Sprintf("disk%d", i), sz)
		if err != nil {
			return nil, err
		}
		members[i] = d
	}
	var arr rebuilder
	var progress func() (float64, bool)
	switch level {
	case "RAIDZ1":
		a, err := raidz.New(eng, raidz.Config{Parity: 1}, members, "raidz1")
		if err != nil {
			return nil, err
		}
		records := int64(sz.Fill * float64(a.Capacity()/raidz.DefaultRecordSize))
		cfg := a.Config()
		cfg.ScanBatch = sz.scanBatch(records)
		if a, err = raidz.New(eng, cfg, members, "raidz1"); err != nil {
			return nil, err
		}
		if err := a.Fill(sz.Fill, sz.Streams); err != nil {
			return nil, err
		}
		arr = a
		progress = func() (float64, bool) { rb := a.RebuildStats(); return rb.Progress, rb.Active }
	default:
		l := raid.RAID5
		if level == "md RAID 6" {
			l = raid.RAID6
		}
		// mdadm's default chunk, 512 KiB; the rebuild as fast as the
		// drives go (speed_limit_max raised, as for a test).
		a, err := raid.New(eng, raid.Config{Level: l, StripeUnit: 512 << 10}, members, "md", nil)
		if err != nil {
			return nil, err
		}
		arr = a
		progress = func() (float64, bool) { rb := a.Stats().Rebuild; return rb.Progress, rb.Active }
	}
	sp, smrDrive, err := newDrive(eng, spare, "spare", sz)
	if err != nil {
		return nil, err
	}
	mt := &meter{Device: sp}
	if err := arr.Fail(0); err != nil {
		return nil, err
	}
	if err := arr.Rebuild(mt); err != nil {
		return nil, err
	}
	out := &Outcome{Level: level, Spare: spare}
	step := 10 * time.Second
	var tick sim.HandlerFunc
	tick = func(now sim.Time, _ any) {
		p, active := progress()
		out.ProgressT = append(out.ProgressT, now.Sub(0).Seconds())
		out.Progress = append(out.Progress, p)
		if active {
			eng.After(step, tick, nil)
		} else {
			out.Seconds = now.Sub(0).Seconds()
		}
	}
	eng.After(0, tick, nil)
	for out.Seconds == 0 && eng.Step() {
	}
	if p, _ := progress(); p < 1 {
		return nil, fmt.Errorf("%s onto %s: the rebuild stopped at %.1f%%", level, spare, 100*p)
	}
	// The exact end: the last sample is up to one step late.
	if rb, ok := arr.(interface{ RebuildStats() raid.RebuildStats }); ok {
		out.Seconds = rb.RebuildStats().Duration.Seconds()
	} else {
		out.Seconds = arr.(*raid.Array).Stats().Rebuild.Duration.Seconds()
	}
	out.Writes, out.Bytes = mt.writes, mt.bytes
	if mt.writes > 0 {
		out.MeanWrite = float64(mt.bytes) / float64(mt.writes)
	}
	if smrDrive != nil {
		st := smrDrive.Stats()
		out.SMR = &st
		// The array idle after the rebuild: the drive cleans its cache.
		eng.RunUntil(eng.Now().Add(sz.Idle))
		out.Cache = smrDrive.Series()
	}
	return out, nil
}
