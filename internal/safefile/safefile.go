// Package safefile opens the files saverd reads on someone else's word — a registry, a workflow
// journal, an impact input — so that none can stall or swamp the daemon: only regular files are read
// (a FIFO's open would block for good), never more than a stated size, and with a time limit where a
// read can hang. Lines are read with a length cap, so /dev/zero-like input cannot grow memory.
package safefile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// ErrNotRegular: the path names a FIFO, a device, a socket or a directory.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge: the file is larger than the reader accepts.
var ErrTooLarge = errors.New("file too large")

// ErrTimeout: the read did not finish in time.
var ErrTimeout = errors.New("read timed out")

// Open opens path for reading when it is a regular file; anything else is ErrNotRegular, named.
func Open(path string) (*os.File, error) {
	f, err := openNoWait(path)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s: %w (%s)", path, ErrNotRegular, kindOf(info.Mode()))
	}
	if err := blocking(f); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// OpenSized is Open that also refuses a file larger than maxSize bytes (0: any), and returns its size.
func OpenSized(path string, maxSize int64) (*os.File, int64, error) {
	f, err := Open(path)
	if err != nil {
		return nil, 0, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	if maxSize > 0 && info.Size() > maxSize {
		f.Close()
		return nil, 0, fmt.Errorf("%s: %w (%d bytes, the limit is %d)", path, ErrTooLarge, info.Size(), maxSize)
	}
	return f, info.Size(), nil
}

func kindOf(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeDevice != 0:
		return "a device"
	default:
		return "not a plain file"
	}
}

// Read reads a regular file of at most limit bytes; a larger one is ErrTooLarge, its size in the error.
func Read(path string, limit int64) ([]byte, error) { return read(path, limit, false) }

// Head reads the first limit bytes of a regular file, however long it is.
func Head(path string, limit int64) ([]byte, error) { return read(path, limit, true) }

func read(path string, limit int64, head bool) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info, err := f.Stat(); err == nil && info.Size() > limit && !head {
		return nil, fmt.Errorf("%s: %w (%d bytes, the limit is %d)", path, ErrTooLarge, info.Size(), limit)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1)) // the file may have grown since the stat
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if int64(len(data)) > limit {
		if head {
			return data[:limit], nil
		}
		return nil, fmt.Errorf("%s: %w (over %d bytes)", path, ErrTooLarge, limit)
	}
	return data, nil
}

// ReadWithin is Read that gives up after d: a regular file on a hung network mount can block a read
// for good, and no deadline reaches a plain file. The abandoned read ends with the file system.
func ReadWithin(path string, limit int64, d time.Duration) ([]byte, error) {
	return within(path, d, func() ([]byte, error) { return Read(path, limit) })
}

// HeadWithin is Head that gives up after d (see ReadWithin).
func HeadWithin(path string, limit int64, d time.Duration) ([]byte, error) {
	return within(path, d, func() ([]byte, error) { return Head(path, limit) })
}

func within(path string, d time.Duration, read func() ([]byte, error)) ([]byte, error) {
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		data, err := read()
		done <- result{data, err}
	}()
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case r := <-done:
		return r.data, r.err
	case <-timer.C:
		return nil, fmt.Errorf("%s: %w after %s", path, ErrTimeout, d)
	}
}

// ReadLine reads through the next '\n' and returns the line with its newline. A line longer than max is
// consumed to its end but only its first max bytes are kept, and tooLong is set: one huge line costs no
// memory and hides none of the lines after it. err is io.EOF only when nothing was read.
func ReadLine(r *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > max {
				line = append(line, chunk[:max-len(line)]...)
				tooLong = true
			} else {
				line = append(line, chunk...)
			}
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err != nil && (len(line) > 0 || tooLong):
			if errors.Is(err, io.EOF) {
				return line, tooLong, nil // a last line without a newline
			}
			return line, tooLong, err
		default:
			return line, tooLong, err
		}
	}
}
