package main

import (
	"fmt"
	"net"
	"os"
	"syscall"
)

// peerPID is the process at the other end of a Unix socket connection (SO_PEERCRED); one of another
// user is refused, as the daemon refuses their connections.
func peerPID(c net.Conn) (int, error) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return 0, fmt.Errorf("not a Unix socket connection")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return 0, err
	}
	var cred *syscall.Ucred
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		cred, credErr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil {
		return 0, err
	}
	if credErr != nil {
		return 0, fmt.Errorf("read its process (SO_PEERCRED): %w", credErr)
	}
	if int(cred.Uid) != os.Getuid() {
		return 0, fmt.Errorf("it runs as uid %d, not as you", cred.Uid)
	}
	return int(cred.Pid), nil
}

func terminate(pid int) error { return syscall.Kill(pid, syscall.SIGTERM) }
