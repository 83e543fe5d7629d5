package rpc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/rs/zerolog"
)

// stream is the transport under a Conn, in the shape of a jsonrpc2.Stream (Read and Write one message,
// Close) over this package's own messages (see messages.go). Unlike jsonrpc2's streams it never fails on
// a malformed frame (it answers the frame and reads on), and stopping it never waits for a blocked Read
// of the input.
type stream struct {
	ahead  *aheadReader // the input, read ahead while a handler is busy (see readahead.go)
	clock  *frameClock  // a partial frame's deadline (frameclock.go); nil without one
	frames *frameReader
	// wire is the frame being accepted (see accept), and req the request it made: the read loop's alone,
	// reused for every frame (a request is handled before the next frame is read).
	wire wireIn
	req  request
	// readers read a method's params in the frame's own pass (Options.ParamsReaders).
	readers map[string]ParamsReader
	rec     *recorder
	log     zerolog.Logger

	// life ends, with the reason as its cause, when the connection stops.
	life context.Context
	end  context.CancelCauseFunc

	w       io.Writer
	wmu     sync.Mutex // one frame at a time on w
	wbuf    []byte     // reused frame buffer; guarded by wmu
	rbuf    []byte     // reused body of the read loop's replies, which only it encodes (encodeResponse)
	held    []byte     // replies not written yet (see hold); guarded by wmu
	wclosed atomic.Bool
	wclose  sync.Once
	// wfailed: a write failed (the peer gone, or not reading past a write deadline); nothing more is
	// written, so the writers queued behind it do not each wait out the deadline again.
	wfailed atomic.Bool
}

// maxHeld bounds the replies held back for one write (see Write): pipelined debug.state requests, each
// answer held until the input ran dry, once held 1.86 GB.
const maxHeld = 1 << 20

func newStream(r io.Reader, w io.Writer, opt Options) *stream {
	life, end := context.WithCancelCause(context.Background())
	maxFrame := opt.MaxFrameSize
	if maxFrame <= 0 {
		maxFrame = DefaultMaxFrameSize
	}
	r, clock := withFrameClock(r, opt.FrameTimeout)
	ahead := &aheadReader{r: r}
	return &stream{
		ahead:   ahead,
		clock:   clock,
		frames:  newFrameReader(ahead, opt.framing(), maxFrame),
		readers: opt.ParamsReaders,
		rec:     newRecorder(opt.Record, opt.Logger),
		log:     opt.Logger,
		life:    life,
		end:     end,
		w:       w,
	}
}

// shutdown stops the stream for the given reason; the first reason wins.
// Every reason wraps ErrClosed so callers can test for it.
func (s *stream) shutdown(reason error) {
	if !errors.Is(reason, ErrClosed) {
		reason = fmt.Errorf("%w: %w", ErrClosed, reason)
	}
	s.end(reason)
}

// cause returns why the stream stopped, or nil while it runs.
func (s *stream) cause() error {
	if s.life.Err() == nil {
		return nil
	}
	return context.Cause(s.life)
}

// Close stops the stream. The output is closed later, once the read loop is
// done, so a reply being written is not cut off; the input is never closed,
// as a Read blocked on a raw stdin would not return anyway.
func (s *stream) Close() error {
	s.shutdown(ErrClosed)
	return nil
}

// closeWriter closes the output, if it can be closed, so the peer sees EOF
// and any Write blocked on it returns.
func (s *stream) closeWriter() error {
	var err error
	s.wclose.Do(func() {
		s.flush()
		s.wclosed.Store(true)
		if c, ok := s.w.(io.Closer); ok {
			err = c.Close()
		}
	})
	return err
}

// Read returns the next request or reply, answering (and skipping) anything
// that is neither. It fails only when the stream stops: peer EOF, a read
// error, Close, or the Conn's context.
//
// It reads the input itself, on the Conn's read-loop goroutine: handing each
// frame over from a reader goroutine cost a goroutine wake-up per request,
// the larger part of a round trip. The price is that a stop cannot interrupt
// a Read blocked on a raw stdin; so the connection does not wait for it (see
// Conn.idleIfStopped), a frame read after the stop is dropped, and the
// goroutine ends with the input or with the process.
func (s *stream) Read(context.Context) (message, int64, error) {
	for {
		if err := s.cause(); err != nil {
			return nil, 0, err
		}
		if !s.frameWaiting() {
			s.flush() // about to wait for the peer: it must have every reply first
		}
		f := s.frames.next()
		s.clock.frameDone(s.frames.br.Buffered())
		if err := s.cause(); err != nil {
			return nil, 0, err
		}
		if f.err != nil {
			s.shutdown(inputEnded(f.err))
			continue
		}
		if msg := s.accept(f); msg != nil {
			return msg, int64(len(f.data)), nil
		}
	}
}

func inputEnded(err error) error {
	if errors.Is(err, io.EOF) {
		return fmt.Errorf("peer hung up: %w", err)
	}
	return fmt.Errorf("reading input: %w", err)
}

// Write sends one message. Replies are written as long as the output is
// open, even while stopping, so a handler that closes the connection still
// gets its answer out; new calls and notifications are refused once the
// stream has stopped or ctx is done.
//
// A reply is written by the read loop, which flushes before it waits for input: a host that sends
// requests back to back gets its replies in one write instead of one system call each. A Later's
// reply comes from its own goroutine, when the read loop may be waiting already: it goes out at once.
func (s *stream) Write(ctx context.Context, msg message) (int64, error) {
	var body []byte
	var err error
	hold := false
	switch m := msg.(type) {
	case *response:
		return s.writeResponse(m)
	case *outCall:
		if err := s.refusing(ctx); err != nil {
			return 0, err
		}
		body, err = encodeRequest(m.id, m.method, m.params)
	case *outNotification:
		if err := s.refusing(ctx); err != nil {
			return 0, err
		}
		body, err = encodeRequest(0, m.method, m.params)
	default:
		err = fmt.Errorf("encoding message: unexpected type %T", msg)
	}
	if err != nil {
		return 0, err
	}
	n, err := s.writeFrame(body, hold)
	return int64(n), err
}

// writeResponse is Write of our answer to a call: held for the read loop's next flush, or written at
// once for a Later's (see Write). Called directly by the Conn, so the response need not escape.
func (s *stream) writeResponse(m *response) (int64, error) {
	body, err := s.encodeResponse(m)
	if err != nil {
		return 0, err
	}
	n, err := s.writeFrame(body, !m.now && !m.flush)
	return int64(n), err
}

// refusing is why a new call or notification cannot be sent now, or nil.
func (s *stream) refusing(ctx context.Context) error {
	if err := s.cause(); err != nil {
		return err
	}
	return ctx.Err()
}

// encodeResponse marshals our reply to an incoming call, echoing the peer's own id.
func (s *stream) encodeResponse(m *response) ([]byte, error) {
	if m.err == nil && compactID(m.id) {
		// The hot path, every tool.call: the result was encoded compact by marshal, so the frame is put
		// together as bytes rather than marshaled (and scanned) once more.
		result := m.result
		if len(result) == 0 {
			result = jsonNull
		}
		if m.now {
			// A Later's, on a goroutine of its own: a buffer of its own, at its size.
			return appendResult(make([]byte, 0, len(m.id)+len(result)+len(`{"jsonrpc":"2.0","id":,"result":}`)), m.id, result), nil
		}
		// The read loop's: writeFrame copies the body before the loop encodes another.
		body := appendResult(s.rbuf[:0], m.id, result)
		if cap(body) <= 64<<10 {
			s.rbuf = body
		}
		return body, nil
	}
	out := &wireOut{JSONRPC: version, ID: m.id}
	if m.err != nil {
		out.Error = m.err
	} else if out.Result = m.result; len(out.Result) == 0 {
		out.Result = jsonNull
	}
	body, err := out.encode()
	if err != nil && out.Error != nil && out.Error.Data != nil {
		// The handler's error data would not marshal: send the error without it.
		s.log.Error().Err(err).Int64("code", out.Error.Code).Msg("rpc: dropping unencodable error data")
		out.Error = out.Error.WithData(nil)
		body, err = out.encode()
	}
	return body, err
}

// frameWaiting reports whether a whole NDJSON frame is already buffered, so reading it will not block.
// (Header framing is not looked into: its replies are flushed before every read.)
func (s *stream) frameWaiting() bool {
	if s.frames.framing() != FramingNDJSON {
		return false
	}
	br := s.frames.br
	n := br.Buffered()
	if n == 0 {
		return false
	}
	buffered, _ := br.Peek(n)
	return bytes.IndexByte(buffered, '\n') >= 0
}

// flush writes the replies held back.
func (s *stream) flush() {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if len(s.held) == 0 || s.wclosed.Load() || s.wfailed.Load() {
		return
	}
	s.writeHeld(nil)
}

// writeHeld writes the held replies and then buf, in one Write. Called with wmu held.
func (s *stream) writeHeld(buf []byte) (int, error) {
	out := buf
	if len(s.held) > 0 {
		out = append(s.held, buf...)
	}
	n, err := s.w.Write(out)
	s.held = s.held[:0]
	if cap(s.held) > 1<<20 {
		s.held = nil // do not pin a huge buffer
	}
	if err != nil {
		s.wfailed.Store(true)
		err = fmt.Errorf("writing frame: %w", err)
		s.shutdown(err)
	}
	return n, err
}

// writeFrame writes body as one frame (after any held replies) with one Write, then records it; with
// hold, a reply of the read loop, it is only queued until the next flush. A failed Write may have left
// part of a frame behind, after which nothing the peer reads can be trusted, so the stream stops.
func (s *stream) writeFrame(body []byte, hold bool) (int, error) {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if s.wclosed.Load() || s.wfailed.Load() {
		return 0, ErrClosed
	}
	if hold && len(s.held)+len(body) <= maxHeld {
		s.held = appendFrame(s.held, s.frames.framing(), body)
		s.rec.out(body)
		return len(body), nil
	}
	// Past maxHeld the replies go out now, and the read loop waits for the peer to take them: a host
	// pipelining requests faster than it reads is held back, not buffered for.
	buf := appendFrame(s.wbuf[:0], s.frames.framing(), body)
	if cap(buf) <= 1<<20 {
		s.wbuf = buf // reuse, but do not pin a huge buffer
	}
	n, err := s.writeHeld(buf)
	if err != nil {
		return n, err
	}
	s.rec.out(body)
	return n, nil
}

// reject answers a frame that is not a request or reply; no handler sees it.
func (s *stream) reject(id []byte, e *Error) {
	if id == nil {
		id = jsonNull
	}
	body, err := (&wireOut{JSONRPC: version, ID: id, Error: e}).encode()
	if err == nil {
		_, err = s.writeFrame(body, true)
	}
	if err != nil {
		s.log.Error().Err(err).Msg("rpc: cannot answer a malformed frame")
	}
}
