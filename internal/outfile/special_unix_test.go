//go:build unix

package outfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// mkfifo makes a named pipe in dir.
func mkfifo(t *testing.T, dir string) (string, bool) {
	p := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Logf("mkfifo: %v", err)
		return "", false
	}
	return p, true
}

// mknull makes a character device with /dev/null's numbers (1, 3) in
// dir: only root may. The test never points at /dev/null itself, so a
// broken policy could not replace the machine's.
func mknull(t *testing.T, dir string) (string, bool) {
	if os.Geteuid() != 0 {
		return "", false
	}
	p := filepath.Join(dir, "null")
	if err := syscall.Mknod(p, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
		t.Logf("mknod: %v", err)
		return "", false
	}
	return p, true
}
