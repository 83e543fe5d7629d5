// Package filelock holds advisory whole-file locks that work the same on every platform saverd builds
// for: flock(2) on Unix, LockFileEx on Windows. The store, the sessions log and the socket daemon's
// one-per-socket lock use it, so none of them needs a platform's system calls of its own.
package filelock

import "errors"

// ErrLocked: TryLock found the file locked by another holder.
var ErrLocked = errors.New("file is locked by another process")
