package raid_test

import (
	"fmt"
	"strings"
	"testing"
	"testing/quick"

	"github.com/raidsim/raidsim/raid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// table draws the first rows of a RAID 5 layout as md's documentation
// does: "D0 D1 D2 P / D4 D5 P D3 / ...".
func table(l raid.Layout, members, rows int) string {
	m := raid.Mapping{Level: raid.RAID5, Layout: l, Members: members, StripeUnit: 1}
	var out []string
	for s := range rows {
		cells := make([]string, members)
		for mem := range members {
			off, ok := m.Logical(raid.Addr{Member: mem, Offset: int64(s)})
			if ok {
				cells[mem] = fmt.Sprintf("D%d", off)
			} else {
				cells[mem] = "P"
			}
		}
		out = append(out, strings.Join(cells, " "))
	}
	return strings.Join(out, " / ")
}

func TestLeftSymmetricTable(t *testing.T) {
	assert.Equal(t, "D0 D1 D2 P / D4 D5 P D3 / D8 P D6 D7 / P D9 D10 D11", table(raid.LeftSymmetric, 4, 4))
	assert.Equal(t, "D0 D1 D2 P / D3 D4 P D5 / D6 P D7 D8 / P D9 D10 D11", table(raid.LeftAsymmetric, 4, 4))
	assert.Equal(t, "P D0 D1 D2 / D5 P D3 D4 / D7 D8 P D6 / D9 D10 D11 P", table(raid.RightSymmetric, 4, 4))
	assert.Equal(t, "P D0 D1 D2 / D3 P D4 D5 / D6 D7 P D8 / D9 D10 D11 P", table(raid.RightAsymmetric, 4, 4))
}

// naive builds the layout by walking stripes the way the md
// documentation describes it, with no modular arithmetic shortcuts:
// a cursor for the parity moving left (or right) one member per stripe,
// and data placed member by member.
func naive(l raid.Layout, members, stripes int) (parity []int, data [][]int) {
	p := members - 1
	if l == raid.RightSymmetric || l == raid.RightAsymmetric {
		p = 0
	}
	for range stripes {
		parity = append(parity, p)
		var row []int
		if l == raid.LeftSymmetric || l == raid.RightSymmetric {
			for m := p + 1; len(row) < members-1; m++ {
				if m == members {
					m = 0
				}
				row = append(row, m)
			}
		} else {
			for m := 0; m < members; m++ {
				if m != p {
					row = append(row, m)
				}
			}
		}
		data = append(data, row)
		if l == raid.RightSymmetric || l == raid.RightAsymmetric {
			p++
			if p == members {
				p = 0
			}
		} else {
			p--
			if p < 0 {
				p = members - 1
			}
		}
	}
	return parity, data
}

func TestRaid5MatchesNaive(t *testing.T) {
	for _, l := range raid.Layouts() {
		for n := 3; n <= 9; n++ {
			parity, data := naive(l, n, 3*n)
			for s := range parity {
				require.Equal(t, parity[s], raid.ParityMember(l, n, int64(s)), "%v n=%d stripe %d parity", l, n, s)
				for d, m := range data[s] {
					require.Equal(t, m, raid.DataMember(l, n, int64(s), d), "%v n=%d stripe %d data %d", l, n, s, d)
					require.Equal(t, d, raid.DataIndex(l, n, int64(s), m))
				}
				require.Equal(t, -1, raid.DataIndex(l, n, int64(s), parity[s]))
			}
		}
	}
}

// mappings lists every level and layout at a few member counts.
func mappings() []raid.Mapping {
	var ms []raid.Mapping
	for n := 2; n <= 8; n++ {
		ms = append(ms, raid.Mapping{Level: raid.RAID0, Members: n, StripeUnit: 4096})
		ms = append(ms, raid.Mapping{Level: raid.RAID1, Members: n, StripeUnit: 4096})
		if n%2 == 0 {
			ms = append(ms, raid.Mapping{Level: raid.RAID10, Members: n, StripeUnit: 4096})
		}
		if n >= 3 {
			for _, l := range raid.Layouts() {
				ms = append(ms, raid.Mapping{Level: raid.RAID5, Layout: l, Members: n, StripeUnit: 4096})
			}
		}
	}
	return ms
}

// TestMappingBijection checks, with testing/quick, that every logical
// byte maps to member places that map back to it, and, with a naive
// loop over a window of member space, that no two logical bytes share a
// place and every non-parity place holds one.
func TestMappingBijection(t *testing.T) {
	for _, m := range mappings() {
		name := fmt.Sprintf("%v/%v/n=%d", m.Level, m.Layout, m.Members)
		f := func(x uint64) bool {
			off := int64(x % (1 << 40))
			for _, a := range m.Copies(off, nil) {
				if a.Member < 0 || a.Member >= m.Members {
					return false
				}
				back, ok := m.Logical(a)
				if !ok || back != off {
					return false
				}
			}
			return m.Locate(off) == m.Copies(off, nil)[0]
		}
		if err := quick.Check(f, &quick.Config{MaxCount: 2000}); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		// Naive reference: walk the logical bytes of the first stripes
		// in units of 512 and mark the places they land.
		u := m.StripeUnit
		stripes := int64(2 * m.Members)
		seen := map[raid.Addr]int64{}
		for off := int64(0); off < stripes*m.FullStripe(); off += 512 {
			for _, a := range m.Copies(off, nil) {
				if prev, dup := seen[a]; dup {
					t.Fatalf("%s: logical %d and %d both map to %+v", name, prev, off, a)
				}
				seen[a] = off
			}
		}
		holes := 0
		for mem := range m.Members {
			for o := int64(0); o < stripes*u; o += 512 {
				a := raid.Addr{Member: mem, Offset: o}
				if _, ok := seen[a]; !ok {
					if _, isData := m.Logical(a); isData {
						t.Fatalf("%s: %+v holds data but no logical byte maps to it", name, a)
					}
					holes++
				}
			}
		}
		if m.Level == raid.RAID5 {
			assert.Equal(t, int(stripes*u/512), holes, "%s: one parity unit per stripe", name)
		} else {
			assert.Zero(t, holes, name)
		}
	}
}

func TestParseNames(t *testing.T) {
	for _, l := range raid.Layouts() {
		got, err := raid.ParseLayout(l.String())
		require.NoError(t, err)
		assert.Equal(t, l, got)
	}
	l, err := raid.ParseLayout("ra")
	require.NoError(t, err)
	assert.Equal(t, raid.RightAsymmetric, l)
	_, err = raid.ParseLayout("diagonal")
	assert.EqualError(t, err, "raid: unknown layout \"diagonal\" (want left-symmetric, left-asymmetric, right-symmetric, right-asymmetric)")
	for _, s := range []string{"0", "1", "5", "6", "10", "raid5"} {
		_, err := raid.ParseLevel(s)
		assert.NoError(t, err, s)
	}
	_, err = raid.ParseLevel("7")
	assert.Error(t, err)
	p, err := raid.ParseWritePolicy("rcw")
	require.NoError(t, err)
	assert.Equal(t, raid.WriteRCW, p)
}
