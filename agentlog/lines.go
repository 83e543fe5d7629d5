package agentlog

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/saverd/saverd/internal/safefile"
	"github.com/saverd/saverd/internal/safefile/zstdlog"
)

const (
	// DefaultMaxLine bounds one line of a log. Claude Code stores whole tool results in its lines, so a
	// few MB are ordinary; a line past this is reported and skipped rather than held in memory.
	DefaultMaxLine = 32 << 20
	// readBuf is the reader's buffer: lines up to this size are parsed in place, without a copy.
	readBuf = 256 << 10
	// maxLineWarnings is how many malformed lines of one file are named one by one; the rest are counted.
	maxLineWarnings = 5
)

// lineReader yields the lines of one file, each at most max bytes, numbered from 1.
type lineReader struct {
	path string
	r    *bufio.Reader
	max  int
	num  int
	buf  []byte // a line longer than the reader's buffer, assembled
	// bad counts malformed lines; warn collects what the reader and its caller report.
	bad  int
	warn []string
	// last is true when the line just returned had no newline: the end of a file still being written.
	last bool
}

// openLog opens path for reading within opt's limits (safefile.Limits: regular files only, opened without
// waiting, a size on disk, a .zst's inflated size, a deadline), through a zstd decoder when the name ends
// in .zst. close releases both.
func openLog(path string, opt Options) (*lineReader, func(), error) {
	lim := opt.limits()
	f, size, closeFile, err := openFile(path, lim.Size)
	if err != nil {
		if safefile.IsLimit(err) { // it names the file already
			return nil, nil, fmt.Errorf("%w, skipped", err)
		}
		return nil, nil, fmt.Errorf("open %s: %w", path, err)
	}
	src, closeDec, err := zstdlog.Reader(f, path, size, lim)
	if err != nil {
		closeFile()
		return nil, nil, err
	}
	maxLine := opt.MaxLine
	if maxLine <= 0 {
		maxLine = DefaultMaxLine
	}
	br := readers.Get().(*bufio.Reader)
	br.Reset(src)
	lr := &lineReader{path: path, r: br, max: maxLine}
	release := func() {
		closeDec()
		closeFile()
		br.Reset(nil)
		readers.Put(br)
	}
	if err := lr.checkText(); err != nil {
		release()
		return nil, nil, err
	}
	return lr, release, nil
}

// readers reuses the read buffers: thousands of small files would otherwise each allocate (and the
// runtime zero) a fresh one.
var readers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, readBuf) }}

// errBinary says a file is not a text log at all.
var errBinary = errors.New("binary data, not JSON lines")

// checkText refuses a file whose first bytes hold a NUL: no JSON line contains one, and reading a binary
// file line by line would only produce a warning per chunk.
func (lr *lineReader) checkText() error {
	head, err := lr.r.Peek(4096)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return fmt.Errorf("read %s: %w", lr.path, err)
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return fmt.Errorf("%s: %w, skipped", lr.path, errBinary)
	}
	return nil
}

// next returns the next non-blank line, or io.EOF. The slice is valid until the following call. A line
// over the bound is reported and skipped.
func (lr *lineReader) next() ([]byte, error) {
	for {
		line, tooLong, err := lr.read()
		if err != nil {
			return nil, err
		}
		if tooLong {
			lr.warn = append(lr.warn, fmt.Sprintf("%s:%d: line longer than %d bytes, skipped", lr.path, lr.num, lr.max))
			continue
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		return line, nil
	}
}

// read returns one raw line (without its newline), whether it was over the bound, or io.EOF.
func (lr *lineReader) read() (line []byte, tooLong bool, err error) {
	lr.buf = lr.buf[:0]
	for {
		chunk, err := lr.r.ReadSlice('\n')
		switch {
		case err == nil:
			lr.num++
			lr.last = false
			chunk = chunk[:len(chunk)-1]
			if tooLong {
				return nil, true, nil
			}
			if len(lr.buf) == 0 {
				return chunk, len(chunk) > lr.max, nil
			}
			lr.buf = append(lr.buf, chunk...)
			return lr.buf, len(lr.buf) > lr.max, nil
		case errors.Is(err, bufio.ErrBufferFull):
			if !tooLong && len(lr.buf)+len(chunk) <= lr.max {
				lr.buf = append(lr.buf, chunk...)
			} else {
				tooLong, lr.buf = true, lr.buf[:0]
			}
		case errors.Is(err, io.EOF):
			if len(chunk) == 0 && len(lr.buf) == 0 && !tooLong {
				return nil, false, io.EOF
			}
			lr.num++
			lr.last = true
			if tooLong {
				return nil, true, nil
			}
			lr.buf = append(lr.buf, chunk...)
			return lr.buf, len(lr.buf) > lr.max, nil
		case safefile.IsLimit(err):
			return nil, false, err // it names the file and the bound
		default:
			return nil, false, fmt.Errorf("read %s: line %d: %w", lr.path, lr.num+1, err)
		}
	}
}

// malformed reports a line that is not the JSON it should be. The last line of a file with no newline
// is a session still being written, and says so.
func (lr *lineReader) malformed(err error) {
	lr.bad++
	if lr.bad > maxLineWarnings {
		return
	}
	what := "malformed line"
	if lr.last {
		what = "truncated last line (still being written?)"
	}
	lr.warn = append(lr.warn, fmt.Sprintf("%s:%d: %s: %v, skipped", lr.path, lr.num, what, err))
}

// warnings is everything the file's reading reported, with the count of unnamed malformed lines.
func (lr *lineReader) warnings() []string {
	if lr.bad > maxLineWarnings {
		return append(lr.warn, fmt.Sprintf("%s: %d more malformed lines, skipped", lr.path, lr.bad-maxLineWarnings))
	}
	return lr.warn
}

// each hands every line to fn, to the end of the file; a read error is a warning and ends the file there.
// A file cut short by its limits (its deadline, its inflated size) is no file at all: that error is
// returned, and the caller drops what it read.
func (lr *lineReader) each(fn func(line []byte)) error {
	for {
		line, err := lr.next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if safefile.IsLimit(err) {
			return fmt.Errorf("%w, skipped", err)
		}
		if err != nil {
			lr.warn = append(lr.warn, err.Error()+", rest of file skipped")
			return nil
		}
		fn(line)
	}
}
