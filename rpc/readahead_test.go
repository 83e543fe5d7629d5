package rpc

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// TestHangUpWhileAHandlerIsBusy: the input is read by the read loop, which is busy running the
// handler, so a host that hung up went unnoticed until the handler returned (or never). The connection
// stops within a second of the hang-up, and the running handler's context is cancelled.
func TestHangUpWhileAHandlerIsBusy(t *testing.T) {
	cancelled := make(chan time.Duration, 1)
	busy := func(ctx context.Context, _ Request) (any, error) {
		start := time.Now()
		select {
		case <-ctx.Done():
			cancelled <- time.Since(start)
		case <-time.After(10 * time.Second):
		}
		return nil, nil
	}
	h := startHost(t, Options{}, busy)
	h.send(`{"jsonrpc":"2.0","id":1,"method":"slow"}` + "\n")
	time.Sleep(50 * time.Millisecond)
	hangUp(t, h)
	select {
	case <-cancelled:
	case <-time.After(time.Second):
		t.Fatal("the running handler's context was not cancelled")
	}
	waitDone(t, h.conn, 2*time.Second)
}

// TestReadAheadLosesNothing: requests that arrive while a slow handler runs are read ahead, and every
// one of them is still answered, in order.
func TestReadAheadLosesNothing(t *testing.T) {
	slow := func(ctx context.Context, req Request) (any, error) {
		if req.Method == "slow" {
			time.Sleep(3 * slowHandler)
		}
		return req.Params, nil
	}
	h := startHost(t, Options{}, slow)
	h.send(`{"jsonrpc":"2.0","id":1,"method":"slow","params":[1]}` + "\n")
	time.Sleep(2 * slowHandler) // the watcher is reading now
	for i := 2; i <= 50; i++ {
		h.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"echo","params":[%d]}`+"\n", i, i))
	}
	for i := 1; i <= 50; i++ {
		h.expectResult(fmt.Sprint(i), fmt.Sprintf("[%d]", i))
	}
}

// TestHangUpWhileALaterHandlerIsBusy: the watch timer is armed by the first handler that finds it idle,
// so a handler that begins while it is pending for an earlier one is still watched (within two
// slowHandlers), and a hang-up then still stops the connection.
func TestHangUpWhileALaterHandlerIsBusy(t *testing.T) {
	handler := func(ctx context.Context, req Request) (any, error) {
		if req.Method == "busy" {
			select {
			case <-ctx.Done():
			case <-time.After(10 * time.Second):
			}
		}
		return nil, nil
	}
	h := startHost(t, Options{}, handler)
	h.send(`{"jsonrpc":"2.0","id":1,"method":"quick"}` + "\n")
	h.expectResult("1", "null")
	h.send(`{"jsonrpc":"2.0","id":2,"method":"busy"}` + "\n")
	time.Sleep(20 * time.Millisecond)
	hangUp(t, h)
	waitDone(t, h.conn, 2*time.Second)
}

// hangUp closes the host's end of the input and waits for the connection to stop reading: within a
// second of it.
func hangUp(t *testing.T, h *host) {
	t.Helper()
	hungUp := time.Now()
	_ = h.in.Close()
	select {
	case <-h.conn.Stopped():
		if d := time.Since(hungUp); d > time.Second {
			t.Fatalf("stopped %s after the hang-up", d)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("connection still reading 3s after the hang-up")
	}
}
