//go:build linux

package main

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/internal/codexapi"
	"github.com/saverd/saverd/internal/codexcli"
	"github.com/saverd/saverd/internal/hookcmd"
)

// TestRealCodex drives the real Codex CLI with `saverd install codex`: a run that repeats a test command
// after each edit, `/saver check` (the judge forked through codex exec), `/saver fix 1`, and the
// instruction in the next request the scripted API receives.
func TestRealCodex(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real Codex CLI")
	}
	bin := codexcli.Binary(t)
	if !codexcli.Offline(t) {
		return
	}
	root := t.TempDir()
	proj := filepath.Join(root, "proj")
	state := filepath.Join(root, "state")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		"package.json": `{"name":"calc","version":"1.0.0","scripts":{"test":"node -e \"console.log('212 pass')\""}}`,
		"math.js":      "export function add(a,b){return a+b}\n"} {
		if err := os.WriteFile(filepath.Join(proj, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sock := filepath.Join(state, "run", "saverd.sock")
	t.Setenv("HOME", root)
	t.Setenv("SAVERD_SOCKET", sock)
	t.Setenv("XDG_STATE_HOME", state)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(root, "config"))
	t.Setenv("GORACE", "atexit_sleep_ms=0")
	t.Setenv("npm_config_update_notifier", "false")
	t.Cleanup(func() { stopDaemonAt(sock) })

	srv, err := codexapi.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	var judged int
	srv.Intercept(func(r codexapi.Request) (codexapi.Step, bool) {
		if !strings.Contains(string(r.Body), "You are auditing THIS session") {
			return codexapi.Step{}, false
		}
		judged++
		return codexapi.Step{Text: findingsFor(promptOf(r)), Usage: codexapi.Usage{Input: 30000, Cached: 28000, Output: 300}}, true
	})
	home := codexcli.Home(t, filepath.Join(root, "codex"), srv.URL, "")
	t.Setenv("CODEX_HOME", home)
	install := exec.Command(binPath, "install", "codex", "--scope", "user")
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("saverd install codex: %v\n%s", err, out)
	}
	run := func(args ...string) string {
		t.Helper()
		base := []string{"exec", "--json", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox"}
		r := codexcli.Run(t, bin, home, proj, "", append(base, args...)...)
		if r.Err != nil {
			t.Fatalf("codex %v: %v\n%s\n%s", args, r.Err, r.Stdout, r.Stderr)
		}
		return r.Stdout
	}
	exec := func(cmd string) codexapi.Step {
		return codexapi.Step{Calls: []codexapi.Call{{Name: "exec_command", Arguments: map[string]any{"cmd": cmd}}}, Usage: codexapi.Usage{Input: 2000, Cached: 1500, Output: 40}}
	}
	// Turn 1: the suite after every one-line change.
	srv.Add(exec("npm test"), exec("cat math.js"), exec("sed -i s/a+b/a+b+0/ math.js"), exec("npm test"), exec("cat math.js"),
		exec("sed -i s/+0// math.js"), exec("npm test"), exec("cat package.json"), codexapi.Step{Text: "Turn one done.", Usage: codexapi.Usage{Input: 2500, Output: 10}})
	out := run("-m", "gpt-5.5", "fix the math")
	m := regexp.MustCompile(`"type":"thread.started","thread_id":"([^"]+)"`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no thread.started in:\n%s", out)
	}
	id := m[1]

	// /saver check: blocked before any model request of the session; the daemon forks the judge.
	before := len(srv.Responses())
	run("-m", "gpt-5.5", "resume", id, "/saver check")
	if judged != 1 {
		t.Fatalf("the judge was asked %d times, want 1", judged)
	}
	if reqs := srv.Responses()[before:]; len(reqs) != 1 {
		for _, r := range reqs {
			p := promptOf(r)
			t.Logf("request: judge %v, tail %q", strings.Contains(p, "You are auditing"), p[max(0, len(p)-300):])
		}
		t.Fatalf("/saver check made %d model requests, want only the judge's", len(reqs))
	}
	// codex exec shows no block reason: the cards are what the daemon holds for the session.
	pane := paneOf(t, sock, id)
	if !strings.Contains(pane, "npm test suite after every edit") {
		t.Fatalf("after /saver check the pane is:\n%s", pane)
	}
	run("-m", "gpt-5.5", "resume", id, "/saver fix 1")
	if pane := paneOf(t, sock, id); !strings.Contains(pane, "fixed") {
		t.Fatalf("after /saver fix 1 the pane is:\n%s", pane)
	}

	// The next prompts carry the instruction into the model's requests once: SessionStart(resume) and
	// UserPromptSubmit both answer with additionalContext, and Codex keeps both in the history, so a
	// daemon that answered both sent it twice in the first request, and once more every prompt.
	const instruction = "run only the tests covering the files you changed"
	before = len(srv.Responses())
	srv.Add(codexapi.Step{Text: "On it.", Usage: codexapi.Usage{Input: 3000, Output: 5}})
	run("-m", "gpt-5.5", "resume", id, "next step")
	srv.Add(exec("cat math.js"), codexapi.Step{Text: "Read it.", Usage: codexapi.Usage{Input: 3100, Output: 5}})
	run("-m", "gpt-5.5", "resume", id, "and the next")
	reqs := srv.Responses()[before:]
	if len(reqs) != 3 {
		t.Fatalf("%d requests after the fix, want 3", len(reqs))
	}
	for i, r := range reqs {
		if n := strings.Count(promptOf(r), instruction); n != 1 {
			t.Errorf("request %d after the fix holds the instruction %d times, want once:\n%s", i+1, n, promptOf(r))
		}
	}
	// The daemon's record of the session says codex, so a commit with a Codex trailer links to it; the
	// --ephemeral judge is in the forks log by its thread id, and its spend is the session's judge spend,
	// priced here by hand: 30000 input of which 28000 cached, 300 output, at gpt-5.5's $5 / $0.50 / $30.
	rec := sessionRecord(t, filepath.Join(state, "saverd", "sessions.jsonl"), id, func(rec map[string]any) bool {
		calls, _ := rec["calls"].(float64)
		return calls >= 12
	})
	if rec["harness"] != "codex" {
		t.Fatalf("session record %v", rec)
	}
	const judgeUSD = (2000*5 + 28000*0.5 + 300*30) / 1e6
	j, _ := rec["judge"].(map[string]any)
	if cost, _ := j["cost"].(float64); j == nil || j["forks"] != 1.0 || math.Abs(cost-judgeUSD) > 1e-9 {
		t.Fatalf("the session record's judge spend is %v, want one fork of $%v", rec["judge"], judgeUSD)
	}
	forks, _ := agentlog.ReadForks(filepath.Join(state, "saverd", "forks.jsonl"))
	if len(forks) != 1 {
		t.Fatalf("forks log %+v, want the judge's one fork", forks)
	}
	for fid, f := range forks {
		if f.Parent != id || f.Harness != "codex" || f.Model != "gpt-5.5" || fid == id || f.Tokens == nil ||
			*f.Tokens != (agentlog.Tokens{Input: 2000, CacheRead: 28000, Output: 300}) {
			t.Fatalf("forks log line %+v", f)
		}
	}
	if pane := paneOf(t, sock, id); !strings.Contains(pane, "judge $0.03") {
		t.Fatalf("the pane's judge figure is not the fork's $%v:\n%s", judgeUSD, pane)
	}
}

// promptOf is the user text of a Responses request: the judge's prompt.
func promptOf(r codexapi.Request) string {
	var b strings.Builder
	for _, item := range r.Input() {
		content, _ := item["content"].([]any)
		for _, c := range content {
			if m, ok := c.(map[string]any); ok {
				if s, ok := m["text"].(string); ok {
					b.WriteString(s)
					b.WriteByte('\n')
				}
			}
		}
	}
	return b.String()
}

// paneOf asks the daemon for a session's pane as text, over its socket.
func paneOf(t *testing.T, sock, id string) string {
	t.Helper()
	params, _ := json.Marshal(map[string]any{"sessionId": id, "view": "pane", "width": 120})
	out, err := hookcmd.Call(sock, []byte(`{"jsonrpc":"2.0","id":1,"method":"view.text","params":`+string(params)+"}\n"), 5e9, "")
	if err != nil {
		t.Fatalf("view.text: %v", err)
	}
	return string(out)
}
