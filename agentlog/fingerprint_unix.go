//go:build linux || darwin

package agentlog

import (
	"os"
	"syscall"
	"time"
)

// fingerprintsChangeTime: a Unix file's change time is set by the kernel at every change, never back.
const fingerprintsChangeTime = true

// fingerprint is what a Cache knows of a file it read: a change to the file changes its change time
// (which no program can set back, unlike the modification time), a file put in its place its inode.
type fingerprint struct {
	exists      bool
	mode        uint32
	size, mtime int64
	ctime       int64
	ino, dev    uint64
}

// fingerprintOf is the file at path as it is now (followed through a symbolic link, as the readers
// open it); a path that cannot be stat'ed is absent.
func fingerprintOf(path string) fingerprint {
	fi, err := os.Stat(path)
	if err != nil {
		return fingerprint{}
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fingerprint{}
	}
	return fingerprint{
		exists: true, mode: uint32(fi.Mode()), size: fi.Size(), mtime: fi.ModTime().UnixNano(),
		ctime: changeTime(st), ino: uint64(st.Ino), dev: uint64(st.Dev), //nolint:unconvert // int32 on some systems
	}
}

// changedSince reports whether the file changed at or after t (an absent one never did).
func (f fingerprint) changedSince(t time.Time) bool {
	n := t.UnixNano()
	return f.exists && (f.mtime >= n || f.ctime >= n)
}
