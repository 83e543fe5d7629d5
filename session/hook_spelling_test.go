package session

import (
	"strings"
	"testing"

	"github.com/saverd/saverd/bridge"
	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/harness/claude"
	"github.com/saverd/saverd/harness/codex"
)

// TestCommandSpelledAsTyped: what saverd tells a person to type names the command as their harness takes
// it: the pane, the toast of an automatic run and the replies say $saver in a Codex session, /saver in
// Claude Code's.
func TestCommandSpelledAsTyped(t *testing.T) {
	for _, c := range []struct {
		live       harness.Live
		say, other string
	}{{claude.Harness{}, "/saver", "$saver"}, {codex.Harness{}, "$saver", "/saver"}} {
		t.Run(string(c.live.ID()), func(t *testing.T) {
			h := newHookHarness(t)
			h.send(bridge.SessionStart, map[string]any{"source": "startup"})
			h.srv.mu.Lock()
			sess := h.srv.sessions["cc-1"]
			h.srv.mu.Unlock()
			sess.event(func() { sess.bridge.live = c.live })
			h.twelve()
			h.host.queue(threeFindings())
			sess.event(func() { sess.runJudge(reasonToolCall, 10_000_000) })
			toast := h.post("Read", map[string]any{"file_path": "/z"}, map[string]any{"file": map[string]any{"content": "z"}})
			if toast == nil || !strings.Contains(toast.SystemMessage, "— "+c.say+" shows them, "+c.say+" fix 1 fixes the first") {
				t.Errorf("the toast of an automatic run: %+v", toast)
			}
			for _, typed := range []struct{ line, shows string }{
				{c.say, c.say + " fix <n> [note]"},
				{c.say + " fix", "Usage: " + c.say + " fix [n]"},
				{c.say + " frobnicate", "Usage: " + c.say + " [check | fix"},
			} {
				a := h.send(bridge.UserPromptSubmit, map[string]any{"prompt": typed.line})
				if a == nil || !strings.Contains(a.Reason, typed.shows) || strings.Contains(a.Reason, c.other+" ") {
					t.Errorf("%s answered %+v: want %q, and no %s", typed.line, a, typed.shows, c.other)
				}
			}
		})
	}
}

// firstCardFixed is a session the hooks fed the twelve calls, checked (three cards) and fixed card 1 of, so
// its pane offers the suite's rule.
func (h *hookHarness) firstCardFixed() *Session {
	h.t.Helper()
	h.send(bridge.SessionStart, map[string]any{"source": "startup"})
	h.send(bridge.UserPromptSubmit, map[string]any{"prompt": "fix the math"})
	h.twelve()
	h.host.queue(threeFindings())
	h.send(bridge.UserPromptSubmit, map[string]any{"prompt": "/saver check"})
	h.send(bridge.UserPromptSubmit, map[string]any{"prompt": "/saver fix 1"})
	h.srv.mu.Lock()
	defer h.srv.mu.Unlock()
	return h.srv.sessions["cc-1"]
}

// TestCodexRulesGoToAgentsMD: a Codex session's pane offers its lasting rules as AGENTS.md bullets, the
// file Codex reads; the same session under Claude Code offers CLAUDE.md.
func TestCodexRulesGoToAgentsMD(t *testing.T) {
	h := newHookHarness(t)
	sess := h.firstCardFixed()
	paths := func() []string {
		var out []string
		sess.event(func() {
			for _, a := range sess.proposals() {
				out = append(out, string(a.Kind)+" "+strings.TrimPrefix(a.Path, h.cwd))
			}
		})
		return out
	}
	if got := paths(); len(got) == 0 || strings.Contains(strings.Join(got, ","), "AGENTS.md") {
		t.Fatalf("Claude Code session: %v", got)
	}
	sess.event(func() { sess.bridge.live = codex.Harness{} })
	for _, p := range paths() {
		if p != "agents-md /AGENTS.md" {
			t.Fatalf("Codex session offers %v", paths())
		}
	}
}

// TestSpellingFollowsTheRouteAndTheTyped: the commands a reply names are spelled as the person typed
// saverd's command last in the session, when the harness takes that spelling, else as the route the hooks
// come by: saverd's plugin's (`/saver:saver`, `$saver:saver`: with only the plugin, Claude Code refuses
// `/saver`), else the harness's own. A Codex person's kinds name Codex, not Claude.
func TestSpellingFollowsTheRouteAndTheTyped(t *testing.T) {
	for _, c := range []struct {
		name   string
		live   harness.Live
		plugin bool
		typed  string
		say    string
	}{
		{"claude-code, its own hooks", claude.Harness{}, false, "", "/saver"},
		{"claude-code, the plugin's hooks", claude.Harness{}, true, "", "/saver:saver"},
		{"claude-code, the plugin's hooks, /saver typed", claude.Harness{}, true, "/saver debug", "/saver"},
		{"claude-code, /saver:saver typed", claude.Harness{}, false, "/saver:saver debug", "/saver:saver"},
		{"codex, the plugin's hooks", codex.Harness{}, true, "", "$saver:saver"},
		{"codex, / typed with a leading space is not what it takes", codex.Harness{}, false, " /saver debug", "$saver"},
		{"codex, $saver:saver typed", codex.Harness{}, false, "$saver:saver debug", "$saver:saver"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHookHarness(t)
			h.plugin = c.plugin
			send := h.send
			send(bridge.SessionStart, map[string]any{"source": "startup"})
			h.srv.mu.Lock()
			sess := h.srv.sessions["cc-1"]
			h.srv.mu.Unlock()
			sess.event(func() { sess.bridge.live = c.live })
			if c.typed != "" {
				send(bridge.UserPromptSubmit, map[string]any{"prompt": c.typed})
			}
			h.twelve()
			h.host.queue(threeFindings())
			sess.event(func() { sess.runJudge(reasonToolCall, 10_000_000) })
			toast := send(bridge.PostToolUse, map[string]any{"tool_name": "Read", "tool_use_id": "toolu_z",
				"tool_input": map[string]any{"file_path": "/z"}, "tool_response": map[string]any{"file": map[string]any{"content": "z"}}})
			if toast == nil || !strings.Contains(toast.SystemMessage, "— "+c.say+" shows them, "+c.say+" fix 1 fixes the first") {
				t.Fatalf("the toast of an automatic run: %+v, want %s", toast, c.say)
			}
			pane := send(bridge.UserPromptSubmit, map[string]any{"prompt": c.say})
			agent, other := "Claude keeps", "Codex keeps"
			if c.live.ID() == harness.Codex {
				agent, other = other, agent
			}
			if pane == nil || !strings.Contains(pane.Reason, c.say+" fix <n> [note] · "+c.say+" ignore <n>") ||
				!strings.Contains(pane.Reason, agent) || strings.Contains(pane.Reason, other) {
				t.Fatalf("the pane: %+v, want %s and %q", pane, c.say, agent)
			}
		})
	}
}

// TestAgentNamed: a kind's agent is the harness's; the harness's own name, and "Claude" anywhere but a
// kind's lead (a command, a path, a rule, a note the person typed), stay.
func TestAgentNamed(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Claude keeps re-running `npm run build`", "Codex keeps re-running `npm run build`"},
		{"1. [execution] Claude keeps a\n- fixed · Claude keeps b", "1. [execution] Codex keeps a\n- fixed · Codex keeps b"},
		{"install Claude Code's hooks; Claude keeps", "install Claude Code's hooks; Claude keeps"},
		{"install Claude Code's hooks; Claude keeps x", "install Claude Code's hooks; Codex keeps x"},
		{"fixed: Claude keeps a — note: ask Claude to run one test", "fixed: Codex keeps a — note: ask Claude to run one test"},
		{"r3 Read /home/u/Claude Notes/todo.md", "r3 Read /home/u/Claude Notes/todo.md"},
		{"nothing to name", "nothing to name"},
		{"Claude", "Claude"},
	} {
		if got := agentNamed(c.in, "Codex"); got != c.want {
			t.Errorf("agentNamed(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestTypedDecisionSaidOnce: `/saver ignore 1` or `/saver fix 3` typed in a harness answers one line that
// says it (the reply, a Fix's naming what it sends), not the reply and a toast in other words.
func TestTypedDecisionSaidOnce(t *testing.T) {
	h := newHookHarness(t)
	sess := h.judgedSession()
	sess.event(func() { sess.runJudge(reasonToolCall, 10_000_000) })
	h.post("Read", map[string]any{"file_path": "/z"}, map[string]any{"file": map[string]any{"content": "z"}}) // takes the run's toast
	for _, c := range []struct{ line, want, not string }{
		{"/saver ignore 1", `ContextSaver: card 1 — "` + suiteKind + `" · ignored`, "ContextSaver: ignored"},
		{"/saver fix 2 only grep src/", "· fixed with your note: only grep src/", "ContextSaver: fixed with your note —"},
		{"/saver fix 3", `ContextSaver: card 3 — "` + rereadKind + `" · fixed — ` + rereadAlt, "ContextSaver: fixed —"},
	} {
		a := h.send(bridge.UserPromptSubmit, map[string]any{"prompt": c.line})
		if a == nil || !strings.Contains(a.Reason, c.want) || (c.not != "" && strings.Contains(a.Reason, c.not)) {
			t.Fatalf("%s answered %+v: want %q and no %q", c.line, a, c.want, c.not)
		}
	}
}

// TestOneFoundNamesIt: an automatic judge run that finds one waster says which, with the commands that fix
// or ignore it, as the detectors' card does — not "shows them … fixes the first" of a single card, which a
// `/saver` typed next showed above the pane that lists it; more than one keep that telling.
func TestOneFoundNamesIt(t *testing.T) {
	for _, c := range []struct {
		name  string
		found *ForkResult
		want  string
	}{
		{"one", reply(suiteFinding(nil)), "ContextSaver: 1 new waster: " + suiteKind + " — /saver fix 1 fixes it, /saver ignore 1 if it is fine"},
		{"three", threeFindings(), "ContextSaver: 3 new wasters — /saver shows them, /saver fix 1 fixes the first"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHookHarness(t)
			h.send(bridge.SessionStart, map[string]any{"source": "startup"})
			h.twelve()
			h.host.queue(c.found)
			sess := h.session()
			sess.event(func() { sess.runJudge(reasonToolCall, 10_000_000) })
			toast := h.post("Read", map[string]any{"file_path": "/z"}, map[string]any{"file": map[string]any{"content": "z"}})
			if got := systemMessage(toast); got != c.want {
				t.Errorf("the toast of an automatic run: %q, want %q", got, c.want)
			}
		})
	}
}
