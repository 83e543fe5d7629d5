package agentlog

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

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
	line = append(line, '\n')
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("append session %s: %w", rec.SessionID, err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("append session %s: %w", rec.SessionID, err)
	}
	defer f.Close()
	// The lock also covers writers that are not O_APPEND-atomic (an NFS home): one line at a time.
	if err := filelock.Lock(f, true); err != nil {
		return fmt.Errorf("append session %s: lock %s: %w", rec.SessionID, path, err)
	}
	defer filelock.Unlock(f) //nolint:errcheck // closing unlocks too
	n, err := f.Write(line)
	if err == nil && n < len(line) {
		err = fmt.Errorf("short write: %d of %d bytes", n, len(line))
	}
	if err != nil {
		return fmt.Errorf("append session %s to %s: %w", rec.SessionID, path, err)
	}
	return nil
}
