package session

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/intake"
)

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
			sess, err := h.srv.Session("s")
			if err != nil {
				t.Fatal(err)
			}
			if c.setup != nil {
				c.setup(sess.st)
			}
			if got := sess.OwesNothing(&Call{Event: c.event, Result: c.result}); got != c.want {
				t.Fatalf("owesNothing = %v, want %v", got, c.want)
			}
		})
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
