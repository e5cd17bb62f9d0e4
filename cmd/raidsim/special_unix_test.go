//go:build unix

package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// specialFiles makes, in dir, a named pipe and (as root, as CI runs) a
// character device with /dev/null's numbers, and returns them by kind.
// Tests point at these, never at /dev/null, so a broken output policy
// could not replace the machine's.
func specialFiles(t *testing.T, dir string) map[string]string {
	out := map[string]string{}
	fifo := filepath.Join(dir, "pipe.csv")
	if err := syscall.Mkfifo(fifo, 0o644); err == nil {
		out["named pipe"] = fifo
	} else {
		t.Logf("mkfifo: %v", err)
	}
	if os.Geteuid() != 0 {
		t.Log("not root: the device node case is left out (CI runs as root)")
		return out
	}
	null := filepath.Join(dir, "null.csv")
	if err := syscall.Mknod(null, syscall.S_IFCHR|0o666, 1<<8|3); err == nil {
		out["character device"] = null
	} else {
		t.Logf("mknod: %v", err)
	}
	return out
}
