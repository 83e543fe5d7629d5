//go:build unix

package safefile

import (
	"errors"
	"fmt"
	"io/fs"
	"syscall"
)

// OpenRaw opens path for reading as a bare descriptor (for readers that read it with their own system
// calls), on the same terms as Open: without waiting (a FIFO is refused, never waited on), regular files
// only, and none larger than maxSize bytes (0: any). It returns the descriptor and the file's size.
func OpenRaw(path string, maxSize int64) (fd int, size int64, err error) {
	for {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		return -1, 0, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		syscall.Close(fd)
		return -1, 0, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	mode := fs.FileMode(st.Mode & 0o777)
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFREG:
	case syscall.S_IFDIR:
		mode |= fs.ModeDir
	case syscall.S_IFIFO:
		mode |= fs.ModeNamedPipe
	case syscall.S_IFSOCK:
		mode |= fs.ModeSocket
	default:
		mode |= fs.ModeDevice
	}
	if !mode.IsRegular() {
		syscall.Close(fd)
		return -1, 0, fmt.Errorf("%s: %w (%s)", path, ErrNotRegular, kindOf(mode))
	}
	if maxSize > 0 && st.Size > maxSize {
		syscall.Close(fd)
		return -1, 0, fmt.Errorf("%s: %w (%d bytes, the limit is %d)", path, ErrTooLarge, st.Size, maxSize)
	}
	// Blocking reads again (a file system may answer a non-blocking read of a regular file EAGAIN): the
	// file was opened read-only with no other status flag, so setting none clears O_NONBLOCK alone.
	if _, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_SETFL, 0); errno != 0 {
		syscall.Close(fd)
		return -1, 0, &fs.PathError{Op: "fcntl", Path: path, Err: errno}
	}
	return fd, st.Size, nil
}
