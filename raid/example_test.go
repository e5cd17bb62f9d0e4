package raid_test

import (
	"bytes"
	"fmt"

	"github.com/raidsim/raidsim/raid"
	"github.com/raidsim/raidsim/sim"
	"github.com/raidsim/raidsim/simtest"
)

// A 4-member RAID 5 on in-memory members: a small write costs two reads
// and two writes, a full-stripe write none, and with a member failed the
// data still reads back.
func Example() {
	eng := sim.NewEngine(1)
	var members []sim.Device
	for range 4 {
		m, _ := simtest.NewMemDevice(eng, simtest.MemConfig{Capacity: 1 << 20})
		members = append(members, m)
	}
	a, err := raid.New(eng, raid.Config{Level: raid.RAID5, StripeUnit: 64 << 10}, members, "md0", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	g := a.Geometry()
	fmt.Printf("capacity %d KiB, full stripe %d KiB\n", a.Capacity()>>10, g.FullStripe>>10)

	done := func(r *sim.Request) {
		if r.Err != nil {
			fmt.Println(r.Err)
		}
	}
	stripe := bytes.Repeat([]byte("raid"), int(g.FullStripe)/4)
	_ = a.Submit(&sim.Request{Op: sim.Write, Offset: 0, Length: g.FullStripe, Data: stripe, Done: done})
	_ = a.Submit(&sim.Request{Op: sim.Write, Offset: g.FullStripe, Length: 4096, Data: make([]byte, 4096), Done: done})
	eng.Run()

	_ = a.Fail(1)
	back := make([]byte, g.FullStripe)
	_ = a.Submit(&sim.Request{Op: sim.Read, Offset: 0, Length: g.FullStripe, Data: back, Done: done})
	eng.Run()

	s := a.Stats()
	fmt.Println("read back intact:", bytes.Equal(back, stripe))
	fmt.Printf("full-stripe %d, rmw %d, rcw %d, pre-read %d KiB, degraded reads %d\n",
		s.FullStripeWrites, s.RMWWrites, s.RCWWrites, s.PrereadBytes>>10, s.DegradedReads)
	// Output:
	// capacity 3072 KiB, full stripe 192 KiB
	// read back intact: true
	// full-stripe 1, rmw 0, rcw 1, pre-read 8 KiB, degraded reads 1
}

// The md left-symmetric layout of a 4-member RAID 5, from the pure
// mapping functions.
func ExampleDataMember() {
	const members = 4
	for s := range int64(4) {
		row := make([]string, members)
		row[raid.ParityMember(raid.LeftSymmetric, members, s)] = "P"
		for d := range members - 1 {
			row[raid.DataMember(raid.LeftSymmetric, members, s, d)] = fmt.Sprintf("D%d", s*(members-1)+int64(d))
		}
		fmt.Println(row)
	}
	// Output:
	// [D0 D1 D2 P]
	// [D4 D5 P D3]
	// [D8 P D6 D7]
	// [P D9 D10 D11]
}

// Where a logical byte lives, and back.
func ExampleMapping() {
	m := raid.Mapping{Level: raid.RAID10, Members: 4, StripeUnit: 64 << 10}
	off := int64(200 << 10)
	copies := m.Copies(off, nil)
	back, _ := m.Logical(copies[1])
	fmt.Println(copies, back == off)
	// Output:
	// [{2 73728} {3 73728}] true
}
