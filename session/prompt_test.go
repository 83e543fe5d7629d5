package session

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/view"
)

// TestPromptSubmitAsks: only what the person typed is an ask; plugin prompts and `/saver` lines are
// ignored altogether (index.ts prompt.submit).
func TestPromptSubmitAsks(t *testing.T) {
	h := newHarness(t, nil)
	h.cards(threeFindings())
	h.saver("fix 1") // a note and a standing fix, so an ignored prompt shows it carried nothing
	cases := []struct {
		text, origin string
		turnID       bool
		ask          *state.Ask // nil: no ask recorded
		carried      bool
	}{
		{text: "go on", origin: "plugin"},
		{text: "/saver fix 1", origin: "composer"},
		{text: "  \n /saver", origin: "composer"},
		{text: "/saverx", origin: "composer"},
		{text: "a task finished", origin: "task-notification", carried: true},
		{text: "no origin at all", carried: true},
		{text: "next\tstep\x07 please\n\nnow", origin: "composer", ask: &state.Ask{Turn: 2, At: 1, Head: "next step please now"}, carried: true},
		{text: "from the bridge", origin: "bridge", turnID: true, ask: &state.Ask{Turn: 1, At: 1, Head: "from the bridge"}, carried: true},
		{text: strings.Repeat("é", 300), origin: "composer", ask: &state.Ask{Turn: 2, At: 1, Head: strings.Repeat("é", state.AskHeadMax)}, carried: true},
	}
	for i, c := range cases {
		// A compaction before each: the standing fix is owed to the new context, so a prompt that
		// carries anything carries it.
		h.call("session.compact", map[string]any{"sessionId": "s"})
		before := h.st()
		params := map[string]any{"sessionId": "s", "at": 80_000 + i, "text": c.text}
		if c.origin != "" {
			params["origin"] = map[string]any{"kind": c.origin}
		}
		if c.turnID {
			params["turnId"] = "t-1"
		}
		var res struct{ Context []string }
		h.callInto("prompt.submit", params, &res)
		after := h.st()
		if got := len(res.Context) > 0; got != c.carried {
			t.Fatalf("%q (%s): context %q, carried %v", c.text, c.origin, res.Context, c.carried)
		}
		added := after.Asks[len(before.Asks):]
		if c.ask == nil {
			if len(added) != 0 {
				t.Fatalf("%q (%s) was recorded as an ask: %+v", c.text, c.origin, added)
			}
			continue
		}
		want := *c.ask
		want.At = int64(80_000 + i)
		if len(added) != 1 || added[0] != want {
			t.Fatalf("%q (%s): asks %+v, want %+v", c.text, c.origin, added, want)
		}
	}
}

// TestPromptSubmitCarries: the one-time notes go once, notes first (index.ts prompt.submit: extra), and a
// standing instruction once per context: the context keeps what a prompt carried, so the next prompts
// carry nothing until a compaction, when every standing instruction goes again (protocol.md, "Differences
// from ContextSaver"). Each text sent is the instructions' spend.
func TestPromptSubmitCarries(t *testing.T) {
	h := newHarness(t, nil)
	if got := h.prompt(1_500, "hello", "composer"); len(got) != 0 {
		t.Fatalf("nothing decided, yet the prompt carried %q", got)
	}
	h.cards(threeFindings())
	h.saver("fix 1")
	if got := h.prompt(40_000, "next", "composer"); strings.Join(got, "|") != suiteNote {
		t.Fatalf("first prompt = %q", got)
	}
	steer := "Instruction from the user (via ContextSaver): only grep src/"
	h.saver("fix 2 only grep src/")
	if got := h.prompt(41_000, "next", "composer"); strings.Join(got, "|") != steer {
		t.Fatalf("second prompt = %q, want the new note alone: the context holds the standing fix", got)
	}
	for i := 0; i < 2; i++ {
		if got := h.prompt(42_000, "next", "composer"); len(got) != 0 {
			t.Fatalf("prompt %d = %q, want nothing: the context holds both", i+3, got)
		}
	}
	if st := h.st(); len(st.Notes) != 0 {
		t.Fatalf("notes = %q after the prompts", st.Notes)
	}
	var pane view.PaneModel
	h.callInto("view.pane", map[string]any{"sessionId": "s"}, &pane)
	sent := int64(math.Round(float64(jstext.Len16(suiteNote)+jstext.Len16(steer)) / 4))
	if m := pane.Header.Money; m == nil || m.InstructionsTokens != sent {
		t.Fatalf("money %+v, want the %d tokens of the two texts sent as the instructions' spend", m, sent)
	}
	h.call("session.compact", map[string]any{"sessionId": "s"})
	if got := h.prompt(42_500, "next", "composer"); strings.Join(got, "|") != suiteNote+"|"+steer {
		t.Fatalf("after a compaction = %q, want every standing fix again", got)
	}
	if got := h.prompt(42_600, "next", "composer"); len(got) != 0 {
		t.Fatalf("the prompt after = %q, want nothing", got)
	}
	// A plugin's prompt carries nothing and drains nothing.
	h.saver("fix 3")
	if got := h.prompt(43_000, "next", "plugin"); len(got) != 0 {
		t.Fatalf("a plugin prompt carried %q", got)
	}
	if st := h.st(); len(st.Notes) != 1 {
		t.Fatalf("a plugin prompt drained the notes: %q", st.Notes)
	}
}

// TestPaceAskStartsProcessRun: a typed complaint about pace is a process trigger (index.ts: if (pace)
// processAt(now, 'pace')); the same words from a notification are not.
func TestPaceAskStartsProcessRun(t *testing.T) {
	h := newHarness(t, map[string]any{"debug": true})
	h.twelve()
	h.prompt(20_000, "why is this taking so long", "task-notification")
	if n := len(h.host.forksOf("process")); n != 0 {
		t.Fatalf("a notification started %d process runs", n)
	}
	h.host.queue(reply())
	h.prompt(21_000, "why is this taking so long", "composer")
	forks := h.host.forksOf("process")
	if len(forks) != 1 || !strings.Contains(forks[0].Prompt, "| pace") {
		t.Fatalf("process forks = %+v", forks)
	}
	st := h.st()
	if !st.Asks[len(st.Asks)-1].Pace || st.Process.Runs != 1 || st.Process.Running {
		t.Fatalf("asks %+v, process %+v", st.Asks, st.Process)
	}
	if !slices.Contains(h.host.texts(NotifyLog), "ContextSaver process: 0 returned · 0 kept · 0 dropped · from pace") {
		t.Fatalf("logs = %q", h.host.texts(NotifyLog))
	}
	// Nothing new happened since: the next complaint starts nothing.
	h.prompt(22_000, "still waiting", "composer")
	if n := len(h.host.forksOf("process")); n != 1 {
		t.Fatalf("process forks = %d, want 1", n)
	}
}

// TestProcessColdAndFailed: every process trigger is automatic, so a cold snapshot is no run and hands the
// cadence back; a failure is said (index.ts processOnce, processFailed).
func TestProcessColdAndFailed(t *testing.T) {
	h := newHarness(t, nil)
	h.twelve()
	h.prompt(20_000, "why is this taking so long", "composer") // cold
	st := h.st()
	if st.Process.Runs != 0 || st.Process.Running || st.Process.LastAtSeq != 0 || h.host.count(NotifyToast) != 0 {
		t.Fatalf("after a cold process run: %+v, toasts %q", st.Process, h.host.texts(NotifyToast))
	}
	h.host.queue(errForkBroke)
	h.prompt(21_000, "this is so slow", "composer")
	if got := h.host.texts(NotifyToast); len(got) != 1 || got[0] != "ContextSaver: process check failed — fork broke" {
		t.Fatalf("toasts = %q", got)
	}
	if st := h.st(); st.Process.Running || state.Str(st.Process.Error) != "fork broke" {
		t.Fatalf("process = %+v", st.Process)
	}
}

func (h *testHarness) turnComplete(params map[string]any) {
	h.t.Helper()
	p := map[string]any{"sessionId": "s", "durationMs": 5_000, "answer": "done", "isAborted": false, "reason": "answer"}
	for k, v := range params {
		p[k] = v
	}
	h.call("turn.complete", p)
}

// TestTurnComplete: a subagent's turn is its loop's and nothing else moves; the main loop's turn records
// its stat and the window sample and consults the gates (index.ts turn.complete).
func TestTurnComplete(t *testing.T) {
	h := newHarness(t, nil)
	h.twelve()
	h.tool(14_000, ev("Agent", "description", "review a.ts", "prompt", "x"), map[string]any{"result": map[string]any{"agentId": "a1", "resolvedModel": "haiku"}})
	before := h.stateJSON()
	h.turnComplete(map[string]any{
		"at": 15_000, "agentId": "a1", "durationMs": 4_000, "reason": "aborted", "isAborted": true,
		"usage":   map[string]any{"model": "claude-haiku", "input_tokens": 10, "output_tokens": 20, "cache_read_input_tokens": 30, "cache_creation_input_tokens": 40},
		"context": map[string]any{"window": 200_000, "tokens": 99_000, "percent": 49.5},
	})
	st := h.st()
	l := st.LoopByID("a1")
	if l == nil || l.Turns != 1 || l.Ms != 4_000 || l.Tokens != (state.Tokens{Input: 10, Output: 20, CacheRead: 30, CacheCreate: 40}) ||
		l.Ended == nil || *l.Ended != state.EndAborted || state.Str(l.Model) != "claude-haiku" || state.Str(l.Label) != "review a.ts" {
		t.Fatalf("loop a1 = %+v", l)
	}
	if len(st.Turns) != 0 || st.Usage.Tokens != nil || st.Turn != 1 {
		t.Fatalf("a subagent's turn moved the main loop: turns %+v, usage %+v", st.Turns, st.Usage)
	}
	if before == h.stateJSON() {
		t.Fatal("the loop's turn changed nothing")
	}

	answer := strings.Repeat("é", 150)
	h.turnComplete(map[string]any{
		"at": 20_000, "durationMs": 17_000, "answer": answer,
		"usage":   map[string]any{"input_tokens": 20_000, "output_tokens": 1_000, "cache_read_input_tokens": 0, "cache_creation_input_tokens": 0},
		"context": map[string]any{"window": 200_000, "tokens": 38_000, "percent": 19},
	})
	st = h.st()
	if len(st.Turns) != 1 {
		t.Fatalf("turns = %+v", st.Turns)
	}
	turn := st.Turns[0]
	if turn.Ms != 17_000 || turn.AnswerChars != 150 || turn.AnswerHead != strings.Repeat("é", 100) || turn.At != 20_000 ||
		turn.Context == nil || *turn.Context != 38_000 || turn.Input != 20_000 || turn.Output != 1_000 || turn.Ended != state.EndAnswer {
		t.Fatalf("turn = %+v", turn)
	}
	if st.Usage.Tokens == nil || *st.Usage.Tokens != 38_000 || st.Usage.Window != 200_000 {
		t.Fatalf("usage = %+v", st.Usage)
	}
	// Without a sample the turn is still recorded, with no context reading.
	h.turnStart(21_000)
	h.turnComplete(map[string]any{"at": 22_000, "usage": map[string]any{"input_tokens": 20_000, "output_tokens": 0, "cache_read_input_tokens": 0, "cache_creation_input_tokens": 0}})
	st = h.st()
	if len(st.Turns) != 2 || st.Turns[1].Context != nil {
		t.Fatalf("turns = %+v", st.Turns)
	}
	if n := len(h.host.forksOf("judge")); n != 0 {
		t.Fatalf("judge forks before the cadence allows = %d", n)
	}

	// The third turn opens the between-turns gate: a cadence run, quiet, that opens the wide pane once.
	h.call("ui.columns", map[string]any{"sessionId": "s", "columns": state.AutoOpenMinColumns})
	h.host.queue(reply(suiteFinding(nil)))
	h.host.reset()
	h.turnStart(23_000)
	h.turnComplete(map[string]any{"at": 24_000, "usage": map[string]any{"input_tokens": 20_000, "output_tokens": 0, "cache_read_input_tokens": 0, "cache_creation_input_tokens": 0}})
	if n := len(h.host.forksOf("judge")); n != 1 {
		t.Fatalf("judge forks after the third turn = %d, want 1", n)
	}
	if got := h.host.texts(NotifyToast); len(got) != 0 {
		t.Fatalf("a cadence run spoke: %q", got)
	}
	var opens []PaneOpen
	for _, n := range h.host.notes {
		if n.method == NotifyOpen {
			opens = append(opens, n.params.(PaneOpen))
		}
	}
	if len(opens) != 1 || opens[0].Focus != nil {
		t.Fatalf("auto-opens = %+v, want one that asks for no keyboard", opens)
	}
	if st := h.st(); !st.AutoOpened || !st.PaneOpen || len(st.Cards) != 1 {
		t.Fatalf("after the cadence run: auto %v, open %v, cards %v", st.AutoOpened, st.PaneOpen, st.Cards)
	}
}

// TestAutoOpenNarrow: a cadence run's fresh cards never open a pane narrower than the surface draws.
func TestAutoOpenNarrow(t *testing.T) {
	h := newHarness(t, nil)
	h.twelve()
	h.call("ui.columns", map[string]any{"sessionId": "s", "columns": state.AutoOpenMinColumns - 1})
	h.host.queue(reply(suiteFinding(nil)))
	for i := 0; i < 3; i++ {
		h.turnStart(int64(20_000 + 2*i))
		h.turnComplete(map[string]any{"at": 20_001 + 2*i, "usage": map[string]any{"input_tokens": 20_000, "output_tokens": 0, "cache_read_input_tokens": 0, "cache_creation_input_tokens": 0}})
	}
	if n := len(h.host.forksOf("judge")); n != 1 {
		t.Fatalf("judge forks = %d, want 1", n)
	}
	if st := h.st(); len(st.Cards) != 1 || st.PaneOpen || h.host.count(NotifyOpen) != 0 {
		t.Fatalf("cards %v, open %v, ui.open %d", st.Cards, st.PaneOpen, h.host.count(NotifyOpen))
	}
}

// TestSavedToast: an instruction that held is credited once, out loud (index.ts dispatch → savedToast);
// one that was ignored brings its card back and says nothing.
func TestSavedToast(t *testing.T) {
	h := newHarness(t, nil)
	h.cards(threeFindings())
	h.saver("fix 1")
	h.turnStart(40_000)
	h.host.reset()
	var res struct{ Context []string }
	h.callInto("tool.call", map[string]any{"sessionId": "s", "at": 41_000, "ms": 500, "event": ev("Bash", "command", "bun test src/a.test.ts"), "result": map[string]any{"text": "3 pass"}}, &res)
	if got := h.host.texts(NotifyToast); len(got) != 1 || got[0] != "+1s · +~0.6% context saved" {
		t.Fatalf("toasts = %q", got)
	}
	st := h.st()
	if st.Saved.Ms != 1_000 || st.Saved.Chars != 4_494 {
		t.Fatalf("saved = %+v", st.Saved)
	}
	// Settled once: the next focused run is no news.
	h.host.reset()
	h.tool(42_000, ev("Bash", "command", "bun test src/b.test.ts"), map[string]any{"text": "3 pass"})
	if got := h.host.texts(NotifyToast); len(got) != 0 {
		t.Fatalf("toasts = %q", got)
	}

	// Another session: the suite's fix, ignored — the whole suite again in a later turn brings the card
	// back, quietly.
	g := newHarness(t, nil)
	g.cards(threeFindings())
	g.saver("fix 1")
	g.turnStart(40_000)
	g.host.reset()
	g.tool(41_000, ev("Bash", "command", "bun test"), nil)
	if got := g.host.texts(NotifyToast); len(got) != 0 {
		t.Fatalf("toasts = %q", got)
	}
	st = g.st()
	if len(st.Cards) != 3 || st.Cards[0] != "execution:full-suite" || st.Saved.Ms != 0 || st.PatternByID("execution:full-suite").Ignored != 1 {
		t.Fatalf("cards = %v, saved %+v: want the ignored card back first", st.Cards, st.Saved)
	}
}
