//go:build linux

package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/internal/chatapi"
	"github.com/saverd/saverd/internal/claudeapi"
	"github.com/saverd/saverd/internal/clientrun"
)

// What the real-client tests of the harness packages' logs share: a project to work in, saverd's own
// answer (sessions and audit as JSON), and the sums of what the scripted server answered.

// agentProject makes a git repository with a two-line notes.txt for a client to work in.
func agentProject(t *testing.T, dir string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("This is a test file.\nSecond line.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "."},
		{"-c", "user.email=dev@example.com", "-c", "user.name=dev", "commit", "-qm", "init"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

// chatRun is a client set up offline against a scripted OpenAI-compatible API: the namespace it runs
// in, the server, the client, its HOME and its project.
type chatRun struct {
	ns     *claudeapi.Netns
	srv    *chatapi.Server
	client clientrun.Client
	home   string
	proj   string
}

// offlineChat starts the scripted API inside a network namespace of the test's own and sets the client
// bin up against it (setup: the client's test support) in a fresh HOME and project.
func offlineChat(t *testing.T, bin string, setup func(t testing.TB, bin, home, proj, baseURL string) clientrun.Client) chatRun {
	t.Helper()
	ns := claudeapi.Isolate(t)
	ln, err := ns.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := chatapi.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	root := t.TempDir()
	r := chatRun{ns: ns, srv: srv, home: filepath.Join(root, "home"), proj: agentProject(t, filepath.Join(root, "proj"))}
	r.client = setup(t, bin, r.home, r.proj, srv.URL)
	return r
}

// chatTurns are the three turns both chat clients' tests script: a shell command and a read of
// notes.txt, then a line count, then the same count again (the repeated command the audit must find),
// each turn ending in text. shell and read are the client's tool names, path the read's field.
func chatTurns(proj, shell, read, path string) [3][]chatapi.Step {
	run := func(cmd string) chatapi.Step {
		return chatapi.Step{Calls: []chatapi.Call{{Name: shell, Args: map[string]any{"command": cmd, "description": "run it"}}}}
	}
	count := []chatapi.Step{run("wc -l notes.txt"), {Text: "notes.txt has 2 lines."}}
	return [3][]chatapi.Step{
		{run("echo hello-from-shell && ls"), {Calls: []chatapi.Call{{Name: read, Args: map[string]any{path: filepath.Join(proj, "notes.txt")}}}},
			{Text: "Done: the shell printed hello-from-shell and notes.txt says it is a test file."}},
		count, count,
	}
}

// ownState is the environment saverd runs in for these tests: a state and config directory of the
// test's own, so no forks log or prices file another test (or the machine) left is read.
func ownState(t *testing.T) []string {
	dir := t.TempDir()
	return append(os.Environ(), "XDG_STATE_HOME="+filepath.Join(dir, "state"), "XDG_CONFIG_HOME="+filepath.Join(dir, "config"))
}

// savedSessions runs `saverd sessions --format json` with args and returns its records and warnings.
func savedSessions(t *testing.T, args ...string) ([]agentlog.Record, []string) {
	t.Helper()
	cmd := exec.Command(binPath, append([]string{"sessions", "--format", "json"}, args...)...)
	cmd.Env = ownState(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("saverd sessions %q: %v", args, err)
	}
	var got struct {
		Sessions []agentlog.Record `json:"sessions"`
		Warnings []string          `json:"warnings"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("saverd sessions: %v\n%s", err, out)
	}
	return got.Sessions, got.Warnings
}

// auditedSession is what the tests read of `saverd audit --format json`.
type auditedSession struct {
	Harness   string               `json:"harness"`
	SessionID string               `json:"sessionId"`
	Turns     int                  `json:"turns"`
	Calls     int                  `json:"calls"`
	Rows      int                  `json:"rows"`
	Model     string               `json:"model"`
	Cwd       string               `json:"cwd"`
	TurnUsage []agentlog.TurnUsage `json:"turnUsage"`
	Largest   []struct {
		Tool string `json:"tool"`
		Key  string `json:"key"`
	} `json:"largest"`
	Repeated []struct {
		Tool  string `json:"tool"`
		Key   string `json:"key"`
		Count int    `json:"count"`
	} `json:"repeated"`
}

// audited runs `saverd audit --format json` with args and returns its one audit.
func audited(t *testing.T, args ...string) auditedSession {
	t.Helper()
	cmd := exec.Command(binPath, append([]string{"audit", "--format", "json"}, args...)...)
	cmd.Env = ownState(t)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("saverd audit %q: %v\n%s", args, err, stderr.String())
	}
	var got struct {
		Audits []auditedSession `json:"audits"`
	}
	if err := json.Unmarshal(out, &got); err != nil || len(got.Audits) != 1 {
		t.Fatalf("saverd audit: %v, %d audits\n%s", err, len(got.Audits), out)
	}
	return got.Audits[0]
}

// chatBilled sums what an OpenAI-compatible server answered the agent's loop (not its helpers), in
// saverd's meanings: input is the prompt less its cached part, output the completion (reasoning in it).
func chatBilled(log []chatapi.Exchange) (calls int, tok agentlog.Tokens, helpers int) {
	for _, ex := range log {
		switch {
		case ex.Usage == (chatapi.Usage{}):
		case ex.Helper:
			helpers++
		default:
			calls++
			tok.Add(agentlog.Tokens{Input: ex.Usage.Prompt - ex.Usage.Cached, CacheRead: ex.Usage.Cached, Output: ex.Usage.Completion})
		}
	}
	return calls, tok, helpers
}

// chatTools counts the tool calls the server's script made the agent run, by name.
func chatTools(log []chatapi.Exchange) map[string]int {
	out := map[string]int{}
	for _, ex := range log {
		if !ex.Helper {
			for _, c := range ex.Step.Calls {
				out[c.Name]++
			}
		}
	}
	return out
}

// checkRecord holds one session's record to what the server answered.
func checkRecord(t *testing.T, r agentlog.Record, harness string, calls int, tok agentlog.Tokens, tools map[string]int) {
	t.Helper()
	if r.Harness != harness || r.Calls != calls || r.Tokens != tok {
		t.Errorf("saverd sessions: %s %s, %d calls, tokens %+v; the server answered %d calls, %+v", r.Harness, r.SessionID, r.Calls, r.Tokens, calls, tok)
	}
	if len(r.Tools) != len(tools) {
		t.Errorf("tools %v, the server asked for %v", r.Tools, tools)
	}
	for name, n := range tools {
		if r.Tools[name] != n {
			t.Errorf("tools %v, the server asked for %v", r.Tools, tools)
		}
	}
}

// checkAudit holds an audit to the turns the test typed and the calls the server answered.
func checkAudit(t *testing.T, a auditedSession, harness string, turns, calls int, tok agentlog.Tokens, rows int) {
	t.Helper()
	var sum agentlog.Tokens
	n := 0
	for _, u := range a.TurnUsage {
		sum.Add(u.Tokens)
		n += u.Calls
	}
	if a.Harness != harness || a.Turns != turns || a.Calls != calls || n != calls || sum != tok || a.Rows != rows {
		t.Errorf("saverd audit: %s, %d turns, %d calls (%d by turn), %d rows, tokens %+v; want %d turns, %d calls, %d rows, %+v",
			a.Harness, a.Turns, a.Calls, n, a.Rows, sum, turns, calls, rows, tok)
	}
}
