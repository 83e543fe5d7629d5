package rpc

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"time"

	"go.lsp.dev/jsonrpc2"
)

// Request is one incoming call or notification.
type Request struct {
	Method string
	// Params is the params member verbatim; nil when absent or null.
	Params json.RawMessage
	// Notification is true when the peer expects no reply.
	Notification bool
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

// dispatch adapts h to jsonrpc2. The adapted handler never returns an
// error: jsonrpc2 would end the connection on one, and on the next read
// error store a second error of another type in the same atomic.Value,
// which panics. Stopping is done through the stream instead.
func (c *Conn) dispatch(h HandlerFunc) jsonrpc2.Handler {
	return func(ctx context.Context, reply jsonrpc2.Replier, msg jsonrpc2.Request) error {
		call, isCall := msg.(*jsonrpc2.Call)
		req := Request{Method: msg.Method(), Params: c.s.inbox.takeParams(msg), Notification: !isCall}
		c.handling.Store(true)
		// A stop that came while the handler ran ends the connection once its reply is out.
		defer c.idle()
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		c.cancelHandler.Store(&cancel)
		defer c.cancelHandler.Store(nil)
		if c.s.cause() != nil {
			cancel()
		}
		watch := time.AfterFunc(slowHandler, c.watchInput)
		defer watch.Stop()
		result, panicked, err := c.invoke(ctx, h, req)
		if later, ok := result.(Later); ok && err == nil {
			if !req.Notification {
				c.answerLater(reply, call.ID(), req, later)
				return nil
			}
			result, panicked, err = c.invoke(ctx, func(ctx context.Context, _ Request) (any, error) { return later(ctx) }, req)
		}
		if req.Notification {
			if err != nil && !panicked {
				c.log.Warn().Err(err).Str("method", req.Method).Msg("rpc: notification handler failed")
			}
			return nil
		}
		c.answer(ctx, reply, call.ID(), req.Method, result, err)
		return nil
	}
}

// answerLater runs a Later on a goroutine of its own and replies with what it returns; the reply is
// written at once, not held for the read loop's next flush (see stream.Write).
func (c *Conn) answerLater(reply jsonrpc2.Replier, id jsonrpc2.ID, req Request, later Later) {
	c.s.inbox.markLate(id)
	ctx, cancel := context.WithCancel(context.Background())
	stop := context.AfterFunc(c.s.life, cancel)
	go func() {
		defer cancel()
		defer stop()
		result, _, err := c.invoke(ctx, func(ctx context.Context, _ Request) (any, error) { return later(ctx) }, req)
		c.answer(ctx, reply, id, req.Method, result, err)
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

// answer sends the reply to call id. (A failure to write it stops the
// stream; see writeFrame.)
func (c *Conn) answer(ctx context.Context, reply jsonrpc2.Replier, id jsonrpc2.ID, method string, result any, err error) {
	if err == nil {
		// Encoded here, with encoding/json, so an unencodable result is a
		// -32603 answer rather than a jsonrpc2 failure; it reaches the
		// stream beside jsonrpc2 (see ledger.go).
		raw, merr := marshal(result)
		if merr != nil {
			c.log.Error().Err(merr).Str("method", method).Msg("rpc: cannot encode handler result")
			err = InternalError("internal error: encoding result of %s: %v", method, merr)
		}
		c.s.inbox.keepResult(id, raw)
	}
	if err != nil {
		e := AsError(err)
		c.logAnswerError(method, e)
		err = e
	}
	if werr := reply(ctx, nil, err); werr != nil {
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
