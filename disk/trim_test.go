package disk

import (
	"bytes"
	"testing"

	"github.com/raidsim/raidsim/sim"
)

// TestTrimCompletesAtOnce: a disk has no use for a discard; it completes
// in no time and the data stays.
func TestTrimCompletesAtOnce(t *testing.T) {
	eng := sim.NewEngine(1)
	p, err := Preset("deskstar-7k500")
	if err != nil {
		t.Fatal(err)
	}
	d, err := New(eng, p, "d", nil)
	if err != nil {
		t.Fatal(err)
	}
	data := bytes.Repeat([]byte{7}, 4096)
	var trimLat = sim.Never
	reqs := []*sim.Request{
		{Op: sim.Write, Offset: 0, Length: 4096, Data: data, Done: func(*sim.Request) {}},
		{Op: sim.Trim, Offset: 0, Length: 4096, Done: func(r *sim.Request) { trimLat = sim.Time(r.Latency()) }},
	}
	for _, r := range reqs {
		if err := d.Submit(r); err != nil {
			t.Fatal(err)
		}
	}
	eng.Run()
	got := make([]byte, 4096)
	if err := d.Submit(&sim.Request{Op: sim.Read, Offset: 0, Length: 4096, Data: got, Done: func(*sim.Request) {}}); err != nil {
		t.Fatal(err)
	}
	eng.Run()
	if trimLat != 0 || !bytes.Equal(got, data) {
		t.Fatalf("trim latency %v, data kept %v", trimLat, bytes.Equal(got, data))
	}
}
