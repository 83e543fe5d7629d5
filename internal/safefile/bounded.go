package safefile

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/klauspost/compress/zstd"
)

// Limits bound one read of a file saverd reads because a payload, a log or a project named it (a
// transcript, a rollout, a rule file): a FIFO is never opened for good (Open, OpenRaw), and past these a
// read stops with ErrTooLarge or ErrTimeout, naming the file, instead of holding memory, a thread or the
// sessions waiting on the reader. The zero value bounds nothing but the file's kind.
type Limits struct {
	// Size bounds the file's size on disk, checked at open (a sparse 10 GB file is refused unread).
	Size int64
	// Inflated bounds what a .zst file decompresses to; past it the read fails. A file also may not
	// inflate past maxRatio times its own size (at least minInflated): a few KB that inflate to GBs is a
	// bomb, not a log.
	Inflated int64
	// Deadline is when a read gives up with ErrTimeout (checked before each read of the file).
	Deadline time.Time
}

// maxRatio and minInflated bound a .zst file's decompressed size by its own: JSON lines compress some
// 5 to 20 times, and a hundred-fold and more is what a bomb is made of.
const (
	maxRatio    = 256
	minInflated = 64 << 20
)

// maxWindow bounds the window a zstd frame may ask the decoder to hold (the zstd command line's own
// default limit): a frame asking for more is refused rather than allocated.
const maxWindow = 128 << 20

// Reader reads an open file within l: src is the file (of size bytes on disk) and path names it in the
// errors. A name ending in .zst is decompressed, its output bounded by l.Inflated and the ratio. close
// releases the decoder (the caller closes the file).
func Reader(src io.Reader, path string, size int64, l Limits) (r io.Reader, closeFn func(), err error) {
	r, closeFn = &bounded{r: src, path: path, deadline: l.Deadline, max: -1}, func() {}
	if !strings.HasSuffix(path, ".zst") {
		return r, closeFn, nil
	}
	dec, err := zstd.NewReader(r, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
		zstd.WithDecoderMaxWindow(maxWindow))
	if err != nil {
		return nil, nil, fmt.Errorf("zstd %s: %w", path, err)
	}
	return &bounded{r: dec, path: path, deadline: l.Deadline, max: inflatedLimit(size, l), compressed: size}, dec.Close, nil
}

// inflatedLimit is how far a .zst of size bytes may inflate: maxRatio times its size (minInflated at
// least), and l.Inflated at most.
func inflatedLimit(size int64, l Limits) int64 {
	limit := max(minInflated, maxRatio*size)
	if l.Inflated > 0 {
		limit = min(limit, l.Inflated)
	}
	return limit
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
