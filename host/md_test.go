package host_test

import (
	"testing"
	"time"

	"github.com/raidsim/raidsim/host"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
)

// TestReadAheadFor: Linux md raises a parity array's read-ahead to
// stripes x data members x chunk when that is larger (hand values).
func TestReadAheadFor(t *testing.T) {
	r5 := host.Storage{Parity: 1, StripeUnit: 64 << 10, DataMembers: 2}
	r6 := host.Storage{Parity: 2, StripeUnit: 512 << 10, DataMembers: 4}
	for _, c := range []struct {
		name    string
		stripes int
		ra      int64
		st      host.Storage
		want    int64
	}{
		{"3-drive RAID 5, 64 KiB chunks: 2 x 2 x 64 KiB", 2, 128 << 10, r5, 256 << 10},
		{"6-drive RAID 6, 512 KiB chunks: 2 x 4 x 512 KiB", 2, 128 << 10, r6, 4 << 20},
		{"a larger window stays", 2, 1 << 20, r5, 1 << 20},
		{"no parity RAID: the page cache's window", 2, 128 << 10, host.Storage{}, 128 << 10},
		{"a RAID driver that does not raise it", 0, 128 << 10, r5, 128 << 10},
	} {
		p := host.Params{RAIDReadAheadStripes: c.stripes, PageCache: host.PageCache{ReadAhead: c.ra}}
		if got := p.ReadAheadFor(c.st); got != c.want {
			t.Errorf("%s: %d bytes, want %d", c.name, got, c.want)
		}
	}
}

// TestRAIDReadAheadBelow: two sequential 64 KiB reads through the page
// cache of a 3-drive RAID 5 read ahead one window of two stripes
// (256 KiB) below after the first; a plain disk reads ahead 128 KiB.
func TestRAIDReadAheadBelow(t *testing.T) {
	r5 := host.Storage{Parity: 1, StripeUnit: 64 << 10, DataMembers: 2}
	for _, c := range []struct {
		st   host.Storage
		want int64
	}{{r5, 256 << 10}, {host.Storage{}, 128 << 10}} {
		p := bare()
		p.PageCache, p.RAIDReadAheadStripes = host.PageCache{}, 2
		h, eng, _ := newHost(t, p, simtest.MemConfig{ReadLatency: 100 * time.Microsecond}, c.st)
		stream{op: sim.Read, length: 64 << 10, n: 2}.run(t, eng, h)
		if got := h.Stats().PageCache.ReadAheadBytes; got != c.want {
			t.Errorf("parity %d: read ahead %d bytes, want %d", c.st.Parity, got, c.want)
		}
	}
}

// TestRAIDReadBypass: with md's chunk-aligned reads (Linux 2.6.20 on)
// reads cost no stripe cache time; before, each 4 KiB page read does.
// Writes pay it either way: 10 x 64 KiB = 160 pages x 45µs = 7.2ms.
func TestRAIDReadBypass(t *testing.T) {
	st := host.Storage{Parity: 1, StripeUnit: 64 << 10, DataMembers: 2}
	for _, bypass := range []bool{false, true} {
		p := bare()
		p.Direct, p.StripeCachePerPage, p.RAIDReadBypass = true, 45*time.Microsecond, bypass
		for _, op := range []sim.Op{sim.Read, sim.Write} {
			h, eng, _ := newHost(t, p, simtest.MemConfig{}, st)
			stream{op: op, length: 64 << 10, n: 10}.run(t, eng, h)
			want := 7200 * time.Microsecond
			if op == sim.Read && bypass {
				want = 0
			}
			if got := h.Stats().CPU[host.KindStripeCache]; got != want {
				t.Errorf("bypass %v, %v: stripe cache time %v, want %v", bypass, op, got, want)
			}
		}
	}
}
