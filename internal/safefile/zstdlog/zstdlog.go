// Package zstdlog reads an agent's log file within safefile's bounds, decompressing a .zst one: apart
// from safefile so that the hook binary, which reads only small plain files, links no decompressor.
package zstdlog

import (
	"fmt"
	"io"
	"strings"

	"github.com/klauspost/compress/zstd"

	"github.com/saverd/saverd/internal/safefile"
)

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
func Reader(src io.Reader, path string, size int64, l safefile.Limits) (r io.Reader, closeFn func(), err error) {
	r, closeFn = safefile.Bounded(src, path, l.Deadline, -1, 0), func() {}
	if !strings.HasSuffix(path, ".zst") {
		return r, closeFn, nil
	}
	dec, err := zstd.NewReader(r, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
		zstd.WithDecoderMaxWindow(maxWindow))
	if err != nil {
		return nil, nil, fmt.Errorf("zstd %s: %w", path, err)
	}
	return safefile.Bounded(dec, path, l.Deadline, inflatedLimit(size, l), size), dec.Close, nil
}

// inflatedLimit is how far a .zst of size bytes may inflate: maxRatio times its size (minInflated at
// least), and l.Inflated at most.
func inflatedLimit(size int64, l safefile.Limits) int64 {
	limit := max(minInflated, maxRatio*size)
	if l.Inflated > 0 {
		limit = min(limit, l.Inflated)
	}
	return limit
}
