package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/saverd/saverd/internal/claudeapi"
)

// ledgerTest is a LEDGER line of the judge prompt for a test run: its id and key.
var ledgerTest = regexp.MustCompile(`(?m)^(r\d+) \| Bash \| (test:[^|]+?) \| test \|`)

// phased answers the main loop with the steps of the phase the test is in, a subagent with its own, and
// the judge's fork with findings citing the test rows its prompt's LEDGER shows.
type phased struct {
	mu         sync.Mutex
	main       claudeapi.Script
	subagent   claudeapi.Script
	judged     []claudeapi.Request
	judgeDelay time.Duration // how long the judge takes to answer
	judgedAt   time.Time     // when it last answered
}

// judgeUsage is what each of the judge's forks reports it used.
var judgeUsage = claudeapi.Usage{Input: 20, Output: 300, CacheRead: 30000}

// judgeRuns is how many times the judge has answered.
func (p *phased) judgeRuns() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.judged)
}

func (p *phased) set(main claudeapi.Script) {
	p.mu.Lock()
	p.main = main
	p.mu.Unlock()
}

func (p *phased) script(req claudeapi.Request) claudeapi.Reply {
	p.mu.Lock()
	defer p.mu.Unlock()
	last := req.LastUserText()
	switch {
	case strings.Contains(last, "You are auditing THIS session"):
		p.judged = append(p.judged, req)
		if d := p.judgeDelay; d > 0 {
			p.mu.Unlock()
			time.Sleep(d)
			p.mu.Lock()
		}
		p.judgedAt = time.Now()
		return claudeapi.Text(findingsFor(last)).WithUsage(judgeUsage)
	case claudeapi.IsSubagent(req):
		return p.subagent(req)
	}
	return p.main(req)
}

// findingsFor is the judge's reply to prompt: the suite after every edit, citing the prompt's own rows.
func findingsFor(prompt string) string {
	var ids []string
	key := ""
	for _, m := range ledgerTest.FindAllStringSubmatch(prompt, -1) {
		ids = append(ids, m[1])
		key = m[2]
	}
	if len(ids) > 2 {
		ids = ids[len(ids)-2:]
	}
	out, _ := json.Marshal(map[string]any{"focus": "fixing the math", "time": "test runs", "context": "test output",
		"findings": []any{map[string]any{
			"id": "execution:full-suite", "category": "execution", "kind": "Claude keeps running the whole npm test suite after every edit",
			"evidence": ids, "signature": map[string]any{"tool": "Bash", "key": key},
			"why": "npm test ran after each one-line edit", "alternative": "run only the tests covering the files you changed",
			"confidence": 0.9, "est_tokens_per_turn": nil, "proposal": nil,
		}}})
	return string(out)
}

// TestRealClaudeCode drives the real Claude Code with saverd installed in a project: turns that repeat a
// test command and a read, `/saver check` (the judge forked with claude -p), `/saver fix 1`, a normal
// prompt and an Agent spawn; it asserts on what the scripted API received and what the person saw.
func TestRealClaudeCode(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real Claude Code")
	}
	p := &phased{subagent: claudeapi.Steps(claudeapi.Text("Explored: a.txt holds one line."))}
	srv, c, state := realProject(t, p.script)
	tools := []string{"--allowedTools", "Bash Read Edit Agent"}
	bash := func(cmd string) claudeapi.Reply {
		return claudeapi.ToolUse("Bash", map[string]string{"command": cmd, "description": "run tests"}).
			WithUsage(claudeapi.Usage{Input: 500, Output: 40, CacheRead: 8000, CacheCreation: 300})
	}
	read := func(f string) claudeapi.Reply {
		return claudeapi.ToolUse("Read", map[string]string{"file_path": filepath.Join(c.Dir, f)})
	}
	edit := func(from, to string) claudeapi.Reply {
		return claudeapi.ToolUse("Edit", map[string]any{"file_path": filepath.Join(c.Dir, "math.js"), "old_string": from, "new_string": to})
	}

	// Turn 1: the suite after every one-line edit.
	p.set(claudeapi.Steps(read("math.js"), bash("npm test"), edit("a+b", "a + b"), bash("npm test"), read("math.js"),
		edit("a + b", "(a) + b"), bash("npm test"), read("a.txt"), claudeapi.Text("Turn one done.")))
	first := c.Print(t, "fix the math", tools...)
	if first.IsError || first.Result != "Turn one done." {
		t.Fatalf("turn 1: %+v", first)
	}
	id := first.SessionID
	// Turn 2, resumed: once more.
	p.set(claudeapi.Steps(edit("(a) + b", "a + (b)"), bash("npm test"), read("math.js"), claudeapi.Text("Turn two done.")))
	if r := c.Print(t, "tidy it", append([]string{"--resume", id}, tools...)...); r.IsError {
		t.Fatalf("turn 2: %+v", r)
	}

	// /saver check: blocked before the model; the daemon forks the judge through claude -p.
	before := len(srv.Requests())
	p.set(claudeapi.Steps())
	check := c.Print(t, "/saver check", "--resume", id)
	if !strings.Contains(check.Result, "1 new waster") || !strings.Contains(check.Result, "npm test suite after every edit") {
		t.Fatalf("/saver check showed %q", check.Result)
	}
	if len(p.judged) != 1 {
		t.Fatalf("the judge was asked %d times, want 1", len(p.judged))
	}
	for _, r := range srv.Requests()[before:] {
		if !strings.Contains(r.LastUserText(), "You are auditing THIS session") {
			t.Fatalf("/saver check reached the model as a prompt: %.200q", r.LastUserText())
		}
	}
	if sys := p.judged[0].SystemText(); sys == "" {
		t.Fatal("the judge's fork carried no system prompt: it would not share the parent's cache")
	}

	t.Logf("/saver check showed:\n%s", check.Result)
	// /saver fix 1: blocked, the person reads the card fixed.
	fix := c.Print(t, "/saver fix 1", "--resume", id)
	if !strings.Contains(fix.Result, "· fixed") {
		t.Fatalf("/saver fix 1 showed %q", fix.Result)
	}
	// `/saver` alone shows the pane: the fix is among the decided.
	if pane := c.Print(t, "/saver", "--resume", id); !strings.Contains(pane.Result, "DECIDED (1)") {
		t.Fatalf("/saver showed %q", pane.Result)
	}

	// A normal prompt carries the instruction; so does the subagent the turn spawns.
	before = len(srv.Requests())
	agentIn := map[string]string{"description": "explore", "prompt": "Read a.txt and report", "subagent_type": "general-purpose"}
	p.set(claudeapi.Steps(claudeapi.ToolUse("Agent", agentIn), claudeapi.Text("Spawned."), claudeapi.Text("All done."), claudeapi.Text("Done.")))
	r := c.Print(t, "explore the repo", append([]string{"--resume", id}, tools...)...)
	if r.IsError {
		t.Fatalf("turn with an agent: %+v", r)
	}
	const instruction = "run only the tests covering the files you changed"
	var mainSeen, subSeen bool
	for _, req := range srv.Requests()[before:] {
		switch {
		case claudeapi.IsSubagent(req):
			if !subSeen && !strings.Contains(req.Text(), instruction) {
				t.Fatalf("the subagent's first request lacks the instruction:\n%.2000s", req.Text())
			}
			subSeen = true
		case !mainSeen:
			if !strings.Contains(req.Text(), instruction) {
				t.Fatalf("the next main request lacks the instruction:\n%.2000s", req.Text())
			}
			mainSeen = true
		}
	}
	if !mainSeen || !subSeen {
		t.Fatalf("main request seen %v, subagent request seen %v", mainSeen, subSeen)
	}
	// Each run's SessionEnd appended the session's record, read from its transcript, for impact.
	rec := sessionRecord(t, filepath.Join(state, "saverd", "sessions.jsonl"), id, func(rec map[string]any) bool {
		calls, _ := rec["calls"].(float64)
		return calls >= 14
	})
	if rec["harness"] != "claude-code" {
		t.Fatalf("session record %v", rec)
	}
}

// realProject sets up the real Claude Code offline against script, in a project with a package.json
// whose test script prints "212 pass", math.js and a.txt, and saverd installed at project scope with its
// socket, state and config under the returned state directory. The daemon a hook starts is stopped when
// the test ends.
func realProject(t *testing.T, script claudeapi.Script) (*claudeapi.Server, *claudeapi.Claude, string) {
	t.Helper()
	srv, c := claudeapi.Offline(t, script)
	state := t.TempDir()
	c.Env = append(c.Env, "SAVERD_SOCKET="+filepath.Join(state, "run", "saverd.sock"), "XDG_STATE_HOME="+state,
		"XDG_CONFIG_HOME="+filepath.Join(state, "config"), "GORACE=atexit_sleep_ms=0", "npm_config_update_notifier=false")
	t.Cleanup(func() { stopDaemonAt(filepath.Join(state, "run", "saverd.sock")) })
	for name, body := range map[string]string{
		"package.json": `{"name":"calc","version":"1.0.0","scripts":{"test":"node -e \"console.log('212 pass')\""}}`,
		"math.js":      "export function add(a,b){return a+b}\n", "a.txt": "one line\n"} {
		if err := os.WriteFile(filepath.Join(c.Dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	install := exec.Command(binPath, "install", "claude-code", "--scope", "project", "--dir", c.Dir)
	install.Env = c.Env
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("saverd install: %v\n%s", err, out)
	}
	return srv, c, state
}

// stopDaemonAt ends the daemon a hook started for a socket.
func stopDaemonAt(sock string) {
	(&hookEnv{sock: sock}).stopDaemon()
}
