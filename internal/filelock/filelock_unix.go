//go:build unix

package filelock

import (
	"errors"
	"os"
	"syscall"
)

// NoFollow makes an open refuse a symbolic link as its last path element: a lock file that is a link
// would be created, or opened for writing, wherever the link points.
const NoFollow = syscall.O_NOFOLLOW

// Lock waits for a shared or an exclusive lock on f.
func Lock(f *os.File, exclusive bool) error {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	return flock(f, how)
}

// TryLock takes an exclusive lock on f without waiting; ErrLocked when another holder has it.
func TryLock(f *os.File) error {
	err := flock(f, syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return ErrLocked
	}
	return err
}

// Upgrade turns f's shared lock into an exclusive one. The shared lock may be dropped before the
// exclusive one is granted, so the caller must look at what the lock guards again afterwards.
func Upgrade(f *os.File) error { return flock(f, syscall.LOCK_EX) }

// Unlock releases f's lock. Closing f releases it too.
func Unlock(f *os.File) error { return flock(f, syscall.LOCK_UN) }

// flock retries when a signal interrupts the wait.
func flock(f *os.File, how int) error {
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}
