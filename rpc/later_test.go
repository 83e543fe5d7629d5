package rpc

import (
	"context"
	"testing"
	"time"
)

// TestLaterIsAnsweredOffTheReadLoop: a slow call (impact.query over a large history) held up every
// request behind it. A handler that returns a Later frees the read loop at once; its reply comes when
// it is ready, written without waiting for another request.
func TestLaterIsAnsweredOffTheReadLoop(t *testing.T) {
	release := make(chan struct{})
	h := startHost(t, Options{}, func(ctx context.Context, req Request) (any, error) {
		if req.Method != "slow" {
			return req.Params, nil
		}
		return Later(func(ctx context.Context) (any, error) {
			<-release
			return "done", nil
		}), nil
	})
	h.send(`{"jsonrpc":"2.0","id":1,"method":"slow"}` + "\n")
	h.send(`{"jsonrpc":"2.0","id":2,"method":"echo","params":[2]}` + "\n")
	h.expectResult("2", "[2]")
	close(release)
	h.expectResult("1", `"done"`)
}

// TestLaterIsCancelledWhenTheHostHangsUp: the context a Later runs under ends with the connection.
func TestLaterIsCancelledWhenTheHostHangsUp(t *testing.T) {
	cancelled := make(chan struct{})
	h := startHost(t, Options{}, func(ctx context.Context, req Request) (any, error) {
		return Later(func(ctx context.Context) (any, error) {
			<-ctx.Done()
			close(cancelled)
			return nil, ctx.Err()
		}), nil
	})
	h.send(`{"jsonrpc":"2.0","id":1,"method":"slow"}` + "\n")
	h.noFrame(50 * time.Millisecond)
	_ = h.in.Close()
	waitCall(t, func() <-chan callResult {
		ch := make(chan callResult, 1)
		go func() { <-cancelled; ch <- callResult{} }()
		return ch
	}(), waitFor)
}
