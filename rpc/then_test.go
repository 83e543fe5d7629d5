package rpc

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestThenAnswersBeforeTheRest: a Then's reply reaches the peer while its rest is still running, and the
// next request is read only once the rest is done — pipelined or one at a time.
func TestThenAnswersBeforeTheRest(t *testing.T) {
	for _, pipelined := range []bool{false, true} {
		name := map[bool]string{false: "one at a time", true: "pipelined"}[pipelined]
		t.Run(name, func(t *testing.T) {
			release := make(chan struct{})
			var restDone atomic.Bool
			h := startHost(t, Options{}, func(ctx context.Context, req Request) (any, error) {
				switch req.Method {
				case "first":
					return Then{Result: "answered", Rest: func() {
						<-release
						restDone.Store(true)
					}}, nil
				default:
					return restDone.Load(), nil // what the rest had done when this request was read
				}
			})
			h.send(`{"jsonrpc":"2.0","id":1,"method":"first"}` + "\n")
			if pipelined {
				h.send(`{"jsonrpc":"2.0","id":2,"method":"second"}` + "\n")
				// A frame waiting: the reply goes out with the next one's, so the rest is let go first.
				time.Sleep(20 * time.Millisecond)
				close(release)
				h.expectResult("1", `"answered"`)
			} else {
				h.expectResult("1", `"answered"`) // while the rest waits on release
				close(release)
				h.send(`{"jsonrpc":"2.0","id":2,"method":"second"}` + "\n")
			}
			h.expectResult("2", "true")
		})
	}
}

// TestThenRestPanicIsLogged: a rest that panics cannot take its reply back; it is logged with its
// stack and the connection goes on.
func TestThenRestPanicIsLogged(t *testing.T) {
	h := startHost(t, Options{}, func(ctx context.Context, req Request) (any, error) {
		if req.Method == "boom" {
			return Then{Result: 1, Rest: func() { panic("rest broke") }}, nil
		}
		return req.Params, nil
	})
	h.send(`{"jsonrpc":"2.0","id":1,"method":"boom"}` + "\n")
	h.expectResult("1", "1")
	h.send(`{"jsonrpc":"2.0","id":2,"method":"echo","params":[2]}` + "\n")
	h.expectResult("2", "[2]")
	if logs := h.log.String(); !strings.Contains(logs, "rest broke") || !strings.Contains(logs, "handler panicked") {
		t.Fatalf("the rest's panic was not logged: %s", logs)
	}
}

// TestThenOfANotificationRunsItsRest: nothing waits for a notification, so its rest runs at once, before
// the next request.
func TestThenOfANotificationRunsItsRest(t *testing.T) {
	var ran atomic.Bool
	h := startHost(t, Options{}, func(ctx context.Context, req Request) (any, error) {
		if req.Method == "note" {
			return Then{Result: nil, Rest: func() { ran.Store(true) }}, nil
		}
		return ran.Load(), nil
	})
	h.send(`{"jsonrpc":"2.0","method":"note"}` + "\n")
	h.send(`{"jsonrpc":"2.0","id":1,"method":"ask"}` + "\n")
	h.expectResult("1", "true")
}

// TestSettleRunsThenRest: a caller without a Conn gets a Then's result with its rest done.
func TestSettleRunsThenRest(t *testing.T) {
	ran := false
	got, err := Settle(context.Background(), Then{Result: "r", Rest: func() { ran = true }}, nil)
	if err != nil || got != "r" || !ran {
		t.Fatalf("Settle(Then) = %v, %v; rest ran %v", got, err, ran)
	}
}
