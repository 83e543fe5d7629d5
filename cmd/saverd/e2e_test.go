package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// habitAnswer is a habit judge's answer text with one execution finding on a Bash key, the shape the
// canned judges of these tests give.
type habitAnswer struct {
	focus, time, context string
	id, kind, key        string
	why, alternative     string
	confidence           float64
	evidence             []string
}

func (a habitAnswer) text() string {
	text, _ := json.Marshal(map[string]any{
		"focus": a.focus, "time": a.time, "context": a.context,
		"findings": []any{map[string]any{
			"id": a.id, "category": "execution", "kind": a.kind, "evidence": a.evidence,
			"signature": map[string]any{"tool": "Bash", "key": a.key}, "why": a.why, "alternative": a.alternative,
			"confidence": a.confidence, "est_tokens_per_turn": nil, "proposal": nil,
		}},
	})
	return string(text)
}

// judgeReply is a canned habit-judge answer citing rows r4 and r7 of the scenario's ledger.
func judgeReply(_ json.RawMessage) (any, string) {
	text := habitAnswer{focus: "fixing a.ts and b.ts", time: "three full suite runs", context: "suite output",
		id: "execution:full-suite", kind: "Claude keeps running the whole suite after every edit", key: "test:bun test",
		why:         "r1 was the baseline; the suite ran in full twice more after one-file edits",
		alternative: "run only the tests covering the files you changed", confidence: 0.9, evidence: []string{"r4", "r7"}}.text()
	return map[string]any{"text": text, "usage": map[string]any{"input_tokens": 1000, "output_tokens": 200, "cache_read_input_tokens": 0, "cache_creation_input_tokens": 500}}, ""
}

type call struct {
	tool string
	args map[string]any
	text string
}

// dozen is the scenario's twelve tool calls: the suite run after every edit.
func dozen(cwd string) []call {
	suite := call{"Bash", map[string]any{"command": "bun test"}, strings.Repeat("212 pass\n", 500)}
	read := func(f string) call {
		return call{"Read", map[string]any{"file_path": cwd + "/" + f}, strings.Repeat("x", 900)}
	}
	edit := func(f string) call {
		return call{"Edit", map[string]any{"file_path": cwd + "/" + f, "old_string": "a", "new_string": "b"}, "The file has been updated."}
	}
	return []call{suite, read("a.ts"), edit("a.ts"), suite, read("b.ts"), edit("b.ts"), suite,
		{"Grep", map[string]any{"pattern": "refresh", "path": cwd}, "src/a.ts:3"}, read("c.ts"), read("d.ts"), read("e.ts"), read("f.ts")}
}

func toolCall(c *client, session string, at int64, seq int, k call) []string {
	event := map[string]any{"tool": k.tool, "tool_use_id": "toolu_" + session + "_" + itoa(seq)}
	for key, v := range k.args {
		event[key] = v
	}
	var res struct{ Context []string }
	c.ok("tool.call", map[string]any{"sessionId": session, "at": at, "ms": 1500, "event": event, "result": map[string]any{"text": k.text}}, &res)
	return res.Context
}

func itoa(n int) string { return strings.TrimSpace(strings.Repeat(" ", 0) + jsonNum(n)) }

func jsonNum(n int) string { b, _ := json.Marshal(n); return string(b) }

func startSession(c *client, session, cwd string) {
	c.ok("initialize", map[string]any{"capabilities": map[string]any{"fork": true}}, nil)
	var res struct {
		Adopted int
		Armed   bool
		Command struct{ Name string }
	}
	c.ok("session.start", map[string]any{"sessionId": session, "cwd": cwd, "at": 1_000, "usage": map[string]any{"window": 200_000}}, &res)
	if res.Command.Name != "saver" || res.Armed {
		c.t.Fatalf("session.start = %+v", res)
	}
}

type paneView struct {
	Wasters []struct {
		PatternID string
		N         int
		Kind      string
	}
}

func checkScenario(t *testing.T, header bool) {
	cwd := t.TempDir()
	c := startDaemon(t, header, judgeReply, "--store", t.TempDir())
	startSession(c, "s1", cwd)
	c.ok("turn.start", map[string]any{"sessionId": "s1", "at": 2_000}, nil)
	for i, k := range dozen(cwd) {
		if ctx := toolCall(c, "s1", int64(3_000+i*1_000), i+1, k); len(ctx) != 0 {
			t.Fatalf("tool.call %d context = %q, want none", i+1, ctx)
		}
	}
	c.ok("turn.complete", map[string]any{"sessionId": "s1", "at": 20_000, "durationMs": 17_000, "answer": "done", "isAborted": false, "reason": "answer"}, nil)

	var text struct{ Text string }
	c.ok("command.run", map[string]any{"sessionId": "s1", "at": 21_000, "command": "saver", "args": "check"}, &text)
	if text.Text != "ContextSaver: checking this session for waste…" {
		t.Fatalf("/saver check = %q", text.Text)
	}
	c.waitFor("the check's toast", func() bool { return slices.Contains(c.toasts(), "ContextSaver: 1 new waster") })
	if c.forkCount() != 1 {
		t.Fatalf("forks = %d, want 1", c.forkCount())
	}
	var fork struct{ SessionID, Purpose, Prompt string }
	_ = json.Unmarshal(c.forks[0], &fork)
	if fork.SessionID != "s1" || fork.Purpose != "judge" || !strings.Contains(fork.Prompt, "r7 | Bash | test:bun test") {
		t.Fatalf("model.fork params: session %q purpose %q; prompt without row r7:\n%.2000s", fork.SessionID, fork.Purpose, fork.Prompt)
	}
	var pane paneView
	c.ok("view.pane", map[string]any{"sessionId": "s1"}, &pane)
	if len(pane.Wasters) != 1 || pane.Wasters[0].PatternID != "execution:full-suite" || pane.Wasters[0].N != 1 {
		t.Fatalf("view.pane wasters = %+v", pane.Wasters)
	}

	c.ok("command.run", map[string]any{"sessionId": "s1", "at": 22_000, "command": "saver", "args": "fix 1"}, &text)
	want := `ContextSaver: card 1 — "Claude keeps running the whole suite after every edit" · fixed`
	if text.Text != want {
		t.Fatalf("/saver fix 1 = %q, want %q", text.Text, want)
	}
	instruction := "Instruction from the user (via ContextSaver): Stop this behaviour for the rest of the session: Claude keeps running the whole suite after every edit. From now on: run only the tests covering the files you changed"
	var prompt struct{ Context []string }
	c.ok("prompt.submit", map[string]any{"sessionId": "s1", "at": 23_000, "text": "next step", "origin": map[string]any{"kind": "composer"}}, &prompt)
	if !slices.Contains(prompt.Context, instruction) {
		t.Fatalf("prompt.submit context = %q, want the instruction", prompt.Context)
	}
	var spawn struct{ Prompt, SpawnID string }
	c.ok("agent.spawn", map[string]any{"sessionId": "s1", "at": 23_500, "prompt": "review a.ts"}, &spawn)
	if !strings.HasPrefix(spawn.Prompt, "review a.ts\n\n") || !strings.Contains(spawn.Prompt, instruction) || spawn.SpawnID == "" {
		t.Fatalf("agent.spawn = %+v", spawn)
	}
	c.ok("agent.spawned", map[string]any{"sessionId": "s1", "spawnId": spawn.SpawnID, "agentId": "agent-7"}, nil)

	// The same command in a later turn: the instruction was ignored, so the card comes back.
	c.ok("turn.start", map[string]any{"sessionId": "s1", "at": 24_000}, nil)
	toolCall(c, "s1", 25_000, 13, dozen(cwd)[0])
	c.ok("view.pane", map[string]any{"sessionId": "s1"}, &pane)
	if len(pane.Wasters) != 1 || !strings.HasPrefix(pane.Wasters[0].Kind, "relapsed · ") {
		t.Fatalf("after an ignored fix, wasters = %+v", pane.Wasters)
	}
	var st struct {
		Patterns []struct {
			ID      string
			Ignored int
		}
	}
	c.ok("debug.state", map[string]any{"sessionId": "s1"}, &st)
	if len(st.Patterns) != 1 || st.Patterns[0].Ignored != 1 {
		t.Fatalf("patterns = %+v, want one ignored once", st.Patterns)
	}
	assertPure(t, c)
}

func TestScenarioNDJSON(t *testing.T) { checkScenario(t, false) }

func TestScenarioHeaderFraming(t *testing.T) { checkScenario(t, true) }

// assertPure: stdout carried nothing but frames.
func assertPure(t *testing.T, c *client) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.bad) > 0 {
		t.Fatalf("stdout carried non-frames: %q", c.bad)
	}
}

func TestErrorsKeepTheConnection(t *testing.T) {
	c := startDaemon(t, false, nil, "--store", t.TempDir(), "--test-hooks")
	startSession(c, "s1", t.TempDir())

	c.writeRaw([]byte(`{"jsonrpc":"2.0","id":99,"method":`))
	c.waitFor("the parse error", func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		for _, raw := range c.raw {
			if strings.Contains(string(raw), `"id":null`) && strings.Contains(string(raw), "-32700") {
				return true
			}
		}
		return false
	})

	cases := []struct {
		name, method string
		params       any
		code         int64
		mention      string
	}{
		{"unknown method", "no.such", map[string]any{}, -32601, "no.such"},
		{"bad params type", "tool.call", map[string]any{"sessionId": "s1", "ms": "fast", "event": map[string]any{"tool": "Bash", "tool_use_id": "t"}}, -32602, "ms"},
		{"missing tool", "tool.call", map[string]any{"sessionId": "s1", "ms": 1, "event": map[string]any{"tool_use_id": "t"}}, -32602, "event.tool"},
		{"bad reason", "turn.complete", map[string]any{"sessionId": "s1", "durationMs": 1, "answer": "", "isAborted": false, "reason": "sleepy"}, -32602, "reason"},
		{"unknown session", "tool.call", map[string]any{"sessionId": "nope", "ms": 1, "event": map[string]any{"tool": "Bash", "tool_use_id": "t"}, "result": map[string]any{}}, -32001, "session.start"},
		{"panic", "debug.panic", map[string]any{"sessionId": "s1", "at": 5_000}, -32603, "panicked"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := c.call(tc.method, tc.params)
			if f.Error == nil || f.Error.Code != tc.code || !strings.Contains(f.Error.Message, tc.mention) {
				t.Fatalf("%s = %+v, want code %d mentioning %q", tc.method, f.Error, tc.code, tc.mention)
			}
		})
	}
	// The panic's turn.start was rolled back, and the connection goes on.
	var st struct{ Turn int }
	c.ok("debug.state", map[string]any{"sessionId": "s1"}, &st)
	if st.Turn != 0 {
		t.Fatalf("turn after a panicked event = %d, want 0 (rolled back)", st.Turn)
	}
	c.notify("tool.call", map[string]any{"sessionId": "nope"})
	c.notify("debug.panic", map[string]any{"sessionId": "s1"})
	c.ok("turn.start", map[string]any{"sessionId": "s1", "at": 6_000}, nil)
	c.ok("debug.state", map[string]any{"sessionId": "s1"}, &st)
	if st.Turn != 1 {
		t.Fatalf("turn = %d, want 1", st.Turn)
	}
	assertPure(t, c)
}

// runTwelve fills a session past the row floor so a check has something to judge.
func runTwelve(c *client, session, cwd string) {
	c.ok("turn.start", map[string]any{"sessionId": session, "at": 2_000}, nil)
	for i, k := range dozen(cwd) {
		toolCall(c, session, int64(3_000+i*1_000), i+1, k)
	}
}

func judgeState(c *client, session string) (running bool, errText string) {
	var st struct {
		Judge struct {
			Running bool
			Error   *string
		}
	}
	c.ok("debug.state", map[string]any{"sessionId": session}, &st)
	if st.Judge.Error != nil {
		errText = *st.Judge.Error
	}
	return st.Judge.Running, errText
}

func TestForkFailuresEndTheRun(t *testing.T) {
	cases := []struct {
		name  string
		fork  forkFunc
		args  []string
		toast string
	}{
		{"host error", func(json.RawMessage) (any, string) { return nil, "model unavailable" }, nil, "ContextSaver: check failed — model unavailable"},
		{"null (cold snapshot)", func(json.RawMessage) (any, string) { return nil, "" }, nil, "ContextSaver: check failed — the host could not fork this session yet (model.fork answered null)"},
		{"not {text, usage}", func(json.RawMessage) (any, string) { return []any{"done"}, "" }, nil,
			"ContextSaver: check failed — the host answered model.fork with something that is not {text, usage}"},
		{"not JSON", func(json.RawMessage) (any, string) {
			return map[string]any{"text": "I think it is fine", "usage": map[string]any{}}, ""
		}, nil, "ContextSaver: check failed — the judge answered prose, not JSON"},
		{"timeout", func(json.RawMessage) (any, string) { time.Sleep(3 * time.Second); return nil, "" }, []string{"--fork-timeout", "300ms"}, "ContextSaver: check failed — the judge did not answer within 300ms (model.fork timed out)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cwd := t.TempDir()
			c := startDaemon(t, false, tc.fork, append([]string{"--store", t.TempDir()}, tc.args...)...)
			startSession(c, "s1", cwd)
			runTwelve(c, "s1", cwd)
			c.ok("command.run", map[string]any{"sessionId": "s1", "command": "saver", "args": "check"}, nil)
			c.waitFor("the failure toast", func() bool {
				for _, tt := range c.toasts() {
					if strings.HasPrefix(tt, tc.toast) {
						return true
					}
				}
				return false
			})
			if running, _ := judgeState(c, "s1"); running {
				t.Fatal("judge.running stayed true")
			}
			// A second check is answered, not refused as already checking.
			var text struct{ Text string }
			c.ok("command.run", map[string]any{"sessionId": "s1", "command": "saver", "args": "check"}, &text)
			if text.Text != "ContextSaver: checking this session for waste…" {
				t.Fatalf("second check = %q", text.Text)
			}
			assertPure(t, c)
		})
	}
}

func TestEOFDuringForkExitsPromptly(t *testing.T) {
	cwd := t.TempDir()
	block := make(chan struct{})
	defer close(block)
	c := startDaemon(t, false, func(json.RawMessage) (any, string) { <-block; return nil, "" }, "--store", t.TempDir())
	startSession(c, "s1", cwd)
	runTwelve(c, "s1", cwd)
	c.ok("command.run", map[string]any{"sessionId": "s1", "command": "saver", "args": "check"}, nil)
	c.waitFor("the fork", func() bool { return c.forkCount() == 1 })
	c.stdin.Close()
	waitExitWithin(t, c.cmd, "EOF", 1500*time.Millisecond)
}

func TestSIGTERMExitsZero(t *testing.T) {
	c := startDaemon(t, false, nil, "--store", t.TempDir())
	startSession(c, "s1", t.TempDir())
	start := time.Now()
	_ = c.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit after SIGTERM: %v", err)
		}
		if d := time.Since(start); d > time.Second {
			t.Fatalf("exit took %s", d)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("daemon still running 3s after SIGTERM")
	}
}

func TestTwoDaemonsShareOneStore(t *testing.T) {
	storeDir, cwd := t.TempDir(), t.TempDir()
	replyWith := func(id, key string) forkFunc {
		return func(json.RawMessage) (any, string) {
			reply := map[string]any{"findings": []any{map[string]any{
				"id": id, "category": "execution", "kind": "Claude keeps re-running " + key,
				"evidence": []string{"r1", "r4"}, "signature": map[string]any{"tool": "Bash", "key": key},
				"why": "ran twice with nothing changed", "alternative": "run it once per phase", "confidence": 0.8,
			}}}
			text, _ := json.Marshal(reply)
			return map[string]any{"text": string(text), "usage": map[string]any{}}, ""
		}
	}
	a := startDaemon(t, false, replyWith("execution:suite-a", "test:bun test"), "--store", storeDir)
	b := startDaemon(t, false, replyWith("execution:suite-b", "test:bun test"), "--store", storeDir)
	for _, c := range []*client{a, b} {
		startSession(c, "s", cwd)
		runTwelve(c, "s", cwd)
		c.ok("command.run", map[string]any{"sessionId": "s", "command": "saver", "args": "check"}, nil)
		c.waitFor("the check", func() bool { return slices.Contains(c.toasts(), "ContextSaver: 1 new waster") })
		c.ok("command.run", map[string]any{"sessionId": "s", "command": "saver", "args": "ignore 1"}, nil)
		c.ok("session.end", map[string]any{"sessionId": "s"}, nil)
	}
	c := startDaemon(t, false, nil, "--store", storeDir)
	startSession(c, "s2", cwd)
	var st struct {
		Patterns []struct {
			ID           string
			LastDecision *string
		}
	}
	c.ok("debug.state", map[string]any{"sessionId": "s2"}, &st)
	got := map[string]string{}
	for _, p := range st.Patterns {
		if p.LastDecision != nil {
			got[p.ID] = *p.LastDecision
		}
	}
	if got["execution:suite-a"] != "keep" || got["execution:suite-b"] != "keep" {
		t.Fatalf("stored patterns = %+v, want both kept", st.Patterns)
	}
}

func TestCorruptStoreStartsEmpty(t *testing.T) {
	storeDir, cwd := t.TempDir(), t.TempDir()
	c := startDaemon(t, false, judgeReply, "--store", storeDir)
	startSession(c, "s", cwd)
	runTwelve(c, "s", cwd)
	c.ok("command.run", map[string]any{"sessionId": "s", "command": "saver", "args": "check"}, nil)
	c.waitFor("the check", func() bool { return slices.Contains(c.toasts(), "ContextSaver: 1 new waster") })
	c.ok("command.run", map[string]any{"sessionId": "s", "command": "saver", "args": "ignore 1"}, nil)
	c.ok("session.end", map[string]any{"sessionId": "s"}, nil)
	files, _ := filepath.Glob(filepath.Join(storeDir, "*.json"))
	if len(files) != 1 {
		t.Fatalf("store files = %v, want the project's one", files)
	}
	if err := os.WriteFile(files[0], []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	d := startDaemon(t, false, nil, "--store", storeDir)
	startSession(d, "s", cwd)
	var st struct{ Patterns []any }
	d.ok("debug.state", map[string]any{"sessionId": "s"}, &st)
	if len(st.Patterns) != 0 {
		t.Fatalf("patterns from a corrupt store = %v", st.Patterns)
	}
	aside, _ := filepath.Glob(files[0] + ".corrupt-*")
	if len(aside) != 1 {
		t.Fatalf("corrupt file not moved aside: %v", aside)
	}
	d.ok("turn.start", map[string]any{"sessionId": "s"}, nil)
	assertPure(t, d)
}
