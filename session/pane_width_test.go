package session

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/saverd/saverd/bridge"
	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/textview"
)

// typedIn is `/saver …` typed in a harness that says it shows the answer in width columns (0: says
// nothing), and what the hook answers.
func (h *hookHarness) typedIn(line string, width int64) string {
	h.t.Helper()
	payload, _ := json.Marshal(map[string]any{"session_id": "cc-1", "transcript_path": "", "cwd": h.cwd,
		"hook_event_name": bridge.UserPromptSubmit, "prompt": line})
	raw, _ := json.Marshal(HookParams{Harness: "claude-code", Event: bridge.UserPromptSubmit, Payload: payload, Width: width})
	out, err := h.srv.Handle(context.Background(), rpc.Request{Method: "hook", Params: raw})
	if err != nil {
		h.t.Fatalf("%s: %v", line, err)
	}
	a := out.(HookResult).Output
	if a == nil || a.Decision != "block" {
		h.t.Fatalf("%s answered %+v, want the line blocked", line, a)
	}
	return a.Reason
}

// widest is the widest line of text, in characters (the pane's are one column each).
func widest(text string) (n int, line string) {
	for _, l := range strings.Split(text, "\n") {
		if w := utf8.RuneCountInString(l); w > n {
			n, line = w, l
		}
	}
	return n, line
}

// TestPaneFitsTheRoomTheHookSays: the pane a `/saver` line answers is drawn as wide as the hook says the
// harness shows it (Claude Code wraps a block reason at its own indent, which tears a wider pane's columns
// and gutters apart), no wider than its own 100 columns, and at those 100 while no hook said; a hook
// that says nothing keeps the room the last one said.
func TestPaneFitsTheRoomTheHookSays(t *testing.T) {
	h := newHookHarness(t)
	h.send(bridge.SessionStart, map[string]any{"source": "startup"})
	h.builds("build it", 4)
	cases := []struct {
		name  string
		width int64
		max   int
		wide  bool // some line is wider than 70: the card's why and fix fill the room they get
	}{
		{"no width said", 0, paneWidth, true},
		{"an 80-column terminal", 70, 70, false},
		{"no width said after one was", 0, 70, false},
		{"a wide terminal", 190, paneWidth, true},
		{"a terminal narrower than the pane's least", 20, 40, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pane := h.typedIn("/saver", c.width)
			if !strings.Contains(pane, "WASTERS (1)") {
				t.Fatalf("/saver answered no pane:\n%s", pane)
			}
			n, line := widest(pane)
			if n > c.max {
				t.Errorf("a line of %d columns, want at most %d: %q\n%s", n, c.max, line, pane)
			}
			if c.wide != (n > 70) {
				t.Errorf("widest line %d columns, want it wider than 70: %v\n%s", n, c.wide, pane)
			}
		})
	}
}

// TestStatuslineFitsItsWidth: the band is drawn within the width the status line asks for; a width under
// the drawings' least is drawn at that least (never at the 100 columns of a width not given), and one past
// the most at the most.
func TestStatuslineFitsItsWidth(t *testing.T) {
	h := newHookHarness(t)
	h.send(bridge.SessionStart, map[string]any{"source": "startup"})
	h.builds("build it", 4)
	for _, c := range []struct{ width, max int }{{0, defaultWidth}, {36, textview.MinWidth}, {60, 60}, {5000, maxWidth}} {
		raw, _ := json.Marshal(StatuslineParams{Payload: json.RawMessage(`{"session_id":"cc-1"}`), Width: c.width})
		out, err := h.srv.Handle(context.Background(), rpc.Request{Method: "statusline", Params: raw})
		if err != nil {
			t.Fatal(err)
		}
		band := *out.(TextResult).Text
		if n := utf8.RuneCountInString(band); n > c.max || !strings.HasPrefix(band, "ContextSaver · 1 waster waiting") && c.width >= 60 {
			t.Errorf("width %d: band of %d columns, want at most %d: %q", c.width, n, c.max, band)
		}
	}
}
