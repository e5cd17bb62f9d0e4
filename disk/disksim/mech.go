package disksim

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/raidsim/raidsim/disk"
)

// mechIn is a dm_mech_g1 block as read; times in ms, -1 when not given.
type mechIn struct {
	access, seekType, curve                         string
	single, full, avg, constant, settle, hs, rpmErr float64
	constAccess                                     float64
	rpm                                             int64
	hpl, ten                                        []float64
	curvePos                                        Pos
}

// readMech reads a dm_mech_g1 block.
func (l *loader) readMech(b *Block) (mechIn, error) {
	m := mechIn{single: -1, full: -1, avg: -1, constant: -1, hs: -1, rpm: -1}
	err := params(b, func(k string, pr Param) (bool, error) {
		var err error
		v := pr.Value
		switch k {
		case "access time type":
			m.access = v.Word
		case "seek type":
			m.seekType = v.Word
		case "single cylinder seek time":
			m.single, err = v.Float()
		case "full strobe seek time":
			m.full, err = v.Float()
		case "average seek time":
			m.avg, err = v.Float()
		case "constant seek time":
			m.constant, err = v.Float()
		case "full seek curve":
			m.curve, m.curvePos = v.Word, v.Pos
		case "add. write settling delay":
			m.settle, err = v.Float()
		case "head switch time":
			m.hs, err = v.Float()
		case "rotation speed (in rpms)":
			m.rpm, err = v.Int()
		case "percent error in rpms":
			m.rpmErr, err = v.Float()
		case "hpl seek equation values":
			m.hpl, err = floats(v)
		case "first ten seek times":
			m.ten, err = floats(v)
		case "constant access time":
			m.constAccess, err = v.Float()
		default:
			return false, nil
		}
		return true, err
	})
	return m, err
}

// mech reads a dm_mech_g1 block into p's spindle, switch and seek
// fields, for a drive of cyls cylinders.
func (l *loader) mech(b *Block, p *disk.Params, cyls int64) error {
	m, err := l.readMech(b)
	if err != nil {
		return err
	}
	switch m.access {
	case "trackSwitchPlusRotation":
	case "averageRotation":
		p.AccessTime = disk.AccessAverageRotation
	case "constant":
		if !(m.constAccess > 0 && m.constAccess <= 1000) {
			return errAt(b.Pos, "Access time type constant needs a Constant access time in (0, 1000] ms, got %g", m.constAccess)
		}
		p.AccessTime, p.ConstantAccessTime = disk.AccessConstant, ms(m.constAccess)
	default:
		return errAt(b.Pos, "Access time type = %q: unknown (constant, averageRotation, trackSwitchPlusRotation)", m.access)
	}
	if m.rpm < 1 || m.rpm > 100000 {
		return errAt(b.Pos, "Rotation speed (in rpms) must be in 1..100000, got %d", m.rpm)
	}
	if !(m.rpmErr >= 0 && m.rpmErr < 50) {
		return errAt(b.Pos, "Percent error in rpms = %g: must be in 0..50", m.rpmErr)
	}
	p.RPMErrorPercent = m.rpmErr
	if m.hs < 0 || m.hs > 1000 {
		return errAt(b.Pos, "Head switch time must be in 0..1000 ms, got %g", m.hs)
	}
	// The manual allows a negative settle: settling to write may be
	// quicker than the read settle the seek times include. Seeks still
	// take no less than zero (disk.Params.WriteSettle).
	if m.settle < -1000 || m.settle > 1000 {
		return errAt(b.Pos, "Add. write settling delay = %g: must be in -1000..1000 ms", m.settle)
	}
	p.RPM = int(m.rpm)
	p.HeadSwitch = ms(m.hs)
	p.WriteSettle = ms(m.settle)
	return l.seek(b, &m, p, cyls)
}

// need reports a figure seek type m.seekType needs but b lacks.
func (m *mechIn) need(b *Block, name string, v float64) error {
	if v < 0 {
		return errAt(b.Pos, "Seek type %s needs %s", m.seekType, name)
	}
	return nil
}

// needThree reports the first of the three-point figures b lacks.
func (m *mechIn) needThree(b *Block) error {
	for _, e := range []error{m.need(b, "Single cylinder seek time", m.single), m.need(b, "Average seek time", m.avg), m.need(b, "Full strobe seek time", m.full)} {
		if e != nil {
			return e
		}
	}
	return nil
}

func seekPoint(d int64, t float64) disk.SeekPoint {
	return disk.SeekPoint{Distance: int(d), Time: ms(t)}
}

// seek sets p's seek curve or table by the seek type.
func (l *loader) seek(b *Block, m *mechIn, p *disk.Params, cyls int64) error {
	switch m.seekType {
	case "extracted":
		if m.curve == "" {
			return errAt(b.Pos, "Seek type extracted needs Full seek curve")
		}
		tab, err := l.seekCurve(resolve(m.curvePos.File, m.curve), m.curvePos)
		if err != nil {
			return err
		}
		p.SeekTable = tab
		if m.single >= 0 {
			l.ignore(b.Type, "Single cylinder seek time", "the extracted curve's own point is used")
		}
		if m.full >= 0 {
			l.ignore(b.Type, "Full strobe seek time", "the extracted curve's own point is used")
		}
	case "constant":
		if err := m.need(b, "Constant seek time", m.constant); err != nil {
			return err
		}
		p.SeekTable = []disk.SeekPoint{seekPoint(1, m.constant)}
	case "linear":
		if err := m.needThree(b); err != nil {
			return err
		}
		// Through the single-cylinder, average (at a third of the
		// stroke, the mean random seek distance) and full-stroke points.
		third := max(cyls/3, 2)
		p.SeekTable = []disk.SeekPoint{seekPoint(1, m.single)}
		if third < cyls-1 {
			p.SeekTable = append(p.SeekTable, seekPoint(third, m.avg))
		}
		p.SeekTable = append(p.SeekTable, seekPoint(max(cyls-1, 2), m.full))
	case "curve":
		if err := m.needThree(b); err != nil {
			return err
		}
		p.TrackToTrack, p.AverageSeek, p.FullStroke = ms(m.single), ms(m.avg), ms(m.full)
	case "hpl", "hplplus10":
		tab, err := m.hplTable(b, cyls)
		if err != nil {
			return err
		}
		p.SeekTable = append(p.SeekTable, tab...)
	default:
		return errAt(b.Pos, "Seek type = %q: unknown (constant, linear, curve, hpl, hplplus10, extracted)", m.seekType)
	}
	return nil
}

// hplTable tabulates Ruemmler & Wilkes's seek equation (and, for
// hplplus10, the first ten measured times) for every distance.
func (m *mechIn) hplTable(b *Block, cyls int64) ([]disk.SeekPoint, error) {
	hpl, ten := m.hpl, m.ten
	if len(hpl) != 6 {
		return nil, errAt(b.Pos, "Seek type %s needs 6 HPL seek equation values, got %d", m.seekType, len(hpl))
	}
	if m.seekType == "hplplus10" && len(ten) != 10 {
		return nil, errAt(b.Pos, "Seek type hplplus10 needs 10 First ten seek times, got %d", len(ten))
	}
	if cyls > 1<<20 {
		return nil, errAt(b.Pos, "too many cylinders for an HPL table")
	}
	// Ruemmler & Wilkes: t(d) = V2 + V3*sqrt(d) for d < V1, else
	// V4 + V5*d; V6 (if not -1) is the one-cylinder time.
	var tab []disk.SeekPoint
	for d := int64(1); d < max(cyls, 2); d++ {
		var t float64
		switch {
		case m.seekType == "hplplus10" && d <= 10:
			t = ten[d-1]
		case d == 1 && hpl[5] >= 0:
			t = hpl[5]
		case float64(d) < hpl[0]:
			t = hpl[1] + hpl[2]*math.Sqrt(float64(d))
		default:
			t = hpl[3] + hpl[4]*float64(d)
		}
		tab = append(tab, seekPoint(d, t))
	}
	return tab, nil
}

func floats(v Value) ([]float64, error) {
	if v.Kind != ListValue {
		return nil, errAt(v.Pos, "want a list of numbers")
	}
	var out []float64
	for _, e := range v.List {
		f, err := e.Float()
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// seekCurve reads an extracted seek file: "Seek distances measured: N"
// then N lines "distance, ms".
func (l *loader) seekCurve(path string, from Pos) ([]disk.SeekPoint, error) {
	src, err := l.read(path)
	if err != nil {
		return nil, errAt(from, "Full seek curve: %w", errors.Unwrap(err))
	}
	return ParseSeekCurve(filepath.Clean(path), src)
}

// ParseSeekCurve parses the text of an extracted seek curve file (name
// is used in errors).
func ParseSeekCurve(name string, src []byte) ([]disk.SeekPoint, error) {
	sc := bufio.NewScanner(bytes.NewReader(src))
	line := 0
	want := -1
	var tab []disk.SeekPoint
	for sc.Scan() {
		line++
		s := strings.TrimSpace(sc.Text())
		if s == "" {
			continue
		}
		at := Pos{name, line}
		if want < 0 {
			rest, ok := strings.CutPrefix(s, "Seek distances measured:")
			if !ok {
				return nil, errAt(at, "want \"Seek distances measured: N\"")
			}
			n, err := strconv.Atoi(strings.TrimSpace(rest))
			if err != nil || n < 1 || n > 1<<20 {
				return nil, errAt(at, "bad number of seek distances %q", strings.TrimSpace(rest))
			}
			want = n
			continue
		}
		ds, ts, ok := strings.Cut(s, ",")
		if !ok {
			return nil, errAt(at, "want \"distance, milliseconds\", got %q", s)
		}
		d, err := strconv.ParseInt(strings.TrimSpace(ds), 10, 32)
		if err != nil {
			return nil, errAt(at, "bad distance %q", strings.TrimSpace(ds))
		}
		t, err := strconv.ParseFloat(strings.TrimSpace(ts), 64)
		if err != nil || t < 0 || t > 1e4 {
			return nil, errAt(at, "bad seek time %q", strings.TrimSpace(ts))
		}
		if d <= 0 || (len(tab) > 0 && int(d) <= tab[len(tab)-1].Distance) {
			return nil, errAt(at, "distance %d: must be positive and increasing", d)
		}
		if len(tab) == want {
			return nil, errAt(at, "more than the %d distances announced", want)
		}
		tab = append(tab, disk.SeekPoint{Distance: int(d), Time: ms(t)})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("disksim: %s: %w", name, err)
	}
	if want < 0 {
		return nil, errAt(Pos{name, line}, "empty seek curve")
	}
	if len(tab) != want {
		return nil, errAt(Pos{name, line}, "%d distances announced, %d given", want, len(tab))
	}
	return tab, nil
}
