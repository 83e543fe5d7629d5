//go:build linux || darwin || freebsd

package usersock

import "net"

// PeerUID is the uid of the process at the other end of c, as the kernel recorded it (peerCred): for a
// client, the listener's as it was when it called listen.
func PeerUID(c *net.UnixConn) (uid int, ok bool, err error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return 0, false, err
	}
	var credErr error
	if err := raw.Control(func(fd uintptr) { uid, credErr = peerCred(int(fd)) }); err != nil {
		return 0, false, err
	}
	if credErr != nil {
		return 0, false, credErr
	}
	return uid, true, nil
}
