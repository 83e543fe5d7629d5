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

// TestOffLoopSpansALater: Options.OffLoop is called as a Later starts and its done once the Later has
// replied, for Laters only: the stdio daemon lends the read loop's spare processors for that long.
func TestOffLoopSpansALater(t *testing.T) {
	events := make(chan string, 8)
	release := make(chan struct{})
	opt := Options{OffLoop: func() func() {
		events <- "start"
		return func() { events <- "done" }
	}}
	h := startHost(t, opt, func(ctx context.Context, req Request) (any, error) {
		if req.Method != "slow" {
			return req.Params, nil
		}
		return Later(func(ctx context.Context) (any, error) {
			events <- "run"
			<-release
			return "done", nil
		}), nil
	})
	h.send(`{"jsonrpc":"2.0","id":1,"method":"echo","params":[1]}` + "\n")
	h.expectResult("1", "[1]")
	h.send(`{"jsonrpc":"2.0","id":2,"method":"slow"}` + "\n")
	for _, want := range []string{"start", "run"} {
		if got := <-events; got != want {
			t.Fatalf("got %q, want %q", got, want)
		}
	}
	select {
	case got := <-events:
		t.Fatalf("%q before the Later replied", got)
	case <-time.After(20 * time.Millisecond):
	}
	close(release)
	h.expectResult("2", `"done"`)
	if got := <-events; got != "done" {
		t.Fatalf("got %q after the reply, want done", got)
	}
	select {
	case got := <-events:
		t.Fatalf("one more event: %q", got)
	case <-time.After(20 * time.Millisecond):
	}
}
