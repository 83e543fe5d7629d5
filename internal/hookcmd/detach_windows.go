//go:build windows

package hookcmd

import "syscall"

// Process creation flags (winbase.h): no console, and a Ctrl-C in the harness's console does not
// reach the daemon's process group.
const (
	createNewProcessGroup = 0x00000200
	detachedProcess       = 0x00000008
)

// detached starts the daemon without the harness's console and outside its process group.
func detached() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: createNewProcessGroup | detachedProcess}
}
