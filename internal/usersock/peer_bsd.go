//go:build darwin || freebsd

package usersock

import "golang.org/x/sys/unix"

// peerCred reads a Unix socket's peer uid with LOCAL_PEERCRED (what getpeereid reads).
func peerCred(fd int) (int, error) {
	cred, err := unix.GetsockoptXucred(fd, unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	if err != nil {
		return 0, err
	}
	return int(cred.Uid), nil
}
