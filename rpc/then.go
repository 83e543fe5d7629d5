package rpc

import "context"

// Then is a call's result answered before the rest of its work: a handler returns a *Then, the
// connection writes the reply (flushed at once unless another frame is already waiting, when it goes
// out with that frame's), then runs Rest on the read loop before it reads the next request. A handler
// returns one when part of its work cannot change its answer: the peer, which waits for the answer,
// does not wait for that part, and every later request of the connection still sees it done. Rest runs
// under the same recovery as a handler; a panic in it is logged, as its reply is already out. For a
// notification Rest runs at once. Result is read before Rest runs and the Then not at all after, so a
// Rest may hand the Then back to whatever pool it came from.
type Then struct {
	Result any
	Rest   Rest
}

// Rest is the work a Then leaves for after its reply. An interface, not a func, so a handler can hand
// over a value it holds already instead of a new closure per request.
type Rest interface{ RunRest() }

// RestFunc is a func as a Rest.
type RestFunc func()

// RunRest calls f.
func (f RestFunc) RunRest() { f() }

// SettleThen is result with a Then's Rest run now: its Result, or result as it is (a Later included),
// for a caller of a handler that is not a Conn.
func SettleThen(result any) any {
	if t, ok := result.(*Then); ok {
		result, rest := t.Result, t.Rest
		if rest != nil {
			rest.RunRest()
		}
		return result
	}
	return result
}

// splitThen is result without a Then's rest: its Result and Rest, or result and nil.
func splitThen(result any) (any, Rest) {
	if t, ok := result.(*Then); ok {
		return t.Result, t.Rest
	}
	return result, nil
}

// runRest runs a Then's rest under the handler's recovery (invoke), logging what it panicked with.
func (c *Conn) runRest(ctx context.Context, method string, rest Rest) {
	if rest == nil {
		return
	}
	c.invoke(ctx, func(context.Context, Request) (any, error) {
		rest.RunRest()
		return nil, nil
	}, Request{Method: method})
}
