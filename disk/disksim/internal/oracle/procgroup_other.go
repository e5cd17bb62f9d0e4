//go:build !unix

package oracle

import "os/exec"

// killGroupOnCancel leaves cmd as it is: without process groups a
// cancelled run-reqlog.sh may leave its DiskSim child running.
func killGroupOnCancel(*exec.Cmd) {}
