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
					return &Then{Result: "answered", Rest: RestFunc(func() {
						<-release
						restDone.Store(true)
					})}, nil
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
			return &Then{Result: 1, Rest: RestFunc(func() { panic("rest broke") })}, nil
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
			return &Then{Result: nil, Rest: RestFunc(func() { ran.Store(true) })}, nil
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
	got, err := Settle(context.Background(), &Then{Result: "r", Rest: RestFunc(func() { ran = true })}, nil)
	if err != nil || got != "r" || !ran {
		t.Fatalf("Settle(Then) = %v, %v; rest ran %v", got, err, ran)
	}
}

// lateResult decodes a reply only once padded is closed, long after the read loop has gone on.
type lateResult struct {
	padded <-chan struct{}
	got    string
}

func (r *lateResult) UnmarshalJSON(b []byte) error {
	<-r.padded
	r.got = string(b)
	return nil
}

// TestReplyOutlivesTheReadBuffer: a frame whole in the read buffer is lent to the reader, but a reply
// to our call is decoded on the caller's goroutine, after later frames have refilled that buffer: the
// reply must hold text of its own.
func TestReplyOutlivesTheReadBuffer(t *testing.T) {
	const pads = 3_000 // ~150 KB of frames behind the reply: the 64 KB buffer refills twice
	padded := make(chan struct{})
	var seen atomic.Int64
	h := startHost(t, Options{}, func(ctx context.Context, req Request) (any, error) {
		if req.Method == "pad" && seen.Add(1) == pads {
			close(padded)
		}
		return nil, nil
	})
	h.send(`{"jsonrpc":"2.0","method":"hello"}` + "\n") // the framing decided: the reply is read as NDJSON
	res := &lateResult{padded: padded}
	done := make(chan error, 1)
	go func() { done <- h.conn.Call(context.Background(), "model.fork", map[string]int{"n": 1}, res) }()
	call := h.recv()
	want := `{"text":"` + strings.Repeat("r", 200) + `"}`
	var b strings.Builder
	// The reply is not the first line of what the buffer reads, so it is lent, not copied on the way in.
	b.WriteString(`{"jsonrpc":"2.0","method":"pad","params":{}}` + "\n")
	b.WriteString(`{"jsonrpc":"2.0","id":` + string(call.ID) + `,"result":` + want + "}\n")
	for range pads - 1 {
		b.WriteString(`{"jsonrpc":"2.0","method":"pad","params":{"p":"` + strings.Repeat("p", 20) + `"}}` + "\n")
	}
	h.send(b.String())
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(waitFor):
		t.Fatal("the call was not answered")
	}
	if res.got != want {
		t.Fatalf("the reply decoded late = %.120s…, want %.120s…", res.got, want)
	}
}
