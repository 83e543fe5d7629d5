package bridge

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/internal/safefile"
	"github.com/saverd/saverd/internal/safefile/zstdlog"
)

// MaxLine bounds one transcript line the readers decode; a longer one (a huge tool output) is skipped,
// never held whole.
const MaxLine = 16 << 20

// ReadWait bounds one read of a transcript a hook named: a file that takes longer (a huge one, a slow
// disk) is given up, its reader told why, so the hook still answers within the harness's wait.
const ReadWait = 3 * time.Second

// Limits are the bounds of one transcript read a hook asks for that starts now (see safefile.Limits): the
// agent logs' size on disk, and ReadWait.
func Limits() safefile.Limits {
	return safefile.Limits{Size: agentlog.DefaultMaxFile, Inflated: agentlog.DefaultMaxFile, Deadline: time.Now().Add(ReadWait)}
}

// EachLine calls fn with every complete line of path (its newline included) from byte offset from on,
// within a hook's bounds (Limits), and returns the offset after the last complete line (a line still
// being written is left for the next read). Lines over MaxLine are skipped. A harness's readers of a
// turn's tail read through it.
func EachLine(path string, from int64, fn func(line []byte)) (int64, error) {
	lim := Limits()
	f, size, err := safefile.OpenSized(path, lim.Size)
	if err != nil {
		return from, err
	}
	defer f.Close()
	if from > 0 {
		if _, err := f.Seek(from, io.SeekStart); err != nil {
			return from, fmt.Errorf("seek %s: %w", path, err)
		}
	}
	src, closeDec, err := zstdlog.Reader(f, path, size, lim)
	if err != nil {
		return from, err
	}
	defer closeDec()
	r := bufio.NewReaderSize(src, 256<<10)
	off := from
	var long []byte
	skipping := false
	for {
		chunk, err := r.ReadSlice('\n')
		switch {
		case err == nil:
			off += int64(len(chunk))
			switch {
			case skipping:
				skipping = false
			case long != nil:
				fn(append(long, chunk...))
				long = nil
			default:
				fn(chunk)
			}
		case errors.Is(err, bufio.ErrBufferFull):
			if !skipping {
				if len(long)+len(chunk) > MaxLine {
					long, skipping = nil, true
				} else {
					long = append(long, chunk...)
				}
			}
			off += int64(len(chunk))
			continue
		case errors.Is(err, io.EOF):
			// What is left has no newline yet: the writer is mid-line, so it is left for the next read.
			// An over-long line being skipped stays skipped: its bytes are not met again.
			if skipping {
				return off, nil
			}
			return off - int64(len(long)), nil
		case safefile.IsLimit(err):
			return off, err // it names the file and the bound
		default:
			return off, fmt.Errorf("read %s: %w", path, err)
		}
	}
}
