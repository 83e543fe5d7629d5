package rpc

import "context"

// Later is a call's result that is worked out off the read loop: a handler returns one for a request
// that may take long (impact.query over a large history), the connection runs it on a goroutine of
// its own and replies when it returns, and the read loop goes on to the next request meanwhile. The
// context it gets ends when the connection stops. For a notification it is run inline, as nothing
// waits for it.
type Later func(ctx context.Context) (result any, err error)

// Settle is result, or what it works out to when it is a Later (or a Then, whose rest it runs), run now: for callers of a handler
// that are not a Conn (tests, replay), which want the answer in order.
func Settle(ctx context.Context, result any, err error) (any, error) {
	if l, ok := result.(Later); ok && err == nil {
		r, err := l(ctx)
		return SettleThen(r), err // a Later may answer with a Then, as answerLater runs its rest too
	}
	return SettleThen(result), err
}

// handler is l as a HandlerFunc, so it runs under the same recovery as any handler.
func (l Later) handler() HandlerFunc {
	return func(ctx context.Context, _ Request) (any, error) { return l(ctx) }
}
