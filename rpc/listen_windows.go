//go:build windows

package rpc

import "net"

// listenPrivate listens on a Unix socket. Windows has no umask: the socket file takes the ACL of its
// directory, by default in the user's own %TMP% under a profile only that user can open.
func listenPrivate(path string) (*net.UnixListener, error) {
	return net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
}
