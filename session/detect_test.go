package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/saverd/saverd/bridge"
	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/internal/testfake"
	"github.com/saverd/saverd/state"
)

// buildID is the detectors' id for `npm run build` run again with nothing changed.
const buildID = "execution:rerun-npm-run-build"

// builds is one hook turn: a prompt, n identical builds and the Stop that ends it; it answers what Stop
// printed.
func (h *hookHarness) builds(prompt string, n int) *bridge.Answer {
	h.t.Helper()
	h.send(bridge.UserPromptSubmit, map[string]any{"prompt": prompt})
	for range n {
		h.post("Bash", map[string]any{"command": "npm run build"}, map[string]any{"stdout": strings.Repeat("built 212 modules\n", 200), "stderr": ""})
	}
	return h.send(bridge.Stop, map[string]any{"last_assistant_message": "Built."})
}

// session is the hook harness's one session.
func (h *hookHarness) session() *Session {
	h.srv.mu.Lock()
	defer h.srv.mu.Unlock()
	return h.srv.sessions["cc-1"]
}

// systemMessage is what an answer shows the person, "" for none.
func systemMessage(a *bridge.Answer) string {
	if a == nil {
		return ""
	}
	return a.SystemMessage
}

// TestDetectorCardAtTurnEnd: four identical builds in a Claude Code turn are a card in the Stop hook's
// answer, with no judge run and nothing spent; `/saver fix 1` makes its fix the standing instruction,
// which the next prompt carries, settles with a credit once it held, and relapses when the builds come
// back.
func TestDetectorCardAtTurnEnd(t *testing.T) {
	h := newHookHarness(t)
	h.send(bridge.SessionStart, map[string]any{"source": "startup"})
	stop := systemMessage(h.builds("build it", 4))
	want := "ContextSaver: 1 new waster, found without a model: Claude keeps re-running `npm run build` with nothing edited since the last run — /saver fix 1 fixes it, /saver ignore 1 if it is fine"
	if stop != want {
		t.Fatalf("Stop showed %q, want %q", stop, want)
	}
	sess := h.session()
	var st *state.State
	sess.event(func() { st = sess.st.Clone() })
	if len(st.Cards) != 1 || st.Cards[0] != buildID || st.Judge.Runs != 0 || st.Judge.Spent != 0 || st.Money.JudgeUSD != 0 || st.Money.JudgeUnpriced != 0 {
		t.Fatalf("after Stop: cards %q, judge %+v, money %+v", st.Cards, st.Judge.JudgeRecord, st.Money)
	}
	if forks := h.host.forksOf("judge"); len(forks) != 0 {
		t.Fatalf("%d judge forks for a card no model was asked for", len(forks))
	}
	if pane := h.send(bridge.UserPromptSubmit, map[string]any{"prompt": "/saver"}); pane == nil || !strings.Contains(pane.Reason, "re-running `npm run build`") {
		t.Fatalf("/saver showed %+v, want the card", pane)
	}

	if a := h.send(bridge.UserPromptSubmit, map[string]any{"prompt": "/saver fix 1"}); a == nil || !strings.Contains(a.Reason, "· fixed") {
		t.Fatalf("/saver fix 1 answered %+v", a)
	}
	a := h.send(bridge.UserPromptSubmit, map[string]any{"prompt": "next"})
	if a == nil || a.HookSpecificOutput == nil || !strings.Contains(a.HookSpecificOutput.AdditionalContext, "Run `npm run build` again only after a change") {
		t.Fatalf("the next prompt carried %+v, want the fix", a)
	}
	// Two turns without the habit: the instruction held, and its credit is said.
	var said []string
	said = append(said, systemMessage(h.post("Bash", map[string]any{"command": "ls"}, map[string]any{"stdout": "a", "stderr": ""})))
	said = append(said, systemMessage(h.send(bridge.Stop, map[string]any{"last_assistant_message": "ok"})))
	for _, p := range []string{"go on", "and on"} {
		said = append(said, systemMessage(h.send(bridge.UserPromptSubmit, map[string]any{"prompt": p})))
		said = append(said, systemMessage(h.post("Bash", map[string]any{"command": "ls"}, map[string]any{"stdout": "a", "stderr": ""})))
		said = append(said, systemMessage(h.send(bridge.Stop, map[string]any{"last_assistant_message": "ok"})))
	}
	if joined := strings.Join(said, "\n"); !strings.Contains(joined, "context saved") {
		t.Fatalf("no credit said while the fix held: %q", said)
	}
	// The builds again: relapsed, the credit withdrawn, the card back; still no judge.
	h.send(bridge.UserPromptSubmit, map[string]any{"prompt": "build again"})
	a = h.post("Bash", map[string]any{"command": "npm run build"}, map[string]any{"stdout": "built", "stderr": ""})
	if !strings.Contains(systemMessage(a), `ContextSaver: back after it was fixed — "Claude keeps re-running `+"`npm run build`") {
		t.Fatalf("the build after the fix showed %q, want the relapse", systemMessage(a))
	}
	sess.event(func() { st = sess.st.Clone() })
	if st.Saved != (state.Saved{}) || len(st.Cards) != 1 || st.Cards[0] != buildID || len(h.host.forksOf("judge")) != 0 {
		t.Fatalf("after the relapse: saved %+v, cards %q, %d forks", st.Saved, st.Cards, len(h.host.forksOf("judge")))
	}
}

// TestDetectorCardIgnored: `/saver ignore 1` on a detector's card keeps the behaviour: the same builds in
// a later turn bring no card back, and no judge is asked.
func TestDetectorCardIgnored(t *testing.T) {
	h := newHookHarness(t)
	h.send(bridge.SessionStart, map[string]any{"source": "startup"})
	if !strings.Contains(systemMessage(h.builds("build it", 3)), "1 new waster") {
		t.Fatal("no card for three identical builds")
	}
	if a := h.send(bridge.UserPromptSubmit, map[string]any{"prompt": "/saver ignore 1"}); a == nil || !strings.Contains(a.Reason, "· ignored") {
		t.Fatalf("/saver ignore 1 answered %+v", a)
	}
	if stop := systemMessage(h.builds("build it again", 4)); strings.Contains(stop, "waster") {
		t.Fatalf("the kept behaviour came back as %q", stop)
	}
	sess := h.session()
	var cards []string
	var p *state.Pattern
	sess.event(func() { cards, p = sess.st.Cards, sess.st.PatternByID(buildID) })
	if len(cards) != 0 || p == nil || !p.Decided(state.Ignore) || len(h.host.forksOf("judge")) != 0 {
		t.Fatalf("cards %q, pattern %+v, %d forks", cards, p, len(h.host.forksOf("judge")))
	}
}

// TestDetectorsCodexSpelling: a Codex session's card names the command as a Codex user types it.
func TestDetectorsCodexSpelling(t *testing.T) {
	h := newHookHarness(t)
	post := func(n int) {
		_, err := h.sendErr(string(harness.Codex), bridge.PostToolUse, map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "npm run build"},
			"tool_use_id": "call_" + string(rune('a'+n)), "tool_response": "built", "turn_id": "t1", "model": "gpt-5.5"})
		if err != nil {
			t.Fatal(err)
		}
	}
	if _, err := h.sendErr(string(harness.Codex), bridge.UserPromptSubmit, map[string]any{"prompt": "build", "turn_id": "t1", "model": "gpt-5.5"}); err != nil {
		t.Fatal(err)
	}
	post(1)
	post(2)
	a, err := h.sendErr(string(harness.Codex), bridge.Stop, map[string]any{"last_assistant_message": "Built.", "turn_id": "t1", "model": "gpt-5.5"})
	if err != nil || !strings.Contains(systemMessage(a), "— $saver fix 1 fixes it, $saver ignore 1 if it is fine") {
		t.Fatalf("Codex's Stop showed %q (%v)", systemMessage(a), err)
	}
}

// TestDetectorsSettings: a hook session runs the detectors unless its project says no; a host's session
// only when its initialize asked, and its project can still say no. Off, four identical builds card
// nothing: the seed's behaviour, untouched.
func TestDetectorsSettings(t *testing.T) {
	cases := []struct {
		name    string
		hook    bool
		host    any // initialize's detectors; nil leaves it out
		project string
		want    bool
	}{
		{name: "a hook session", hook: true, want: true},
		{name: "a hook session whose project says no", hook: true, project: `{"detectors": false}`, want: false},
		{name: "a hook session whose project says yes", hook: true, project: `{"detectors": true}`, want: true},
		{name: "a hook session beside a broken project file", hook: true, project: `{"detectors": "no"}`, want: true},
		{name: "a host that did not ask", want: false},
		{name: "a host that did not ask, a project that says yes", project: `{"detectors": true}`, want: false},
		{name: "a host that asked", host: true, want: true},
		{name: "a host that asked, a project that says no", host: true, project: `{"detectors": false}`, want: false},
		{name: "a host that said no", host: false, want: false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var cards []string
			if c.hook {
				h := newHookHarness(t)
				writeProject(t, h.cwd, c.project)
				h.send(bridge.SessionStart, map[string]any{"source": "startup"})
				h.builds("build it", 4)
				sess := h.session()
				sess.event(func() { cards = sess.st.Cards })
			} else {
				h := hostWithDetectors(t, c.host, c.project)
				h.fourBuilds(2_000)
				cards = h.st().Cards
				if forks := h.host.forksOf("judge"); len(forks) != 0 {
					t.Fatalf("%d judge forks", len(forks))
				}
			}
			if got := len(cards) == 1 && cards[0] == buildID; got != c.want || (!c.want && len(cards) != 0) {
				t.Fatalf("cards %q, want the build's card: %v", cards, c.want)
			}
		})
	}
}

func writeProject(t *testing.T, dir, settings string) {
	t.Helper()
	if settings == "" {
		return
	}
	if err := os.WriteFile(filepath.Join(dir, ProjectSettings), []byte(settings), 0o644); err != nil {
		t.Fatal(err)
	}
}

// hostWithDetectors is a fork-capable host whose initialize sends detectors (nil: leaves it out), with
// session "s" started in a project whose .saverd.json is project ("" for none).
func hostWithDetectors(t *testing.T, detectors any, project string) *testHarness {
	t.Helper()
	h := &testHarness{t: t, host: &fakeHost{}, reg: testfake.NewRegistry(), cwd: t.TempDir()}
	writeProject(t, h.cwd, project)
	h.srv = New(Options{Synchronous: true, Store: h.reg, Clock: func() int64 { return 999 }})
	h.srv.SetHost(h.host)
	init := map[string]any{"capabilities": map[string]any{"fork": true}}
	if detectors != nil {
		init["detectors"] = detectors
	}
	h.call("initialize", init)
	h.call("session.start", map[string]any{"sessionId": "s", "cwd": h.cwd, "at": 1_000, "usage": map[string]any{"window": 200_000}})
	return h
}

// fourBuilds is one host turn from at: four identical builds of 20,000 characters each, two small reads
// and the turn's end with 1,000 input, 300 output and 20,500 cache-creation tokens.
func (h *testHarness) fourBuilds(at int64) {
	h.t.Helper()
	h.turnStart(at)
	for i := range 4 {
		h.tool(at+int64(i+1)*100, ev("Bash", "command", "npm run build"), map[string]any{"text": strings.Repeat("x", 20_000)})
	}
	h.tool(at+500, ev("Read", "file_path", h.cwd+"/a.ts"), map[string]any{"text": "a"})
	h.tool(at+600, ev("Read", "file_path", h.cwd+"/b.ts"), map[string]any{"text": "b"})
	h.turnComplete(map[string]any{"at": at + 700, "usage": map[string]any{"input_tokens": 1_000, "output_tokens": 300,
		"cache_read_input_tokens": 50_000, "cache_creation_input_tokens": 20_500}})
}

// TestDetectorsAskTheJudgeLess: the same six turns, each four identical builds and two reads, with and
// without the detectors. Without, the cadence's judge runs every third turn; with, the builds' rows and
// their context are no new work for it, so it is asked less, and the card costs nothing. A judge asked
// for anyway (/saver check) is told the detector's pattern among KNOWN PATTERNS.
func TestDetectorsAskTheJudgeLess(t *testing.T) {
	runs := map[bool]int{}
	for _, on := range []bool{false, true} {
		h := hostWithDetectors(t, on, "")
		h.host.queue(reply(), reply(), reply(), reply(), reply(), reply())
		for turn := range 6 {
			h.fourBuilds(int64(2_000 + turn*1_000))
		}
		h.srv.Quiesce()
		runs[on] = len(h.host.forksOf("judge"))
		st := h.st()
		if on != (len(st.Cards) == 1 && st.Cards[0] == buildID) {
			t.Fatalf("detectors %v: cards %q", on, st.Cards)
		}
		if !on {
			continue
		}
		h.host.queue(reply())
		h.saver("check")
		h.srv.Quiesce()
		forks := h.host.forksOf("judge")
		prompt := forks[len(forks)-1].Prompt
		known := prompt[strings.Index(prompt, "## KNOWN PATTERNS"):strings.Index(prompt, "## DECISIONS")]
		if !strings.Contains(known, buildID+" | Claude keeps re-running `npm run build`") {
			t.Fatalf("the judge's KNOWN PATTERNS lack the detector's pattern:\n%s", known)
		}
	}
	if runs[false] != 2 || runs[true] != 0 {
		t.Fatalf("judge runs over six turns: %d without the detectors, %d with; want 2 and 0", runs[false], runs[true])
	}
}

// TestDetectionRollsBack: a detection in an event that fails is undone with it — no card, no counts, its
// rows still news — and the turn's end then cards them as if it had never run.
func TestDetectionRollsBack(t *testing.T) {
	h := newHookHarness(t)
	h.send(bridge.SessionStart, map[string]any{"source": "startup"})
	h.send(bridge.UserPromptSubmit, map[string]any{"prompt": "build it"})
	for range 4 {
		h.post("Bash", map[string]any{"command": "npm run build"}, map[string]any{"stdout": strings.Repeat("built\n", 300), "stderr": ""})
	}
	sess := h.session()
	func() {
		defer func() { _ = recover() }()
		sess.event(func() {
			sess.runDetectors()
			panic("a failure after the detection")
		})
	}()
	var cards []string
	var d state.Detections
	sess.event(func() { cards, d = sess.st.Cards, sess.st.Detections })
	if len(cards) != 0 || d != (state.Detections{}) {
		t.Fatalf("after the rollback: cards %q, detections %+v", cards, d)
	}
	if stop := systemMessage(h.send(bridge.Stop, map[string]any{"last_assistant_message": "Built."})); !strings.Contains(stop, "1 new waster") {
		t.Fatalf("Stop after the rollback showed %q", stop)
	}
	// The registry write the rolled-back detection would have started is not waited for.
	flushed := make(chan struct{})
	go func() { sess.flush(); close(flushed) }()
	select {
	case <-flushed:
	case <-time.After(10 * time.Second):
		t.Fatal("flush waits for a registry write a rolled-back event never started")
	}
}
