package trace

import (
	"strings"
	"testing"
)

// FuzzMSRPlain checks the one-pass parse of plain MSR lines against the
// field-by-field one: wherever the fast path accepts a line, the full
// reading accepts it too and makes the same record.
func FuzzMSRPlain(f *testing.F) {
	for _, s := range []string{
		"128166372003061629,hm,0,Write,3154059264,4096,1802",
		"128166372003061629,,1,read,0,512,0",
		"0,a,0,read,0,1,99999999999999999",
		"999999999999999999,a,0,read,0,1,0",
		"128166372003061629,hm,2147483648,Read,0,4096,1",
		"128166372003061629,hm,0,Read,0,0,1",
		"128166372003061629,hm,0,Read,0,4096,1,",
		"128166372003061629, hm ,0, Read ,0,4096,1",
		"128166372003061629,hm,0,Read,999999999999999999,999999999999999999,92233720368547758",
		"1281663:2003061629,hm,0,Read,0,4096,1",
		"12816637200306?629,hm,0,Read,0,4096,1",
		"128166372003061629,hm,12345678/,Read,12345678,4096,123456789",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if strings.ContainsAny(line, "\r\n") {
			return
		}
		fast, ok := parseMSRPlain([]byte(line))
		if !ok {
			return
		}
		m := NewMSRReader(strings.NewReader(""), "fuzz")
		slow, err := m.parseFields([]byte(line))
		if err != nil {
			t.Fatalf("%q: the fast path made %+v, the full reading refuses it: %v", line, fast, err)
		}
		if fast != slow {
			t.Fatalf("%q: the fast path made %+v, the full reading %+v", line, fast, slow)
		}
	})
}

// TestMSRPlainTakesPublishedLines checks that lines as the published
// traces write them take the one-pass path and that the others do not.
func TestMSRPlainTakesPublishedLines(t *testing.T) {
	for _, tc := range []struct {
		line  string
		plain bool
	}{
		{"128166372003061629,hm,0,Write,3154059264,4096,1802", true},
		{"128166372003061629,web,3,Read,0,65536,0", true},
		{"128166372003061629,hm,0,Write,3154059264,4096, 1802", false},  // blank
		{"128166372003061629,hm,0,Write,3154059264,0,1802", false},      // zero length: an error
		{"128166372003061629,hm,0,Write,3154059264,4096", false},        // six fields
		{"128166372003061629,hm,0,Write,3154059264,4096,1802,7", false}, // eight
		{"1281663720030616290,hm,0,Write,0,4096,1802", false},           // 19 digits
		{"128166372003061629,hm,0,Trim,0,4096,1802", false},
	} {
		if _, ok := parseMSRPlain([]byte(tc.line)); ok != tc.plain {
			t.Errorf("%q: plain %v, want %v", tc.line, ok, tc.plain)
		}
	}
}
