package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/saverd/saverd/rpc"
	"github.com/saverd/saverd/state"
)

// adoptedMessages is a late-joined transcript: one typed prompt, then n settled tool uses.
func adoptedMessages(n int) []any {
	var uses []any
	for i := 0; i < n; i++ {
		uses = append(uses, map[string]any{
			"tool": "Read", "tool_use_id": fmt.Sprintf("a%d", i), "input": map[string]any{"file_path": fmt.Sprintf("/p/f%d.ts", i%3)}, "text": "export const x = 1",
		})
	}
	return []any{
		map[string]any{"role": "user", "text": "make the login page faster"},
		map[string]any{"role": "assistant", "text": "", "toolUses": uses},
	}
}

// TestArmedLoadCheck: a late-joined transcript past the row floor arms a check and fires it at once; a
// cold answer keeps it armed, says so once, and the next prompt retries (index.ts session.start,
// armedCheck, failedToast).
func TestArmedLoadCheck(t *testing.T) {
	t.Run("under the floor", func(t *testing.T) {
		h := newHarness(t, map[string]any{"sessionId": "s", "messages": adoptedMessages(7), "debug": true})
		st := h.st()
		if len(st.Rows) != 7 || st.PendingCheck || len(h.host.forks) != 0 {
			t.Fatalf("%d rows, armed %v, %d forks", len(st.Rows), st.PendingCheck, len(h.host.forks))
		}
		if logs := h.host.texts(NotifyLog); !slices.Contains(logs, "ContextSaver adopted 7 rows from the transcript · under the 8-row floor, nothing to check") {
			t.Fatalf("logs = %q", logs)
		}
	})

	h := newHarness(t, map[string]any{"messages": adoptedMessages(8), "debug": true})
	var started SessionStartResult
	// The harness's session.start answer is gone; start a second session to read the result itself.
	h.callInto("session.start", map[string]any{"sessionId": "s2", "cwd": h.cwd, "at": 1_000, "usage": map[string]any{"window": 200_000}, "messages": adoptedMessages(8)}, &started)
	if started.Adopted != 8 || !started.Armed {
		t.Fatalf("session.start = %+v, want 8 adopted and armed", started)
	}
	if n := len(h.host.forksOf("judge")); n != 2 {
		t.Fatalf("judge forks at load = %d, want one per session", n)
	}
	st := h.st()
	if !st.PendingCheck || st.Judge.Running {
		t.Fatalf("after a cold load check: armed %v, running %v", st.PendingCheck, st.Judge.Running)
	}
	wantLogs := []string{
		"ContextSaver adopted 8 rows from the transcript · checking them now",
		"ContextSaver fired a check over 8 adopted rows · armed, so a cold answer retries",
	}
	logs := h.host.texts(NotifyLog)
	if len(logs) < 2 || logs[0] != wantLogs[0] || logs[1] != wantLogs[1] {
		t.Fatalf("logs = %q", logs)
	}
	cold := "ContextSaver: could not check yet — the host could not fork this session yet (model.fork answered null)"
	toasts := h.host.texts(NotifyToast)
	if len(toasts) != 2 || toasts[0] != cold || toasts[1] != cold { // once per session
		t.Fatalf("toasts = %q", toasts)
	}

	// The next prompt retries, cold again: nothing more is said.
	h.host.reset()
	h.prompt(5_000, "go on", "composer")
	if n := len(h.host.forksOf("judge")); n != 3 {
		t.Fatalf("judge forks after a prompt = %d, want 3", n)
	}
	if got := h.host.texts(NotifyToast); len(got) != 0 {
		t.Fatalf("a retry spoke again: %q", got)
	}
	// A plugin's prompt is no opportunity at all.
	h.prompt(5_500, "go on", "plugin")
	if n := len(h.host.forksOf("judge")); n != 3 {
		t.Fatalf("judge forks after a plugin prompt = %d, want 3", n)
	}

	// A warm answer ends the arming and answers out loud, as a check the person asked for.
	h.host.queue(reply(finding("reading:reread", rereadKind, rereadAlt, []string{"r1", "r4"}, nil, nil)))
	h.prompt(6_000, "and now?", "composer")
	st = h.st()
	if st.PendingCheck || len(st.Cards) != 1 {
		t.Fatalf("after a warm load check: armed %v, cards %v", st.PendingCheck, st.Cards)
	}
	if got := h.host.texts(NotifyToast); len(got) != 1 || got[0] != "ContextSaver: 1 new waster" {
		t.Fatalf("toasts = %q", got)
	}
	if !slices.Contains(h.host.texts(NotifyLog), "ContextSaver judge: 1 returned · 1 kept · 0 dropped · from load") {
		t.Fatalf("logs = %q", h.host.texts(NotifyLog))
	}
}

// TestPanicRollsBack: a panic inside an event answers -32603 and leaves the session exactly as it was,
// also across the journal's snapshot boundary.
func TestPanicRollsBack(t *testing.T) {
	h := newHarnessWith(t, Options{Synchronous: true, TestHooks: true}, true, nil)
	h.cards(threeFindings())
	h.saver("fix 1 run the a.ts tests")
	panicNow := func(i int) {
		t.Helper()
		before := h.stateJSON()
		_, err := h.callRecover("debug.panic", map[string]any{"sessionId": "s", "at": 90_000 + i})
		if err == nil {
			t.Fatalf("event %d: debug.panic did not fail", i)
		}
		if after := h.stateJSON(); after != before {
			t.Fatalf("event %d: the state changed across a panic:\nbefore %s\nafter  %s", i, before, after)
		}
	}
	panicNow(0)
	for i := 1; i <= 2*snapshotEvery+20; i++ {
		h.tool(int64(60_000+i), ev("Read", "file_path", fmt.Sprintf("%s/g%d.ts", h.cwd, i%40)), nil)
		if i%61 == 0 || (i >= snapshotEvery-3 && i <= snapshotEvery+3) {
			panicNow(i)
		}
	}
	panicNow(-1)
	// The session goes on after a panic.
	h.turnStart(200_000)
	if st := h.st(); st.Turn != 2 {
		t.Fatalf("turn = %d after the panics, want 2", st.Turn)
	}
}

// TestDebugPanicNeedsTestHooks: without TestHooks the API's DebugPanic refuses and changes nothing, so a
// caller of the session API that no adapter's method table guards cannot crash an event.
func TestDebugPanicNeedsTestHooks(t *testing.T) {
	h := newHarness(t, nil)
	before := h.stateJSON()
	err := h.srv.DebugPanic(SessionParams{Hook{SessionID: "s"}})
	var serr *Error
	if !errors.As(err, &serr) || serr.Kind != Failed || !strings.Contains(serr.Message, "test hooks") {
		t.Fatalf("DebugPanic without TestHooks: %v, want a Failed error naming the test hooks", err)
	}
	if after := h.stateJSON(); after != before {
		t.Fatalf("a refused DebugPanic changed the state:\nbefore %s\nafter  %s", before, after)
	}
}

// callRecover calls a method that may panic, as rpc's recover would answer it.
func (h *testHarness) callRecover(method string, params any) (res json.RawMessage, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = rpc.Errorf(rpc.CodeInternalError, "internal error: %v", r)
		}
	}()
	return h.callErr(method, params)
}

func TestUnknownSession(t *testing.T) {
	h := newHarness(t, nil)
	for _, method := range []string{"turn.start", "turn.complete", "tool.call", "prompt.submit", "command.run", "ui.action", "view.band", "view.pane", "debug.state", "session.end", "agent.spawn"} {
		_, err := h.callErr(method, map[string]any{"sessionId": "nobody"})
		var rerr *rpc.Error
		if !errors.As(err, &rerr) || rerr.Code != CodeUnknownSession {
			t.Errorf("%s on an unknown session: %v, want code %d", method, err, CodeUnknownSession)
		}
	}
}

// TestSessionEnd writes the registry before it answers and forgets the session.
func TestSessionEnd(t *testing.T) {
	h := newHarness(t, nil)
	h.cards(threeFindings())
	h.saver("ignore 2")
	h.reg.Values = map[string]any{} // only session.end's own write counts
	h.call("session.end", map[string]any{"sessionId": "s"})
	stored := state.ParseRegistry(h.reg.Values[state.StoreKey(h.cwd)])
	if len(stored) != 3 {
		t.Fatalf("registry after session.end = %+v, want the three patterns", stored)
	}
	for _, sp := range stored {
		if (sp.LastDecision != nil) != (sp.ID == "reading:grep-again") {
			t.Fatalf("stored %s decision %v", sp.ID, sp.LastDecision)
		}
	}
	var rerr *rpc.Error
	if _, err := h.callErr("debug.state", map[string]any{"sessionId": "s"}); !errors.As(err, &rerr) || rerr.Code != CodeUnknownSession {
		t.Fatalf("debug.state after session.end: %v", err)
	}
	// A new session of the same project starts from what was written.
	h.call("session.start", map[string]any{"sessionId": "s", "cwd": h.cwd, "at": 1_000, "usage": map[string]any{"window": 200_000}})
	if st := h.st(); len(st.Patterns) != 3 || len(st.Cards) != 0 {
		t.Fatalf("restarted: %d patterns, cards %v", len(st.Patterns), st.Cards)
	}
}

// TestStaleRegistryWriteSkipped: a background registry write that runs after a newer one (session.end's
// flush) never puts the older registry back.
func TestStaleRegistryWriteSkipped(t *testing.T) {
	h := newHarness(t, nil)
	h.cards(threeFindings())
	sess, _ := h.srv.Session("s")
	var older func() error
	sess.event(func() { older = sess.registryWrite() })
	h.saver("ignore 1")
	h.call("session.end", map[string]any{"sessionId": "s"})
	_ = older() // the write taken before the decision lands last
	kept := false
	for _, sp := range state.ParseRegistry(h.reg.Values[state.StoreKey(h.cwd)]) {
		kept = kept || sp.ID == "execution:full-suite" && sp.LastDecision != nil && *sp.LastDecision == state.Ignore
	}
	if !kept {
		t.Fatalf("a stale write undid the decision: %+v", h.reg.Values)
	}
}

// TestCheckAskedAsTheRunAnswers: a check asked the moment a run answered (here: from the host's own
// handling of the run's toast) starts a run of its own, never `already checking` with no answer to come.
func TestCheckAskedAsTheRunAnswers(t *testing.T) {
	h := newHarness(t, nil)
	h.twelve()
	var replies []string
	h.host.onNotify = func(method string, params any) {
		if method == NotifyToast && params.(Toast).Text == "ContextSaver: 1 new waster" {
			h.host.onNotify = nil
			replies = append(replies, h.saver("check"))
		}
	}
	h.host.queue(reply(suiteFinding(nil)))
	h.saver("check")
	if len(replies) != 1 || replies[0] != checkingText {
		t.Fatalf("the check asked as the run answered = %q, want %q", replies, checkingText)
	}
	if got := h.host.texts(NotifyToast); len(got) != 2 || got[1] != "ContextSaver: check failed — the host could not fork this session yet (model.fork answered null)" {
		t.Fatalf("toasts = %q: the second check was never answered", got)
	}
	if n := len(h.host.forksOf("judge")); n != 2 {
		t.Fatalf("judge forks = %d, want 2", n)
	}
}

// TestJudgePanicEndsTheRun: a run whose host panics still ends: not running, its flags clear, and the
// person who asked is told.
func TestJudgePanicEndsTheRun(t *testing.T) {
	h := newHarness(t, nil)
	h.twelve()
	sess, _ := h.srv.Session("s")
	sess.event(func() {
		sess.observe(state.JudgeClaim{})
		sess.observe(state.JudgeAsked{})
		sess.dispatch(state.JudgeStart{Now: 30_000, Seq: sess.st.Seq})
	})
	h.host.reset()
	func() {
		defer func() { _ = recover() }()
		sess.judgeOnce(panicHost{}, reasonCheck, 30_000)
	}()
	st := h.st()
	var forking, asked bool // beyond debug.state's shape: read under the lock
	sess.event(func() { forking, asked = sess.st.Judge.InFlight, sess.st.Judge.Asked })
	if st.Judge.Running || forking || asked || st.Judge.Error == nil || !strings.HasPrefix(*st.Judge.Error, "internal error") {
		t.Fatalf("after a panicking run: running %v, forking %v, asked %v, error %v", st.Judge.Running, forking, asked, st.Judge.Error)
	}
	if got := h.host.texts(NotifyToast); len(got) != 1 || got[0] != "ContextSaver: check failed — internal error" {
		t.Fatalf("toasts = %q", got)
	}
}

// panicHost's fork panics, as a broken host binding might.
type panicHost struct{}

func (panicHost) Fork(context.Context, ForkRequest) (*ForkResult, error) { panic("host broke") }
func (panicHost) Notify(string, any)                                     {}

// TestRollbackCoversTheSessionsFlags: what a session remembers beside ContextSaver's state (a claimed run,
// an ask of it, an open prompt rewrite, a probe, the load check's toast) lives in the state, so an event
// that panics takes its changes to them back with everything else.
func TestRollbackCoversTheSessionsFlags(t *testing.T) {
	h := newHarness(t, nil)
	h.twelve()
	sess, _ := h.srv.Session("s")
	sess.event(func() { sess.observe(state.RewriteOpened{SpawnID: "spawn-kept"}) })
	func() {
		defer func() { _ = recover() }()
		sess.event(func() {
			sess.observe(state.JudgeClaim{})
			sess.observe(state.JudgeAsked{})
			sess.observe(state.JudgeClaim{Kind: state.ProcessJudge})
			sess.observe(state.RewriteOpened{SpawnID: "spawn-lost"})
			sess.observe(state.LoopProbed{AgentID: "agent-1"})
			sess.observe(state.LoadCheckSpoke{})
			panic("the event fails")
		})
	}()
	sess.event(func() {
		st := sess.st
		if st.Judge.InFlight || st.Judge.Asked || st.Process.InFlight || st.LoadCheckSpoke || st.Probed["agent-1"] ||
			st.Rewrites["spawn-lost"] || !st.Rewrites["spawn-kept"] {
			t.Errorf("after the rollback: judge %v/%v, process %v, spoke %v, probed %v, rewrites %v",
				st.Judge.InFlight, st.Judge.Asked, st.Process.InFlight, st.LoadCheckSpoke, st.Probed, st.Rewrites)
		}
	})
}

// failingRegistry reads as an empty registry and refuses every write.
type failingRegistry struct{}

func (failingRegistry) Get(string) (any, error) { return nil, nil }
func (failingRegistry) Update(string, func(any) (any, error)) error {
	return errors.New("write /st/a45bfb7ab8f19520.json: permission denied")
}

// TestDecisionNotSavedSaysSo: a decision whose registry write fails still holds for the session, and the
// person is told it was not saved (it used to read "fixed" and be gone after a restart).
func TestDecisionNotSavedSaysSo(t *testing.T) {
	h := newHarnessWith(t, Options{Synchronous: true, Store: failingRegistry{}}, true, nil)
	h.cards(threeFindings())
	h.host.reset()
	h.saver("fix 1")
	toasts := strings.Join(h.host.texts(NotifyToast), "\n")
	if !strings.Contains(toasts, "ContextSaver: not saved, so it holds for this session only — write /st/a45bfb7ab8f19520.json: permission denied") {
		t.Fatalf("toasts:\n%s", toasts)
	}
	if st := h.st(); len(st.Standing) == 0 {
		t.Fatalf("the decision did not hold for the session: %+v", st.Standing)
	}
}

func TestNoInvalidateAfterSessionEnd(t *testing.T) {
	h := newHarnessWith(t, Options{}, true, nil)
	h.tool(2_000, ev("Read", "file_path", "/a"), nil) // schedules a coalesced ui.invalidate
	h.call("session.end", map[string]any{"sessionId": "s"})
	h.host.reset()
	time.Sleep(3 * invalidateEvery)
	if n := h.host.count(NotifyInvalidate); n != 0 {
		t.Fatalf("%d ui.invalidate after session.end", n)
	}
}
