package session

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/state/view"
)

// spendTurns completes n main-loop turns of tokens each, starting the next one after each.
func (h *testHarness) spendTurns(n int, tokens int64, at int64) int64 {
	h.t.Helper()
	for i := 0; i < n; i++ {
		h.turnComplete(map[string]any{"at": at, "usage": map[string]any{"input_tokens": tokens}})
		at += 1_000
		h.turnStart(at)
		at += 1_000
	}
	return at
}

// TestBudgetIsACap: once the judges spent their share of the session's own tokens, no automatic run
// starts however open the cadence is; `/saver check` still runs, says the budget is spent, and the pane
// shows what is left.
func TestBudgetIsACap(t *testing.T) {
	cases := []struct {
		name   string
		budget any // session.start's judgeBudget; nil: the default
		forks  int // judge forks after the check and the turns that open the cadence
		reply  string
		judge  string // the pane's Judge row
	}{
		{name: "the default 5% leaves room", forks: 2, reply: checkingText,
			judge: "Judge    3 runs · 5.1k tokens · budget 5.9k tokens left of 5%"},
		{name: "0.5% is spent by one run", budget: 0.005, forks: 1,
			reply: checkingText + " (the judge budget is spent: 1.7k of 1.1k tokens, 0.5% of the session; automatic checks wait until the session spends more)",
			judge: "Judge    2 runs · 3.4k tokens · budget spent (cap 0.5% of the session) · checks only when asked"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start := map[string]any{}
			if c.budget != nil {
				start["judgeBudget"] = c.budget
			}
			h := newHarness(t, start)
			h.cards(threeFindings())
			// Four turns of 55k tokens: the between-turns gate (30k new tokens, 3 turns) opens.
			h.host.queue(reply())
			h.spendTurns(4, 55_000, 60_000)
			h.srv.Quiesce()
			if got := len(h.host.forksOf("judge")); got != c.forks {
				t.Fatalf("judge forks = %d, want %d", got, c.forks)
			}
			// The person asks: the check runs, whatever the budget.
			h.host.queue(reply())
			if got := h.saver("check"); got != c.reply {
				t.Fatalf("/saver check = %q, want %q", got, c.reply)
			}
			h.srv.Quiesce()
			if got := len(h.host.forksOf("judge")); got != c.forks+1 {
				t.Fatalf("judge forks after the check = %d, want %d", got, c.forks+1)
			}
			var text struct{ Text string }
			h.callInto("view.text", map[string]any{"sessionId": "s", "view": "pane", "width": 120}, &text)
			if !strings.Contains(text.Text, c.judge+"\n") {
				t.Fatalf("pane has no %q:\n%s", c.judge, text.Text)
			}
		})
	}
}

// TestBudgetSettings: the cap comes from session.start, else the project's .saverd.json, else
// initialize, else 5%; a bad value is refused by name, and a bad file is skipped.
func TestBudgetSettings(t *testing.T) {
	cases := []struct {
		name    string
		host    any    // initialize's judgeBudget
		project string // .saverd.json; "" none
		own     any    // session.start's judgeBudget
		want    float64
		err     string
	}{
		{name: "default", want: 0.05},
		{name: "the host's", host: 0.1, want: 0.1},
		{name: "the project's over the host's", host: 0.1, project: `{"judgeBudget": 0.02}`, want: 0.02},
		{name: "the session's over the project's", host: 0.1, project: `{"judgeBudget": 0.02}`, own: 0.2, want: 0.2},
		{name: "a project file without one", host: 0.1, project: `{"other": true}`, want: 0.1},
		{name: "a broken project file is skipped", host: 0.1, project: `{judgeBudget`, want: 0.1},
		{name: "a project share out of range is skipped", project: `{"judgeBudget": 5}`, want: 0.05},
		{name: "zero: never automatic", own: 0.0, want: 0},
		{name: "a session share out of range", own: 1.5,
			err: "params.judgeBudget: want a share of the session's tokens in 0..1 (0.05 is 5%), got 1.5"},
		{name: "a host share out of range", host: -0.1,
			err: "params.judgeBudget: want a share of the session's tokens in 0..1 (0.05 is 5%), got -0.1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, nil)
			if c.project != "" {
				if err := os.WriteFile(filepath.Join(h.cwd, ProjectSettings), []byte(c.project), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			init := map[string]any{"capabilities": map[string]any{"fork": true}}
			if c.host != nil {
				init["judgeBudget"] = c.host
			}
			if _, err := h.callErr("initialize", init); err != nil {
				if c.err == "" || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("initialize: %v, want %q", err, c.err)
				}
				return
			}
			start := map[string]any{"sessionId": "s2", "cwd": h.cwd, "at": 1_000}
			if c.own != nil {
				start["judgeBudget"] = c.own
			}
			_, err := h.callErr("session.start", start)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("session.start: %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var pane view.PaneModel
			h.callInto("view.pane", map[string]any{"sessionId": "s2"}, &pane)
			if pane.Header.Budget.Share != c.want {
				t.Fatalf("budget share = %v, want %v", pane.Header.Budget.Share, c.want)
			}
		})
	}
}

// TestBudgetOfABridgedSession: a session the hook bridge starts takes its project's .saverd.json too.
func TestBudgetOfABridgedSession(t *testing.T) {
	h := newHookHarness(t)
	if err := os.WriteFile(filepath.Join(h.cwd, ProjectSettings), []byte(`{"judgeBudget": 0.01}`), 0o644); err != nil {
		t.Fatal(err)
	}
	h.send("SessionStart", map[string]any{"source": "startup"})
	raw, err := h.srv.Handle(context.Background(), rpc.Request{Method: "view.pane", Params: json.RawMessage(`{"sessionId":"cc-1"}`)})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(raw)
	var pane view.PaneModel
	if err := json.Unmarshal(b, &pane); err != nil {
		t.Fatal(err)
	}
	if pane.Header.Budget.Share != 0.01 {
		t.Fatalf("budget share = %v, want the project's 0.01", pane.Header.Budget.Share)
	}
}
