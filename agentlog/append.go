package agentlog

import (
	"bytes"
	"encoding/json"
	"errors"
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
	size, err := cutTornTail(f)
	if err != nil {
		return fmt.Errorf("append %s to %s: %w", what, path, err)
	}
	n, err := f.Write(line)
	if err == nil && n < len(line) {
		err = fmt.Errorf("short write: %d of %d bytes", n, len(line))
	}
	if err != nil {
		// Whatever part of the line was written (the disk full mid-line) is cut off again: the log holds
		// whole lines only, and the reader of the next record never meets the fragment.
		if terr := f.Truncate(size); terr != nil {
			err = errors.Join(err, fmt.Errorf("cut back the part written: %w", terr))
		}
		return fmt.Errorf("append %s to %s: %w", what, path, err)
	}
	return nil
}

// maxTornTail is how far back from the end cutTornTail looks for the last line's end: a record is a few
// KB; a last line longer than this is no record cut short, and is ended with a newline instead.
const maxTornTail = 16 << 20

// cutTornTail cuts a last line that has no newline (a record cut off: a writer that died, a disk full)
// back to the end of the line before it, so the next record starts a line of its own and the log holds
// only whole lines (the fragment used to stay, and every later reading of the log warned of it). Its size
// is read here, under the lock: one read before it may end inside a line another writer was writing. It
// returns the size the log has now.
func cutTornTail(f *os.File) (int64, error) {
	fi, err := f.Stat()
	if err != nil {
		return 0, err
	}
	size := fi.Size()
	if size == 0 {
		return 0, nil
	}
	var last [1]byte
	if _, err := f.ReadAt(last[:], size-1); err != nil {
		return 0, err
	}
	if last[0] == '\n' {
		return size, nil
	}
	end, err := lastLineEnd(f, size)
	if err != nil {
		return 0, err
	}
	if end < 0 { // no line end near: the long line is ended, not cut
		_, err := f.Write([]byte{'\n'})
		return size + 1, err
	}
	if err := f.Truncate(end); err != nil {
		return 0, fmt.Errorf("cut back a torn last line: %w", err)
	}
	return end, nil
}

// lastLineEnd is the offset just past the last newline in f's last maxTornTail bytes, 0 when the file
// is all one line shorter than that, or -1 when none is found within them.
func lastLineEnd(f *os.File, size int64) (int64, error) {
	buf := make([]byte, 64<<10)
	for end := size; end > 0 && size-end < maxTornTail; {
		start := max(0, end-int64(len(buf)))
		chunk := buf[:end-start]
		if _, err := f.ReadAt(chunk, start); err != nil {
			return 0, err
		}
		if i := bytes.LastIndexByte(chunk, '\n'); i >= 0 {
			return start + int64(i) + 1, nil
		}
		end = start
		if end == 0 {
			return 0, nil
		}
	}
	return -1, nil
}
