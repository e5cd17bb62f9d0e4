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
	segSize := 0 // as loaded so far: later checks read it
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
		if b, ok := flags[name]; ok {
			*b = f != 0
			return ranged(p, f, 0, 1)
		}
		if t, ok := times[name]; ok {
			*t = f
			return ranged(p, f, 0, math.Inf(1))
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
			return ranged(p, f, 0, math.Inf(1))
		case "Segment size (in blks)":
			segSize = n
			d.SegmentSize = n
			if !modelSeen {
				return errAt(p.Pos, "Segment size (in blks): DiskSim checks it against the disk's size, read from the Model given before it")
			}
			return ranged(p, f, 1, float64(sectors))
		case "Number of buffer segments":
			d.Segments = n
			return ranged(p, f, 0, math.Inf(1))
		case "Maximum number of write segments":
			d.WriteSegments = n
			return ranged(p, f, 1, float64(d.Segments))
		case "Preseeking level":
			d.Preseek = n
			return ranged(p, f, 0, 2)
		case "Low (write) water mark":
			d.LowWater = f
			return ranged(p, f, 0, 1)
		case "High (read) water mark":
			d.HighWater = f
			return ranged(p, f, 0, 1)
		case "Enable caching in buffer":
			caching = int64(n)
			return ranged(p, f, 0, 2)
		case "Buffer continuous read":
			d.ContRead = n
			return ranged(p, f, 0, 4)
		case "Minimum read-ahead (blks)":
			d.MinReadAhead = n
			return ranged(p, f, 0, float64(segSize))
		case "Maximum read-ahead (blks)":
			d.MaxReadAhead = n
			return ranged(p, f, 0, float64(segSize))
		case "Read-ahead over requested":
			keep = int64(n)
			return ranged(p, f, -1, 1)
		case "Fast write level":
			d.FastWrite = n
			return ranged(p, f, 0, 2)
		case "Immediate buffer read":
			immedR = int64(n)
			return ranged(p, f, 0, 2)
		case "Immediate buffer write":
			immedW = int64(n)
			return ranged(p, f, 0, 2)
		case "Avg sectors per cylinder":
			return ranged(p, f, 1, float64(sectors))
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
