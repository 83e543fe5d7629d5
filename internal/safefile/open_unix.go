//go:build unix

package safefile

import (
	"os"
	"syscall"
)

// openNoWait opens path without blocking, so a FIFO with no writer returns at once (and is refused by
// Open) instead of stalling the caller forever.
func openNoWait(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

// blocking switches a regular file opened by openNoWait back to blocking reads.
func blocking(f *os.File) error { return syscall.SetNonblock(int(f.Fd()), false) }
