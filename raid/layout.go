package raid

// ParityMember returns the member holding the parity of RAID 5 stripe
// stripe in an array of members members under layout l.
//
// A RAID 5 array of n members stores D = n-1 data chunks (stripe units)
// and one parity chunk per stripe. Logical chunk c lies in stripe
// s = c / D at data index d = c % D; stripe s occupies bytes
// [s*StripeUnit, (s+1)*StripeUnit) of every member. The 4-member
// left-symmetric layout (md's default) looks like this, one row per
// stripe, one column per member:
//
//	         member 0  member 1  member 2  member 3
//	stripe 0    D0        D1        D2        P
//	stripe 1    D4        D5        P         D3
//	stripe 2    D8        P         D6        D7
//	stripe 3    P         D9        D10       D11
//
// Parity moves one member left per stripe (right layouts start on
// member 0 and move right), and each stripe's data starts on the member
// after the parity and wraps round (asymmetric layouts fill the members
// in order, skipping the parity), so a sequential read touches every
// member once per n chunks.
func ParityMember(l Layout, members int, stripe int64) int {
	n := int64(members)
	switch l {
	case RightSymmetric, RightAsymmetric:
		return int(stripe % n)
	default:
		return int(n - 1 - stripe%n)
	}
}

// DataMember returns the member holding data index d (0..members-2) of
// RAID 5 stripe stripe under layout l.
func DataMember(l Layout, members int, stripe int64, d int) int {
	p := ParityMember(l, members, stripe)
	switch l {
	case LeftSymmetric, RightSymmetric:
		return (p + 1 + d) % members
	default:
		if d >= p {
			return d + 1
		}
		return d
	}
}

// DataIndex is DataMember's inverse: the data index member holds in
// stripe stripe, or -1 when it holds the parity.
func DataIndex(l Layout, members int, stripe int64, member int) int {
	p := ParityMember(l, members, stripe)
	if member == p {
		return -1
	}
	switch l {
	case LeftSymmetric, RightSymmetric:
		return (member - p - 1 + members) % members
	default:
		if member > p {
			return member - 1
		}
		return member
	}
}

// Addr is a place on one member: its index and a byte offset on it.
type Addr struct {
	Member int
	Offset int64
}

// Mapping is the shape of an array: enough to map addresses both ways.
// It is plain data; its methods are pure.
type Mapping struct {
	Level      Level
	Layout     Layout
	Members    int
	StripeUnit int64 // bytes
}

// DataMembers returns how many members' worth of each stripe hold data:
// n for RAID 0, n-1 for RAID 5, 1 for RAID 1 and n/2 for RAID 10.
func (m Mapping) DataMembers() int {
	switch m.Level {
	case RAID5:
		return m.Members - 1
	case RAID6:
		return m.Members - 2
	case RAID1:
		return 1
	case RAID10:
		return m.Members / 2
	}
	return m.Members
}

// FullStripe returns the data bytes of one stripe: DataMembers x
// StripeUnit.
func (m Mapping) FullStripe() int64 { return int64(m.DataMembers()) * m.StripeUnit }

// Capacity returns the usable data capacity in bytes of an array with
// this mapping over members of memberBytes each (the smallest member's
// size): as many whole stripe rows as fit in a member.
func (m Mapping) Capacity(memberBytes int64) int64 {
	return memberBytes / m.StripeUnit * m.FullStripe()
}

// Stripe returns the stripe (row of stripe units) holding logical byte
// off.
func (m Mapping) Stripe(off int64) int64 { return off / m.FullStripe() }

// Locate maps logical byte off to its place on a member; for RAID 1 and
// RAID 10 that is the first copy (see Copies).
func (m Mapping) Locate(off int64) Addr {
	u := m.StripeUnit
	if m.Level == RAID1 {
		return Addr{0, off}
	}
	chunk, in := off/u, off%u
	d := int64(m.DataMembers())
	stripe, idx := chunk/d, int(chunk%d)
	mem := idx
	switch m.Level {
	case RAID5:
		mem = DataMember(m.Layout, m.Members, stripe, idx)
	case RAID6:
		mem = DataMember6(m.Members, stripe, idx)
	case RAID10:
		mem = 2 * idx
	}
	return Addr{mem, stripe*u + in}
}

// Copies appends to dst every place logical byte off is stored: one for
// RAID 0 and RAID 5, every member for RAID 1, the two members of a pair
// for RAID 10.
func (m Mapping) Copies(off int64, dst []Addr) []Addr {
	a := m.Locate(off)
	switch m.Level {
	case RAID1:
		for i := range m.Members {
			dst = append(dst, Addr{i, off})
		}
		return dst
	case RAID10:
		return append(dst, a, Addr{a.Member + 1, a.Offset})
	}
	return append(dst, a)
}

// Logical maps a member address back to the logical byte stored there.
// ok is false for RAID 5 parity.
func (m Mapping) Logical(a Addr) (off int64, ok bool) {
	u := m.StripeUnit
	if m.Level == RAID1 {
		return a.Offset, true
	}
	stripe, in := a.Offset/u, a.Offset%u
	idx := a.Member
	switch m.Level {
	case RAID5:
		idx = DataIndex(m.Layout, m.Members, stripe, a.Member)
		if idx < 0 {
			return 0, false
		}
	case RAID6:
		idx = DataIndex6(m.Members, stripe, a.Member)
		if idx < 0 {
			return 0, false
		}
	case RAID10:
		idx = a.Member / 2
	}
	return (stripe*int64(m.DataMembers())+int64(idx))*u + in, true
}
