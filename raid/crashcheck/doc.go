// Package crashcheck tells what a power loss did to a RAID array's
// contents, from the members' real bytes after the restart and the
// writes the host sent: acknowledged writes lost or torn, logical
// sectors holding bytes no write put there, and stripes whose parity
// (RAID 5, 6) or copies (RAID 1, 10) disagree with their data, with
// those a member's volatile write cache made. [Input.ReconstructWrong]
// shows the write hole: what a degraded array would read back wrong
// were one member to fail now.
//
// It reads every member whole (at most [MaxMemberBytes] each), so it is
// for test- and teaching-sized arrays, typically of simtest.MemDevice
// members. It needs only package raid (the layout and parity maths);
// raid.Array.Mapping gives the layout to check against.
package crashcheck
