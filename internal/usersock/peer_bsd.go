//go:build darwin || freebsd

package usersock

import (
	"net"

	"golang.org/x/sys/unix"
)

// PeerUID is the uid of the process at the other end of c (LOCAL_PEERCRED, what getpeereid reads).
func PeerUID(c *net.UnixConn) (uid int, ok bool, err error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return 0, false, err
	}
	var cred *unix.Xucred
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		cred, credErr = unix.GetsockoptXucred(int(fd), unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	}); err != nil {
		return 0, false, err
	}
	if credErr != nil {
		return 0, false, credErr
	}
	return int(cred.Uid), true, nil
}
