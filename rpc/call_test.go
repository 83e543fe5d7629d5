package rpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// answerCall receives the conn's next frame, checks it is a call to method,
// and answers it with the given result or error member.
func (h *host) answerCall(method, member string) wireMsg {
	h.t.Helper()
	m := h.recv()
	if m.Method != method || m.ID == nil {
		h.t.Fatalf("got %s, want a call to %s", m.raw, method)
	}
	h.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,%s}`+"\n", m.ID, member))
	return m
}

func TestCall(t *testing.T) {
	tests := []struct {
		name    string
		member  string // the host's reply, minus id
		want    string // the raw result
		code    int64  // or the error code
		errPart string // or a plain error
	}{
		{name: "object", member: `"result":{"branch":"b1","n":[1,2]}`, want: `{"branch":"b1","n":[1,2]}`},
		{name: "null", member: `"result":null`, want: `null`},
		{name: "false", member: `"result":false`, want: `false`},
		{name: "verbatim", member: `"result":{"html":"<a&b>", "n": 1.50}`, want: `{"html":"<a&b>", "n": 1.50}`},
		{name: "error", member: `"error":{"code":-32000,"message":"fork refused","data":{"why":"quota"}}`, code: -32000},
		{name: "error without message", member: `"error":{"code":7}`, code: 7},
		{name: "null error member", member: `"result":{"a":1},"error":null`, want: `{"a":1}`},
		{name: "null result member", member: `"result":null,"error":{"code":9,"message":"x"}`, code: 9},
		{name: "only null error", member: `"error":null`, errPart: `has neither "result" nor "error"`},
		{name: "both members", member: `"result":1,"error":{"code":1,"message":"x"}`, errPart: "invalid reply from peer"},
		{name: "bad error member", member: `"error":"nope"`, errPart: "invalid reply from peer"},
		{name: "neither member", member: `"x":1`, errPart: `has neither "result" nor "error"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := startHost(t, Options{}, echo)
			ch := goCall(context.Background(), h.conn, "model.fork", map[string]string{"sessionId": "s1"})
			m := h.answerCall("model.fork", tt.member)
			if string(m.Params) != `{"sessionId":"s1"}` {
				t.Errorf("params %s", m.Params)
			}
			r := waitCall(t, ch, waitFor)
			var rpcErr *Error
			switch {
			case tt.code != 0:
				if !errors.As(r.err, &rpcErr) || rpcErr.Code != tt.code {
					t.Fatalf("err = %v, want an *Error with code %d", r.err, tt.code)
				}
			case tt.errPart != "":
				if r.err == nil || !strings.Contains(r.err.Error(), tt.errPart) || errors.As(r.err, &rpcErr) {
					t.Fatalf("err = %v, want a plain error containing %q", r.err, tt.errPart)
				}
			default:
				if r.err != nil || string(r.raw) != tt.want {
					t.Fatalf("Call = %s, %v; want %s", r.raw, r.err, tt.want)
				}
			}
			// The connection is unharmed either way.
			h.send(afterEach)
			h.expectResult("99", "[99]")
		})
	}
}

func TestCallErrorCarriesData(t *testing.T) {
	h := startHost(t, Options{}, echo)
	ch := goCall(context.Background(), h.conn, "model.fork", nil)
	m := h.answerCall("model.fork", `"error":{"code":-32000,"message":"fork refused","data":{"why":"quota"}}`)
	if m.Params != nil {
		t.Errorf("nil params sent as %s", m.Params)
	}
	var e *Error
	if r := waitCall(t, ch, waitFor); !errors.As(r.err, &e) || e.Message != "fork refused" {
		t.Fatalf("err = %v", r.err)
	}
	if raw, ok := e.Data.(json.RawMessage); !ok || string(raw) != `{"why":"quota"}` {
		t.Fatalf("data = %#v", e.Data)
	}
}

func TestCallDecodesIntoStruct(t *testing.T) {
	h := startHost(t, Options{}, echo)
	done := make(chan error, 1)
	var got struct {
		Branch string `json:"branch"`
	}
	go func() { done <- h.conn.Call(context.Background(), "model.fork", []int{1}, &got) }()
	h.answerCall("model.fork", `"result":{"branch":"b7"}`)
	if err := <-done; err != nil || got.Branch != "b7" {
		t.Fatalf("Call = %+v, %v", got, err)
	}
	go func() { done <- h.conn.Call(context.Background(), "model.fork", nil, &got) }()
	h.answerCall("model.fork", `"result":"not an object"`)
	if err := <-done; err == nil {
		t.Fatal("decoding a string into a struct succeeded")
	}
	go func() { done <- h.conn.Call(context.Background(), "model.fork", nil, nil) }()
	h.answerCall("model.fork", `"result":{"ignored":true}`)
	if err := <-done; err != nil {
		t.Fatalf("Call with nil result: %v", err)
	}
}

func TestConcurrentCallsWhileServing(t *testing.T) {
	const n = 50
	h := startHost(t, Options{}, echo)
	chans := make([]<-chan callResult, n)
	for i := range chans {
		chans[i] = goCall(context.Background(), h.conn, "model.fork", []int{i})
	}
	// Collect all n calls, interleaving requests of our own, then answer in
	// reverse order: each Call must get its own reply.
	calls := make([]wireMsg, 0, n)
	for len(calls) < n {
		m := h.recv()
		if m.Method != "model.fork" {
			continue
		}
		calls = append(calls, m)
		if len(calls)%10 == 0 {
			h.call(1000+len(calls), "echo", "[0]")
		}
	}
	for i := len(calls) - 1; i >= 0; i-- {
		h.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", calls[i].ID, calls[i].Params))
	}
	for i, ch := range chans {
		r := waitCall(t, ch, waitFor)
		if r.err != nil || string(r.raw) != fmt.Sprintf("[%d]", i) {
			t.Errorf("call %d = %s, %v", i, r.raw, r.err)
		}
	}
}

func TestStrayAndDuplicateRepliesAreDropped(t *testing.T) {
	h := startHost(t, Options{}, echo)
	h.send(`{"jsonrpc":"2.0","id":12345,"result":1}` + "\n")
	h.send(`{"jsonrpc":"2.0","id":"abc","error":{"code":1,"message":"x"}}` + "\n")
	ch := goCall(context.Background(), h.conn, "model.fork", nil)
	m := h.recv()
	reply := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":"first"}`+"\n", m.ID)
	for range 5 { // jsonrpc2 alone would block its read loop on the third
		h.send(reply)
	}
	if r := waitCall(t, ch, waitFor); r.err != nil || string(r.raw) != `"first"` {
		t.Fatalf("Call = %s, %v", r.raw, r.err)
	}
	h.send(afterEach)
	h.expectResult("99", "[99]")
	h.noFrame(50 * time.Millisecond) // replies are never answered
}

func TestCallFailsWhenThePeerHangsUp(t *testing.T) {
	h := startHost(t, Options{}, echo)
	ch := goCall(context.Background(), h.conn, "model.fork", nil)
	h.recv()
	_ = h.in.Close() // EOF on the conn's input
	r := waitCall(t, ch, time.Second)
	if !isClosed(r.err) || !errors.Is(r.err, io.EOF) {
		t.Fatalf("Call err = %v, want ErrClosed and io.EOF", r.err)
	}
	waitDone(t, h.conn, time.Second)
	if err := h.conn.Err(); err != nil {
		t.Fatalf("Err() after EOF = %v, want nil", err)
	}
	if err := h.conn.Call(context.Background(), "late", nil, nil); !isClosed(err) {
		t.Fatalf("Call after EOF = %v", err)
	}
	if err := h.conn.Notify(context.Background(), "late", nil); !isClosed(err) {
		t.Fatalf("Notify after EOF = %v", err)
	}
}

func TestCallFailsOnContextCancel(t *testing.T) {
	h := startHost(t, Options{}, echo)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	ch := goCall(ctx, h.conn, "model.fork", nil)
	m := h.recv()
	r := waitCall(t, ch, time.Second)
	if !errors.Is(r.err, context.DeadlineExceeded) || isClosed(r.err) {
		t.Fatalf("Call err = %v, want DeadlineExceeded", r.err)
	}
	// A late reply to the abandoned call is dropped harmlessly.
	h.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":1}`+"\n", m.ID))
	h.send(afterEach)
	h.expectResult("99", "[99]")
}

func TestCloseWhileReadIsBlocked(t *testing.T) {
	h := startHost(t, Options{}, echo) // the host never writes
	ch := goCall(context.Background(), h.conn, "model.fork", nil)
	h.recv()
	start := time.Now()
	if err := h.conn.Close(); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 100*time.Millisecond {
		t.Errorf("Close took %v", d)
	}
	r := waitCall(t, ch, time.Second)
	if !isClosed(r.err) {
		t.Fatalf("pending Call err = %v, want ErrClosed", r.err)
	}
	waitDone(t, h.conn, time.Second)
	if err := h.conn.Err(); err != nil {
		t.Fatalf("Err() after Close = %v", err)
	}
	if _, ok := <-h.frames; ok {
		t.Fatal("output still open after Close")
	}
	if err := h.conn.Close(); err != nil {
		t.Fatalf("second Close = %v", err)
	}
}

// TestCloseWithBlockingFile uses a real pipe in blocking mode, like a raw
// stdin: a Read on it cannot be interrupted, so Close must not wait for it.
func TestCloseWithBlockingFile(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Close(); _ = r.Close() })
	_ = r.Fd() // puts the descriptor in blocking mode
	c := NewConn(r, io.Discard, Options{})
	c.Serve(context.Background(), echo)
	time.Sleep(20 * time.Millisecond) // let the read block
	start := time.Now()
	_ = c.Close()
	waitDone(t, c, time.Second)
	t.Logf("done %v after Close", time.Since(start))
}

func TestCloseBeforeServe(t *testing.T) {
	h := newHost(t, Options{})
	_ = h.conn.Close()
	waitDone(t, h.conn, time.Second)
	h.conn.Serve(context.Background(), echo) // ignored, not a crash
	if err := h.conn.Call(context.Background(), "x", nil, nil); !isClosed(err) {
		t.Fatalf("Call after Close = %v", err)
	}
}

func TestCloseFromHandlerStillReplies(t *testing.T) {
	var c *Conn
	handler := func(context.Context, Request) (any, error) {
		_ = c.Close()
		return "bye", nil
	}
	h := startHost(t, Options{}, handler)
	c = h.conn
	h.call(1, "shutdown", "{}")
	h.expectResult("1", `"bye"`)
	waitDone(t, h.conn, time.Second)
	if _, ok := <-h.frames; ok {
		t.Fatal("output still open after Close")
	}
}

func TestServeContextCancel(t *testing.T) {
	h := newHost(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	h.conn.Serve(ctx, echo)
	h.call(1, "echo", "[1]")
	h.expectResult("1", "[1]")
	cancel()
	waitDone(t, h.conn, time.Second)
	if err := h.conn.Err(); !errors.Is(err, context.Canceled) || !isClosed(err) {
		t.Fatalf("Err() = %v, want context.Canceled", err)
	}
}

func TestWriteFailureEndsTheConnection(t *testing.T) {
	h := startHost(t, Options{}, echo)
	_ = h.out.Close() // the host stops reading: our writes fail
	h.call(1, "echo", "[1]")
	waitDone(t, h.conn, time.Second)
	if err := h.conn.Err(); err == nil || !isClosed(err) {
		t.Fatalf("Err() = %v, want the write failure", err)
	}
}

func TestCallFromManyGoroutinesDuringRequests(t *testing.T) {
	// Race-detector food: Calls, Notifies and requests all at once.
	h := startHost(t, Options{}, echo)
	var wg sync.WaitGroup
	for i := range 10 {
		wg.Go(func() {
			_ = h.conn.Notify(context.Background(), "ui.toast", []int{i})
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	chans := make([]<-chan callResult, 10)
	for i := range chans {
		chans[i] = goCall(ctx, h.conn, "model.fork", []int{i})
	}
	for i := range 10 {
		h.call(i, "echo", "[]")
	}
	replies, calls := 0, 0
	for replies < 10 || calls < 10 {
		m := h.recv()
		switch m.Method {
		case "model.fork":
			calls++
		case "":
			replies++
		}
	}
	cancel()
	for _, ch := range chans {
		if r := waitCall(t, ch, time.Second); !errors.Is(r.err, context.Canceled) {
			t.Errorf("Call err = %v", r.err)
		}
	}
	wg.Wait()
}
