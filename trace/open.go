package trace

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Format names a trace file format, as the --format option spells it.
type Format string

// The formats Open and NewReader read. FormatAuto asks them to sniff.
const (
	FormatAuto      Format = "auto"
	FormatCSV       Format = "csv"        // raidsim's own CSV (CSVReader)
	FormatMSR       Format = "msr"        // SNIA MSR Cambridge (MSRReader)
	FormatSPC       Format = "spc"        // UMass / SPC (SPCReader)
	FormatBlkparse  Format = "blkparse"   // blkparse text, Q events (BlkparseReader)
	FormatBlkparseD Format = "blkparse:D" // blkparse text, D events
	FormatFio       Format = "fio"        // fio iolog v2 or v3 (FioReader)
	FormatAlibaba   Format = "alibaba"    // Alibaba block traces (AlibabaReader)
	FormatTencent   Format = "tencent"    // Tencent CBS (TencentReader)
	FormatSystor17  Format = "systor17"   // SYSTOR '17 (Systor17Reader)
	FormatDiskSim   Format = "disksim"    // DiskSim ASCII (DiskSimReader)
	FormatMQSim     Format = "mqsim"      // MQSim ASCII: DiskSim's layout in nanoseconds (NewMQSimReader)
	FormatValidate  Format = "validate"   // DiskSim validate traces (ValidateReader)
)

// formatSpec is one entry of the format table: how to read the format
// and how to recognise its first line.
type formatSpec struct {
	name Format
	open func(r io.Reader, name string) Reader
	// sniff reports whether line, the first line that is neither blank
	// nor a '#' comment, belongs to the format.
	sniff func(line []byte) bool
}

// formats is the table Open, NewReader and Sniff consult, in sniffing
// order: formats with a header or a distinctive field come first.
var formats = []formatSpec{
	{FormatFio, func(r io.Reader, n string) Reader { return NewFioReader(r, n) }, isFioHeader},
	{FormatValidate, func(r io.Reader, n string) Reader { return NewValidateReader(r, n) }, sniffValidate},
	{FormatCSV, func(r io.Reader, n string) Reader { return NewCSVReader(r, n) }, isCSVHeader},
	{FormatSystor17, func(r io.Reader, n string) Reader { return NewSystor17Reader(r, n) }, sniffSystor17},
	{FormatMSR, func(r io.Reader, n string) Reader { return NewMSRReader(r, n) }, sniffMSR},
	{FormatAlibaba, func(r io.Reader, n string) Reader { return NewAlibabaReader(r, n) }, sniffAlibaba},
	{FormatTencent, func(r io.Reader, n string) Reader { return NewTencentReader(r, n) }, sniffTencent},
	{FormatSPC, func(r io.Reader, n string) Reader { return NewSPCReader(r, n) }, sniffSPC},
	{FormatBlkparse, func(r io.Reader, n string) Reader { b, _ := NewBlkparseReader(r, n, 'Q'); return b }, sniffBlkparse},
	{FormatBlkparseD, func(r io.Reader, n string) Reader { b, _ := NewBlkparseReader(r, n, 'D'); return b }, nil},
	{FormatBlkparseDC, func(r io.Reader, n string) Reader { return NewBlkparseServiceReader(r, n) }, nil},
	{FormatDiskSim, func(r io.Reader, n string) Reader { return NewDiskSimReader(r, n) }, sniffDiskSim},
	{FormatMQSim, func(r io.Reader, n string) Reader { return NewMQSimReader(r, n) }, nil}, // Sniff: see mqsimTimes
}

// Formats returns the names of the formats NewReader reads, "auto"
// first.
func Formats() []string {
	out := []string{string(FormatAuto)}
	for _, f := range formats {
		out = append(out, string(f.name))
	}
	return out
}

// ErrUnknownFormat is returned (wrapped) for a format name NewReader
// does not know and for a file whose format Sniff cannot tell.
var ErrUnknownFormat = errors.New("unknown trace format")

// ErrTruncated is returned (wrapped, with the file and the compression)
// when a gzip or bzip2 stream ends before its end marker: a file cut
// short by an interrupted copy or download.
var ErrTruncated = errors.New("compressed stream is truncated")

// truncReader turns the io.ErrUnexpectedEOF a decompressor returns for
// a stream cut short into ErrTruncated, naming the compression.
type truncReader struct {
	r    io.Reader
	kind string
}

func (t *truncReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if errors.Is(err, io.ErrUnexpectedEOF) {
		err = fmt.Errorf("%s: %w", t.kind, ErrTruncated)
	}
	return n, err
}

// sniffBytes is how much of the start of a trace Sniff looks at.
const sniffBytes = 64 << 10

// Open opens the trace file at path and returns a Reader of the given
// format ("auto" or "" to sniff; see Formats), the format it chose, and
// the file to close when done. Files compressed with gzip or bzip2
// (normally named .gz and .bz2; the magic bytes decide) are decompressed
// on the fly. Errors name the file's base name and line.
func Open(path, format string) (Reader, Format, io.Closer, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, "", nil, fmt.Errorf("trace: %w", err)
	}
	if st, err := f.Stat(); err == nil && st.IsDir() {
		f.Close()
		return nil, "", nil, fmt.Errorf("trace: %s is a directory, not a trace file", path)
	}
	r, chosen, ahead, err := newReader(f, filepath.Base(path), format)
	if err != nil {
		f.Close()
		return nil, "", nil, err
	}
	if ahead != nil {
		return r, chosen, aheadCloser{ahead, f}, nil
	}
	return r, chosen, f, nil
}

// NewReader returns a Reader of the given format over r, decompressing
// gzip or bzip2 data first (recognised by their magic bytes). Format
// "auto" or "" sniffs the format from the first line that is neither
// blank nor a '#' comment (see Sniff) and returns the format chosen. name
// is used in errors.
//
// Compressed data is decompressed on a goroutine of its own, a few
// buffers ahead of the parser; it stops at the end of the data, or once
// the Reader is no longer referenced.
func NewReader(r io.Reader, name, format string) (Reader, Format, error) {
	rd, f, _, err := newReader(r, name, format)
	return rd, f, err
}

// newReader is NewReader, also returning the decompressor's read-ahead
// (nil for data not compressed), for Open to close.
func newReader(r io.Reader, name, format string) (Reader, Format, *aheadReader, error) {
	br := bufio.NewReaderSize(r, sniffBytes)
	src, ahead, err := decompress(br, name)
	if err != nil {
		return nil, "", nil, err
	}
	want := Format(strings.TrimSpace(format))
	if strings.EqualFold(string(want), string(FormatBlkparseD)) {
		want = FormatBlkparseD
	} else if strings.EqualFold(string(want), string(FormatBlkparseDC)) {
		want = FormatBlkparseDC
	} else {
		want = Format(strings.ToLower(string(want)))
	}
	if want == "" || want == FormatAuto {
		sbr, ok := src.(*bufio.Reader)
		if !ok {
			sbr = bufio.NewReaderSize(src, sniffBytes)
			src = sbr
		}
		head, perr := sbr.Peek(sniffBytes)
		if errors.Is(perr, ErrTruncated) {
			closeAhead(ahead)
			return nil, "", nil, fmt.Errorf("trace: %s: %w", name, perr)
		}
		if want, err = Sniff(head); err != nil {
			closeAhead(ahead)
			return nil, "", nil, fmt.Errorf("trace: %s: %w", name, err)
		}
	}
	for _, f := range formats {
		if f.name == want {
			return f.open(src, name), want, ahead, nil
		}
	}
	closeAhead(ahead)
	return nil, "", nil, fmt.Errorf("trace: %s: %w %q (want one of %s)", name, ErrUnknownFormat, format, strings.Join(Formats(), ", "))
}

// closeAhead stops a read-ahead, if there is one.
func closeAhead(a *aheadReader) {
	if a != nil {
		a.Close()
	}
}

// decompress returns a reader of the decompressed data, read ahead on a
// goroutine (the second result), when br starts with gzip's or bzip2's
// magic bytes, and br otherwise.
func decompress(br *bufio.Reader, name string) (io.Reader, *aheadReader, error) {
	magic, _ := br.Peek(3)
	switch {
	case len(magic) >= 2 && magic[0] == 0x1f && magic[1] == 0x8b:
		z, err := gzip.NewReader(br)
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			err = ErrTruncated
		}
		if err != nil {
			return nil, nil, fmt.Errorf("trace: %s: gzip: %w", name, err)
		}
		a := newAheadReader(&truncReader{z, "gzip"})
		return a, a, nil
	case len(magic) == 3 && string(magic) == "BZh":
		a := newAheadReader(&truncReader{bzip2.NewReader(br), "bzip2"})
		return a, a, nil
	}
	return br, nil, nil
}

// Sniff tells a trace's format from the start of its (decompressed)
// data: the first line that is neither blank nor a '#' comment. It
// recognises fio's and raidsim's headers and SYSTOR '17's, then the
// field layout of MSR, Alibaba, Tencent, SPC, blkparse and DiskSim
// lines. DiskSim-shaped data whose times are all whole numbers, reaching
// 1e6, with types 0 and 1 only, is taken for MQSim's nanoseconds rather
// than DiskSim's milliseconds. It returns an error wrapping
// ErrUnknownFormat when none matches.
func Sniff(head []byte) (Format, error) {
	all := head
	for len(head) > 0 {
		line := head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		line = trimBlanks(bytes.TrimSuffix(line, []byte{'\r'}))
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		for _, f := range formats {
			if f.sniff != nil && f.sniff(line) {
				if f.name == FormatDiskSim && mqsimTimes(all) {
					return FormatMQSim, nil
				}
				return f.name, nil
			}
		}
		return "", fmt.Errorf("%w: first line %.80q matches none of %s (give the format)", ErrUnknownFormat, line, strings.Join(Formats()[1:], ", "))
	}
	return "", fmt.Errorf("%w: no data to tell the format from", ErrUnknownFormat)
}

func sniffSplit(line []byte, sep byte, f *[maxFields][]byte) int {
	return splitFields(line, sep, f[:])
}

func isUint(b []byte) bool { _, ok := parseUint(b); return ok }

func isDecimal(b []byte) bool { _, ok := parseDecimal(b, 1); return ok }

func sniffSystor17(line []byte) bool {
	if bytes.HasPrefix(line, []byte("Timestamp,Response,IOType")) {
		return true
	}
	var f [maxFields][]byte
	return sniffSplit(line, ',', &f) == 6 && isDecimal(f[0]) && isDecimal(f[1]) &&
		(equalFold(f[2], "r") || equalFold(f[2], "w")) && isUint(f[3]) && isUint(f[4]) && isUint(f[5])
}

func sniffMSR(line []byte) bool {
	var f [maxFields][]byte
	return sniffSplit(line, ',', &f) == 7 && isUint(f[0]) && isUint(f[2]) &&
		(equalFold(f[3], "read") || equalFold(f[3], "write")) && isUint(f[4]) && isUint(f[5]) && isUint(f[6])
}

func sniffAlibaba(line []byte) bool {
	var f [maxFields][]byte
	return sniffSplit(line, ',', &f) == 5 && isUint(f[0]) && (equalFold(f[1], "r") || equalFold(f[1], "w")) &&
		isUint(f[2]) && isUint(f[3]) && isUint(f[4])
}

func sniffTencent(line []byte) bool {
	var f [maxFields][]byte
	return sniffSplit(line, ',', &f) == 5 && isUint(f[0]) && isUint(f[1]) && isUint(f[2]) &&
		(string(f[3]) == "0" || string(f[3]) == "1") && isUint(f[4])
}

func sniffSPC(line []byte) bool {
	var f [maxFields][]byte
	return sniffSplit(line, ',', &f) >= 5 && isUint(f[0]) && isUint(f[1]) && isUint(f[2]) &&
		(equalFold(f[3], "r") || equalFold(f[3], "w")) && isDecimal(f[4])
}

func sniffBlkparse(line []byte) bool {
	var f [maxFields][]byte
	n := sniffSplit(line, ' ', &f)
	_, _, ok := parseDevice(f[0])
	return n >= 7 && ok && isUint(f[1]) && isUint(f[2]) && isDecimal(f[3]) && len(f[5]) == 1
}

// Positioner is implemented by the readers of text formats and by the
// wrappers of this package when the reader they wrap is one: the file's
// base name and the line of the last record returned.
type Positioner interface {
	Position() (file string, line int64)
}

// SkipCounter is implemented by readers that pass over input without
// returning it (headers, events not replayed, records filtered out), and
// by the wrappers of this package, which add their own count to the
// wrapped reader's.
type SkipCounter interface {
	Skipped() int64
}

// Skipped returns r's count of skipped lines and records, or 0 when r
// does not count them.
func Skipped(r Reader) int64 {
	if s, ok := r.(SkipCounter); ok {
		return s.Skipped()
	}
	return 0
}

// Position returns the file and line of the last record r returned, or
// ("", 0) when r does not know them.
func Position(r Reader) (string, int64) {
	if p, ok := r.(Positioner); ok {
		return p.Position()
	}
	return "", 0
}
