package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/saverd/saverd/internal/atomicfile"
	"github.com/saverd/saverd/internal/filelock"
)

// tempMark separates a key's file name from a temp file's random suffix.
const tempMark = atomicfile.TempMark

// writeAtomic replaces a registry file with data (atomicfile.Write's durability, mode 0600), its temp
// files named <name>.tmp-… so the store finds a crashed writer's (removeStrayTemps).
func writeAtomic(path string, data []byte) error {
	if err := atomicfile.WriteTemp(path, data, 0o600, filepath.Base(path)+tempMark+"*"); err != nil {
		return fmt.Errorf("write store %s: %w", path, err)
	}
	return nil
}

// fileLock is a held flock on a sidecar lock file. The lock file is never removed: deleting it while
// another process waits on it would let two holders lock two different files.
type fileLock struct {
	f    *os.File
	path string
}

// lock opens path (creating it) and flocks it, exclusively or shared. A symlink is not followed: the lock
// file would be created, or an existing file opened for writing, wherever it points.
func lock(path string, exclusive bool) (*fileLock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|filelock.NoFollow, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock store %s: %w", path, err)
	}
	l := &fileLock{f: f, path: path}
	if err := waitFor(f, func() error { return filelock.Lock(f, exclusive) }); err != nil {
		if !errors.Is(err, filelock.ErrLocked) {
			_ = f.Close() // a lock that timed out is closed by waitFor, once it is let go
		}
		return nil, lockError(path, err)
	}
	return l, nil
}

// waitFor runs take, a blocking lock of f (the kernel's queue is fair to writers; polling is not), for at
// most lockWait. Past that it answers ErrLocked and leaves take to finish on its own, which then lets
// the lock go and closes f: a lock that stays held costs its caller the wait, not forever.
func waitFor(f *os.File, take func() error) error {
	done := make(chan error, 1)
	go func() { done <- take() }()
	timer := time.NewTimer(lockWait)
	defer timer.Stop()
	select {
	case err := <-done:
		return err
	case <-timer.C:
		go func() {
			if err := <-done; err == nil {
				_ = filelock.Unlock(f)
			}
			_ = f.Close()
		}()
		return filelock.ErrLocked
	}
}

// lockWait is how long a store read or write waits for a lock another process holds: the daemons hold
// it for milliseconds, so past this one is hung, or a person's flock, and the session starts empty (a
// read) or the decision says it was not saved (a write) rather than the agent waiting on it.
var lockWait = 2 * time.Second

func lockError(path string, err error) error {
	if errors.Is(err, filelock.ErrLocked) {
		return fmt.Errorf("lock store %s: held by another process for over %s", path, lockWait)
	}
	return fmt.Errorf("lock store %s: %w", path, err)
}

// upgrade turns a shared lock into an exclusive one. The shared lock may be dropped before the
// exclusive one is granted, so the caller must look at the file again afterwards.
func (l *fileLock) upgrade() error {
	if err := waitFor(l.f, func() error { return filelock.Upgrade(l.f) }); err != nil {
		return lockError(l.path, err)
	}
	return nil
}

// release unlocks and closes the lock file.
func (l *fileLock) release() error {
	err := filelock.Unlock(l.f)
	// Closing releases the lock too, so a failed unlock still ends with the lock gone.
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("unlock store %s: %w", l.path, err)
	}
	return nil
}
