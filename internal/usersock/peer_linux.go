package usersock

import "golang.org/x/sys/unix"

// peerCred reads a Unix socket's peer uid with SO_PEERCRED.
func peerCred(fd int) (int, error) {
	cred, err := unix.GetsockoptUcred(fd, unix.SOL_SOCKET, unix.SO_PEERCRED)
	if err != nil {
		return 0, err
	}
	return int(cred.Uid), nil
}
