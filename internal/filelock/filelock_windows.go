//go:build windows

package filelock

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// NoFollow is 0 on Windows: its opens have no such flag, and creating symbolic links there needs a
// privilege ordinary processes lack.
const NoFollow = 0

// whole covers every byte a file can have: LockFileEx locks a byte range, not a file.
const whole = ^uint32(0)

// Lock waits for a shared or an exclusive lock on f.
func Lock(f *os.File, exclusive bool) error {
	var flags uint32
	if exclusive {
		flags = windows.LOCKFILE_EXCLUSIVE_LOCK
	}
	return lockFileEx(f, flags)
}

// TryLock takes an exclusive lock on f without waiting; ErrLocked when another holder has it.
func TryLock(f *os.File) error {
	err := lockFileEx(f, windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
		return ErrLocked
	}
	return err
}

// Upgrade turns f's shared lock into an exclusive one. Windows does not convert a held lock (asking
// for an exclusive lock over one's own shared lock waits forever), so the shared lock is released
// first: the caller must look at what the lock guards again afterwards.
func Upgrade(f *os.File) error {
	if err := Unlock(f); err != nil {
		return err
	}
	return Lock(f, true)
}

// Unlock releases f's lock. Closing f releases it too.
func Unlock(f *os.File) error {
	return windows.UnlockFileEx(windows.Handle(f.Fd()), 0, whole, whole, new(windows.Overlapped))
}

func lockFileEx(f *os.File, flags uint32) error {
	return windows.LockFileEx(windows.Handle(f.Fd()), flags, 0, whole, whole, new(windows.Overlapped))
}
