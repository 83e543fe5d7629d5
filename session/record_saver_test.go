package session

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/bridge"
	"github.com/saverd/saverd/internal/agentlogtest"
	"github.com/saverd/saverd/internal/testfake"
)

// TestSaverOfASettledFix: the record's habits are the judge's three, the fixed one credited with what
// the pane's Net row counts: the suite's 4,500 characters less the 6 of the run that replaced it, spared
// on the one main-loop turn after the fix settled, are 1,123.5 cache-read tokens, $0.000337 at $0.30 a
// million, which the session's saved figure equals; the judge's 100×3 + 100×15 + 10k×0.30 = $0.0048; the
// fix's note, sent with the run's result, written once at $3.75 a million and re-read on that turn at
// $0.30; and the net of the three.
func TestSaverOfASettledFix(t *testing.T) {
	h := fixedWithNote(t, "run only the auth tests")
	h.turnComplete(map[string]any{"at": 17_000})
	h.turnStart(18_000)
	h.tool(19_000, ev("Bash", "command", "bun test auth"), map[string]any{"text": "3 pass"})
	h.turnComplete(map[string]any{"at": 19_500, "usage": map[string]any{"model": "claude-test", "input_tokens": 1}})
	h.turnStart(20_000)
	h.turnComplete(map[string]any{"at": 20_500, "usage": map[string]any{"model": "claude-test", "input_tokens": 1}})
	h.srv.mu.Lock()
	sess := h.srv.sessions["s"]
	h.srv.mu.Unlock()
	var got *agentlog.Saver
	sess.event(func() { got = saverOf(sess.st) })
	if got == nil || len(got.Habits) != 3 || !got.Priced {
		t.Fatalf("saver %+v", got)
	}
	var fixed *agentlog.Habit
	for i := range got.Habits {
		if got.Habits[i].Decision != "open" {
			fixed = &got.Habits[i]
		}
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	if fixed == nil || fixed.Decision != "fix-with-note" || fixed.SavedChars != 4494 || fixed.SavedTokens != 1123.5 ||
		fixed.SavedUSD == nil || !near(*fixed.SavedUSD, 0.000337) {
		t.Fatalf("the fixed habit %+v", fixed)
	}
	note := float64(len("Instruction from the user (via ContextSaver): run only the auth tests")) / 4
	instr := math.Round((note*3.75+note*0.30)/1e6*1e6) / 1e6
	if !near(*got.SavedUSD, 0.000337) || !near(*got.JudgeUSD, 0.0048) || !near(*got.InstructionsUSD, instr) ||
		!near(*got.NetUSD, 0.000337-0.0048-instr) || got.SavedTokens != 1124 || got.InstructionsTokens != int64(math.Round(2*note)) {
		t.Fatalf("saved %v judge %v instructions %v net %v tokens %d", *got.SavedUSD, *got.JudgeUSD, *got.InstructionsUSD, *got.NetUSD, got.SavedTokens)
	}
}

// TestSessionEndRecordsTheHabits: the record SessionEnd appends to the sessions log carries the habits
// found and the decision taken, besides what the transcript holds.
func TestSessionEndRecordsTheHabits(t *testing.T) {
	log := filepath.Join(t.TempDir(), "sessions.jsonl")
	h := &hookHarness{t: t, host: &fakeHost{}, cwd: t.TempDir()}
	h.srv = New(Options{Synchronous: true, ForkAlways: true, Store: testfake.NewRegistry(), SessionsLog: log})
	h.srv.SetHost(h.host)
	transcript, err := agentlogtest.WriteClaude(t.TempDir(), agentlogtest.Session{ID: "cc-1", Cwd: h.cwd, Model: "claude-opus-5-5",
		Calls: agentlogtest.Every(time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC), time.Minute, 3, agentlogtest.Call{Input: 100, Output: 10})})
	if err != nil {
		t.Fatal(err)
	}
	h.send(bridge.SessionStart, map[string]any{"source": "startup", "transcript_path": transcript})
	h.twelve()
	h.host.queue(threeFindings())
	h.send(bridge.UserPromptSubmit, map[string]any{"prompt": "/saver check"})
	h.send(bridge.UserPromptSubmit, map[string]any{"prompt": "/saver fix 1"})
	h.send(bridge.SessionEnd, map[string]any{"reason": "other"})
	h.srv.Quiesce()
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	var rec agentlog.Record
	if err := json.Unmarshal(data, &rec); err != nil || strings.Count(string(data), "\n") != 1 {
		t.Fatalf("%v: %s", err, data)
	}
	if rec.SessionID != "cc-1" || rec.Calls != 3 || rec.Saver == nil || len(rec.Saver.Habits) != 3 {
		t.Fatalf("record %s", data)
	}
	decisions := map[string]int{}
	for _, hb := range rec.Saver.Habits {
		decisions[hb.Decision]++
		if hb.ID == "" || hb.Category == "" || hb.Why == "" || hb.Hits == 0 {
			t.Errorf("habit %+v lacks what it is", hb)
		}
	}
	if decisions["fix"] != 1 || decisions["open"] != 2 {
		t.Fatalf("decisions %v", decisions)
	}
}
