package exact

import "math"

// The G1 mechanics as diskmodel/mech_g1.c and mech_g1_seektime.c compute
// them, in DiskSim's fixed-point units: times in picoseconds (dm_time_t),
// angles in 2^-32 of a revolution (dm_angle_t).

// Seek types (mech_g1.h disk_seek_t).
const (
	seekConst = iota
	seekLine
	seekCurve
	seekHPL
	seekHPL10
	seekExtracted
)

// psPerMs converts milliseconds to DiskSim's picoseconds.
const psPerMs = 1e9

// msToPs converts ms to picoseconds, truncating (dm_time_dtoi). The
// reference build multiplies in the x87's 64-bit mantissa before it
// truncates: where the double product rounds up to a whole number of
// picoseconds that the exact product falls short of by more than half a
// 64-bit ulp, DiskSim truncates to the picosecond below (a head then
// just misses a sector's start rather than catching it).
func msToPs(ms float64) int64 {
	p := ms * psPerMs
	if p != 0 && p == math.Trunc(p) {
		e := math.FMA(ms, psPerMs, -p) // the product's rounding error, exactly
		_, exp := math.Frexp(p)
		half := math.Ldexp(1, exp-65)
		switch {
		case p > 0 && e < 0 && -e > half:
			return int64(p) - 1
		case p < 0 && e > 0 && e > half:
			return int64(p) + 1
		}
	}
	return int64(p)
}

// Picoseconds converts a time in ms to DiskSim's picosecond count as
// its loader does (dm_time_dtoi in the reference build: the x87
// product truncated), for the mechanical times a model loads.
func Picoseconds(ms float64) int64 { return msToPs(ms) }

// psToMs converts picoseconds to ms (dm_time_itod).
func psToMs(ps int64) float64 { return float64(ps) / psPerMs }

// mech is a dm_mech_g1 as loaded. The "Constant", "Average", "Single
// cylinder" and "Full strobe" seek times are kept as DiskSim's loader
// stores them: the millisecond figure truncated into a picosecond field
// (so those seek types give seeks of a few picoseconds); the head
// switch, write settle, ten first seeks, HPL values and extracted curve
// are converted to picoseconds.
type mech struct {
	seekType                 int
	seekTime, one, avg, full int64 // ps fields as stored
	writeDelta               int64
	hplV1                    int
	hpl                      [6]int64 // hpl[0] is not loaded: see the loader
	first10                  [10]int64
	xDist                    []int
	xTime                    []int64
	xBeforeDist              int
	xBeforeTime              int64
	headSwitch               int64
	period                   int64 // one revolution, ps
	lay                      *layout
}

// seekFn returns the seek time between cylinders, before head switch and
// write settle (the dm_mech_g1_seek_* functions).
func (m *mech) seekFn(c1, h1, c2, h2 int) int64 {
	d := c2 - c1
	if d < 0 {
		d = -d
	}
	switch m.seekType {
	case seekConst:
		return m.seekTime
	case seekLine:
		// dm_mech_g1_seek_3pt_line compares the distance with a third
		// of itself, so every seek of two or more cylinders takes the
		// full-strobe figure.
		switch d {
		case 0:
			return 0
		case 1:
			return m.one
		}
		return m.full
	case seekCurve:
		if d == 0 {
			return 0
		}
		return m.one + m.avg*int64(d-1) + m.full*int64(sqrt32(uint32(d-1)))
	case seekHPL:
		return m.seekHPL(d)
	case seekHPL10:
		return m.seekHPL10(d, h1, h2)
	}
	return m.seekExtracted(d)
}

func (m *mech) seekHPL(d int) int64 {
	switch {
	case d == 0:
		return 0
	case d == 1 && m.hpl[5] != -1:
		return m.one
	case int64(d) < m.hpl[0]:
		return int64(sqrt64(uint64(d)<<32)*uint64(m.hpl[2])>>16) + m.hpl[1]
	}
	return int64(float64(m.hpl[4])*float64(d) + float64(m.hpl[3]))
}

func (m *mech) seekHPL10(d, h1, h2 int) int64 {
	var r int64
	switch {
	case d == 0:
		r = 0
	case d <= 10:
		r = m.first10[d-1]
	case d < m.hplV1:
		r = int64(sqrt64(uint64(d)<<32)*uint64(m.hpl[2])>>16) + m.hpl[1]
	default:
		r = m.hpl[4]*int64(d) + m.hpl[3]
	}
	if h1 != h2 {
		if hs := float64(m.headSwitch); hs > float64(r) {
			r = int64(hs)
		}
	}
	return r
}

// seekExtracted interpolates the extracted curve with integer
// picoseconds (dm_mech_g1_seek_extracted), extrapolating past its end
// from its last two points.
func (m *mech) seekExtracted(d int) int64 {
	if d == 0 {
		return 0
	}
	n := len(m.xDist)
	for i := 0; i < n; i++ {
		if d == m.xDist[i] {
			return m.xTime[i]
		}
		if d <= m.xDist[i] || i == n-1 {
			t1, t2 := m.xBeforeTime, m.xTime[i]
			d1, d2 := m.xBeforeDist, m.xDist[i]
			if i > 0 {
				t1, d1 = m.xTime[i-1], m.xDist[i-1]
			}
			// signed 64-bit arithmetic, as dm_time_t is: the result may
			// be negative, and then the head switch (or 0) wins
			if d2 == d1 {
				abortf("extracted seek curve: two entries for distance %d (a division by zero)", d1)
			}
			if t1 > t2 {
				return t1 - int64(d-d1)*(t1-t2)/int64(d2-d1)
			}
			return t1 + int64(d-d1)*(t2-t1)/int64(d2-d1)
		}
	}
	return 0
}

// seekTime returns the time to move from track (c1, h1) to (c2, h2)
// for a read or a write (dm_seek_time_g1): the longer of the seek and
// a head switch, plus the write settle for writes that move at all.
func (m *mech) seek(c1, h1, c2, h2 int, read bool) int64 {
	t := m.seekFn(c1, h1, c2, h2)
	var hs int64
	if h1 != h2 {
		hs = m.headSwitch
	}
	t = max(t, hs)
	if t != 0 && !read {
		t += m.writeDelta
	}
	return t
}

// rotate returns the angle the platter turns in t picoseconds
// (dm_rotate_g1), with the source's fixed-point steps.
func (m *mech) rotate(t int64) uint32 {
	if t == 0 {
		return 0
	}
	return uint32(uint64((t<<24)/m.period) << 8)
}

// rotTime returns the time to turn from angle a to b (dm_rottime_g1).
func (m *mech) rotTime(a, b uint32) int64 {
	if a == b {
		return 0
	}
	diff := b - a
	return (int64(diff) << 20 >> 32) * m.period >> 20
}

// xferTime returns the time n sectors of p's track take to pass the head
// (dm_xfertime_g1).
func (m *mech) xferTime(p pbn, n int) int64 {
	return m.rotTime(0, m.lay.sectorWidth(pbn{cyl: p.cyl, head: p.head}, n))
}

// state is where the arm and platter are (struct dm_mech_state).
type state struct {
	cyl, head int
	theta     uint32
}

// skewCapped returns the angle of sector s of the track, s capped at the
// track's last slot.
func (m *mech) endAngle(t pbn, start, n, sectors int) (uint32, int) {
	s := start + n - 1
	if s >= sectors {
		s = sectors - 1
	}
	t.sector = s
	return m.lay.skew(t), s
}

// outside reports whether the head at theta is outside the arc from
// start to end, or the access is one sector long (the source's test in
// dm_latency_g1 and g1_access_block).
func outside(theta, start, end uint32, endSector, startSector int) bool {
	return (theta <= start && start < end) || (end < theta && theta <= start) ||
		(start < end && end <= theta) || endSector == startSector
}

// accessBlock returns the first sector a (possibly zero-latency) access
// of n sectors from start on the track reads (g1_access_block). The
// source means a zero-latency access that begins inside its sectors to
// start at the next whole sector under the head, but it takes the
// result of its angle-to-sector conversion, DM_OK (-3), for a failure
// and falls back to start: every access starts at its first sector.
func (m *mech) accessBlock(st state, start, n int, immed bool) int {
	return start
}

// latency returns the rotational wait before sector start of the
// track passes under the head, and (for zero-latency accesses that
// begin inside the access) the extra wait for the sectors skipped
// (dm_latency_g1).
func (m *mech) latency(st state, start, n int, immed bool) (wait, extra int64) {
	t := pbn{cyl: st.cyl, head: st.head, sector: start}
	sectors := m.lay.bptOf(t)
	sa := m.lay.skew(t)
	if !immed {
		return m.rotTime(st.theta, sa), 0
	}
	end, es := m.endAngle(t, start, n, sectors)
	var ex uint32
	if !outside(st.theta, sa, end, es, start) {
		t.sector = m.accessBlock(st, start, n, immed)
		sa = m.lay.skew(t)
		if n != sectors {
			ex = m.lay.sectorWidth(t, sectors-n)
		}
	}
	wait = m.rotTime(st.theta, sa)
	if ex != 0 {
		extra = m.rotTime(0, ex)
	}
	return wait, extra
}

// accessOne returns the time to reach and read one sector at p from
// state st (dm_acctime_g1 for one sector, not zero-latency): seek,
// rotational wait and the sector's transfer.
func (m *mech) accessOne(st state, p pbn, read bool) int64 {
	seek := m.seek(st.cyl, st.head, p.cyl, p.head, read)
	s := state{cyl: p.cyl, head: p.head, theta: st.theta + m.rotate(seek)}
	lat, _ := m.latency(s, p.sector, 1, false)
	return seek + lat + m.xferTime(p, 1)
}

// sqrt32 is the source's integer square root (diskmodel sqrt.c): a
// binary search from 0x7fff.
func sqrt32(n uint32) uint32 {
	if n <= 1 {
		return n
	}
	x := uint32(0x7fff)
	for i := 0; i <= 16; i++ {
		if x*x <= n && n < (x+1)*(x+1) {
			return x
		}
		step := uint32(1) << uint((15-i)&31)
		switch {
		case n < x*x:
			x -= step
		case x != 0xffff:
			x += step
		}
	}
	return x
}

// sqrt64 is sqrt32 for 64 bits, from 0x7fffffff.
func sqrt64(n uint64) uint64 {
	if n <= 1 {
		return n
	}
	x := uint64(0x7fffffff)
	for i := 0; i <= 32; i++ {
		if x*x <= n && n < (x+1)*(x+1) {
			return x
		}
		step := uint64(1) << uint((31-i)&63)
		switch {
		case n < x*x:
			x -= step
		case x != 0x7fffffff:
			x += step
		}
	}
	return x
}
