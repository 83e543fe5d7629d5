//go:build linux

package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/saverd/saverd/internal/claudeapi"
	"github.com/saverd/saverd/internal/hookcmd"
)

// Bounds on what a person waits for in the interactive UI while the daemon is stopped: a one-call turn
// (its prompt hook finds the daemon hung in hookcmd.StallWait, its Stop hook while the breaker is open)
// and a /saver line answered by the hook alone. Before, each waited over two minutes.
const (
	hungTurnBound  = 20 * time.Second
	hungSaverBound = 10 * time.Second
)

// TestClaudeCodeTUITurnUsageAndHungDaemon drives the real Claude Code's interactive UI: one-call turns
// and a three-call turn, each followed by `/saver debug` typed in the prompt box, after which the
// session's new tokens are what the scripted API billed the main loop (Claude Code writes a turn's last
// response after its Stop hook runs, and a one-call turn counted nothing); then, with the daemon stopped
// (SIGSTOP), a turn still ends and `/saver fix 1` says saverd did not answer, each within its bound; and
// once the daemon runs again, the turn it missed the answers of is counted too.
func TestClaudeCodeTUITurnUsageAndHungDaemon(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real Claude Code")
	}
	t.Parallel()
	l := &ledger{}
	srv, c := claudeapi.Offline(t, l.script)
	state := t.TempDir()
	e := &claudeTUI{t: t, srv: srv, c: c, bins: tuiBins(t), sock: filepath.Join(state, "run", "saverd.sock")}
	c.Env = append(c.Env, "SAVERD_SOCKET="+e.sock, "XDG_STATE_HOME="+state, "XDG_CONFIG_HOME="+filepath.Join(state, "config"),
		"GORACE=atexit_sleep_ms=0", "npm_config_update_notifier=false", "PATH="+pathWithoutSaverd())
	t.Cleanup(func() { stopDaemonAt(e.sock) })
	for name, body := range map[string]string{
		"package.json": `{"name":"calc","version":"1.0.0","scripts":{"test":"node -e \"console.log('212 pass')\""}}`,
		".saverd.json": `{"judgeBudget": 0, "detectors": false}`, // every request is the main loop's
	} {
		if err := os.WriteFile(filepath.Join(c.Dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e.saverd("install", "claude-code")
	e.start()
	n := 0
	step := func(r claudeapi.Reply) claudeapi.Reply {
		n++
		return r.WithUsage(claudeapi.Usage{Input: 100 + n, Output: 20 + 7*n, CacheRead: 5_000 + 300*n, CacheCreation: 400 + 11*n})
	}
	bash := claudeapi.ToolUse("Bash", map[string]string{"command": "npm test", "description": "run tests"})
	turn := func(prompt, done string, steps ...claudeapi.Reply) {
		t.Helper()
		l.set(claudeapi.Steps(append(steps, step(claudeapi.Text(done)))...))
		typeLine(e.tm, prompt)
		e.tm.WaitText(90*time.Second, done)
		e.tm.WaitFor("the turn's end", 30*time.Second, func(s string) bool { return inputBox(s) == "" && !strings.Contains(s, "esc to interrupt") })
	}
	session := func() string {
		t.Helper()
		found, _ := filepath.Glob(filepath.Join(c.Home, ".claude", "projects", "*", "*.jsonl"))
		if len(found) != 1 {
			t.Fatalf("transcripts %q, want the session's one", found)
		}
		return strings.TrimSuffix(filepath.Base(found[0]), ".jsonl")
	}
	check := func(name string) {
		t.Helper()
		e.saver(saverLine{line: "/saver debug", shows: "ContextSaver · turn"})
		m := debugUsage.FindStringSubmatch(debugOf(t, e.sock, session()))
		if m == nil {
			t.Fatalf("%s: /saver debug has no usage line", name)
		}
		var total, window int64
		_, _, calls := l.billed()
		for _, b := range calls {
			u := b.usage
			total += int64(u.Input + u.Output + u.CacheCreation)
			window = int64(u.Input + u.CacheRead + u.CacheCreation + u.Output)
		}
		if got, _ := strconv.ParseInt(m[2], 10, 64); got != total {
			t.Errorf("%s: the session counts %d new tokens, the API billed the main loop %d over %d calls", name, got, total, len(calls))
		}
		if m[1] != strconv.FormatInt(window, 10) {
			t.Errorf("%s: the window reads %s tokens, the newest call held %d", name, m[1], window)
		}
	}

	turn("hello", "One call.")
	check("after a one-call turn")
	turn("run the tests", "Ran them twice.", step(bash), step(bash))
	check("after a three-call turn")

	resume := stopDaemonProcess(t, e.sock)
	start := time.Now()
	turn("while it is stopped", "Answered all the same.")
	if took := time.Since(start); took > hungTurnBound {
		t.Fatalf("a one-call turn took %s with the daemon stopped; the bound is %s", took.Round(time.Millisecond), hungTurnBound)
	} else {
		t.Logf("a one-call turn with the daemon stopped: %s", took.Round(time.Millisecond))
	}
	start = time.Now()
	e.saver(saverLine{line: "/saver fix 1", shows: "saverd did not answer /saver fix 1"})
	if took := time.Since(start); took > hungSaverBound {
		t.Fatalf("/saver fix 1 took %s to be answered with the daemon stopped; the bound is %s", took.Round(time.Millisecond), hungSaverBound)
	} else {
		t.Logf("/saver fix 1 answered with the daemon stopped: %s", took.Round(time.Millisecond))
	}
	resume()
	check("after the daemon ran again")
	if _, err := os.Stat(hookcmd.BreakerFile(e.sock)); !os.IsNotExist(err) {
		t.Errorf("the daemon answers again and the breaker's mark stays (%v)", err)
	}
}
