package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/saverd/saverd/internal/claudeapi"
)

// debugUsage is what `/saver debug` says of the window after the newest call and of the session's new
// (not cache-read) tokens.
var debugUsage = regexp.MustCompile(`usage \S+% · (\d+|-) / \d+ tokens .* · session (\d+) new`)

// TestRealTurnUsageCountsEveryCall: Claude Code 2.1.328 writes a turn's last response after its Stop hook
// runs. Through the real Claude Code, turns of one call and of several, then a daemon restart and one
// more turn, and after each `/saver debug` typed as the next prompt: the session's new tokens are what the
// scripted API billed the main loop (input, output and cache writes, summed here from the replies it
// sent; after the restart, the calls before it as the rejoined session counts them too), and the window is
// what the newest call held. Before, a one-call turn counted nothing (the session read 19,649 new where the
// API billed 25,788), and after a restart the next turn's usage was 0.
func TestRealTurnUsageCountsEveryCall(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real Claude Code")
	}
	l := &ledger{}
	_, c, state := realProject(t, l.script)
	// No judge, no detectors: every call the API answers is the main loop's.
	if err := os.WriteFile(filepath.Join(c.Dir, ".saverd.json"), []byte(`{"judgeBudget": 0, "detectors": false}`), 0o644); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(state, "run", "saverd.sock")
	n := 0
	// Every call a usage of its own, so a call counted twice or left out shows in the sum.
	step := func(r claudeapi.Reply) claudeapi.Reply {
		n++
		return r.WithUsage(claudeapi.Usage{Input: 100 + n, Output: 20 + 7*n, CacheRead: 5_000 + 300*n, CacheCreation: 400 + 11*n})
	}
	tools := []string{"--allowedTools", "Bash"}
	id := ""
	run := func(prompt string, steps ...claudeapi.Reply) claudeapi.Result {
		t.Helper()
		l.set(claudeapi.Steps(steps...))
		args := tools
		if id != "" {
			args = append([]string{"--resume", id}, tools...)
		}
		r := c.Print(t, prompt, args...)
		if r.IsError {
			t.Fatalf("%q: %+v", prompt, r)
		}
		id = r.SessionID
		return r
	}
	// billedMain is the main loop's new tokens, and the window the newest call held.
	billedMain := func() (total, window int64) {
		_, _, calls := l.billed()
		for _, b := range calls {
			u := b.usage
			total += int64(u.Input + u.Output + u.CacheCreation)
			window = int64(u.Input + u.CacheRead + u.CacheCreation + u.Output)
		}
		return total, window
	}
	check := func(name string) {
		t.Helper()
		debug := run("/saver debug").Result
		m := debugUsage.FindStringSubmatch(debug)
		if m == nil {
			t.Fatalf("%s: /saver debug has no usage line:\n%s", name, debug)
		}
		total, window := billedMain()
		if got, _ := strconv.ParseInt(m[2], 10, 64); got != total {
			t.Errorf("%s: the session counts %d new tokens, the API billed the main loop %d", name, got, total)
		}
		if m[1] != strconv.FormatInt(window, 10) {
			t.Errorf("%s: the window reads %s tokens, the newest call held %d", name, m[1], window)
		}
	}
	bash := claudeapi.ToolUse("Bash", map[string]string{"command": "npm test", "description": "run tests"})

	run("hello", step(claudeapi.Text("One call.")))
	check("after a one-call turn")
	run("run the tests", step(bash), step(bash), step(claudeapi.Text("Two runs.")))
	check("after a three-call turn")
	run("and again", step(claudeapi.Text("Still one call.")))
	check("after another one-call turn")

	stopDaemonAt(sock) // the next hook starts another, which joins the session from its transcript
	run("after the restart", step(bash), step(claudeapi.Text("Ran once.")))
	check("after a daemon restart")
}
