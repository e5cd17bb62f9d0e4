// Package outfile is the one output policy of raidsim: every file a
// command writes (a report, a trace, a plot, trace events, a profile, a
// fitted model) goes through it, so every command keeps the same
// promises:
//
//   - An input of the run is never written: the output is compared with
//     every input by device and inode (os.SameFile), so another path, a
//     symbolic link or a hard link to an input is refused too, with or
//     without Force.
//   - Only a regular file is ever replaced: a directory, a device node
//     (/dev/null, a disk), a named pipe or a socket is refused, even with
//     Force and even as root.
//   - An existing regular file is replaced only with Force (the commands'
//     --force). A symbolic link to a regular file stays a link: its
//     target is replaced and keeps its permissions.
//   - The file is written atomically: under a temporary name in the same
//     directory, synced, then renamed over the path; without Force the
//     new name is made with link(2), which refuses a file that appeared
//     meanwhile. A failure leaves neither a partial file nor a damaged
//     existing one.
//   - The file's extension names its format: a target lists the
//     extensions it writes (".svg", ".png"), the caller writes the format
//     Ext returns, and any other extension is refused before the run.
//
// Check reports every problem of a command's targets at once, before any
// work is done; Create (or Write) opens one for writing.
package outfile
