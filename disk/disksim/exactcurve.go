package disksim

import (
	"strconv"
	"strings"
)

// beforeCurve returns what the source reads one entry before the
// extracted seek curve's arrays, as it does for a distance shorter than
// the first one listed (dm_mech_g1_seek_extracted indexes entry -1):
// the heap chunk headers that i386 glibc malloc puts before each array.
// The reader (dm_mech_g1_read_extracted_seek_curve) callocs 128 entries
// without a "Seek distances measured" line, that count with one, and
// doubles them with realloc as they fill. A chunk's size field is the
// request plus 4 bytes rounded up to 16, with bit 0 set when the chunk
// before it is in use; the 8-byte time entry before the times array
// also takes the 4 bytes ahead of that field, the zeroed tail of the
// distance array allocated just before it. Only the first allocation
// (fewer than 127 entries and no count line) is certain: a realloc
// moves the arrays and changes their neighbours, and the same rule is
// kept for want of a better one.
func beforeCurve(src []byte, entries int) (dist int, time int64) {
	buflen, count := 128, 0
	first, _, _ := strings.Cut(string(src), "\n")
	if rest, ok := strings.CutPrefix(strings.TrimSpace(first), "Seek distances measured:"); ok {
		if n, err := strconv.Atoi(strings.TrimSpace(rest)); err == nil && n > 0 {
			buflen, count = n, n // the entries follow n zeros
		}
	}
	for ; count < entries; count++ {
		if count >= buflen-1 {
			buflen *= 2
		}
	}
	chunk := func(bytes int) int64 { return int64(max(16, (bytes+4+15)&^15)) | 1 }
	return int(chunk(4 * buflen)), chunk(8*buflen) << 32
}
