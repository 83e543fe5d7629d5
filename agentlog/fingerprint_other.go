//go:build !linux && !darwin

package agentlog

import "time"

// fingerprintsChangeTime: no change time is read here (Windows has none a program cannot set), so
// OpenCache keeps no cache.
const fingerprintsChangeTime = false

// fingerprint has fingerprint_unix.go's fields, so that the cache's format is one.
type fingerprint struct {
	exists      bool
	mode        uint32
	size, mtime int64
	ctime       int64
	ino, dev    uint64
}

func fingerprintOf(string) fingerprint { return fingerprint{} }

func (fingerprint) changedSince(time.Time) bool { return true }
