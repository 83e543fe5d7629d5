package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
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

// fileLock is a held flock on a sidecar lock file, and this process's own lock taken before it. The lock
// file is never removed: deleting it while another process waits on it would let two holders lock two
// different files.
type fileLock struct {
	f    *os.File
	path string
	proc *procLock
	excl bool
}

// procLock is one lock file's lock among this process's own holders, taken before the file lock:
// a process's holders queue here, however long the queue (a daemon's fifty sessions deciding at once,
// each write with its fsync), and only one at a time waits on the file lock, so lockWait is spent on
// other processes alone. (Each holder used to wait on the file lock itself, and a daemon's own writes
// timed out on each other as "held by another process".)
type procLock struct {
	mu sync.RWMutex
	// heldElsewhere is until when (unix ns) another process is known to keep the file lock: a wait that
	// timed out says so, and the holders queued behind it then try only briefly (stuckWait) instead of
	// each waiting out lockWait in turn.
	heldElsewhere atomic.Int64
}

var procLocks sync.Map // lock file's path → *procLock

// stuckWait is how long a holder tries for the file lock while another process is known to keep it.
const stuckWait = 10 * time.Millisecond

// lock takes the lock file at path, shared or exclusive: first this process's own lock of it (procLock),
// then the file's.
func lock(path string, exclusive bool) (*fileLock, error) {
	v, _ := procLocks.LoadOrStore(path, &procLock{})
	p := v.(*procLock)
	if exclusive {
		p.mu.Lock()
	} else {
		p.mu.RLock()
	}
	wait := lockWait
	if time.Now().UnixNano() < p.heldElsewhere.Load() {
		wait = min(wait, stuckWait)
	}
	l, err := lockFile(path, exclusive, wait)
	if err != nil {
		if errors.Is(err, errHeldElsewhere) {
			p.heldElsewhere.Store(time.Now().Add(lockWait).UnixNano())
		}
		p.unlock(exclusive)
		return nil, err
	}
	l.proc, l.excl = p, exclusive
	return l, nil
}

func (p *procLock) unlock(exclusive bool) {
	if exclusive {
		p.mu.Unlock()
	} else {
		p.mu.RUnlock()
	}
}

// errHeldElsewhere marks a file lock another process kept past the wait.
var errHeldElsewhere = errors.New("held by another process")

// lockFile opens path (creating it) and flocks it, exclusively or shared, waiting at most wait. A symlink
// is not followed: the lock file would be created, or an existing file opened for writing, wherever it
// points.
func lockFile(path string, exclusive bool, wait time.Duration) (*fileLock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|filelock.NoFollow, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock store %s: %w", path, err)
	}
	l := &fileLock{f: f, path: path}
	if err := waitFor(f, wait, func() error { return filelock.Lock(f, exclusive) }); err != nil {
		if !errors.Is(err, filelock.ErrLocked) {
			_ = f.Close() // a lock that timed out is closed by waitFor, once it is let go
		}
		return nil, lockError(path, err)
	}
	return l, nil
}

// waitFor runs take, a blocking lock of f (the kernel's queue is fair to writers; polling is not), for at
// most wait. Past that it answers ErrLocked and leaves take to finish on its own, which then lets the
// lock go and closes f: a lock that stays held costs its caller the wait, not forever.
func waitFor(f *os.File, wait time.Duration, take func() error) error {
	done := make(chan error, 1)
	go func() { done <- take() }()
	timer := time.NewTimer(wait)
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
		return fmt.Errorf("lock store %s: %w for over %s", path, errHeldElsewhere, lockWait)
	}
	return fmt.Errorf("lock store %s: %w", path, err)
}

// release unlocks and closes the lock file, then lets this process's next holder in.
func (l *fileLock) release() error {
	err := filelock.Unlock(l.f)
	// Closing releases the lock too, so a failed unlock still ends with the lock gone.
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	if l.proc != nil {
		l.proc.unlock(l.excl)
	}
	if err != nil {
		return fmt.Errorf("unlock store %s: %w", l.path, err)
	}
	return nil
}
