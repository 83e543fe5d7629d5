package safefile

import (
	"errors"
	"fmt"
	"io"
	"time"
)

// Limits bound one read of a file saverd reads because a payload, a log or a project named it (a
// transcript, a rollout, a rule file): a FIFO is never opened for good (Open, OpenRaw), and past these a
// read stops with ErrTooLarge or ErrTimeout, naming the file, instead of holding memory, a thread or the
// sessions waiting on the reader. The zero value bounds nothing but the file's kind.
type Limits struct {
	// Size bounds the file's size on disk, checked at open (a sparse 10 GB file is refused unread).
	Size int64
	// Inflated bounds what a .zst file decompresses to; past it the read fails. A file also may not
	// inflate past a multiple of its own size (zstdlog): a few KB that inflate to GBs is a
	// bomb, not a log.
	Inflated int64
	// Deadline is when a read gives up with ErrTimeout (checked before each read of the file).
	Deadline time.Time
}

// Bounded reads r (what path holds) until deadline (zero: none) and up to max bytes (-1: no bound);
// compressed, when r inflates a compressed file, is that file's size, for the error past max.
func Bounded(r io.Reader, path string, deadline time.Time, max, compressed int64) io.Reader {
	return &bounded{r: r, path: path, deadline: deadline, max: max, compressed: compressed}
}

// bounded is a reader that fails past a deadline or past max bytes (-1: no bound).
type bounded struct {
	r          io.Reader
	path       string
	deadline   time.Time
	max, n     int64
	compressed int64
}

func (b *bounded) Read(p []byte) (int, error) {
	if !b.deadline.IsZero() && time.Now().After(b.deadline) {
		return 0, fmt.Errorf("%s: %w (its deadline passed)", b.path, ErrTimeout)
	}
	if b.max >= 0 {
		if b.n > b.max {
			return 0, b.tooLarge()
		}
		// One byte past the bound is read, so a file of exactly max bytes still reads whole.
		p = p[:min(int64(len(p)), b.max+1-b.n)]
	}
	n, err := b.r.Read(p)
	b.n += int64(n)
	if b.max >= 0 && b.n > b.max {
		return n - int(b.n-b.max), b.tooLarge()
	}
	return n, err
}

func (b *bounded) tooLarge() error {
	return fmt.Errorf("%s: %w: it inflates past %d bytes (%d compressed)", b.path, ErrTooLarge, b.max, b.compressed)
}

// IsLimit reports whether err is a file refused or cut short by its bounds (its kind, its size, its
// inflated size, its deadline): the file is skipped, not read in part.
func IsLimit(err error) bool {
	return errors.Is(err, ErrTooLarge) || errors.Is(err, ErrTimeout) || errors.Is(err, ErrNotRegular)
}
