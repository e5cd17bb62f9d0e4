package raidz

// slotTable holds each slot's record in pages made on first use, so a
// volume of many terabytes costs memory only where it holds records.
type slotTable struct {
	pages [][]record
	n     int64 // slots
}

const slotPage = 4096

func (t *slotTable) get(i int64) record {
	p := t.pages[i/slotPage]
	if p == nil {
		return record{}
	}
	return p[i%slotPage]
}

func (t *slotTable) ptr(i int64) *record {
	pi := i / slotPage
	if t.pages[pi] == nil {
		t.pages[pi] = make([]record, slotPage)
	}
	return &t.pages[pi][i%slotPage]
}

func (t *slotTable) set(i int64, r record) {
	if r.psize == 0 && t.pages[i/slotPage] == nil {
		return
	}
	*t.ptr(i) = r
}

// each calls f with every slot holding a record, in slot order.
func (t *slotTable) each(f func(slot int64, r *record)) {
	for pi, p := range t.pages {
		for j := range p {
			if p[j].psize > 0 {
				f(int64(pi)*slotPage+int64(j), &p[j])
			}
		}
	}
}
