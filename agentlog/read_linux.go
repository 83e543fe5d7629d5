package agentlog

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// read reads what the page cache holds without telling the scheduler (preadv2 with RWF_NOWAIT, which
// never waits for the disk), else as syscall.Read does. A read through syscall.Read marks the goroutine as
// in a system call; a 256 KB copy out of the page cache lasts long enough for the runtime to hand its P
// to another thread and back, thousands of times a scan (context switches of saverd sessions on the
// corpus: 2,700-10,800 against 590-950 read this way, ~7 % of its CPU time on a loaded machine).
// Data not yet in the page cache (EAGAIN), or a kernel or file system without RWF_NOWAIT, is read the
// ordinary way, so that a wait for the disk never holds a P.
func (f *rawFile) read(p []byte) (int, error) {
	if !f.blocking {
		iov := unix.Iovec{Base: &p[0]}
		iov.SetLen(len(p))
		const here = ^uintptr(0) // offset -1, both halves: from the file's offset, which the read moves, as read(2)
		r, _, errno := syscall.RawSyscall6(unix.SYS_PREADV2, uintptr(f.fd), uintptr(unsafe.Pointer(&iov)), 1,
			here, here, unix.RWF_NOWAIT)
		switch {
		case errno == 0 && r > 0:
			return int(r), nil
		case errno == 0:
			// 0 is the end of the file, or (Linux 5.9 and 5.10, preadv2(2) BUGS) data not yet cached:
			// read(2) tells them apart.
		case errno == syscall.EAGAIN, errno == syscall.EINTR:
			// Not in the page cache: this read waits for the disk, the next may not need to. (A signal
			// during the copy: the ordinary read, which the runtime restarts, takes it over.)
		case errno == syscall.ENOSYS, errno == syscall.EOPNOTSUPP, errno == syscall.EINVAL:
			f.blocking = true // no RWF_NOWAIT here
		default:
			return 0, errno
		}
	}
	return syscall.Read(f.fd, p)
}
