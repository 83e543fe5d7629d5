package rpc

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"
)

// Request is one incoming call or notification.
type Request struct {
	Method string
	// Params is the params member verbatim; nil when absent or null. When Read is set they may be lent
	// (the read buffer's bytes, rpc/accept.go): good until the handler and a Then's rest return.
	Params json.RawMessage
	// Notification is true when the peer expects no reply.
	Notification bool
	// Read is what the method's ParamsReader (Options.ParamsReaders) made of Params while the frame was
	// read; nil when the method has none or it could not decide. Params is set either way.
	Read any
}

// HandlerFunc answers one request. The result of a call is marshaled with
// encoding/json; nil is sent as null. Return an *Error to choose the error
// code; any other error is answered -32603 with its message. For a
// notification the result is ignored and an error is only logged.
//
// Handlers run one at a time on the read goroutine, in wire order. A handler
// must not wait for the reply to a Conn.Call: that reply is read by the very
// goroutine the handler is blocking.
type HandlerFunc func(ctx context.Context, req Request) (result any, err error)

// dispatch is what the read loop runs for each request: h, composed with what every request of the
// daemon needs.
//   - In order: it runs on the read loop, so the next request waits for it; hook and session events
//     apply in wire order.
//   - Off the loop: a Later result is worked out on a goroutine of its own (answerLater), so a long
//     git log behind impact.query never holds up a tool.call.
//   - Cancellation and a watch on the input (begin).
//   - Recovery: a panic is logged with its stack and answered -32603 (invoke); a notification's
//     failure is only logged and never ends the connection.
func (c *Conn) dispatch(h HandlerFunc) func(context.Context, *request) {
	return func(_ context.Context, m *request) {
		req := Request{Method: m.method, Params: m.params, Notification: m.id == nil, Read: m.read}
		ctx := c.begin()
		defer c.end()
		result, panicked, err := c.invoke(ctx, h, req)
		if later, ok := result.(Later); ok && err == nil {
			if !req.Notification {
				c.answerLater(m.id, req, later)
				return
			}
			result, panicked, err = c.invoke(ctx, later.handler(), req)
		}
		result, rest := splitThen(result)
		if req.Notification {
			if err != nil && !panicked {
				c.log.Warn().Err(err).Str("method", req.Method).Msg("rpc: notification handler failed")
			}
			c.runRest(ctx, req.Method, rest)
			return
		}
		// The peer waits for this reply, not for the rest: out at once, unless the next frame is here and
		// the reply can go with its own.
		flush := rest != nil && !c.s.frameWaiting()
		c.answer(ctx, m.id, req.Method, result, err, sendHow{flush: flush})
		c.runRest(ctx, req.Method, rest)
	}
}

// begin marks a handler running on the read loop and returns its context, which ends when the
// connection stops (the peer hung up, Close, Serve's ctx); once the handler has run for slowHandler the
// input is watched for the peer hanging up (see readahead.go). end undoes it; a stop that came
// meanwhile then ends the connection, the handler's reply being out.
func (c *Conn) begin() context.Context {
	c.handling.Store(true)
	if c.s.cause() != nil {
		c.cancelHandlers()
	}
	c.armWatch(c.handlerSeq.Add(1))
	return c.handlerCtx
}

// end is begin undone, once the handler has replied. The watch timer is left to run out (watchTick).
func (c *Conn) end() {
	c.idle()
}

// answerLater runs a Later on a goroutine of its own and replies with what it returns; the reply is
// written at once, not held for the read loop's next flush (see stream.Write).
func (c *Conn) answerLater(id json.RawMessage, req Request, later Later) {
	// The read loop reads on meanwhile: the frame these may point into (a lent one, rpc/accept.go) is
	// not theirs past the next read.
	id, req.Params = bytes.Clone(id), bytes.Clone(req.Params)
	ctx, cancel := context.WithCancel(context.Background())
	stop := context.AfterFunc(c.s.life, cancel)
	go func() {
		defer cancel()
		defer stop()
		if c.offLoop != nil {
			defer c.offLoop()()
		}
		result, _, err := c.invoke(ctx, later.handler(), req)
		result, rest := splitThen(result)
		c.answer(ctx, id, req.Method, result, err, sendHow{now: true})
		c.runRest(ctx, req.Method, rest)
	}()
}

// invoke runs h, turning a panic into a -32603 error logged with its stack.
func (c *Conn) invoke(ctx context.Context, h HandlerFunc, req Request) (result any, panicked bool, err error) {
	defer func() {
		if p := recover(); p != nil {
			c.log.Error().
				Str("method", req.Method).
				Bool("notification", req.Notification).
				Str("panic", fmt.Sprint(p)).
				Str("stack", string(debug.Stack())).
				Msg("rpc: handler panicked")
			result, panicked, err = nil, true, InternalError("internal error: handler for %s panicked: %v", req.Method, p)
		}
	}()
	result, err = h(ctx, req)
	return result, false, err
}

// sendHow says how answer writes a reply: now, off the read loop (a Later's), or flushed at once on it;
// else it is held for the read loop's next flush (see stream.Write).
type sendHow struct{ now, flush bool }

// answer sends the reply to the peer's call id, as how says. A failure to write it stops the stream
// (see writeFrame).
func (c *Conn) answer(ctx context.Context, id json.RawMessage, method string, result any, err error, how sendHow) {
	resp := &response{id: id, now: how.now, flush: how.flush}
	if err == nil {
		// Encoded here, with encoding/json, so an unencodable result is a -32603 answer.
		raw, merr := marshal(result)
		if merr != nil {
			c.log.Error().Err(merr).Str("method", method).Msg("rpc: cannot encode handler result")
			err = InternalError("internal error: encoding result of %s: %v", method, merr)
		}
		resp.result = raw
	}
	if err != nil {
		resp.err = AsError(err)
		c.logAnswerError(method, resp.err)
	}
	if _, werr := c.s.writeResponse(resp); werr != nil {
		c.log.Error().Err(werr).Str("method", method).Msg("rpc: cannot write reply")
	}
}

// logAnswerError logs an error answer: internal errors are worth a warning,
// the others are the peer's business.
func (c *Conn) logAnswerError(method string, e *Error) {
	ev := c.log.Debug()
	if e.Code == CodeInternalError {
		ev = c.log.Warn()
	}
	ev.Str("method", method).Int64("code", e.Code).Str("error", e.Message).Msg("rpc: answering with an error")
}
