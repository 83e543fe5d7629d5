package rpc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/rs/zerolog"
	"go.lsp.dev/jsonrpc2"
)

// stream is the jsonrpc2.Stream under a Conn. Unlike jsonrpc2's own streams
// it never fails on a malformed frame (it answers the frame and reads on),
// and stopping it never waits for a blocked Read of the input.
type stream struct {
	frames *frameReader
	in     chan frame // frames from the pump goroutine to Read
	pump   sync.Once
	inbox  *incoming
	outbox *outgoing
	rec    *recorder
	log    zerolog.Logger

	// life ends, with the reason as its cause, when the connection stops.
	life context.Context
	end  context.CancelCauseFunc

	w       io.Writer
	wmu     sync.Mutex // one frame at a time on w
	wbuf    []byte     // reused frame buffer; guarded by wmu
	wclosed atomic.Bool
	wclose  sync.Once
}

var _ jsonrpc2.Stream = (*stream)(nil)

func newStream(r io.Reader, w io.Writer, opt Options) *stream {
	life, end := context.WithCancelCause(context.Background())
	maxFrame := opt.MaxFrameSize
	if maxFrame <= 0 {
		maxFrame = DefaultMaxFrameSize
	}
	return &stream{
		frames: newFrameReader(r, opt.framing(), maxFrame),
		in:     make(chan frame),
		inbox:  newIncoming(),
		outbox: newOutgoing(),
		rec:    newRecorder(opt.Record, opt.Logger),
		log:    opt.Logger,
		life:   life,
		end:    end,
		w:      w,
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

// Close implements jsonrpc2.Stream. jsonrpc2 calls it when its read loop
// fails; it only stops the stream. The output is closed later, once the read
// loop is done, so a reply being written is not cut off; the input is never
// closed, as a Read blocked on a raw stdin would not return anyway.
func (s *stream) Close() error {
	s.shutdown(ErrClosed)
	return nil
}

// closeWriter closes the output, if it can be closed, so the peer sees EOF
// and any Write blocked on it returns.
func (s *stream) closeWriter() error {
	var err error
	s.wclose.Do(func() {
		s.wclosed.Store(true)
		if c, ok := s.w.(io.Closer); ok {
			err = c.Close()
		}
	})
	return err
}

// Read implements jsonrpc2.Stream: it returns the next message for jsonrpc2,
// answering (and skipping) anything that is not one. It fails only when the
// stream stops: peer EOF, a read error, Close, or ctx.
func (s *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	s.pump.Do(func() { go s.pumpFrames() })
	for {
		// Checked first so a stopped stream handles no further frame, even
		// if one is ready.
		if err := s.cause(); err != nil {
			return nil, 0, err
		}
		select {
		case <-ctx.Done():
			s.shutdown(fmt.Errorf("serve context: %w", context.Cause(ctx)))
		case <-s.life.Done():
		case f := <-s.in:
			if f.err != nil {
				s.shutdown(inputEnded(f.err))
				continue
			}
			if msg := s.accept(f); msg != nil {
				return msg, int64(len(f.data)), nil
			}
		}
	}
}

func inputEnded(err error) error {
	if errors.Is(err, io.EOF) {
		return fmt.Errorf("peer hung up: %w", err)
	}
	return fmt.Errorf("reading input: %w", err)
}

// pumpFrames reads frames on its own goroutine so that stopping the stream
// never waits for a Read of the input, which on a raw blocking stdin cannot
// be interrupted. The goroutine ends after the input does, or at the next
// frame once the stream has stopped (or with the process).
func (s *stream) pumpFrames() {
	for {
		f := s.frames.next()
		select {
		case s.in <- f:
		case <-s.life.Done():
			return
		}
		if f.err != nil {
			return
		}
	}
}

// Write implements jsonrpc2.Stream. Replies are written as long as the
// output is open, even while stopping, so a handler that closes the
// connection still gets its answer out; new calls and notifications are
// refused once the stream has stopped.
func (s *stream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	if _, isReply := msg.(*jsonrpc2.Response); !isReply {
		if err := s.cause(); err != nil {
			return 0, err
		}
		if err := ctx.Err(); err != nil {
			return 0, err
		}
	}
	body, err := s.encode(msg)
	if err != nil {
		return 0, err
	}
	n, err := s.writeFrame(body)
	return int64(n), err
}

// writeFrame writes body as one frame with one Write, then records it. A
// failed Write may have left part of a frame behind, after which nothing
// the peer reads can be trusted, so the stream stops.
func (s *stream) writeFrame(body []byte) (int, error) {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if s.wclosed.Load() {
		return 0, ErrClosed
	}
	buf := appendFrame(s.wbuf[:0], s.frames.framing(), body)
	if cap(buf) <= 1<<20 {
		s.wbuf = buf // reuse, but do not pin a huge buffer
	}
	n, err := s.w.Write(buf)
	if err != nil {
		err = fmt.Errorf("writing frame: %w", err)
		s.shutdown(err)
		return n, err
	}
	s.rec.out(body)
	return n, nil
}

// reject answers a frame that jsonrpc2 never sees.
func (s *stream) reject(id []byte, e *Error) {
	if id == nil {
		id = jsonNull
	}
	body, err := (&wireOut{JSONRPC: version, ID: id, Error: e}).encode()
	if err == nil {
		_, err = s.writeFrame(body)
	}
	if err != nil {
		s.log.Error().Err(err).Msg("rpc: cannot answer a malformed frame")
	}
}
