package replay

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
)

// A recording in a regular file is played in two passes (scanFile, then fileSource), through one reused
// line buffer (lineReader), so what a replay holds does not grow with the recording.

// lineBuffer is how much of a recording the two-pass reader holds at once: a longer line (a huge tool
// output) is gathered into a buffer of its own.
const lineBuffer = 64 << 10

// scanFile is the first of two passes over a recording in a regular file: every line checked as
// readScript checks it, with the same errors, and the replies to model.fork kept (play needs them all
// before it starts), the requests not. The source it answers is the second pass, reading the lines
// again as they play, so a replay holds one request at a time however long the recording.
func scanFile(f *os.File, name string, bufSize int) (*fileSource, error) {
	lines := newLineReader(io.NewSectionReader(f, 0, math.MaxInt64), bufSize)
	forkIDs := map[string]string{}
	var forks []forkReply
	var skips lineSet
	for {
		text, ok := lines.next()
		if !ok {
			break
		}
		if text = bytes.TrimSpace(text); len(text) == 0 {
			continue
		}
		e, err := readLine(text, forkIDs)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, lines.line, err)
		}
		switch e.kind {
		case entryFork:
			e.fork.msg.own() // kept past the line, whose buffer the next line reuses (the decoders copy today)
			forks = append(forks, e.fork)
			skips.add(lines.line)
		case entryNone:
			skips.add(lines.line)
		}
	}
	if lines.err != nil {
		return nil, fmt.Errorf("read %s: %w", name, lines.err)
	}
	// The second pass reads the bytes the first checked, and no more: a recording a live daemon is still
	// writing plays as it was when it was checked.
	return &fileSource{name: name, forks: forks, skips: skips, size: lines.read,
		lines: newLineReader(io.NewSectionReader(f, 0, lines.read), bufSize)}, nil
}

// fileSource is the second pass over a recording scanFile checked: each line read and decoded again as
// play asks for the next request.
type fileSource struct {
	name   string
	forks  []forkReply
	skips  lineSet // the lines the second pass need not read again: the daemon's own, the fork replies
	size   int64   // bytes the first pass read
	lines  *lineReader
	at     entry
	failed error
}

func (s *fileSource) forkReplies() []forkReply { return s.forks }

func (s *fileSource) err() error { return s.failed }

func (s *fileSource) next() (*entry, bool) {
	for s.failed == nil {
		text, ok := s.lines.next()
		if !ok {
			s.failed = s.end()
			return nil, false
		}
		if text = bytes.TrimSpace(text); len(text) == 0 || s.skips.has(s.lines.line) {
			continue // blank, the daemon's own line, or a fork reply (kept by the first pass)
		}
		e, err := readLineNow(text, nil, true)
		if err != nil {
			// The first pass took this line: the file changed under the replay.
			s.failed = fmt.Errorf("%s:%d: changed since it was checked: %w", s.name, s.lines.line, err)
			return nil, false
		}
		switch e.kind {
		case entryRequest:
			s.at = e
			// What the request's reader took is done with the line before the next is read over it (as
			// the daemon reads a frame); params left for the handler get bytes of their own.
			s.at.req.peek()
			if s.at.req.read == nil {
				s.at.req.own()
			}
			return &s.at, true
		case entryMalformed:
			s.at = e
			return &s.at, true
		}
	}
	return nil, false
}

// lineSet is a set of line numbers (1-based), a bit each.
type lineSet []uint64

func (l *lineSet) add(n int) {
	for len(*l) <= n/64 {
		*l = append(*l, 0)
	}
	(*l)[n/64] |= 1 << (n % 64)
}

func (l lineSet) has(n int) bool { return n/64 < len(l) && l[n/64]&(1<<(n%64)) != 0 }

// end is the second pass's error at the end of its lines, if it has one.
func (s *fileSource) end() error {
	switch {
	case s.lines.err != nil:
		return fmt.Errorf("read %s: %w", s.name, s.lines.err)
	case s.lines.read != s.size:
		return fmt.Errorf("read %s: %d bytes, %d when it was checked: it changed under the replay", s.name, s.lines.read, s.size)
	}
	return nil
}

// lineReader reads lines through one reused buffer, split at '\n' as readScript splits its text.
type lineReader struct {
	br   *bufio.Reader
	long []byte // a line longer than br's buffer, gathered
	line int    // the number of the line last returned
	read int64  // bytes read
	err  error  // what ended the lines, other than their end
}

func newLineReader(r io.Reader, size int) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, size)}
}

// maxKept is the longest gathered line whose buffer is kept for the next: a recording with one huge
// tool output does not hold its size for the rest of the replay.
const maxKept = 1 << 20

// next is the next line, its '\n' included, good until the next call; false at the end or on an error.
func (lr *lineReader) next() ([]byte, bool) {
	if cap(lr.long) > maxKept {
		lr.long = nil
	}
	lr.long = lr.long[:0]
	for {
		frag, err := lr.br.ReadSlice('\n')
		lr.read += int64(len(frag))
		switch {
		case err == bufio.ErrBufferFull:
			lr.long = append(lr.long, frag...)
			continue
		case err != nil && err != io.EOF:
			lr.err = err
			return nil, false
		case err == io.EOF && len(frag) == 0 && len(lr.long) == 0:
			return nil, false
		}
		lr.line++
		if len(lr.long) == 0 {
			return frag, true
		}
		lr.long = append(lr.long, frag...)
		return lr.long, true
	}
}
