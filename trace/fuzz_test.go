package trace

import (
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"reflect"
	"testing"

	"github.com/raidsim/raidsim/sim"
)

// fuzzSeeds adds the fixture file and a few malformed lines to f.
func fuzzSeeds(f *testing.F, fixture string, extra ...string) {
	b, err := os.ReadFile("testdata/" + fixture)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add([]byte{})
	f.Add([]byte("\n\r\n,,,,,,\n"))
	for _, e := range extra {
		f.Add([]byte(e))
	}
}

// checkReader reads data as format and checks what every reader
// promises: records that make sense, errors that are ParseErrors or a
// wrapped decompression error, and no panic.
func checkReader(t *testing.T, data []byte, format Format) []Record {
	compressed := bytes.HasPrefix(data, []byte{0x1f, 0x8b}) || bytes.HasPrefix(data, []byte("BZh"))
	r, _, err := NewReader(bytes.NewReader(data), "fuzz", string(format))
	if err != nil {
		if !compressed {
			t.Fatal(err)
		}
		return nil
	}
	var recs []Record
	for range 1 << 16 {
		rec, err := r.Next()
		if err == io.EOF {
			return recs
		}
		if err != nil {
			var pe *ParseError
			if compressed && !errors.As(err, &pe) {
				return recs // a decompression error
			}
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *ParseError", err)
			}
			if pe.Line < 1 || pe.File != "fuzz" {
				t.Fatalf("error %v names no line", err)
			}
			return recs
		}
		if !rec.Op.Valid() || rec.Offset < 0 || rec.Length < 0 || rec.Device < 0 || rec.Measured < 0 ||
			rec.Offset > math.MaxInt64-rec.Length || (rec.Op != sim.Flush && rec.Length == 0) {
			t.Fatalf("bad record %+v", rec)
		}
		if _, l := Position(r); l < 1 {
			t.Fatalf("record without a line")
		}
		recs = append(recs, rec)
	}
	return recs
}

// checkRoundTrip writes recs in format and checks they read back the
// same. Records of decreasing time are not fio's to keep, so fio is
// checked only on sorted input.
func checkRoundTrip(t *testing.T, recs []Record, format string) {
	if len(recs) == 0 {
		return
	}
	for i := 1; format != "csv" && i < len(recs); i++ {
		if recs[i].Time < recs[i-1].Time {
			return
		}
	}
	got, text := roundTrip(t, recs, format)
	if !reflect.DeepEqual(got, recs) {
		t.Fatalf("round trip differs\n got %+v\nwant %+v\n%s", got, recs, text)
	}
}

func FuzzMSR(f *testing.F) {
	fuzzSeeds(f, "msr.csv", "128166372003061629,hm,0,Write,x,4096,1802", "0,a,0,read,0,1,99999999999999999")
	f.Fuzz(func(t *testing.T, data []byte) { checkReader(t, data, FormatMSR) })
}

func FuzzSPC(f *testing.F) {
	fuzzSeeds(f, "spc.csv", "0,1,512,r,.5", "0,1,512,r,1.", "0,1,512,r,99999999999.9999999999")
	f.Fuzz(func(t *testing.T, data []byte) { checkReader(t, data, FormatSPC) })
}

func FuzzBlkparse(f *testing.F) {
	fuzzSeeds(f, "blkparse.txt", "8,0 0 0 0 0 Q FN", "8,0 0 0 0 0 D FWS 0 + 0", "1048577,0 0 0 0 0 Q R 1 + 1")
	f.Fuzz(func(t *testing.T, data []byte) {
		checkReader(t, data, FormatBlkparse)
		checkReader(t, data, FormatBlkparseD)
		checkReader(t, data, FormatBlkparseDC)
	})
}

func FuzzFio(f *testing.F) {
	fuzzSeeds(f, "fio2.log", "fio version 2 iolog\na add\na wait 9223372036854775807 0\na wait 10 0\na read 0 1")
	b, _ := os.ReadFile("testdata/fio3.log")
	f.Add(b)
	f.Fuzz(func(t *testing.T, data []byte) {
		recs := checkReader(t, data, FormatFio)
		checkRoundTrip(t, recs, "fio3")
		checkRoundTrip(t, recs, "fio2")
	})
}

func FuzzAlibaba(f *testing.F) {
	fuzzSeeds(f, "alibaba.csv", "0,R,1,4096,99999999999999999")
	f.Fuzz(func(t *testing.T, data []byte) { checkReader(t, data, FormatAlibaba) })
}

func FuzzTencent(f *testing.F) {
	fuzzSeeds(f, "tencent.csv", "99999999999,1,1,0,1", "1,18014398509481983,1,0,1")
	f.Fuzz(func(t *testing.T, data []byte) { checkReader(t, data, FormatTencent) })
}

func FuzzSystor17(f *testing.F) {
	fuzzSeeds(f, "systor17.csv", "Timestamp,x\n1.5,0.1,R,0,0,512")
	f.Fuzz(func(t *testing.T, data []byte) { checkReader(t, data, FormatSystor17) })
}

func FuzzCSV(f *testing.F) {
	fuzzSeeds(f, "raidsim.csv", CSVHeader+"\n-9223372036854775808,read,0,1,0,0,0")
	f.Fuzz(func(t *testing.T, data []byte) {
		recs := checkReader(t, data, FormatCSV)
		checkRoundTrip(t, recs, "csv")
	})
}

// FuzzSniff checks sniffing and the reader it picks never panic, on
// plain and (when the input happens to be) compressed data.
func FuzzSniff(f *testing.F) {
	for _, n := range []string{"msr.csv", "spc.csv", "blkparse.txt", "fio2.log", "fio3.log", "alibaba.csv", "tencent.csv", "systor17.csv", "raidsim.csv"} {
		b, err := os.ReadFile("testdata/" + n)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte{0x1f, 0x8b, 8, 0})
	f.Add([]byte("BZh91AY&SY"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, _, err := NewReader(bytes.NewReader(data), "fuzz", "auto")
		if err != nil {
			return
		}
		for range 1 << 16 {
			if _, err := r.Next(); err != nil {
				return
			}
		}
	})
}
