package ssd

// store keeps the bytes of requests that carry Data, by map unit, so
// tests and teaching runs can check real bytes. Performance runs (nil
// Data) never touch it.
type store struct {
	unit  int64
	units map[int64][]byte
}

func (s *store) each(off, n int64, f func(u []byte, lo, hi, at int64)) {
	for pos := off; pos < off+n; {
		u := pos / s.unit
		lo := pos - u*s.unit
		hi := min(s.unit, off+n-u*s.unit)
		var b []byte
		if s.units != nil {
			b = s.units[u]
		}
		f(b, lo, hi, pos-off)
		pos += hi - lo
	}
}

func (s *store) write(p []byte, off int64) {
	if s.units == nil {
		s.units = make(map[int64][]byte)
	}
	for pos := off; pos < off+int64(len(p)); {
		u := pos / s.unit
		lo := pos - u*s.unit
		hi := min(s.unit, off+int64(len(p))-u*s.unit)
		b := s.units[u]
		if b == nil {
			b = make([]byte, s.unit)
			s.units[u] = b
		}
		copy(b[lo:hi], p[pos-off:])
		pos += hi - lo
	}
}

func (s *store) read(p []byte, off int64) {
	s.each(off, int64(len(p)), func(b []byte, lo, hi, at int64) {
		dst := p[at : at+hi-lo]
		if b == nil {
			clear(dst)
			return
		}
		copy(dst, b[lo:hi])
	})
}

// zero clears [off, off+n): a trimmed range reads back as zeroes.
func (s *store) zero(off, n int64) {
	if s.units == nil {
		return
	}
	s.each(off, n, func(b []byte, lo, hi, _ int64) {
		if b != nil {
			clear(b[lo:hi])
		}
	})
}
