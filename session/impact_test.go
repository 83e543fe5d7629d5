package session

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/saverd/saverd/rpc"
)

// gitRepo is a repository with one commit a Claude Code session made, dated 2026-06-02 10:30 UTC.
func gitRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	home := t.TempDir()
	run := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "HOME="+home, "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_DATE=2026-06-02T10:30:00Z", "GIT_COMMITTER_DATE=2026-06-02T10:30:00Z")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("init", "-q", "-b", "main")
	run("config", "user.email", "me@example.com")
	run("config", "user.name", "Me")
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run("add", "a.txt")
	run("commit", "-q", "-m", "Add a\n\nCo-Authored-By: Claude Opus <noreply@anthropic.com>")
	return dir
}

func TestImpactMethods(t *testing.T) {
	h := newHarness(t, nil)
	repo := gitRepo(t)
	sessions := filepath.Join(t.TempDir(), "sessions.jsonl")
	line := map[string]any{"session_id": "a", "harness": "claude-code", "repo": repo, "project": nil,
		"start": "2026-06-02T10:00:00Z", "end": "2026-06-02T11:00:00Z", "calls": 40, "tools": map[string]int{"Edit": 3}, "cost": map[string]any{"total": 2.0}}
	b, _ := json.Marshal(line)
	if err := os.WriteFile(sessions, append(append(b, '\n'), []byte("not json\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	params := map[string]any{"sessions": []string{sessions}, "now": "2026-06-03T00:00:00Z"}
	var rep struct {
		Records []struct {
			SessionID string  `json:"session_id"`
			Link      string  `json:"link"`
			Added     int     `json:"added"`
			Cost      float64 `json:"cost"`
		} `json:"records"`
		Summary struct {
			Linked int `json:"linked"`
		} `json:"summary"`
		Warnings []string `json:"warnings"`
	}
	h.callInto("impact.query", params, &rep)
	if len(rep.Records) != 1 || rep.Records[0].Link != "trailer" || rep.Records[0].Added != 2 || rep.Records[0].Cost != 2 || rep.Summary.Linked != 1 {
		t.Fatalf("impact.query = %+v", rep)
	}
	if len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], "sessions.jsonl:2") {
		t.Fatalf("warnings = %q, want the bad line named", rep.Warnings)
	}
	var pending struct {
		Pending  []any    `json:"pending"`
		Warnings []string `json:"warnings"`
	}
	h.callInto("impact.pending", params, &pending)
	if len(pending.Pending) != 0 || len(pending.Warnings) != 1 {
		t.Fatalf("impact.pending = %+v (a trailer link waits for nothing)", pending)
	}
	for _, bad := range []map[string]any{{"sessions": []string{sessions}, "now": "yesterday"}, {"sessions": []string{sessions}, "days": -1}, {"sessions": []string{sessions}, "days": 0}} {
		_, err := h.callErr("impact.query", bad)
		var e *rpc.Error
		if !errors.As(err, &e) || e.Code != rpc.CodeInvalidParams {
			t.Errorf("impact.query %v = %v, want -32602", bad, err)
		}
	}
}

// TestImpactWithoutSessions: a query that names no sessions file reads this machine's history, the
// agents' logs and the daemon's sessions log, as `saverd impact` does with no --sessions; nothing found
// is a warning that says where to look, not an error.
func TestImpactWithoutSessions(t *testing.T) {
	repo := gitRepo(t)
	log := filepath.Join(t.TempDir(), "sessions.jsonl")
	line, _ := json.Marshal(map[string]any{"session_id": "a", "harness": "claude-code", "repo": repo, "project": nil,
		"start": "2026-06-02T10:00:00Z", "end": "2026-06-02T11:00:00Z", "calls": 40, "tools": map[string]int{"Edit": 3}, "cost": map[string]any{"total": 2.0}})
	if err := os.WriteFile(log, append(line, '\n'), 0o600); err != nil {
		t.Fatal(err)
	}
	h := newHarnessWith(t, Options{Synchronous: true, HistoryLogs: HistoryLogs{SessionsLog: log}}, true, nil)
	empty := t.TempDir()
	var rep struct {
		Records []struct {
			SessionID string `json:"session_id"`
			Link      string `json:"link"`
		} `json:"records"`
		Warnings []string `json:"warnings"`
	}
	h.callInto("impact.query", map[string]any{"claude_dirs": []string{empty}, "codex_dirs": []string{empty}, "now": "2026-06-03T00:00:00Z"}, &rep)
	if len(rep.Records) != 1 || rep.Records[0].SessionID != "a" || rep.Records[0].Link != "trailer" || len(rep.Warnings) != 0 {
		t.Fatalf("impact.query = %+v, want the daemon log's session linked by its trailer", rep)
	}

	h = newHarnessWith(t, Options{Synchronous: true}, true, nil)
	rep.Records, rep.Warnings = nil, nil
	h.callInto("impact.query", map[string]any{"claude_dirs": []string{empty}, "codex_dirs": []string{empty}}, &rep)
	if len(rep.Records) != 0 || len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], "no agent sessions found") {
		t.Fatalf("impact.query with no history = %+v", rep)
	}
}
