package agentlog

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"github.com/saverd/saverd/internal/filelock"
)

// AppendRecord appends rec as one JSON line to the sessions log at path (the daemon's is
// paths.SessionsLog()), creating its directory 0700 and the file 0600. The line goes out in one write to a
// file opened O_APPEND, under an exclusive lock, so two daemons appending at once never interleave a line.
func AppendRecord(path string, rec Record) error {
	line, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("append session %s: %w", rec.SessionID, err)
	}
	return appendLine(path, "session "+rec.SessionID, line)
}

// AppendFork appends one fork saverd ran to the forks log at path (paths.ForksLog()), as AppendRecord
// appends a session: one locked write of one line.
func AppendFork(path string, rec ForkRecord) error {
	line, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("append fork %s: %w", rec.SessionID, err)
	}
	return appendLine(path, "fork "+rec.SessionID, line)
}

// appendLine appends line and a newline to the log at path; what names the record in an error.
func appendLine(path, what string, line []byte) error {
	line = append(line, '\n')
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("append %s: %w", what, err)
	}
	// O_NONBLOCK: a FIFO where the log should be would hold the open (and a thread) until a reader came.
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE|syscall.O_NONBLOCK, 0o600)
	if err != nil {
		return fmt.Errorf("append %s: %w", what, err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return fmt.Errorf("append %s: %s is not a regular file", what, path)
	}
	// The lock also covers writers that are not O_APPEND-atomic (an NFS home): one line at a time.
	if err := filelock.Lock(f, true); err != nil {
		return fmt.Errorf("append %s: lock %s: %w", what, path, err)
	}
	defer filelock.Unlock(f) //nolint:errcheck // closing unlocks too
	if torn(f) {
		// A line cut off (a writer that died mid-write): the record starts a line of its own, so only
		// the torn one is lost, not this one glued to it.
		line = append([]byte{'\n'}, line...)
	}
	n, err := f.Write(line)
	if err == nil && n < len(line) {
		err = fmt.Errorf("short write: %d of %d bytes", n, len(line))
	}
	if err != nil {
		return fmt.Errorf("append %s to %s: %w", what, path, err)
	}
	return nil
}

// torn reports whether f ends in anything but a newline (an empty file is not torn). Its size is read
// again here, under the lock: one read before it may end inside a line another writer was writing.
func torn(f *os.File) bool {
	fi, err := f.Stat()
	if err != nil || fi.Size() == 0 {
		return false
	}
	var last [1]byte
	_, err = f.ReadAt(last[:], fi.Size()-1)
	return err == nil && last[0] != '\n'
}
