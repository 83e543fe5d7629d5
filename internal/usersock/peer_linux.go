package usersock

import (
	"net"

	"golang.org/x/sys/unix"
)

// PeerUID is the uid of the process at the other end of c (SO_PEERCRED: the listener's credentials as
// they were when it called listen, or the connecting process's as it connected).
func PeerUID(c *net.UnixConn) (uid int, ok bool, err error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return 0, false, err
	}
	var cred *unix.Ucred
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		cred, credErr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil {
		return 0, false, err
	}
	if credErr != nil {
		return 0, false, credErr
	}
	return int(cred.Uid), true, nil
}
