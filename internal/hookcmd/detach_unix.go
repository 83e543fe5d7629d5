//go:build unix

package hookcmd

import "syscall"

// detached starts the daemon in a session of its own: no terminal, and no signal sent to the hook's
// process group (a Ctrl-C in the harness) reaches it.
func detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
