package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/saverd/saverd/bridge"
	"github.com/saverd/saverd/harness/claude"
	"github.com/saverd/saverd/internal/testfake"
	"github.com/saverd/saverd/session"
	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/intake"
)

// TestAPIWithoutJSON: a host's session and a harness's session driven through the session API alone,
// from outside the package, as a caller that holds no JSON does: the calls recorded, the turn ended, the
// command answered, the pane drawn, a typed `/saver` kept from the model, each an ordered event.
func TestAPIWithoutJSON(t *testing.T) {
	tbl := session.New(session.Options{Synchronous: true, Store: testfake.NewRegistry(), Clock: func() int64 { return 1_000 }})
	at := func(ms int64) session.Hook { return session.Hook{SessionID: "s", At: &ms} }
	res, err := tbl.SessionStart(session.SessionStartParams{Hook: at(1_000), Cwd: t.TempDir(),
		Usage: &session.UsageParams{Usage: state.Usage{Window: 200_000}}})
	if err != nil || res.Command != state.SaverCommand {
		t.Fatalf("SessionStart = %+v, %v", res, err)
	}
	if err := tbl.TurnStart(session.SessionParams{Hook: at(2_000)}); err != nil {
		t.Fatal(err)
	}
	text := "212 pass"
	for i, cmd := range []string{"bun test", "bun test", "bun test"} {
		p := session.ToolCallParams{Hook: at(3_000 + int64(i)), Ms: 1500}
		p.Result = intake.ToolResult{Text: &text}
		e := intake.ToolEventOf(map[string]any{"tool": "Bash", "tool_use_id": "t" + string(rune('1'+i)), "command": cmd})
		sess, c, err := tbl.CallOf(&p, e, p.At)
		if err != nil {
			t.Fatal(err)
		}
		if owed := sess.ToolCall(&c); len(owed) != 0 {
			t.Fatalf("call %d owed %q", i, owed)
		}
	}
	if err := tbl.TurnComplete(session.TurnCompleteParams{Hook: at(9_000), DurationMs: 7_000, Answer: "done", Reason: state.EndAnswer}); err != nil {
		t.Fatal(err)
	}
	sess, err := tbl.Session("s")
	if err != nil {
		t.Fatal(err)
	}
	if st := sess.State(); len(st.Rows) != 3 || len(st.Turns) != 1 {
		t.Fatalf("state after the turn: %d rows, %d turns; want 3 and 1", len(st.Rows), len(st.Turns))
	}
	reply, err := tbl.CommandRun(session.CommandRunParams{Hook: at(10_000), Command: "saver", Args: "debug"})
	if err != nil || reply.Text == nil || !strings.Contains(*reply.Text, "· rows 3") {
		t.Fatalf("CommandRun(saver debug) = %q, %v; want the dump of 3 rows", deref(reply.Text), err)
	}
	pane, err := tbl.ViewText(session.ViewTextParams{Hook: at(10_000), View: "pane", Width: 80})
	if err != nil || pane.Text == nil || !strings.Contains(*pane.Text, "ContextSaver") {
		t.Fatalf("ViewText(pane) = %v, %v", pane.Text, err)
	}
	if _, err := tbl.Session("nobody"); !isKind(err, session.UnknownSession) {
		t.Fatalf("Session(nobody) = %v, want UnknownSession", err)
	}

	ctx := context.Background()
	hook := func(pl bridge.Payload) *bridge.Answer {
		t.Helper()
		pl.SessionID, pl.Cwd = "h", t.TempDir()
		a, err := tbl.Hook(ctx, claude.Harness{}, session.HookInput{Payload: pl})
		if err != nil {
			t.Fatalf("%s: %v", pl.Event, err)
		}
		return a
	}
	hook(bridge.Payload{Event: bridge.SessionStart, Source: "startup"})
	h, err := tbl.Session("h")
	if err != nil {
		t.Fatal(err)
	}
	before := h.Events()
	if a := hook(bridge.Payload{Event: bridge.UserPromptSubmit, Prompt: "/saver"}); a == nil || a.Decision != "block" {
		t.Fatalf("a typed /saver answered %+v, want it blocked with the pane", a)
	}
	if n := h.Events() - before; n != 1 {
		t.Fatalf("the typed /saver took %d events, want 1", n)
	}
}

func isKind(err error, k session.Kind) bool {
	e, ok := err.(*session.Error)
	return ok && e.Kind == k
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

// TestAPIRefusesWhatNoHostMeans: the values no host can mean are refused by the API itself, with no JSON
// and no adapter: an Invalid error naming the member, and the session left as it was.
func TestAPIRefusesWhatNoHostMeans(t *testing.T) {
	neg := func(n int64) *int64 { return &n }
	s := func(at *int64) session.Hook { return session.Hook{SessionID: "s", At: at} }
	cases := []struct {
		name string
		call func(tbl *session.Table, cwd string) error
		want string
	}{
		{"Initialize storeDir", func(tbl *session.Table, _ string) error {
			return tbl.Initialize(session.InitializeParams{StoreDir: "state/saverd"})
		}, `params.storeDir: want an absolute path, got "state/saverd"`},
		{"SessionStart cwd", func(tbl *session.Table, _ string) error {
			_, err := tbl.SessionStart(session.SessionStartParams{Hook: session.Hook{SessionID: "n"}, Cwd: "relative/dir"})
			return err
		}, `params.cwd: want an absolute path, got "relative/dir"`},
		{"SessionStart at", func(tbl *session.Table, cwd string) error {
			_, err := tbl.SessionStart(session.SessionStartParams{Hook: session.Hook{SessionID: "n", At: neg(-1)}, Cwd: cwd})
			return err
		}, "params.at: want a value ≥ 0, got -1"},
		{"SessionStart usage", func(tbl *session.Table, cwd string) error {
			_, err := tbl.SessionStart(session.SessionStartParams{Hook: session.Hook{SessionID: "n"}, Cwd: cwd,
				Usage: &session.UsageParams{Usage: state.Usage{Window: 9, CompactAt: neg(-4)}}})
			return err
		}, "params.usage.compactAt: want a value ≥ 0, got -4"},
		{"TurnStart at", func(tbl *session.Table, _ string) error {
			return tbl.TurnStart(session.SessionParams{Hook: s(neg(-5))})
		}, "params.at: want a value ≥ 0, got -5"},
		{"ViewPane at", func(tbl *session.Table, _ string) error {
			_, err := tbl.ViewPane(session.SessionParams{Hook: s(neg(-2))})
			return err
		}, "params.at: want a value ≥ 0, got -2"},
		{"TurnComplete durationMs", func(tbl *session.Table, _ string) error {
			return tbl.TurnComplete(session.TurnCompleteParams{Hook: s(nil), Reason: "answer", DurationMs: -1})
		}, "params.durationMs: want a duration in ms ≥ 0, got -1"},
		{"TurnComplete usage", func(tbl *session.Table, _ string) error {
			return tbl.TurnComplete(session.TurnCompleteParams{Hook: s(nil), Reason: "answer", Usage: &session.TurnUsage{OutputTokens: -7}})
		}, "params.usage.output_tokens: want a token count ≥ 0, got -7"},
		{"TurnComplete context", func(tbl *session.Table, _ string) error {
			return tbl.TurnComplete(session.TurnCompleteParams{Hook: s(nil), Reason: "answer", Context: &state.Usage{Window: -1}})
		}, "params.context.window: want a token count ≥ 0, got -1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tbl := session.New(session.Options{Synchronous: true, Store: testfake.NewRegistry(), Clock: func() int64 { return 1_000 }})
			cwd := t.TempDir()
			if _, err := tbl.SessionStart(session.SessionStartParams{Hook: s(nil), Cwd: cwd}); err != nil {
				t.Fatal(err)
			}
			before, err := tbl.DebugState(session.SessionParams{Hook: s(nil)})
			if err != nil {
				t.Fatal(err)
			}
			err = c.call(tbl, cwd)
			if !isKind(err, session.Invalid) || err.Error() != c.want {
				t.Fatalf("err = %v, want Invalid %q", err, c.want)
			}
			if after, _ := tbl.DebugState(session.SessionParams{Hook: s(nil)}); string(after) != string(before) {
				t.Fatalf("a refused call changed the session:\nbefore %s\nafter  %s", before, after)
			}
			if _, err := tbl.ViewBand(session.SessionParams{Hook: session.Hook{SessionID: "n"}}); !isKind(err, session.UnknownSession) {
				t.Fatalf("a refused call started session n: %v", err)
			}
		})
	}
}
