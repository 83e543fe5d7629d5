package session

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/state"
)

// TestUIActions: the pane's presses, each as ContextSaver's Actions table did it (index.ts actions).
func TestUIActions(t *testing.T) {
	type press struct {
		action, patternID string
		text              *string
	}
	cases := []struct {
		name    string
		presses []press
		reply   string
		toasts  []string
		check   func(t *testing.T, st *state.State)
	}{
		{
			name: "keep", presses: []press{{"keep", "reading:reread", nil}}, toasts: []string{`ContextSaver: ignored "` + rereadKind + `"`},
			check: func(t *testing.T, st *state.State) {
				if !st.PatternByID("reading:reread").Decided(state.Ignore) || len(st.Cards) != 2 {
					t.Fatalf("cards %v", st.Cards)
				}
			},
		},
		{
			name: "kill", presses: []press{{"kill", "execution:full-suite", nil}}, toasts: []string{"ContextSaver: fixed — " + suiteAlt},
			check: func(t *testing.T, st *state.State) {
				if len(st.Standing) != 1 || st.Standing[0] != suiteNote || len(st.Notes) != 1 {
					t.Fatalf("standing %q, notes %q", st.Standing, st.Notes)
				}
			},
		},
		{
			name:    "steer, draft, submit",
			presses: []press{{"steer", "reading:grep-again", nil}, {"steerDraft", "", new("grep o")}, {"steerSubmit", "reading:grep-again", new("  grep once\nthen read  ")}},
			toasts:  []string{"ContextSaver: fixed with your note — grep once …"},
			check: func(t *testing.T, st *state.State) {
				p := st.PatternByID("reading:grep-again")
				if !p.Decided(state.FixWithNote) || state.Str(p.Instruction) != "grep once\nthen read" || st.Steering != nil || st.SteerDraft != nil {
					t.Fatalf("pattern %+v, steering %v, draft %v", p, st.Steering, st.SteerDraft)
				}
			},
		},
		{
			name: "submit nothing", presses: []press{{"steerSubmit", "reading:grep-again", new(" \n ")}}, toasts: []string{"ContextSaver: write the instruction first"},
			check: func(t *testing.T, st *state.State) {
				if st.PatternByID("reading:grep-again").Decision != nil {
					t.Fatal("an empty note decided the card")
				}
			},
		},
		{
			name: "steer twice closes the field", presses: []press{{"steer", "reading:reread", nil}, {"steer", "reading:reread", nil}},
			check: func(t *testing.T, st *state.State) {
				if st.Steering != nil {
					t.Fatalf("steering = %q", *st.Steering)
				}
			},
		},
		{
			name: "steer opens the field", presses: []press{{"steer", "reading:reread", nil}, {"steerDraft", "", new("re")}},
			check: func(t *testing.T, st *state.State) {
				if state.Str(st.Steering) != "reading:reread" || state.Str(st.SteerDraft) != "re" {
					t.Fatalf("steering %v, draft %v", st.Steering, st.SteerDraft)
				}
			},
		},
		{
			name: "info", presses: []press{{"info", "reading:reread", nil}},
			check: func(t *testing.T, st *state.State) {
				if state.Str(st.Expanded) != "reading:reread" {
					t.Fatalf("expanded = %v", st.Expanded)
				}
			},
		},
		{
			name: "an unknown pattern is no decision", presses: []press{{"kill", "nobody:here", nil}, {"keep", "nobody:here", nil}},
			check: func(t *testing.T, st *state.State) {
				if len(st.Cards) != 3 || len(st.Standing) != 0 {
					t.Fatalf("cards %v, standing %q", st.Cards, st.Standing)
				}
			},
		},
		{
			name: "toggle the pane", presses: []press{{"togglePane", "", nil}},
			check: func(t *testing.T, st *state.State) {
				if st.PaneOpen {
					t.Fatal("the pane the check opened is still open")
				}
			},
		},
		{
			name: "check", presses: []press{{"check", "", nil}}, reply: checkingText,
			toasts: []string{checkingText, "ContextSaver: check failed — the host could not fork this session yet (model.fork answered null)"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, nil)
			h.cards(threeFindings())
			h.host.reset()
			var reply string
			for _, p := range c.presses {
				params := map[string]any{"sessionId": "s", "at": 60_000, "action": p.action}
				if p.patternID != "" {
					params["patternId"] = p.patternID
				}
				if p.text != nil {
					params["text"] = *p.text
				}
				var res struct{ Text *string }
				raw := h.call("ui.action", params)
				if err := json.Unmarshal(raw, &res); err != nil {
					t.Fatal(err)
				}
				reply = state.Str(res.Text)
			}
			if reply != c.reply {
				t.Fatalf("reply = %q, want %q", reply, c.reply)
			}
			got := h.host.texts(NotifyToast)
			if len(got) != len(c.toasts) {
				t.Fatalf("toasts = %q, want %q", got, c.toasts)
			}
			for i := range got {
				if got[i] != c.toasts[i] {
					t.Fatalf("toasts = %q, want %q", got, c.toasts)
				}
			}
			if c.check != nil {
				c.check(t, h.st())
			}
		})
	}
}

func TestUIActionParams(t *testing.T) {
	h := newHarness(t, nil)
	for _, params := range []map[string]any{
		{"action": "explode"},
		{"action": "keep"},
		{"action": "steerDraft"},
		{"action": "steerSubmit", "patternId": "x"},
		{"action": "write"},
	} {
		params["sessionId"] = "s"
		_, err := h.callErr("ui.action", params)
		var rerr *rpc.Error
		if !errors.As(err, &rerr) || rerr.Code != rpc.CodeInvalidParams {
			t.Errorf("ui.action %v: %v, want invalid params", params, err)
		}
	}
}

// TestColumnsAndClose: the band's width is recorded without a redraw (ContextSaver observed it in its render
// hook); a close the host reports is recorded.
func TestColumnsAndClose(t *testing.T) {
	h := newHarness(t, nil)
	h.saver("")
	h.host.reset()
	h.call("ui.columns", map[string]any{"sessionId": "s", "columns": 150})
	if n := len(h.host.methods()); n != 0 {
		t.Fatalf("ui.columns sent %v", h.host.methods())
	}
	h.call("ui.closed", map[string]any{"sessionId": "s"})
	st := h.st()
	if st.Columns == nil || *st.Columns != 150 || st.PaneOpen {
		t.Fatalf("columns %v, open %v", st.Columns, st.PaneOpen)
	}
	if _, err := h.callErr("ui.columns", map[string]any{"sessionId": "s", "columns": -1}); err == nil {
		t.Fatal("negative columns accepted")
	}
}

func TestViewsDoNotEscapeHTML(t *testing.T) {
	h := newHarness(t, nil)
	h.tool(2_000, ev("Bash", "command", "make a && make b > out.txt"), map[string]any{"text": "<ok>"})
	res, err := h.srv.Handle(context.Background(), rpc.Request{Method: "debug.state", Params: []byte(`{"sessionId":"s"}`)})
	if err != nil {
		t.Fatal(err)
	}
	raw := string(res.(json.RawMessage))
	if strings.Contains(raw, `\u0026`) || strings.Contains(raw, `\u003c`) || !strings.Contains(raw, "make a && make b > out.txt") {
		t.Fatalf("debug.state escapes HTML: %.300s", raw)
	}
}
