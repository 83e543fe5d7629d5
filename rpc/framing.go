package rpc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync/atomic"
)

// Framing selects how JSON-RPC messages are delimited on the wire.
type Framing string

const (
	// FramingAuto detects the framing from the first non-blank bytes of the
	// input and then sticks to it, for reading and writing. Until something
	// has been read, writes use NDJSON.
	FramingAuto Framing = "auto"
	// FramingNDJSON is one JSON value per line; blank lines are ignored.
	FramingNDJSON Framing = "ndjson"
	// FramingHeader is LSP's "Content-Length: N\r\n\r\n<body>".
	FramingHeader Framing = "header"
)

// ParseFraming parses a -framing style flag value; "" means auto.
func ParseFraming(s string) (Framing, error) {
	switch f := Framing(strings.ToLower(strings.TrimSpace(s))); f {
	case "", FramingAuto:
		return FramingAuto, nil
	case FramingNDJSON, FramingHeader:
		return f, nil
	default:
		return "", fmt.Errorf("unknown framing %q (want auto, ndjson or header)", s)
	}
}

// DefaultMaxFrameSize bounds one incoming frame when Options.MaxFrameSize is
// zero. Larger frames are answered with a parse error and skipped.
const DefaultMaxFrameSize = 128 << 20

const (
	readBufferSize = 64 << 10
	maxHeaderLine  = 64 << 10
	// rawPrefix is how much of an oversized frame is kept for the record.
	rawPrefix = 4 << 10
)

// frame is one unit read from the input.
type frame struct {
	// data is the frame's text, owned by the frame unless borrowed: then it is the reader's own buffer,
	// good only until the next read (see stream.accept, which keeps what outlives it).
	data     []byte
	borrowed bool
	// bad is set when the framing itself is broken (oversized frame, bad
	// header); data then holds whatever raw text is worth recording.
	bad       string
	truncated bool  // data is only a prefix of the frame
	err       error // the input ended or failed; no more frames follow
}

// frameReader splits the input into frames. It is used by one goroutine.
type frameReader struct {
	br       *bufio.Reader
	mode     atomic.Value // Framing; read by writers on other goroutines
	maxFrame int
	lineErr  error // sticky error from the underlying reader

	// Header framing only. After a bad frame the input is no longer in step with its headers: resync
	// makes the next frame start at the next Content-Length header, skipping what comes before it
	// unanswered, so one bad header is answered once. pending is a header line found at the end of a
	// line of junk, to start the next frame with.
	resync  bool
	pending []byte
}

func newFrameReader(r io.Reader, f Framing, maxFrame int) *frameReader {
	fr := &frameReader{br: bufio.NewReaderSize(r, readBufferSize), maxFrame: maxFrame}
	fr.mode.Store(f)
	return fr
}

// framing reports the current framing; FramingAuto until detection is done.
func (fr *frameReader) framing() Framing { return fr.mode.Load().(Framing) }

// next returns the next frame, skipping blank lines.
func (fr *frameReader) next() frame {
	switch fr.framing() {
	case FramingHeader:
		return fr.headerFrame(nil)
	case FramingNDJSON:
		return fr.lineFrame()
	default:
		return fr.detect()
	}
}

// detect reads the first non-blank line and decides the framing from it:
// a "Name: value" header line means header framing, anything else NDJSON.
// Deciding on a whole line never blocks on bytes the peer has not sent,
// since both framings end their first line with a newline.
func (fr *frameReader) detect() frame {
	for {
		line, tooLong, _, err := fr.readLine(fr.maxFrame, false)
		if err != nil {
			return frame{err: err}
		}
		if !tooLong && len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if !tooLong && isHeaderLine(line) {
			fr.mode.Store(FramingHeader)
			return fr.headerFrame(line)
		}
		fr.mode.Store(FramingNDJSON)
		return ndjsonFrame(line, tooLong, fr.maxFrame)
	}
}

// lineFrame returns the next non-blank line as a frame: a line already whole in the buffer is lent,
// not copied (frame.borrowed).
func (fr *frameReader) lineFrame() frame {
	for {
		line, tooLong, lent, err := fr.readLine(fr.maxFrame, true)
		if err != nil {
			return frame{err: err}
		}
		if tooLong || len(bytes.TrimSpace(line)) > 0 {
			f := ndjsonFrame(line, tooLong, fr.maxFrame)
			f.borrowed = lent
			return f
		}
	}
}

func ndjsonFrame(line []byte, tooLong bool, maxFrame int) frame {
	if tooLong {
		return frame{data: line, truncated: true, bad: fmt.Sprintf("frame exceeds %d bytes", maxFrame)}
	}
	return frame{data: bytes.TrimSpace(line)}
}

// headerFrame reads one header block and its body. first, if not nil, is a
// header line already consumed by detection. On a broken header the frame is
// reported bad at once, so reading resumes at the very next line.
func (fr *frameReader) headerFrame(first []byte) frame {
	if first == nil && fr.pending != nil {
		first, fr.pending = fr.pending, nil
	}
	if first == nil && fr.resync {
		l, err := fr.resyncLine()
		if err != nil {
			return frame{err: err}
		}
		first, fr.resync = l, false
	}
	f := fr.headerBlock(first)
	if f.bad != "" {
		fr.resync = true
	}
	return f
}

// headerBlock reads one header block and its body, starting with first when it is not nil.
func (fr *frameReader) headerBlock(first []byte) frame {
	var raw []byte
	length := int64(-1)
	line := first
	for {
		if line == nil && raw != nil && fr.bodyStarts() {
			// A header with no blank line after it: the body is where the next header line should be.
			// Answered now, not once a newline comes (a body has none, and its sender waits for the
			// answer); the body is then skipped to the next header.
			return frame{data: raw, bad: "no blank line after the headers: the body began where a header line was due"}
		}
		if line == nil {
			l, tooLong, _, err := fr.readLine(maxHeaderLine, false)
			if err != nil {
				return frame{err: headerEOF(err, raw)}
			}
			if tooLong {
				return frame{data: l, truncated: true, bad: fmt.Sprintf("header line exceeds %d bytes", maxHeaderLine)}
			}
			line = l
		}
		text := bytes.TrimSpace(line)
		if len(text) == 0 && raw == nil {
			line = nil // blank lines between frames
			continue
		}
		raw = append(raw, line...)
		if len(text) == 0 {
			break // the blank line ending the header block
		}
		n, isLength, problem := parseHeader(text)
		if problem == "" && isLength && length >= 0 && n != length {
			problem = "conflicting Content-Length headers"
		}
		if problem != "" {
			if at := headerAt(line); at > 0 {
				// Junk glued to the next header (a body longer than its Content-Length said, or a body
				// sent with no blank line after its header, read as a header line): the junk is answered,
				// and the next frame starts at the header.
				fr.pending = append([]byte(nil), line[at:]...)
				raw = raw[:len(raw)-len(line)+at]
			}
			return frame{data: raw, bad: problem}
		}
		if isLength {
			length = n
		}
		line = nil
	}
	return fr.body(length, raw)
}

// bodyStarts reports whether the next line of a header block begins as a JSON body does ('{' or '['),
// which no header line does. It waits for that byte.
func (fr *frameReader) bodyStarts() bool {
	if fr.lineErr != nil {
		return false
	}
	b, err := fr.br.Peek(1)
	return err == nil && (b[0] == '{' || b[0] == '[')
}

// body reads the length-byte body that follows a header block.
func (fr *frameReader) body(length int64, header []byte) frame {
	switch {
	case length < 0:
		return frame{data: header, bad: "missing Content-Length header"}
	case length == 0:
		return frame{data: header, bad: "empty body (Content-Length: 0)"}
	case length > int64(fr.maxFrame):
		// Refused at once, without reading the body: a Content-Length of 10^12 would swallow the rest
		// of the stream. The body is skipped as junk up to the next header (see resync).
		return frame{data: header, truncated: true, bad: fmt.Sprintf("frame of %d bytes exceeds %d bytes", length, fr.maxFrame)}
	}
	data := make([]byte, length)
	if _, err := io.ReadFull(fr.br, data); err != nil {
		return frame{err: fmt.Errorf("reading %d-byte body: %w", length, unexpected(err))}
	}
	return frame{data: data}
}

// resyncLine skips input up to the next line holding a Content-Length header and returns that line
// from the header on. Only the end of a long line is kept: the header that ends a line of junk is all
// that matters in it.
func (fr *frameReader) resyncLine() ([]byte, error) {
	if fr.lineErr != nil {
		return nil, fr.lineErr
	}
	var tail []byte
	for {
		chunk, err := fr.br.ReadSlice('\n')
		tail = append(tail, chunk...)
		if over := len(tail) - maxHeaderLine; over > 0 {
			tail = tail[:copy(tail, tail[over:])]
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil {
			fr.lineErr = err
			return nil, err // no header follows: nothing more to frame
		}
		if at := headerAt(tail); at >= 0 {
			return append([]byte(nil), tail[at:]...), nil
		}
		tail = tail[:0]
	}
}

// headerAt is where the last Content-Length header in line starts, or -1.
func headerAt(line []byte) int {
	const name = "content-length"
	lower := make([]byte, len(line)) // ASCII only: bytes.ToLower would move offsets on invalid UTF-8
	for i, c := range line {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		lower[i] = c
	}
	for end := len(lower); ; {
		at := bytes.LastIndex(lower[:end], []byte(name))
		if at < 0 {
			return -1
		}
		if rest := bytes.TrimLeft(lower[at+len(name):], " \t"); len(rest) > 0 && rest[0] == ':' {
			return at
		}
		end = at
	}
}

// lost tells the reader that the frame it returned last, data, did not parse. In header framing that
// means the body was not where its header said, so the next frame starts at the next header — and when
// a Content-Length longer than its body took the next frame's header into this body, that header and
// what follows it are read again, so the next frame is not lost with this one.
func (fr *frameReader) lost(data []byte) {
	if fr.framing() != FramingHeader {
		return
	}
	fr.resync = true
	if at := firstHeaderAt(data); at > 0 {
		rest := append([]byte(nil), data[at:]...)
		fr.br = bufio.NewReaderSize(io.MultiReader(bytes.NewReader(rest), fr.br), readBufferSize)
	}
}

// firstHeaderAt is where the first Content-Length header in b starts, or -1.
func firstHeaderAt(b []byte) int {
	for from := 0; from < len(b); {
		i := indexFold(b[from:], "content-length")
		if i < 0 {
			return -1
		}
		at := from + i
		if rest := bytes.TrimLeft(b[at+len("content-length"):], " \t"); len(rest) > 0 && rest[0] == ':' {
			return at
		}
		from = at + 1
	}
	return -1
}

// indexFold is the first index of the lower-case ASCII word in b, matched without case.
func indexFold(b []byte, word string) int {
	for i := 0; i+len(word) <= len(b); i++ {
		j := 0
		for ; j < len(word); j++ {
			c := b[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != word[j] {
				break
			}
		}
		if j == len(word) {
			return i
		}
	}
	return -1
}

// headerEOF reports the end of input inside a header block as truncation,
// but a clean EOF between frames as plain EOF.
func headerEOF(err error, raw []byte) error {
	if raw == nil {
		return err
	}
	return fmt.Errorf("reading header: %w", unexpected(err))
}

func unexpected(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

// parseHeader checks one "Name: value" line. Only Content-Length matters;
// other headers (Content-Type) are tolerated.
func parseHeader(text []byte) (length int64, isLength bool, problem string) {
	name, value, ok := bytes.Cut(text, []byte(":"))
	if !ok || !isToken(name) {
		return 0, false, fmt.Sprintf("invalid header line %q", truncate(text, 80))
	}
	if !strings.EqualFold(string(name), "Content-Length") {
		return 0, false, ""
	}
	n, err := strconv.ParseInt(string(bytes.TrimSpace(value)), 10, 64)
	if err != nil || n < 0 {
		return 0, false, fmt.Sprintf("invalid Content-Length %q", truncate(bytes.TrimSpace(value), 40))
	}
	return n, true, ""
}

// isHeaderLine reports whether line looks like "Name: value". JSON never
// does: it starts with one of {["-0123456789 or a bare literal with no colon.
func isHeaderLine(line []byte) bool {
	name, _, ok := bytes.Cut(bytes.TrimSpace(line), []byte(":"))
	return ok && isToken(name)
}

// isToken reports whether b is a header name: a letter, then letters,
// digits, '-' or '_'.
func isToken(b []byte) bool {
	if len(b) == 0 || !isLetter(b[0]) {
		return false
	}
	for _, c := range b {
		if !isLetter(c) && !('0' <= c && c <= '9') && c != '-' && c != '_' {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func truncate(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	return string(b[:n]) + "..."
}

// readLine reads through the next '\n'. A line longer than limit is consumed
// to its end but only a prefix is kept and tooLong is set. An error is
// returned only when no bytes at all were read, or the frame stalled (ErrFrameStalled); otherwise it is
// kept for the next call so a final unterminated line still counts as a frame. With lend, a
// line the buffer holds whole is lent (the buffer's own bytes, good until the
// next read, and lent says so), not copied.
func (fr *frameReader) readLine(limit int, lend bool) (line []byte, tooLong, lent bool, err error) {
	if fr.lineErr != nil {
		return nil, false, false, fr.lineErr
	}
	for first := true; ; first = false {
		chunk, err := fr.br.ReadSlice('\n')
		if first && lend && err == nil && len(chunk) <= limit {
			return chunk, false, true, nil
		}
		switch {
		case tooLong:
			// discarding the rest of an oversized line
		case len(line)+len(chunk) > limit:
			tooLong = true
			line = keepPrefix(line, chunk)
		default:
			// Copied out of bufio's buffer, which the next read reuses.
			line = appendDoubling(line, chunk, limit)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil {
			fr.lineErr = err
			// A line the peer stopped sending (ErrFrameStalled) is no frame: answering what came of it
			// would answer a frame nobody finished. Only the end of input makes a last line whole.
			if len(line) == 0 || errors.Is(err, ErrFrameStalled) {
				return nil, false, false, err
			}
		}
		return line, tooLong, false, nil
	}
}

// appendDoubling is append that doubles the room when it must grow, never past limit (the frame's bound,
// which line and chunk together are within): append grows a large slice by a quarter, and a 90 MB line
// read 64 KB at a time left some four times its size in discarded arrays (458 MB allocated for one 91 MB
// frame) before the collector ran.
func appendDoubling(line, chunk []byte, limit int) []byte {
	if need := len(line) + len(chunk); need > cap(line) {
		grown := make([]byte, len(line), max(need, min(2*cap(line), limit), 512))
		copy(grown, line)
		line = grown
	}
	return append(line, chunk...)
}

// keepPrefix returns a fresh copy of the first rawPrefix bytes of line+chunk,
// so a huge partial line is not kept alive just for the record.
func keepPrefix(line, chunk []byte) []byte {
	kept := make([]byte, 0, rawPrefix)
	kept = append(kept, line[:min(len(line), rawPrefix)]...)
	return append(kept, chunk[:min(len(chunk), rawPrefix-len(kept))]...)
}

// appendFrame appends body to dst framed for the wire.
func appendFrame(dst []byte, f Framing, body []byte) []byte {
	if f == FramingHeader {
		dst = append(dst, "Content-Length: "...)
		dst = strconv.AppendInt(dst, int64(len(body)), 10)
		dst = append(dst, "\r\n\r\n"...)
		return append(dst, body...)
	}
	dst = append(dst, body...)
	return append(dst, '\n')
}
