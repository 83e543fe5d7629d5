package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/intake"
)

// TestToolCallAnswersBeforeRecording: a host that sends one tool.call at a time gets the answer before
// the row is recorded (a debug session's row log follows the answer), and its next request sees the row.
func TestToolCallAnswersBeforeRecording(t *testing.T) {
	srv := New(Options{Store: &memRegistry{values: map[string]any{}}, WriteRoot: t.TempDir(), Clock: func() int64 { return 1_000 }})
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

// TestOwesNothing: which calls are answered before they are recorded — those whose answer recording
// cannot change.
func TestOwesNothing(t *testing.T) {
	deny := "refused"
	cases := []struct {
		name   string
		event  intake.ToolEvent
		result intake.ToolResult
		setup  func(st *state.State)
		want   bool
	}{
		{"main loop, no note", intake.ToolEventOf(map[string]any{"tool": "Bash"}), intake.ToolResult{}, nil, true},
		{"main loop, a note pending", intake.ToolEventOf(map[string]any{"tool": "Bash"}), intake.ToolResult{}, func(st *state.State) { st.Notes = []string{"n"} }, false},
		{"refused, a note pending", intake.ToolEventOf(map[string]any{"tool": "Bash"}), intake.ToolResult{Deny: &deny}, func(st *state.State) { st.Notes = []string{"n"} }, true},
		{"subagent, no standing fix", intake.ToolEventOf(map[string]any{"tool": "Bash", "agentId": "a1"}), intake.ToolResult{}, func(st *state.State) { st.Notes = []string{"n"} }, true},
		{"subagent, a fix owed", intake.ToolEventOf(map[string]any{"tool": "Bash", "agentId": "a1"}), intake.ToolResult{}, func(st *state.State) { st.Standing = []string{"f"} }, false},
		{"subagent, a fix delivered", intake.ToolEventOf(map[string]any{"tool": "Bash", "agentId": "a1"}), intake.ToolResult{}, func(st *state.State) {
			st.Standing, st.Delivery.Agents = []string{"f"}, []string{"a1"}
		}, true},
		{"subagent, a spawn in flight", intake.ToolEventOf(map[string]any{"tool": "Bash", "agentId": "a1"}), intake.ToolResult{}, func(st *state.State) {
			st.Standing, st.Delivery.Pending = []string{"f"}, 1
		}, true},
		{"subagent id not a string, a fix owed", intake.ToolEventOf(map[string]any{"tool": "Bash", "agentId": 7}), intake.ToolResult{}, func(st *state.State) { st.Standing = []string{"f"} }, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, nil)
			sess, err := h.srv.session("s")
			if err != nil {
				t.Fatal(err)
			}
			if c.setup != nil {
				c.setup(sess.st)
			}
			if got := sess.owesNothing(c.event, c.result); got != c.want {
				t.Fatalf("owesNothing = %v, want %v", got, c.want)
			}
		})
	}
}

// TestHandleRecordsBeforeReturning: a caller of Handle that is not a Conn (a replay, a test, a
// benchmark's fill) gets the call recorded by the time Handle returns, not a rest left to run.
func TestHandleRecordsBeforeReturning(t *testing.T) {
	h := newHarnessWith(t, Options{}, false, nil)
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

// TestToolCallMsInRange: a duration past int64 is refused, naming ms, and no row is recorded; one just
// within it is kept as sent (a wrapped one made the pane's total time negative).
func TestToolCallMsInRange(t *testing.T) {
	for _, c := range []struct {
		ms  any
		bad bool
	}{{1e19, true}, {json.Number("9223372036854775807"), true}, {1e300, true}, {-1, true}, {json.Number("9223372036854774784"), false}, {0, false}} {
		h := newHarness(t, nil)
		_, err := h.callErr("tool.call", map[string]any{"sessionId": "s", "ms": c.ms, "event": map[string]any{"tool": "Bash", "tool_use_id": "t1", "command": "ls"}})
		rows := h.st().Rows
		if c.bad {
			var rerr *rpc.Error
			if !errors.As(err, &rerr) || rerr.Code != rpc.CodeInvalidParams || !strings.Contains(rerr.Message, "params.ms") {
				t.Errorf("ms %v: err = %v, want -32602 naming params.ms", c.ms, err)
			}
			if len(rows) != 0 {
				t.Errorf("ms %v: a refused call left %d rows", c.ms, len(rows))
			}
			continue
		}
		if err != nil || len(rows) != 1 || rows[0].Ms < 0 {
			t.Errorf("ms %v: err %v, rows %+v", c.ms, err, rows)
		}
	}
}
