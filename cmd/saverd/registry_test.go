package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/rs/zerolog"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/store"
)

// seedRegistry stores n undecided patterns execution:p-1 … execution:p-n for cwd.
func seedRegistry(t *testing.T, storeDir, cwd string, n int) {
	t.Helper()
	st, err := store.Open(storeDir, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	var patterns []state.StoredPattern
	for i := 1; i <= n; i++ {
		patterns = append(patterns, state.StoredPattern{
			ID: fmt.Sprintf("execution:p-%d", i), Category: "execution", Kind: fmt.Sprintf("Claude keeps rerunning suite %d", i),
			Why: "ran twice with nothing changed", Alternative: "run it once per phase", Confidence: 0.8,
		})
	}
	if err := st.Update(state.StoreKey(cwd), func(any) (any, error) { return patterns, nil }); err != nil {
		t.Fatal(err)
	}
}

// storedDecisions is the last decision of every stored pattern of cwd, read by a fresh daemon.
func storedDecisions(t *testing.T, storeDir, cwd string) map[string]string {
	t.Helper()
	c := startDaemon(t, false, nil, "--store", storeDir)
	startSession(c, "reader", cwd)
	var st struct {
		Patterns []struct {
			ID           string
			LastDecision *string
		}
	}
	c.ok("debug.state", map[string]any{"sessionId": "reader"}, &st)
	got := map[string]string{}
	for _, p := range st.Patterns {
		got[p.ID] = "undecided"
		if p.LastDecision != nil {
			got[p.ID] = *p.LastDecision
		}
	}
	return got
}

// TestSixteenSessionsDecidingAtOnceKeepAllSixteen: two daemons with eight sessions each on one project;
// every session loaded the same sixteen patterns and fixes its own, all at once, then ends. Each session
// used to write back its whole copy, stale for the fifteen it did not decide, so most decisions were
// erased by sessions that merely ended.
func TestSixteenSessionsDecidingAtOnceKeepAllSixteen(t *testing.T) {
	storeDir, cwd := t.TempDir(), t.TempDir()
	seedRegistry(t, storeDir, cwd, 16)
	daemons := []*client{startDaemon(t, false, nil, "--store", storeDir), startDaemon(t, false, nil, "--store", storeDir)}
	session := func(d, i int) string { return fmt.Sprintf("d%d-s%d", d, i) }
	for d, c := range daemons {
		c.ok("initialize", map[string]any{}, nil)
		for i := range 8 {
			c.ok("session.start", map[string]any{"sessionId": session(d, i), "cwd": cwd, "at": 1_000}, nil)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan string, 32)
	for d, c := range daemons {
		for i := range 8 {
			wg.Go(func() {
				pattern := fmt.Sprintf("execution:p-%d", d*8+i+1)
				for _, step := range []struct {
					method string
					params map[string]any
				}{
					{"ui.action", map[string]any{"sessionId": session(d, i), "action": "kill", "patternId": pattern}},
					{"session.end", map[string]any{"sessionId": session(d, i)}},
				} {
					if f := c.call(step.method, step.params); f.Error != nil {
						errs <- fmt.Sprintf("%s %s: %s", session(d, i), step.method, f.Error.Message)
					}
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	got := storedDecisions(t, storeDir, cwd)
	for i := 1; i <= 16; i++ {
		if id := fmt.Sprintf("execution:p-%d", i); got[id] != "kill" {
			t.Errorf("%s = %s, want kill (stored: %v)", id, got[id], got)
		}
	}
}

// TestDemoKeepsWritingRealDecisions: `/saver demo` used to stop every registry write for the rest of the
// session. Its sample patterns stay out of the registry (one ignored here); a real finding after it is
// stored with its decision.
func TestDemoKeepsWritingRealDecisions(t *testing.T) {
	storeDir, cwd := t.TempDir(), t.TempDir()
	real := func(json.RawMessage) (any, string) {
		reply := map[string]any{"findings": []any{map[string]any{
			"id": "execution:suite-real", "category": "execution", "kind": "Claude keeps re-running bun test",
			"evidence": []string{"r1", "r4"}, "signature": map[string]any{"tool": "Bash", "key": "test:bun test"},
			"why": "ran twice with nothing changed", "alternative": "run it once per phase", "confidence": 0.8,
		}}}
		text, _ := json.Marshal(reply)
		return map[string]any{"text": string(text), "usage": map[string]any{}}, ""
	}
	c := startDaemon(t, false, real, "--store", storeDir)
	c.ok("initialize", map[string]any{"capabilities": map[string]any{"fork": true}}, nil)
	c.ok("session.start", map[string]any{"sessionId": "s", "cwd": cwd, "at": 1_000, "debug": true, "usage": map[string]any{"window": 200_000}}, nil)
	var text struct{ Text string }
	c.ok("command.run", map[string]any{"sessionId": "s", "command": "saver", "args": "demo"}, &text)
	if text.Text != "ContextSaver: demo wasters loaded" {
		t.Fatalf("demo = %q", text.Text)
	}
	c.ok("ui.action", map[string]any{"sessionId": "s", "action": "keep", "patternId": "reading:api-logs"}, nil)
	runTwelve(c, "s", cwd)
	c.ok("command.run", map[string]any{"sessionId": "s", "command": "saver", "args": "check"}, nil)
	c.waitFor("the check", func() bool { return slices.Contains(c.toasts(), "ContextSaver: 1 new waster") })
	c.ok("ui.action", map[string]any{"sessionId": "s", "action": "kill", "patternId": "execution:suite-real"}, nil)
	c.ok("session.end", map[string]any{"sessionId": "s"}, nil)
	got := storedDecisions(t, storeDir, cwd)
	if b, _ := json.Marshal(got); string(b) != `{"execution:suite-real":"kill"}` {
		t.Fatalf("stored %s, want only the real finding, fixed", b)
	}
}
