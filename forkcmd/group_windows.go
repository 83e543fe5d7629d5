//go:build windows

package forkcmd

import (
	"os/exec"
	"syscall"
)

// createNewProcessGroup (winbase.h) keeps the harness's Ctrl-C away from the judge's client.
const createNewProcessGroup = 0x00000200

// ownGroup starts cmd in a process group of its own. A timeout kills the client itself (exec's default
// Cancel); Windows has no signal that reaches a whole group.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: createNewProcessGroup}
}
