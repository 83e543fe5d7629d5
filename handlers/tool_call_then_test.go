package handlers

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/saverd/saverd/internal/testfake"
	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/session"
)

// TestToolCallAnswersBeforeRecording: a host that sends one tool.call at a time gets the answer before
// the row is recorded (a debug session's row log follows the answer), and its next request sees the row.
func TestToolCallAnswersBeforeRecording(t *testing.T) {
	srv := New(session.Options{Store: testfake.NewRegistry(), WriteRoot: t.TempDir(), Clock: func() int64 { return 1_000 }})
	ctx := context.Background()
	start := `{"sessionId":"s","cwd":"` + t.TempDir() + `","debug":true}`
	if _, err := srv.Handle(ctx, rpc.Request{Method: "session.start", Params: json.RawMessage(start)}); err != nil {
		t.Fatal(err)
	}
	inW, frames, conn := servePipes(t, srv)
	srv.SetHost(connHost{conn})
	next := func() string {
		t.Helper()
		select {
		case f := <-frames:
			return f
		case <-time.After(5 * time.Second):
			t.Fatal("no frame from the daemon")
			return ""
		}
	}

	io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"tool.call","params":{"sessionId":"s","at":2000,"ms":40,"event":{"tool":"Bash","tool_use_id":"t1","command":"npm test"},"result":{"text":"ok"}}}`+"\n")
	if got, want := next(), `{"jsonrpc":"2.0","id":1,"result":{"context":[]}}`; got != want {
		t.Fatalf("first frame = %s, want the answer %s", got, want)
	}
	if got := next(); !strings.Contains(got, `"method":"ui.log"`) || !strings.Contains(got, "ContextSaver row r1 Bash") {
		t.Fatalf("second frame = %s, want the row's ui.log", got)
	}
	io.WriteString(inW, `{"jsonrpc":"2.0","id":2,"method":"debug.state","params":{"sessionId":"s"}}`+"\n")
	for {
		f := next()
		if !strings.HasPrefix(f, `{"jsonrpc":"2.0","id":2,`) {
			continue // the redraw
		}
		if !strings.Contains(f, `"id":"t1"`) {
			t.Fatalf("the state the next request read has no row t1: %.300s", f)
		}
		return
	}
}

// TestHandleRecordsBeforeReturning: a caller of Handle that is not a Conn (a replay, a test, a
// benchmark's fill) gets the call recorded by the time Handle returns, not a rest left to run.
func TestHandleRecordsBeforeReturning(t *testing.T) {
	h := newHarness(t, nil)
	raw := json.RawMessage(`{"sessionId":"s","at":2000,"ms":40,"event":{"tool":"Bash","tool_use_id":"t1","command":"npm test"},"result":{"text":"ok"}}`)
	res, err := h.srv.Handle(context.Background(), rpc.Request{Method: "tool.call", Params: raw})
	if err != nil {
		t.Fatal(err)
	}
	if _, isThen := res.(*rpc.Then); isThen {
		t.Fatal("Handle returned a *rpc.Then: its caller would never record the call")
	}
	if rows := h.st().Rows; len(rows) != 1 || rows[0].ID != "t1" {
		t.Fatalf("rows after Handle = %+v, want t1", rows)
	}
}
