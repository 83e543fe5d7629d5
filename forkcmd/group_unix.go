//go:build unix

package forkcmd

import (
	"os/exec"
	"syscall"
)

// ownGroup runs cmd in a process group of its own, so a timeout ends the client and whatever it
// started.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
