package trace

import (
	"errors"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/raidsim/raidsim/sim"
)

// readAll reads every record of r, stopping at the first error.
func readAll(r Reader) ([]Record, error) {
	var out []Record
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, rec)
	}
}

const (
	us = int64(time.Microsecond)
	ms = int64(time.Millisecond)
	s  = int64(time.Second)
)

// readerFixture is a file of testdata/ with the records its reader must
// return and the lines it must skip.
type readerFixture struct {
	file    string
	format  Format
	want    []Record
	skipped int64
}

// readerFixtures covers every reader: times, ops, offsets, lengths,
// devices, FUA and measured latencies as each format gives them.
var readerFixtures = []readerFixture{
	{"msr.csv", FormatMSR, []Record{
		{Time: (128166372003061629 - filetimeUnixEpoch) * 100, Op: sim.Write, Offset: 3154152960, Length: 4096, Measured: 180200 * time.Nanosecond},
		{Time: (128166372003561629 - filetimeUnixEpoch) * 100, Op: sim.Read, Offset: 0, Length: 512, Device: 1, Measured: 2500 * time.Microsecond},
		{Time: (128166372013061629 - filetimeUnixEpoch) * 100, Op: sim.Read, Offset: 8192, Length: 65536},
	}, 0},
	{"spc.csv", FormatSPC, []Record{
		{Op: sim.Write, Offset: 303567 * 512, Length: 3584},
		{Op: sim.Write, Offset: 55590 * 512, Length: 3072, Device: 1},
		{Time: sim.Time(26214 * us), Op: sim.Read, Offset: 512, Length: 512},
	}, 0},
	{"blkparse.txt", FormatBlkparse, []Record{
		{Op: sim.Write, Offset: 223490 * 512, Length: 4096, Device: 8 << 8},
		{Time: sim.Time(500 * us), Op: sim.Read, Offset: 1000 * 512, Length: 16 * 512, Device: 8<<8 | 16},
		{Time: sim.Time(1 * ms), Op: sim.Write, Offset: 500 * 512, Length: 4096, Device: 8 << 8, FUA: true},
		{Time: sim.Time(1100 * us), Op: sim.Flush, Device: 8 << 8},
		{Time: sim.Time(1200 * us), Op: sim.Trim, Offset: 2048 * 512, Length: 2048 * 512, Device: 8 << 8},
	}, 10},
	{"blkparse.txt", FormatBlkparseD, []Record{
		{Time: sim.Time(11049), Op: sim.Write, Offset: 223490 * 512, Length: 4096, Device: 8 << 8},
		{Time: sim.Time(510 * us), Op: sim.Read, Offset: 1000 * 512, Length: 16 * 512, Device: 8<<8 | 16},
		{Time: sim.Time(1300 * us), Op: sim.Write, Offset: 500 * 512, Length: 4096, Device: 8 << 8, FUA: true},
	}, 12},
	{"fio2.log", FormatFio, []Record{
		{Op: sim.Write, Offset: 0, Length: 4096},
		{Time: sim.Time(1500 * us), Op: sim.Read, Offset: 8192, Length: 65536, Device: 1},
		{Time: sim.Time(1500 * us), Op: sim.Trim, Offset: 0, Length: 1 << 20},
		{Time: sim.Time(1500 * us), Op: sim.Flush},
		{Time: sim.Time(1750 * us), Op: sim.Read, Offset: 4096, Length: 4096},
	}, 9},
	{"fio3.log", FormatFio, []Record{
		{Op: sim.Read, Offset: 61440, Length: 4096},
		{Time: sim.Time((20580 - 234) * us), Op: sim.Write, Offset: 774144, Length: 8192},
		{Time: sim.Time((40869 - 234) * us), Op: sim.Flush},
		{Time: sim.Time((61109 - 234) * us), Op: sim.Read, Offset: 0, Length: 512},
	}, 4},
	{"alibaba.csv", FormatAlibaba, []Record{
		{Time: sim.Time(1577808000000147 * us), Op: sim.Read, Offset: 126703644672, Length: 4096},
		{Time: sim.Time(1577808000000512 * us), Op: sim.Write, Offset: 1048576, Length: 65536, Device: 3},
		{Time: sim.Time(1577808000001000 * us), Op: sim.Read, Offset: 0, Length: 512},
	}, 0},
	{"tencent.csv", FormatTencent, []Record{
		{Time: sim.Time(1538323200 * s), Op: sim.Write, Offset: 4247200 * 512, Length: 128 * 512, Device: 1058},
		{Time: sim.Time(1538323199 * s), Op: sim.Read, Offset: 13896880 * 512, Length: 128 * 512, Device: 1063},
		{Time: sim.Time(1538323201 * s), Op: sim.Read, Offset: 0, Length: 512},
	}, 0},
	{"systor17.csv", FormatSystor17, []Record{
		{Time: sim.Time(1456095145133076000), Op: sim.Read, Offset: 899056122368, Length: 131072, Measured: 806 * time.Microsecond},
		{Time: sim.Time(1456095145126285000), Op: sim.Write, Offset: 4256049987072, Length: 122880, Device: 2, Measured: 8044 * time.Microsecond},
		{Time: sim.Time(1456095147500000000), Op: sim.Read, Offset: 0, Length: 512, Measured: time.Second},
	}, 1},
	{"raidsim.csv", FormatCSV, []Record{
		{Op: sim.Write, Offset: 1048576, Length: 65536, FUA: true},
		{Time: 250000, Op: sim.Read, Offset: 0, Length: 4096, Measured: 1820 * time.Microsecond},
		{Time: -5, Op: sim.Flush, Device: 3},
	}, 1}, // the comment line; the header is the format's own
}

func TestReadersFixtures(t *testing.T) {
	for _, c := range readerFixtures {
		t.Run(string(c.format)+"/"+c.file, func(t *testing.T) { checkFixture(t, c) })
	}
}

// checkFixture reads c.file as c.format, compares the records, skips and
// position, and checks that "auto" sniffs the format.
func checkFixture(t *testing.T, c readerFixture) {
	r, got, closer, err := Open("testdata/"+c.file, string(c.format))
	if err != nil {
		t.Fatal(err)
	}
	defer closer.Close()
	if got != c.format {
		t.Errorf("format %q, want %q", got, c.format)
	}
	recs, err := readAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(recs, c.want) {
		t.Errorf("records\n got %+v\nwant %+v", recs, c.want)
	}
	if n := Skipped(r); n != c.skipped {
		t.Errorf("skipped %d, want %d", n, c.skipped)
	}
	if f, l := Position(r); f != c.file || l == 0 {
		t.Errorf("position %s:%d", f, l)
	}
	if c.format == FormatBlkparseD {
		return
	}
	_, sniffed, closer2, err := Open("testdata/"+c.file, "auto")
	if err != nil {
		t.Fatal(err)
	}
	closer2.Close()
	if sniffed != c.format {
		t.Errorf("auto chose %q, want %q", sniffed, c.format)
	}
}

func TestReadersMalformed(t *testing.T) {
	cases := []struct {
		format Format
		in     string
		want   string // the error's text
	}{
		{FormatMSR, "128166372003061629,hm,0,Write,x,4096,1802", `trace: bad.txt:1: offset: "x" is not a number`},
		{FormatMSR, "\n128166372003061629,hm,0,Write,0,4096", `trace: bad.txt:2: want 7 fields, got 6`},
		{FormatMSR, "128166372003061629,hm,0,Trim,0,4096,1", `trace: bad.txt:1: type: "Trim" is not Read or Write`},
		{FormatMSR, "128166372003061629,hm,0,Read,0,0,1", `trace: bad.txt:1: size: zero-length request`},
		{FormatMSR, "128166372003061629,hm,-1,Read,0,512,1", `trace: bad.txt:1: disk: "-1" is not a device number`},
		{FormatMSR, "99999999999999999999,hm,0,Read,0,512,1", `trace: bad.txt:1: timestamp: "99999999999999999999" is too large: want a whole number up to 9223372036854775807`},
		{FormatMSR, "128166372003061629,hm,0,Read,0,512,99999999999999999", `trace: bad.txt:1: response: "99999999999999999" is too large`},
		{FormatMSR, "128166372003061629,hm,0,Read,9223372036854775807,512,1", `trace: bad.txt:1: size: request 9223372036854775807+512 bytes ends past the largest representable offset`},
		{FormatSPC, "0,1,512,x,0.5", `trace: bad.txt:1: opcode: "x" is not r or w`},
		{FormatSPC, "0,1,512,r,-1", `trace: bad.txt:1: timestamp: "-1" is not a non-negative number`},
		{FormatSPC, "0,1,512,r,1e5", `trace: bad.txt:1: timestamp: "1e5" is not a non-negative number`},
		{FormatSPC, "0,18014398509481984,512,r,1", `trace: bad.txt:1: lba: "18014398509481984" is too large`},
		{FormatSPC, "0,1,512,r", `trace: bad.txt:1: want at least 5 fields, got 4`},
		{FormatBlkparse, "  8,0 3 1 0.5 697 Q W 1 + x [a]", `trace: bad.txt:1: count: "x" is not a number`},
		{FormatBlkparse, "  8,0 3 1 zz 697 Q W 1 + 8 [a]", `trace: bad.txt:1: time: "zz" is not a non-negative number`},
		{FormatBlkparse, "  8,0 3 1 0.5 697 Q X 1 + 8 [a]", `trace: bad.txt:1: rwbs: "X" is not a direction (R, W, D or N)`},
		{FormatBlkparse, "  8,0 3 1 0.5 697 Q W [a]", `trace: bad.txt:1: want sector + count after "W"`},
		{FormatBlkparse, "  8,0 3 1 0.5", `trace: bad.txt:1: want at least 7 fields in an event, got 4`},
		{FormatFio, "fio version 1 iolog\n", `trace: bad.txt:1: want "fio version 2 iolog" or "fio version 3 iolog", got "fio version 1 iolog"`},
		{FormatFio, "fio version 2 iolog\n/a add\n/a write 0 x\n", `trace: bad.txt:3: length: "x" is not a number`},
		{FormatFio, "fio version 2 iolog\n/a write 0 512\n", `trace: bad.txt:2: filename: "/a" was not added`},
		{FormatFio, "fio version 2 iolog\n/a add\n/a erase 0 512\n", `trace: bad.txt:3: action: "erase" is not read, write, sync, datasync, trim or wait`},
		{FormatFio, "fio version 2 iolog\n/a add\n/a read 0 0\n", `trace: bad.txt:3: length: zero-length request`},
		{FormatFio, "fio version 3 iolog\n0 /a add\n5 /a wait 100 0\n", `trace: bad.txt:3: action: wait is not allowed in version 3`},
		{FormatFio, "fio version 3 iolog\n0 /a add\n/a read 0 512\n", `trace: bad.txt:3: timestamp: "/a" is not a number`},
		{FormatFio, "fio version 2 iolog\n/a add\n/a read\n", `trace: bad.txt:3: read needs an offset and a length`},
		{FormatAlibaba, "0,R,1,4096,x", `trace: bad.txt:1: timestamp: "x" is not a number`},
		{FormatAlibaba, "0,T,1,4096,1", `trace: bad.txt:1: opcode: "T" is not R or W`},
		{FormatAlibaba, "0,R,1,4096,1,9", `trace: bad.txt:1: want 5 fields, got 6`},
		{FormatTencent, "1538323200,4247200,128,2,1058", `trace: bad.txt:1: iotype: "2" is not 0 (read) or 1 (write)`},
		{FormatTencent, "1538323200,4247200,0,1,1058", `trace: bad.txt:1: size: zero-length request`},
		{FormatTencent, "1538323200,4247200,8,1,x", `trace: bad.txt:1: volume: "x" is not a device number`},
		{FormatSystor17, systor17Header + "\n1.5,0.1,R,0,x,512", `trace: bad.txt:2: offset: "x" is not a number`},
		{FormatSystor17, "1.5,abc,R,0,0,512", `trace: bad.txt:1: response: "abc" is not a non-negative number`},
		{FormatSystor17, "1.5,0.1,Q,0,0,512", `trace: bad.txt:1: iotype: "Q" is not R or W`},
		{FormatCSV, "0,read,0,512,0,0,0", `trace: bad.txt:1: want the header "time_ns,op,offset,length,device,fua,measured_ns", got "0,read,0,512,0,0,0"`},
		{FormatCSV, CSVHeader + "\n0,discard,0,512,0,0,0", `trace: bad.txt:2: op: "discard" is not read, write, flush or trim`},
		{FormatCSV, CSVHeader + "\n0,read,0,512,0,2,0", `trace: bad.txt:2: fua: "2" is not 0 or 1`},
		{FormatCSV, CSVHeader + "\nx,read,0,512,0,0,0", `trace: bad.txt:2: time_ns: "x" is not a number`},
		{FormatCSV, CSVHeader + "\n0,read,0,512,0,0,-3", `trace: bad.txt:2: measured_ns: "-3" is negative: want a whole number from 0`},
		{FormatCSV, CSVHeader + "\n0,read,0,512,0,0", `trace: bad.txt:2: want 7 fields, got 6`},
		{FormatCSV, CSVHeader + "\n" + strings.Repeat("9", MaxLineBytes+1), `trace: bad.txt:2: line longer than 65536 bytes`},
	}
	for _, c := range cases {
		r, _, err := NewReader(strings.NewReader(c.in), "bad.txt", string(c.format))
		if err != nil {
			t.Fatal(err)
		}
		_, err = readAll(r)
		var pe *ParseError
		if err == nil || !errors.As(err, &pe) || err.Error() != c.want {
			t.Errorf("%s %.60q:\n got %v\nwant %s", c.format, c.in, err, c.want)
		}
	}
}

func TestSniff(t *testing.T) {
	cases := []struct {
		head string
		want Format
	}{
		{"\n# comment\n" + CSVHeader + "\n", FormatCSV},
		{"fio version 3 iolog\n", FormatFio},
		{"128166385295514663,hm,0,Write,9056014336,2048,2833\n", FormatMSR},
		{"1456095145.133076000,0.000806000,R,0,899056122368,131072\n", FormatSystor17},
		{"0,303567,3584,w,0.000000\n", FormatSPC},
		{"0,R,126703644672,4096,1577808000000147\n", FormatAlibaba},
		{"1538323200,4247200,128,1,1058\n", FormatTencent},
		{"  8,0    3        1     0.000000000   697  Q   W 223490 + 8 [kjournald]\n", FormatBlkparse},
	}
	for _, c := range cases {
		got, err := Sniff([]byte(c.head))
		if err != nil || got != c.want {
			t.Errorf("Sniff(%.40q) = %q, %v; want %q", c.head, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "\n\n", "hello world\n", "1,2,3\n"} {
		if f, err := Sniff([]byte(bad)); !errors.Is(err, ErrUnknownFormat) {
			t.Errorf("Sniff(%q) = %q, %v; want ErrUnknownFormat", bad, f, err)
		}
	}
	if _, _, err := NewReader(strings.NewReader("x"), "x", "nope"); !errors.Is(err, ErrUnknownFormat) {
		t.Errorf("format nope: %v", err)
	}
}

// TestCompressed checks gzip is read through. bzip2 (which the standard
// library cannot write) is covered by the Tencent sample in
// TestRealSamples, and gzip again by the SYSTOR '17 one.
func TestCompressed(t *testing.T) {
	plain, err := os.ReadFile("testdata/msr.csv")
	if err != nil {
		t.Fatal(err)
	}
	gz := t.TempDir() + "/msr.csv.gz"
	writeGzip(t, gz, plain)
	r, f, c, err := Open(gz, "auto")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	recs, err := readAll(r)
	if err != nil || f != FormatMSR || len(recs) != 3 {
		t.Errorf("gzip: format %q, %d records, %v", f, len(recs), err)
	}
}
