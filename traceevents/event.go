package traceevents

import (
	"encoding/json"
	"io"
	"slices"
)

// Event is one trace event, with the fields of the Chrome trace-event
// format raidsim uses.
type Event struct {
	// Name labels the event.
	Name string `json:"name,omitempty"`
	// Cat is its category ("request", "phase", "flow", "counter").
	Cat string `json:"cat,omitempty"`
	// Ph is its phase (kind): "X" a complete span, "s" and "f" the
	// start and finish of a flow arrow, "C" a counter, "M" metadata.
	Ph string `json:"ph"`
	// Ts is its time and Dur a span's length, in microseconds.
	Ts  float64 `json:"ts"`
	Dur float64 `json:"dur,omitempty"`
	// Pid and Tid place it on a process and thread (a track).
	Pid int `json:"pid"`
	Tid int `json:"tid"`
	// ID pairs a flow's start with its finish.
	ID int `json:"id,omitempty"`
	// Bp is a flow finish's binding point: "e", the enclosing slice.
	Bp string `json:"bp,omitempty"`
	// Args holds details shown when the event is selected.
	Args map[string]any `json:"args,omitempty"`
}

// File is a trace-event JSON file in the object form.
type File struct {
	TraceEvents     []Event           `json:"traceEvents"`
	DisplayTimeUnit string            `json:"displayTimeUnit"`
	OtherData       map[string]string `json:"otherData,omitempty"`
}

// encode writes f with one event per line, metadata first and the rest
// in time order (a span before the spans it encloses).
func (f *File) encode(w io.Writer) error {
	slices.SortStableFunc(f.TraceEvents, func(a, b Event) int {
		switch am, bm := a.Ph == "M", b.Ph == "M"; {
		case am && !bm:
			return -1
		case bm && !am:
			return 1
		case a.Ts < b.Ts:
			return -1
		case a.Ts > b.Ts:
			return 1
		}
		return 0
	})
	head, err := json.Marshal(struct {
		DisplayTimeUnit string            `json:"displayTimeUnit"`
		OtherData       map[string]string `json:"otherData,omitempty"`
	}{f.DisplayTimeUnit, f.OtherData})
	if err != nil {
		return err
	}
	buf := append(head[:len(head)-1:len(head)-1], `,"traceEvents":[`...)
	for i := range f.TraceEvents {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, '\n')
		b, err := json.Marshal(&f.TraceEvents[i])
		if err != nil {
			return err
		}
		buf = append(buf, b...)
		if len(buf) > 1<<16 {
			if _, err := w.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	buf = append(buf, "\n]}\n"...)
	_, err = w.Write(buf)
	return err
}
