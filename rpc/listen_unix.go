//go:build unix

package rpc

import (
	"net"
	"syscall"
)

// listenPrivate creates the socket file with no permission for anyone but its owner from the start:
// the chmod after it would leave a moment in which another user could connect.
func listenPrivate(path string) (*net.UnixListener, error) {
	old := syscall.Umask(0o177)
	defer syscall.Umask(old)
	return net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
}
