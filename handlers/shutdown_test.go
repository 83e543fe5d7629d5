package handlers

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/saverd/saverd/internal/testfake"
	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/session"
)

// heldHost holds every fork until its context ends (the daemon's Shutdown cancels it), saying on forked
// that one started; notifications are dropped.
type heldHost struct{ forked chan struct{} }

func (h heldHost) Fork(ctx context.Context, _ session.ForkRequest) (*session.ForkResult, error) {
	h.forked <- struct{}{}
	<-ctx.Done()
	return nil, ctx.Err()
}

func (heldHost) Notify(string, any) {}

// TestShutdownMethodRefusesAfter: `shutdown` flushes without waiting for a fork in flight (here a
// `/saver check`'s judge run, its fork held), every request after it but `exit` is refused with -32002,
// and `exit` closes Exited.
func TestShutdownMethodRefusesAfter(t *testing.T) {
	h := &testHarness{t: t, cwd: t.TempDir()}
	h.srv = New(session.Options{Store: testfake.NewRegistry(), Clock: func() int64 { return 999 }})
	host := heldHost{forked: make(chan struct{}, 8)}
	h.srv.SetHost(host)
	t.Cleanup(func() { _ = h.srv.Shutdown(context.Background()) })
	h.call("initialize", map[string]any{"capabilities": map[string]any{"fork": true}})
	h.call("session.start", map[string]any{"sessionId": "s", "cwd": h.cwd, "at": 1_000, "usage": map[string]any{"window": 200_000}})
	h.call("turn.start", map[string]any{"sessionId": "s", "at": 2_000})
	for i := range 12 {
		event := map[string]any{"tool": "Read", "tool_use_id": fmt.Sprintf("toolu_%d", i), "file_path": fmt.Sprintf("%s/f%d.ts", h.cwd, i%3)}
		h.call("tool.call", map[string]any{"sessionId": "s", "at": 3_000 + i*1_000, "ms": 5, "event": event, "result": map[string]any{"text": "ok"}})
	}
	h.call("command.run", map[string]any{"sessionId": "s", "at": 50_000, "command": "saver", "args": "check"})
	select {
	case <-host.forked:
	case <-time.After(5 * time.Second):
		t.Fatal("/saver check started no fork")
	}
	done := make(chan error, 1)
	go func() { _, err := h.callErr("shutdown", nil); done <- err }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("shutdown: %v", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("shutdown waited for the fork in flight")
	}
	_, err := h.callErr("turn.start", map[string]any{"sessionId": "s"})
	var e *rpc.Error
	if !errors.As(err, &e) || e.Code != CodeServerShuttingDown {
		t.Fatalf("turn.start after shutdown = %v, want -32002", err)
	}
	if _, err := h.callErr("exit", nil); err != nil {
		t.Fatalf("exit after shutdown: %v", err)
	}
	select {
	case <-h.srv.Exited():
	default:
		t.Fatal("exit did not close Exited")
	}
}
