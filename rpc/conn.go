package rpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	fastjson "github.com/segmentio/encoding/json"

	"github.com/rs/zerolog"

	"github.com/saverd/saverd/internal/jsonscan"
)

// Options configure a Conn. The zero value is usable: auto framing, no
// logging, no record.
type Options struct {
	// Framing is FramingAuto ("" too), FramingNDJSON or FramingHeader.
	Framing Framing
	// Logger receives diagnostics; the zero Logger discards them.
	Logger zerolog.Logger
	// Record, when not nil, receives every frame in both directions as
	// NDJSON lines (see recorder), for `saverd replay`.
	Record io.Writer
	// MaxFrameSize bounds one incoming frame; 0 means DefaultMaxFrameSize.
	MaxFrameSize int
	// FrameTimeout, on an input that takes a read deadline (a socket), is how long a frame begun may wait
	// for the rest of its bytes, in all; past it the connection ends (frameclock.go). 0: no bound.
	FrameTimeout time.Duration
	// ParamsReaders read the params of the methods they are named for in the same pass as the frame
	// (see ParamsReader); the handler finds what they read in Request.Read.
	ParamsReaders map[string]ParamsReader
	// OffLoop, when not nil, is called as each Later's goroutine starts, and the func it returns once
	// that goroutine has replied and finished: the host process may give work off the read loop room
	// of its own while it runs (the stdio daemon, daemon.LoopProcs, lends it the processors it keeps from the loop).
	OffLoop func() (done func())
}

// ParamsReader reads a request's params value at sc, the frame being read in one pass, and returns what
// the handler will find in Request.Read. It must read exactly one value and change nothing but sc; ok
// false means it cannot decide (any text it is unsure of), and the params are then handed over raw
// alone, as for a method with no reader. A frame that fails later checks is answered as it would be
// without readers: what the reader read is dropped. The frame's text may be lent (the read buffer's own
// bytes, rpc/accept.go): what it returns must keep none of sc's text, only copies.
type ParamsReader func(sc *jsonscan.Scanner) (read any, ok bool)

// framing returns the framing to start with; an unknown value means auto.
func (o Options) framing() Framing {
	f, err := ParseFraming(string(o.Framing))
	if err != nil {
		o.Logger.Warn().Err(err).Msg("rpc: using auto framing")
		return FramingAuto
	}
	return f
}

// closeGrace is how long Close lets a running handler finish its reply
// before closing the output under it.
const closeGrace = time.Second

// Conn is one JSON-RPC connection to the host: a read loop over a stream,
// the requests it hands to a handler, and the calls of ours that await the
// peer's replies. Serve handles incoming requests; Call and Notify send to
// the host and are safe to use from any goroutine.
type Conn struct {
	s     *stream
	calls *calls
	log   zerolog.Logger
	// offLoop is Options.OffLoop.
	offLoop func() (done func())

	// handling is true while a handler runs (reply included). The read loop reads the input on its
	// own goroutine, so it may stay blocked in a Read that cannot be interrupted after the stream
	// stops; the connection is done once it stopped and no handler is running.
	handling atomic.Bool
	// watching: a watcher reads the input while a slow handler runs (see readahead.go).
	watching atomic.Bool
	// handlerCtx is the context of every handler on the read loop, made once in Serve: it ends when the
	// connection stops (cancelHandlers, called then), so a request costs no context of its own.
	handlerCtx     context.Context
	cancelHandlers context.CancelFunc
	// watch starts watchInput once a handler has run for slowHandler (see watchTick). It is armed by the
	// first handler that finds it idle, not reset and stopped around every request: each Reset and Stop
	// took the runtime's timer lock, about 3% of a tool.call's CPU.
	watch      *time.Timer
	watchArmed atomic.Bool   // the timer is pending
	watchFor   atomic.Uint64 // the handler (by handlerSeq) the pending timer was armed for
	handlerSeq atomic.Uint64 // counts the handlers begun on the read loop

	mu      sync.Mutex
	serving bool
	closing *time.Timer // forces the output closed if the read loop lingers

	done     chan struct{}
	doneOnce sync.Once
}

// NewConn returns a connection reading frames from r and writing them to w.
// r is never closed by the Conn (it is typically os.Stdin, whose blocked
// Read cannot be interrupted); w is closed, if it is an io.Closer, when the
// connection ends. Nothing is read until Serve.
func NewConn(r io.Reader, w io.Writer, opt Options) *Conn {
	return &Conn{
		s:       newStream(r, w, opt),
		calls:   newCalls(),
		log:     opt.Logger,
		offLoop: opt.OffLoop,
		done:    make(chan struct{}),
	}
}

// Serve starts the read loop, which hands each request to h, one at a time,
// in wire order, and delivers the host's replies to pending Calls. It
// returns at once; Done is closed when the loop has stopped. Cancelling ctx
// stops the connection. Serve may be called only once.
func (c *Conn) Serve(ctx context.Context, h HandlerFunc) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.serving || c.s.cause() != nil {
		c.log.Error().Msg("rpc: Serve called twice or after Close; ignored")
		return
	}
	c.serving = true
	// The read loop notices ctx between frames; stopping at once also fails
	// pending Calls while a handler is still running.
	stop := context.AfterFunc(ctx, func() {
		c.s.shutdown(fmt.Errorf("serve context: %w", context.Cause(ctx)))
	})
	c.handlerCtx, c.cancelHandlers = context.WithCancel(ctx)
	c.watch = time.AfterFunc(time.Hour, c.watchTick)
	c.watch.Stop()
	handle := c.dispatch(h)
	// A stopped stream ends the connection at once when no handler is running, whether or not the
	// read loop is still blocked on the input (see stream.Read).
	context.AfterFunc(c.s.life, c.idleIfStopped)
	go func() {
		c.run(ctx, handle)
		stop()
		c.finish()
	}()
}

// run is the read loop: each request goes to handle, in wire order, and each reply to the call it
// answers. It returns when the stream stops.
func (c *Conn) run(ctx context.Context, handle func(context.Context, *request)) {
	for {
		msg, _, err := c.s.Read(ctx)
		if err != nil {
			return // the stream stopped; its cause says why
		}
		switch m := msg.(type) {
		case *request:
			handle(ctx, m)
		case *reply:
			c.deliver(m)
		}
	}
}

// deliver hands the peer's reply to the call of ours it answers, or answers or drops a stray one.
func (c *Conn) deliver(r *reply) {
	switch {
	case c.calls.settle(r):
	case r.unmatched != nil:
		c.s.reject(r.replyTo, r.unmatched)
	default:
		c.log.Warn().RawJSON("id", r.replyTo).Msg("rpc: dropping a reply to no pending call")
	}
}

// idle runs after each handler: if the stream stopped meanwhile, the connection is done.
func (c *Conn) idle() {
	c.handling.Store(false)
	c.idleIfStopped()
}

func (c *Conn) idleIfStopped() {
	if c.s.cause() == nil {
		return
	}
	if c.cancelHandlers != nil {
		c.cancelHandlers() // the host is gone or the connection closed: work in flight is cancelled
	}
	if !c.handling.Load() {
		c.finish()
	}
}

// finish runs once the connection can do nothing more.
func (c *Conn) finish() {
	c.doneOnce.Do(func() {
		c.mu.Lock()
		if c.closing != nil {
			c.closing.Stop()
		}
		c.mu.Unlock()
		if err := c.s.closeWriter(); err != nil {
			c.log.Debug().Err(err).Msg("rpc: closing output")
		}
		close(c.done)
	})
}

// Done is closed when the connection has ended (the peer hung up, Close was
// called, Serve's ctx was cancelled or the wire broke) and the read loop has
// stopped, so no handler runs any more.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Stopped is closed as soon as the connection stops reading — the peer hung up, Close was called,
// Serve's ctx was cancelled or the wire broke — even while a handler is still running. A daemon whose
// host is gone waits on it rather than on Done, so a busy handler cannot keep it alive.
func (c *Conn) Stopped() <-chan struct{} { return c.s.life.Done() }

// Busy reports whether a handler is running on the read loop now (its reply included).
func (c *Conn) Busy() bool { return c.handling.Load() }

// Err reports why the connection ended: nil while it is open or when it
// ended normally (the peer hung up, or Close was called); otherwise the
// read or write failure, or the cancellation of Serve's context.
func (c *Conn) Err() error {
	err := c.s.cause()
	if err == nil || err == ErrClosed || errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// Close ends the connection. It returns at once: pending Calls fail with
// ErrClosed, reading stops without waiting on a blocked Read, and the output
// is closed once a handler running now has replied (after a second at
// most). Close may be called from a handler, whose reply still goes out.
func (c *Conn) Close() error {
	c.s.shutdown(ErrClosed)
	c.mu.Lock()
	serving := c.serving
	if serving && c.closing == nil {
		c.closing = time.AfterFunc(closeGrace, func() { _ = c.s.closeWriter() })
	}
	c.mu.Unlock()
	if !serving {
		c.finish()
	}
	return nil
}

// Call sends a request to the host and waits for its reply. It may be called
// from any goroutine while Serve runs, but not from a handler (see
// HandlerFunc). params must marshal to a JSON object or array, or be nil.
//
// The reply's result is decoded into result with encoding/json; result may
// be nil to discard it. If result is a *json.RawMessage it receives the
// result verbatim, "null" included, which tells a null result apart.
//
// An error reply is returned as an *Error. Call fails with an error
// wrapping ErrClosed as soon as the connection ends, and with ctx's error
// when ctx is done first.
func (c *Conn) Call(ctx context.Context, method string, params, result any) error {
	p, err := marshalRequest(method, params)
	if err != nil {
		return fmt.Errorf("rpc: call %s: %w", method, err)
	}
	id, replies := c.calls.add()
	defer c.calls.forget(id)
	if _, err := c.s.Write(ctx, &outCall{id: id, method: method, params: p}); err != nil {
		if ctx.Err() != nil {
			err = context.Cause(ctx)
		}
		return fmt.Errorf("rpc: call %s: %w", method, err)
	}
	var r *reply
	select {
	case r = <-replies:
	case <-ctx.Done():
		return fmt.Errorf("rpc: call %s: %w", method, context.Cause(ctx))
	case <-c.s.life.Done():
		return fmt.Errorf("rpc: call %s: %w", method, context.Cause(c.s.life))
	}
	if r.err != nil {
		return fmt.Errorf("rpc: call %s: %w", method, r.err)
	}
	if err := decodeResult(r.result, result); err != nil {
		return fmt.Errorf("rpc: call %s: %w", method, err)
	}
	return nil
}

// Notify sends a notification to the host. It may be called from any
// goroutine, handlers included.
func (c *Conn) Notify(ctx context.Context, method string, params any) error {
	p, err := marshalRequest(method, params)
	if err == nil {
		_, err = c.s.Write(ctx, &outNotification{method: method, params: p})
	}
	if err != nil {
		return fmt.Errorf("rpc: notify %s: %w", method, err)
	}
	return nil
}

// marshalRequest checks an outgoing request and encodes its params with
// encoding/json, so struct tags and MarshalJSON methods behave exactly as
// everywhere else in saverd. The params of our requests and notifications
// then go out with `<`, `>` and `&` escaped (\u003c, …), as they always have:
// hosts' recordings and the end-to-end goldens hold them so.
func marshalRequest(method string, params any) (json.RawMessage, error) {
	if method == "" {
		// The peer would take a message without a method for a reply.
		return nil, errors.New("empty method name")
	}
	if params == nil {
		return nil, nil
	}
	raw, err := marshal(params)
	if err != nil {
		return nil, fmt.Errorf("encoding params: %w", err)
	}
	if k := kindOf(raw); k != kindObject && k != kindArray && k != kindNull {
		return nil, fmt.Errorf("params must be a JSON object or array, got %s", k)
	}
	if escaped, err := fastjson.Marshal(json.RawMessage(raw)); err == nil {
		raw = escaped
	}
	return raw, nil
}

// decodeResult stores a call's result into v (see Call).
func decodeResult(raw json.RawMessage, v any) error {
	switch v := v.(type) {
	case nil:
		return nil
	case *json.RawMessage:
		*v = raw
		return nil
	default:
		if err := json.Unmarshal(raw, v); err != nil {
			return fmt.Errorf("decoding result: %w", err)
		}
		return nil
	}
}
