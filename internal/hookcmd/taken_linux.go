package hookcmd

import (
	"net"

	"golang.org/x/sys/unix"
)

// seesTaken: taken says whether the daemon read a request.
const seesTaken = true

// taken reports whether the daemon has read everything written to c: on a Unix socket SIOCOUTQ is what
// the peer's receive queue still holds of it, which stays as it was while the daemon does not read (a
// stopped process) and drops to nothing once it has read the request (a busy one). known false when the
// kernel does not say.
func taken(c net.Conn) (ok, known bool) {
	uc, isUnix := c.(*net.UnixConn)
	if !isUnix {
		return false, false
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return false, false
	}
	var queued int
	var ioErr error
	if raw.Control(func(fd uintptr) { queued, ioErr = unix.IoctlGetInt(int(fd), unix.SIOCOUTQ) }) != nil || ioErr != nil {
		return false, false
	}
	return queued == 0, true
}
