package session

import (
	"slices"
	"strings"
	"testing"

	"github.com/saverd/saverd/state"
)

const (
	killNote  = "Instruction from the user (via ContextSaver): Stop this behaviour for the rest of the session: " + grepKind + ". From now on: " + grepAlt
	suiteNote = "Instruction from the user (via ContextSaver): Stop this behaviour for the rest of the session: " + suiteKind + ". From now on: " + suiteAlt
)

// TestSaverFix is `/saver fix`'s parsing over three cards (index.ts command.run `fix`): a leading number
// is always the card, nothing after it sends the card's own fix, and a mistyped number is refused.
func TestSaverFix(t *testing.T) {
	cases := []struct {
		name     string
		steer    string // a card whose Fix… field is open first
		args     string
		reply    string
		toast    string // "" = no toast
		decided  string // the pattern decided, and how
		decision state.Choice
		standing string
	}{
		{name: "usage", args: "fix", reply: fixUsage("/saver")},
		{name: "usage with blanks", args: "  fix   ", reply: fixUsage("/saver")},
		{name: "card 0", args: "fix 0", reply: "ContextSaver: no card 0 (1–3)"},
		{name: "card 9", args: "fix 9", reply: "ContextSaver: no card 9 (1–3)"},
		{name: "card 9 with text", args: "fix 9 do better", reply: "ContextSaver: no card 9 (1–3)"},
		{name: "leading zeros", args: "fix 007", reply: "ContextSaver: no card 7 (1–3)"},
		{name: "past float range", args: "fix " + strings.Repeat("9", 400), reply: "ContextSaver: no card Infinity (1–3)"},
		{name: "past 1e21", args: "fix 1" + strings.Repeat("0", 22), reply: "ContextSaver: no card 1e+22 (1–3)"},
		{
			name: "card 2, its own fix", args: "fix 2", reply: `ContextSaver: card 2 — "` + grepKind + `" · fixed`,
			toast: "ContextSaver: fixed — " + grepAlt, decided: "reading:grep-again", decision: state.Fix, standing: killNote,
		},
		{
			name: "card 2 with a note", args: "fix 2   only grep src/", reply: `ContextSaver: card 2 — "` + grepKind + `" · fixed with your note: only grep src/`,
			toast: "ContextSaver: fixed with your note — only grep src/", decided: "reading:grep-again", decision: state.FixWithNote,
			standing: "Instruction from the user (via ContextSaver): only grep src/",
		},
		{
			name: "a word first is the note, for card 1", args: "fix abc text", reply: `ContextSaver: card 1 — "` + suiteKind + `" · fixed with your note: abc text`,
			toast: "ContextSaver: fixed with your note — abc text", decided: "execution:full-suite", decision: state.FixWithNote,
			standing: "Instruction from the user (via ContextSaver): abc text",
		},
		{
			name: "a number inside a word is no card", args: "fix 2x text", reply: `ContextSaver: card 1 — "` + suiteKind + `" · fixed with your note: 2x text`,
			toast: "ContextSaver: fixed with your note — 2x text", decided: "execution:full-suite", decision: state.FixWithNote,
			standing: "Instruction from the user (via ContextSaver): 2x text",
		},
		{
			name: "the open Fix… field's card", steer: "reading:reread", args: "fix read once", reply: `ContextSaver: card 3 — "` + rereadKind + `" · fixed with your note: read once`,
			toast: "ContextSaver: fixed with your note — read once", decided: "reading:reread", decision: state.FixWithNote,
			standing: "Instruction from the user (via ContextSaver): read once",
		},
		{name: "the open field, no text", steer: "reading:reread", args: "fix", reply: fixUsage("/saver")},
		{
			name: "a number beats the open field", steer: "reading:reread", args: "fix 1", reply: `ContextSaver: card 1 — "` + suiteKind + `" · fixed`,
			toast: "ContextSaver: fixed — " + suiteAlt, decided: "execution:full-suite", decision: state.Fix, standing: suiteNote,
		},
		{
			name: "newlines survive, the toast shows the first line", args: "fix 1 first line\nsecond line",
			reply: `ContextSaver: card 1 — "` + suiteKind + "\" · fixed with your note: first line\nsecond line",
			toast: "ContextSaver: fixed with your note — first line …", decided: "execution:full-suite", decision: state.FixWithNote,
			standing: "Instruction from the user (via ContextSaver): first line\nsecond line",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, nil)
			if cards := h.cards(threeFindings()); len(cards) != 3 {
				t.Fatalf("cards = %v, want 3", cards)
			}
			if c.steer != "" {
				h.call("ui.action", map[string]any{"sessionId": "s", "action": "steer", "patternId": c.steer})
			}
			h.host.reset()
			if got := h.saver(c.args); got != c.reply {
				t.Fatalf("/saver %s = %q, want %q", c.args, got, c.reply)
			}
			toasts := h.host.texts(NotifyToast)
			if c.toast == "" && len(toasts) != 0 || c.toast != "" && (len(toasts) != 1 || toasts[0] != c.toast) {
				t.Fatalf("toasts = %q, want %q", toasts, c.toast)
			}
			st := h.st()
			decided := ""
			for _, p := range st.Patterns {
				if p.Decision != nil {
					if decided != "" {
						t.Fatalf("two patterns decided: %s and %s", decided, p.ID)
					}
					decided = p.ID
					if *p.Decision != c.decision {
						t.Fatalf("%s decision = %s, want %s", p.ID, *p.Decision, c.decision)
					}
				}
			}
			if decided != c.decided {
				t.Fatalf("decided %q, want %q", decided, c.decided)
			}
			if c.standing == "" && len(st.Standing) != 0 || c.standing != "" && (len(st.Standing) != 1 || st.Standing[0] != c.standing) {
				t.Fatalf("standing = %q, want %q", st.Standing, c.standing)
			}
			if c.decided != "" {
				// A decision is persisted: the registry now holds it.
				stored := state.ParseRegistry(h.reg.Values[state.StoreKey(h.cwd)])
				found := false
				for _, sp := range stored {
					found = found || sp.ID == c.decided && sp.LastDecision != nil && *sp.LastDecision == c.decision
				}
				if !found {
					t.Fatalf("registry %+v does not hold the decision on %s", stored, c.decided)
				}
			}
		})
	}
}

// TestSaverIgnore is `/saver ignore <n>` (index.ts decideByNumber 'keep').
func TestSaverIgnore(t *testing.T) {
	cases := []struct{ args, reply, toast, decided string }{
		{args: "ignore", reply: saverUsage("/saver")},
		{args: "ignore x", reply: saverUsage("/saver")},
		{args: "ignore 2 3", reply: saverUsage("/saver")},
		{args: "ignore -1", reply: saverUsage("/saver")},
		{args: "ignore 0", reply: "ContextSaver: no card 0 (1–3)"},
		{args: "ignore 4", reply: "ContextSaver: no card 4 (1–3)"},
		{args: "ignore 2", reply: `ContextSaver: card 2 — "` + grepKind + `" · ignored`, toast: `ContextSaver: ignored "` + grepKind + `"`, decided: "reading:grep-again"},
		{args: "ignore\t3 ", reply: `ContextSaver: card 3 — "` + rereadKind + `" · ignored`, toast: `ContextSaver: ignored "` + rereadKind + `"`, decided: "reading:reread"},
	}
	for _, c := range cases {
		t.Run(c.args, func(t *testing.T) {
			h := newHarness(t, nil)
			h.cards(threeFindings())
			h.host.reset()
			if got := h.saver(c.args); got != c.reply {
				t.Fatalf("/saver %s = %q, want %q", c.args, got, c.reply)
			}
			toasts := h.host.texts(NotifyToast)
			if c.toast == "" && len(toasts) != 0 || c.toast != "" && (len(toasts) != 1 || toasts[0] != c.toast) {
				t.Fatalf("toasts = %q, want %q", toasts, c.toast)
			}
			st := h.st()
			for _, p := range st.Patterns {
				if got := p.Decided(state.Ignore); got != (p.ID == c.decided) {
					t.Fatalf("%s kept = %v", p.ID, got)
				}
			}
			if c.decided != "" && (slices.Contains(st.Cards, c.decided) || len(st.Cards) != 2 || len(st.Standing) != 0 || len(st.Notes) != 0) {
				t.Fatalf("after ignoring %s: cards %v, standing %q, notes %q", c.decided, st.Cards, st.Standing, st.Notes)
			}
		})
	}
}

// TestSaverNothingToDecide: with no cards every deciding verb says so, whatever follows it.
func TestSaverNothingToDecide(t *testing.T) {
	h := newHarness(t, nil)
	h.twelve()
	for _, args := range []string{"fix", "fix 1", "fix 0", "fix some text", "ignore", "ignore 1", "ignore x"} {
		if got := h.saver(args); got != nothingText {
			t.Errorf("/saver %s = %q, want %q", args, got, nothingText)
		}
	}
	if n := h.host.count(NotifyToast); n != 0 {
		t.Fatalf("%d toasts, want none", n)
	}
}

// TestSaverToggle: `/saver` and `/saver rules` toggle the pane and say which, with the process line once
// the process judge ran (index.ts command.run: an empty sub or `rules`).
func TestSaverToggle(t *testing.T) {
	h := newHarness(t, nil)
	steps := []struct{ args, reply, method string }{
		{"", "ContextSaver pane shown", NotifyOpen},
		{"rules", "ContextSaver pane hidden", NotifyClose},
		{"rules and more", "ContextSaver pane shown", NotifyOpen},
		{"   ", "ContextSaver pane hidden", NotifyClose},
	}
	for _, s := range steps {
		h.host.reset()
		if got := h.saver(s.args); got != s.reply {
			t.Fatalf("/saver %q = %q, want %q", s.args, got, s.reply)
		}
		if n := h.host.count(s.method); n != 1 {
			t.Fatalf("/saver %q: %d %s, want 1 (%v)", s.args, n, s.method, h.host.methods())
		}
	}
	// The person asked for the pane, so the open asks for their keyboard too.
	h.host.reset()
	h.saver("")
	open := h.host.notes[0].params.(PaneOpen)
	if open.ID != state.PaneID || open.Title != state.PaneTitle || open.Rows != state.PaneInlineRows || open.Focus == nil || !*open.Focus {
		t.Fatalf("ui.open = %+v", open)
	}

	// A pace complaint starts a process run; its cost joins the toggle's reply.
	h.twelve()
	h.host.queue(reply())
	h.prompt(30_000, "why is this taking so long", "composer")
	if n := len(h.host.forksOf("process")); n != 1 {
		t.Fatalf("process forks = %d, want 1", n)
	}
	if got := h.saver(""); got != "ContextSaver pane hidden · process 1 run · 1.7k tokens" {
		t.Fatalf("/saver after a process run = %q", got)
	}
}

func TestSaverOtherSubcommands(t *testing.T) {
	t.Run("unknown", func(t *testing.T) {
		h := newHarness(t, nil)
		for _, args := range []string{"bogus", "checks", "fixit", "demo", "DEBUG"} {
			if got := h.saver(args); got != saverUsage("/saver") {
				t.Errorf("/saver %s = %q, want the usage", args, got)
			}
		}
		if len(h.st().Patterns) != 0 {
			t.Fatal("demo loaded outside a debug session")
		}
	})
	t.Run("debug", func(t *testing.T) {
		h := newHarness(t, nil)
		h.cards(threeFindings())
		got := h.saver("debug")
		var view struct{ Text string }
		h.callInto("view.text", map[string]any{"sessionId": "s", "view": "debug"}, &view)
		if got != view.Text || !strings.HasPrefix(got, "ContextSaver · turn 1 · seq 12 · rows 12") ||
			!strings.Contains(got, "cards 3: execution:full-suite, reading:grep-again, reading:reread") {
			t.Fatalf("/saver debug =\n%s\nview.text debug =\n%s", got, view.Text)
		}
		if n := strings.Count(got, "\n") + 1; n > state.DebugMaxLines {
			t.Fatalf("/saver debug is %d lines", n)
		}
	})
	t.Run("reset", func(t *testing.T) {
		h := newHarness(t, nil)
		h.cards(threeFindings())
		h.saver("fix 1")
		if got := h.saver("reset"); got != resetText {
			t.Fatalf("/saver reset = %q", got)
		}
		st := h.st()
		if len(st.Rows) != 0 || len(st.Cards) != 0 || len(st.Standing) != 0 || st.Turn != 0 {
			t.Fatalf("after reset: %d rows, cards %v, standing %q, turn %d", len(st.Rows), st.Cards, st.Standing, st.Turn)
		}
	})
	t.Run("demo in a debug session", func(t *testing.T) {
		h := newHarness(t, map[string]any{"debug": true})
		h.host.reset()
		if got := h.saver("demo"); got != demoText {
			t.Fatalf("/saver demo = %q", got)
		}
		st := h.st()
		if len(st.Cards) == 0 || !st.PaneOpen || len(st.Turns) != len(demoContext) {
			t.Fatalf("demo: cards %v, pane open %v, %d turns", st.Cards, st.PaneOpen, len(st.Turns))
		}
		for i, want := range demoContext {
			if c := st.Turns[i].Context; c == nil || *c != want {
				t.Fatalf("demo turn %d context = %v, want %d", i, c, want)
			}
		}
		if n := h.host.count(NotifyOpen); n != 1 {
			t.Fatalf("demo: %d ui.open, want 1", n)
		}
	})
	t.Run("check without a fork", func(t *testing.T) {
		h := newHarnessWith(t, Options{Synchronous: true}, false, nil)
		h.twelve()
		if got := h.saver("check"); got != noForkText {
			t.Fatalf("/saver check = %q", got)
		}
	})
}

// TestCheckReplies: `/saver check` answers at once and the run ends in a toast, whatever it found
// (index.ts judgeOnce: checkedText, failedToast).
func TestCheckReplies(t *testing.T) {
	cases := []struct {
		name   string
		answer any
		toast  string
		opened bool
	}{
		{"three", threeFindings(), "ContextSaver: 3 new wasters", true},
		{"one", reply(suiteFinding(nil)), "ContextSaver: 1 new waster", true},
		{"none", reply(), "ContextSaver: nothing new", false},
		{"cold", nil, "ContextSaver: check failed — the host could not fork this session yet (model.fork answered null)", false},
		{"error", errForkBroke, "ContextSaver: check failed — fork broke", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := checkAnswered(t, c.answer, c.toast)
			if got := h.host.count(NotifyOpen) == 1; got != c.opened {
				t.Fatalf("pane opened = %v, want %v", got, c.opened)
			}
			if st := h.st(); st.Judge.Running {
				t.Fatal("the run never ended")
			}
		})
	}
}

// TestClearAndResumeReset: `/clear` and `/resume` start the session over with no reply, and the armed
// check may speak again (index.ts resetSession: armedSpoke = false).
func TestClearAndResumeReset(t *testing.T) {
	for _, command := range []string{"clear", "resume", "/clear"} {
		t.Run(command, func(t *testing.T) {
			h := newHarness(t, map[string]any{"messages": adoptedMessages(10)})
			if !strings.Contains(h.saver("debug"), "load check: retrying · reported") {
				t.Fatalf("before: %s", h.saver("debug"))
			}
			h.cards(threeFindings())
			res := h.call("command.run", map[string]any{"sessionId": "s", "command": command, "args": ""})
			if string(res) != "{}" {
				t.Fatalf("/%s replied %s, want no text", command, res)
			}
			st := h.st()
			if len(st.Rows) != 0 || len(st.Cards) != 0 || st.PendingCheck {
				t.Fatalf("after /%s: %d rows, cards %v, armed %v", command, len(st.Rows), st.Cards, st.PendingCheck)
			}
			if d := h.saver("debug"); !strings.Contains(d, "· not yet reported") {
				t.Fatalf("after /%s the armed check's toast is still spent:\n%s", command, d)
			}
		})
	}
}
