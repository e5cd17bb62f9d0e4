package benchmark

import (
	"errors"
	"fmt"

	"github.com/raidsim/raidsim"
	"github.com/raidsim/raidsim/spec"
)

// IOzone describes an iozone-style file test (iozone -i 0 -i 1): for
// each file size and record size, a fresh stack (a new file: nothing of
// it cached) runs write, rewrite, read and reread of the file, one
// record at a time, as iozone does without -e or -I: writes are timed
// until the last is acknowledged (by the page cache, when the stack has
// a host), so dirty data left behind is written back during the tests
// that follow. File data is contiguous on the volume from Offset.
type IOzone struct {
	// Stack is the storage stack, usually with a host
	// (Stack.Host.Preset) whose page cache is in play.
	Stack spec.Stack
	// Seed seeds each run.
	Seed uint64
	// FileSizes and RecordSizes are in bytes; every record size must
	// divide the file sizes it runs with (pairs where it does not are
	// skipped, as iozone -a skips records larger than the file).
	FileSizes, RecordSizes []int64
	// Offset is where the file starts on the volume, bytes.
	Offset int64
}

// IOzoneTests names the four tests of an IOzonePoint, in order.
var IOzoneTests = [4]string{"write", "rewrite", "read", "reread"}

// IOzonePoint is one file size and record size of an IOzone run.
type IOzonePoint struct {
	// FileSize and RecordSize are in bytes.
	FileSize, RecordSize int64
	// MBPerS is each test's throughput in MB/s (10^6 bytes/s): the file
	// size over the time from its first record to its last answer, by
	// IOzoneTests.
	MBPerS [4]float64
	// CPUPct is the host's CPU utilization during each test (zero
	// without a host).
	CPUPct [4]float64
}

// maxIOzonePoints bounds the size x record grid.
const maxIOzonePoints = 4096

// Run runs every file size and record size in order.
func (z IOzone) Run() ([]IOzonePoint, error) {
	if len(z.FileSizes)*len(z.RecordSizes) > maxIOzonePoints {
		return nil, fmt.Errorf("benchmark: iozone: %d file sizes x %d record sizes is more than %d points", len(z.FileSizes), len(z.RecordSizes), maxIOzonePoints)
	}
	var out []IOzonePoint
	var errs []error
	for _, fs := range z.FileSizes {
		for _, rs := range z.RecordSizes {
			if fs <= 0 || rs <= 0 {
				errs = append(errs, fmt.Errorf("benchmark: iozone: file size %d and record size %d must be positive", fs, rs))
				continue
			}
			if fs%rs != 0 {
				continue
			}
			p, err := z.point(fs, rs)
			if err != nil {
				return nil, fmt.Errorf("benchmark: iozone file %d, record %d: %w", fs, rs, err)
			}
			out = append(out, p)
		}
	}
	return out, errors.Join(errs...)
}

// point runs the four tests of one file and record size on a fresh
// stack.
func (z IOzone) point(fs, rs int64) (IOzonePoint, error) {
	p := IOzonePoint{FileSize: fs, RecordSize: rs}
	x := &spec.Experiment{Seed: z.Seed, Stack: z.Stack}
	for i, t := range IOzoneTests {
		rw := "write"
		if i >= 2 {
			rw = "read"
		}
		x.Phases = append(x.Phases, spec.Phase{Name: t, Job: spec.Job{RW: rw, BS: spec.Size(rs), Offset: spec.Size(z.Offset), Size: spec.Size(fs)}})
	}
	rep, err := raidsim.Run(x)
	if err != nil {
		return p, err
	}
	for i, ph := range rep.Phases {
		if ph.SimSeconds > 0 {
			p.MBPerS[i] = float64(fs) / ph.SimSeconds / 1e6
		}
		if ph.Host != nil {
			p.CPUPct[i] = ph.Host.CPUUtilizationPct
		}
	}
	return p, nil
}
