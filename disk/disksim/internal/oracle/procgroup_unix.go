//go:build unix

package oracle

import (
	"os/exec"
	"syscall"
)

// killGroupOnCancel runs cmd in a process group of its own and makes
// its cancellation kill the whole group, children included.
func killGroupOnCancel(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
