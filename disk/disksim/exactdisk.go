package disksim

import (
	"math"

	"github.com/raidsim/raidsim/disk/disksim/exact"
)

// exactDisk reads the disksim_disk block and its model into m, with
// DiskSim's range checks (disk.modspec) and post-load adjustments
// (disk_postpass_perdisk).
func (l *loader) exactDisk(db *Block, m *exact.Model) error {
	d := &m.Disk
	sectors := 0
	var modelSeen bool
	flags := map[string]*bool{
		"Hold bus entire read xfer": &d.HoldBusRead, "Hold bus entire write xfer": &d.HoldBusWrite,
		"Allow almost read hits": &d.AlmostReadHits, "Allow sneaky full read hits": &d.SneakyFullHits,
		"Allow sneaky partial read hits": &d.SneakyPartialHits, "Allow sneaky intermediate read hits": &d.SneakyIntermediateHits,
		"Allow read hits on write data": &d.ReadHitsOnWrites, "Allow write prebuffering": &d.WritePrebuffering,
		"Never disconnect": &d.NeverDisconnect, "Use separate write segment": &d.SeparateWriteSegment,
		"Set watermark by reqsize": &d.WaterByRequest, "Read-ahead on idle hit": &d.ReadAheadOnIdleHit,
		"Read any free blocks": &d.ReadAnyFree, "Combine seq writes": &d.CombineWrites,
		"Stop prefetch in sector": &d.StopInSector, "Disconnect write if seek": &d.DisconnectInSeek,
		"Write hit stop prefetch": &d.WriteHitStopsReadAhead, "Read directly to buffer": &d.ReadDirect,
		"Immed transfer partial hit": &d.ImmedTransferPartial, "Extra write disconnect": &d.ExtraWriteDisconnect,
		"Print stats": new(bool), "Calc sector by sector": new(bool),
	}
	times := map[string]*float64{
		"Bulk sector transfer time": &d.BlockTime, "Per-request overhead time": &d.Overhead,
		"Time scale for overheads":  &d.TimeScale,
		"Read hit over. after read": &d.ReadHitAfterRead, "Read hit over. after write": &d.ReadHitAfterWrite,
		"Read miss over. after read": &d.ReadMissAfterRead, "Read miss over. after write": &d.ReadMissAfterWrite,
		"Write hit over. after read": &d.WriteHitAfterRead, "Write hit over. after write": &d.WriteHitAfterWrite,
		"Write miss over. after read": &d.WriteMissAfterRead, "Write miss over. after write": &d.WriteMissAfterWrite,
		"Read completion overhead": &d.ReadCompletion, "Write completion overhead": &d.WriteCompletion,
		"Data preparation overhead": &d.DataPreparation, "First reselect overhead": &d.FirstReselect,
		"Other reselect overhead": &d.OtherReselect, "Read disconnect afterread": &d.ReadDisconnectAfterRead,
		"Read disconnect afterwrite": &d.ReadDisconnectAfterWrite, "Write disconnect overhead": &d.WriteDisconnect,
		"Extradisc command overhead": &d.ExtraCommand, "Extradisc disconnect overhead": &d.ExtraDisconnect,
		"Extradisc inter-disconnect delay": &d.ExtraInterDisconnect, "Extradisc 2nd disconnect overhead": &d.ExtraDisconnect2,
		"Extradisc seek delta": &d.ExtraSeekDelta, "Minimum seek delay": &d.MinimumSeekDelay,
	}
	var keep, caching, immedR, immedW int64
	err := readBlock(db, diskSpecs, func(name string, p Param) error {
		f, _ := p.Value.Float()
		switch name {
		case "Print stats":
			l.ignore(db.Type, name, "statistics only")
		case "Calc sector by sector":
			l.ignore(db.Type, name, "DiskSim 4.0 reads it and times nothing by it")
		}
		// The loaders disk.modspec generates test their ranges and do
		// nothing when a value is out of range: DiskSim stops only on
		// what disk_postpass_perdisk checks (the flags it wants 0 or 1,
		// below, and the buffer in postpass).
		if b, ok := flags[name]; ok {
			*b = f != 0
			if postpassFlags[name] {
				return postpassRanged(p, f, 0, 1)
			}
			return nil
		}
		if t, ok := times[name]; ok {
			*t = f
			return nil
		}
		n := int(f)
		switch name {
		case "Model":
			modelSeen = true
			var err error
			sectors, err = l.exactModelBlock(p.Value.Block, m)
			return err
		case "Scheduler":
			return l.exactQueue(p.Value.Block, &m.Queue)
		case "Max queue length":
			d.MaxQueue = n
			return postpassRanged(p, f, 0, math.Inf(1))
		case "Segment size (in blks)", "Avg sectors per cylinder":
			if name == "Segment size (in blks)" {
				d.SegmentSize = n
			}
			if !modelSeen {
				// its loader's range test reads the disk's size from
				// the model, which is not loaded yet (a null pointer)
				return errAt(p.Pos, "%s: DiskSim reads the disk's size from the Model given before it (given after, DiskSim crashes)", name)
			}
		case "Number of buffer segments":
			d.Segments = n
		case "Maximum number of write segments":
			d.WriteSegments = n
		case "Preseeking level":
			d.Preseek = n
			return postpassRanged(p, f, 0, 2)
		case "Low (write) water mark":
			d.LowWater = f
		case "High (read) water mark":
			d.HighWater = f
		case "Enable caching in buffer":
			caching = int64(n)
		case "Buffer continuous read":
			d.ContRead = n
		case "Minimum read-ahead (blks)":
			d.MinReadAhead = n
		case "Maximum read-ahead (blks)":
			d.MaxReadAhead = n
		case "Read-ahead over requested":
			keep = int64(n)
		case "Fast write level":
			d.FastWrite = n
			return postpassRanged(p, f, 0, 2)
		case "Immediate buffer read":
			immedR = int64(n)
		case "Immediate buffer write":
			immedW = int64(n)
		}
		return nil
	})
	if err != nil {
		return err
	}
	d.Caching, d.ImmedRead, d.ImmedWrite = caching != 0, immedR != 0, immedW != 0
	d.KeepRequestData = int(keep)
	if keep >= 0 {
		d.KeepRequestData = int(math.Abs(float64(keep - 1)))
	}
	return l.postpass(db, d, sectors)
}

// postpassFlags are the flags disk_postpass_perdisk stops on unless 0
// or 1; DiskSim takes any other flag's value and tests it for non-zero.
var postpassFlags = map[string]bool{
	"Read-ahead on idle hit": true, "Combine seq writes": true, "Hold bus entire read xfer": true,
	"Hold bus entire write xfer": true, "Allow almost read hits": true, "Allow sneaky full read hits": true,
	"Allow sneaky partial read hits": true, "Allow sneaky intermediate read hits": true,
	"Allow read hits on write data": true, "Allow write prebuffering": true, "Never disconnect": true,
	"Use separate write segment": true,
}

// postpassRanged returns an error unless lo <= v <= hi, for the values
// disk_postpass_perdisk checks.
func postpassRanged(p Param, v, lo, hi float64) error {
	if v < lo || v > hi || math.IsNaN(v) {
		return errAt(p.Pos, "%s = %g: DiskSim accepts %g..%g only (disk_postpass_perdisk)", p.Key, v, lo, hi)
	}
	return nil
}

// postpass applies disk_postpass_perdisk: its adjustments, and its
// checks, which stop DiskSim.
func (l *loader) postpass(db *Block, d *exact.Disk, sectors int) error {
	rej := func(why string) error {
		return errAt(db.Pos, "%s %s: %s: DiskSim rejects it (disk_postpass_perdisk)", db.Type, db.Name, why)
	}
	switch {
	case d.ContRead != 0 && !d.Caching:
		return rej("read-ahead (Buffer continuous read) without caching in the buffer")
	case d.ReadAnyFree && !d.Caching:
		return rej("Read any free blocks without caching in the buffer")
	case d.FastWrite != 0 && !d.Caching:
		return rej("a fast write level without caching in the buffer")
	case d.HoldBusRead && (d.SneakyFullHits || d.SneakyPartialHits || d.SneakyIntermediateHits):
		return rej("Hold bus entire read xfer with sneaky read hits")
	case d.Segments < 1:
		return rej("no buffer segments")
	case d.SegmentSize < 1 || d.SegmentSize > sectors:
		return rej("the segment size")
	case d.WriteSegments > d.Segments || d.WriteSegments < 1:
		return rej("the number of write segments")
	case d.Segments <= 1 && d.SeparateWriteSegment:
		return rej("a separate write segment with one segment")
	}
	if d.ContRead == 0 && d.MinReadAhead > 0 {
		d.MinReadAhead = 0
	}
	if d.MaxReadAhead < d.MinReadAhead || (d.ContRead == 0 && d.MaxReadAhead > 0) {
		d.MaxReadAhead = d.MinReadAhead
	}
	return nil
}
