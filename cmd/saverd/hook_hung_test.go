package main

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/saverd/saverd/internal/hookcmd"
)

// Bounds on what a hook costs the agent when the daemon is up but does not answer (stopped with
// SIGSTOP): a hook gives up once the daemon has not read its request in hookcmd.StallWait (1 s), and
// while the breaker is open after hookcmd.BreakerWait (0.2 s). The bounds leave room for a -race binary
// starting on a loaded machine; before the breaker a prompt waited 125 s here and a tool call 8 s.
const (
	hungHookBound    = 3 * time.Second
	breakerHookBound = time.Second
)

// TestHungDaemonNeverHoldsTheAgent: with the daemon stopped, an ordinary prompt, a tool call and a
// `/saver check` each return within hungHookBound, a /saver command saying saverd did not read it; after
// one found it hung, the next hooks return within breakerHookBound. What the hooks sent the stopped daemon
// waits in its socket: once it runs again it records those tool calls but runs neither saverd command the
// person was told it did not answer, and its first answer closes the breaker.
func TestHungDaemonNeverHoldsTheAgent(t *testing.T) {
	e := newHookEnv(t)
	e.hook("SessionStart", map[string]any{"source": "startup"})
	resume := stopDaemonProcess(t, e.sock)
	breaker := hookcmd.BreakerFile(e.sock)
	timed := func(bound time.Duration, event string, fields map[string]any) string {
		t.Helper()
		start := time.Now()
		out := e.hook(event, fields)
		took := time.Since(start)
		t.Logf("%s %v: %s", event, fields["prompt"], took.Round(time.Millisecond))
		if took > bound {
			t.Fatalf("%s %v held the agent %s with the daemon stopped; the bound is %s", event, fields, took.Round(time.Millisecond), bound)
		}
		return out
	}
	tool := func(id string) map[string]any {
		return map[string]any{"tool_name": "Bash", "tool_use_id": id, "tool_input": map[string]any{"command": "npm test"},
			"tool_response": map[string]any{"stdout": "212 pass"}, "duration_ms": 900}
	}
	reason := func(out string) string {
		r, _ := e.answer(out)["reason"].(string)
		return r
	}

	if out := timed(hungHookBound, "UserPromptSubmit", map[string]any{"prompt": "fix the math"}); out != "" {
		t.Fatalf("an ordinary prompt the daemon did not answer printed %q: it must go on to the model as typed", out)
	}
	if _, err := os.Stat(breaker); err != nil {
		t.Fatalf("the hook found the daemon hung and left no mark: %v", err)
	}
	timed(breakerHookBound, "PostToolUse", tool("toolu_hung_1"))
	if r := reason(timed(breakerHookBound, "UserPromptSubmit", map[string]any{"prompt": "/saver fix 1"})); !strings.Contains(r, "saverd did not answer /saver fix 1") || !strings.Contains(r, "did not read") {
		t.Fatalf("/saver fix 1 to a stopped daemon: %q", r)
	}
	// Without the mark (its BreakerOpen passed), each hook finds the daemon hung again within the bound.
	os.Remove(breaker)
	timed(hungHookBound, "PostToolUse", tool("toolu_hung_2"))
	os.Remove(breaker)
	if r := reason(timed(hungHookBound, "UserPromptSubmit", map[string]any{"prompt": "/saver check"})); !strings.Contains(r, "saverd did not answer /saver check") {
		t.Fatalf("/saver check to a stopped daemon: %q", r)
	}

	resume()
	var debug string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if debug = reason(e.hook("UserPromptSubmit", map[string]any{"prompt": "/saver debug"})); strings.Contains(debug, "rows 2 ") {
			break
		}
	}
	if !strings.Contains(debug, "rows 2 ") {
		t.Fatalf("the two tool calls sent while the daemon was stopped are not both recorded once it runs again:\n%s", debug)
	}
	if _, err := os.Stat(breaker); !os.IsNotExist(err) {
		t.Fatalf("the daemon answers again and the breaker's mark stays (%v)", err)
	}
	// The person was told /saver fix 1 and /saver check did not go through: read late, they do not run.
	log, _ := os.ReadFile(filepath.Join(e.dir, "state", "saverd", "daemon.log"))
	if n := strings.Count(string(log), "a saverd command read after its hook stopped waiting; not run"); n != 2 {
		t.Fatalf("the daemon's log says %d late saverd commands were not run, want 2:\n%s", n, log)
	}
}

// stopDaemonProcess stops the daemon serving sock (SIGSTOP), as a person's `kill -STOP` or a wedged process
// would leave it: up, its socket taking connections, reading none. resume lets it run again; the test's end
// does too, before the daemon is told to end (a stopped process takes no SIGTERM).
func stopDaemonProcess(t *testing.T, sock string) (resume func()) {
	t.Helper()
	pid := (&hookEnv{sock: sock}).daemonPID()
	if pid == 0 {
		t.Fatal("no daemon runs")
	}
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	resume = func() { once.Do(func() { _ = syscall.Kill(pid, syscall.SIGCONT) }) }
	t.Cleanup(resume)
	return resume
}
