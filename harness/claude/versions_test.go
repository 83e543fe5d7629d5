package claude

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/internal/agentlogtest"
)

// Logs of older client versions, shaped as those versions wrote them (testdata/versions): a Claude Code
// 1.0 transcript whose Task agents wrote their lines into it (isSidechain) and which opens with a summary
// line; and the orphan summary file Claude Code 1.0 left beside it. harness/codex holds a Codex 0.58
// rollout, which no Claude Code file is taken for.
const (
	codex058      = "../codex/testdata/versions/codex-0.58/sessions/2025/11/14/rollout-2025-11-14T10-02-11-019a8200-1111-7222-8333-944455556666.jsonl"
	claude10      = "testdata/versions/claude-1.0/projects/-home-dev-src-web/7c1f3a52-9d4e-4b8a-a0c6-2e5f81d4b937.jsonl"
	orphanSummary = "testdata/versions/claude-1.0/projects/-home-dev-src-web/0b9d6e21-5f3a-4c87-b1e2-6a4d9c8f2e70.jsonl"
)

// TestClaudeInlineSidechain: a Task agent's lines inside the main transcript are the agent's: its prompt
// opens no turn, its tool calls are no row of the main loop, its context is not the main loop's window —
// and `saverd sessions` still counts its calls, which were billed.
func TestClaudeInlineSidechain(t *testing.T) {
	tr, err := ReadTranscript(claude10, agentlog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Turns) != 2 {
		t.Fatalf("%d turns, want the two prompts'", len(tr.Turns))
	}
	for i, want := range []struct {
		calls   int
		context int64
	}{{4, 4 + 19385 + 210 + 44}, {4, 4 + 20657 + 150 + 24}} {
		if u := tr.Turns[i]; u.Calls != want.calls || u.Context != want.context {
			t.Errorf("turn %d: %d calls, window %d; want the main loop's %d calls and window %d", i+1, u.Calls, u.Context, want.calls, want.context)
		}
	}
	if got, want := agentlogtest.Tools(tr), []string{"Task", "Task", "Edit", "Task", "Write", "Bash"}; !slices.Equal(got, want) {
		t.Errorf("tools %q, want the main loop's %q", got, want)
	}
	rec, err := ReadSession(claude10, agentlog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Calls != 15 {
		t.Errorf("the record counts %d calls, want the main loop's 8 and the agents' 7", rec.Calls)
	}
}

// TestOrphanSummary: a file of summary lines alone is named for what it is, by the audit's reader and by
// the scan, and no other file is taken for one.
func TestOrphanSummary(t *testing.T) {
	if _, err := ReadTranscript(orphanSummary, agentlog.Options{}); !errors.Is(err, ErrOrphanSummary) {
		t.Errorf("ReadTranscript: %v, want ErrOrphanSummary", err)
	}
	files, _ := Harness{}.Discover([]string{"testdata/versions/claude-1.0"})
	recs, warn := agentlog.Scan(context.Background(), files, agentlog.ScanOptions{})
	if len(recs) != 1 || !slices.ContainsFunc(warn, func(w string) bool {
		return strings.Contains(w, filepath.Base(orphanSummary)) && strings.Contains(w, "orphan summary file")
	}) {
		t.Errorf("%d records, warnings %q: want the session, and the orphan named as one", len(recs), warn)
	}
	for _, p := range []string{claude10, codex058, filepath.Join(t.TempDir(), "absent.jsonl")} {
		if IsOrphanSummary(p) {
			t.Errorf("%s taken for an orphan summary file", p)
		}
	}
	empty := filepath.Join(t.TempDir(), "empty.jsonl")
	if err := os.WriteFile(empty, []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if IsOrphanSummary(empty) {
		t.Error("an empty file taken for an orphan summary file")
	}
}

// TestCompactions: where a transcript compacted, the turn is noted, and the summary Claude Code sends
// after a compaction opens no turn (harness/codex's TestCompactions: a rollout's).
func TestCompactions(t *testing.T) {
	dir := t.TempDir()
	claude := filepath.Join(dir, "c.jsonl")
	lines := `{"type":"user","timestamp":"2026-01-05T10:00:00.000Z","sessionId":"s","cwd":"/w","message":{"role":"user","content":"go"}}
{"type":"system","subtype":"compact_boundary","content":"Conversation compacted","timestamp":"2026-01-05T10:05:00.000Z","sessionId":"s","compactMetadata":{"trigger":"auto","preTokens":155000}}
{"type":"user","isCompactSummary":true,"timestamp":"2026-01-05T10:05:01.000Z","sessionId":"s","message":{"role":"user","content":"This session is being continued from a previous conversation that ran out of context."}}
{"type":"user","timestamp":"2026-01-05T10:09:00.000Z","sessionId":"s","message":{"role":"user","content":"next"}}
`
	if err := os.WriteFile(claude, []byte(lines), 0o600); err != nil {
		t.Fatal(err)
	}
	tr, err := ReadTranscript(claude, agentlog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Turns) != 2 || !slices.Equal(tr.Compactions, []int{1}) {
		t.Errorf("%d turns, compactions %v; want 2 turns and a compaction in turn 1", len(tr.Turns), tr.Compactions)
	}
}

// TestClaudeSubagentsBeside: Claude Code 2.0 wrote each subagent's transcript beside its session's, as
// agent-<agentId>.jsonl naming the session (testdata/versions/claude-2.0): `saverd sessions` counts their
// calls in that session, with no warning of a session found twice; subagents whose session's transcript
// is gone are still that session, billed as they were. Figures are summed from the fixture's lines by hand.
func TestClaudeSubagentsBeside(t *testing.T) {
	const dir = "testdata/versions/claude-2.0"
	type want struct {
		calls                           int
		input, output, cacheRead, write int64
	}
	wants := map[string]want{
		"5d1c8e2a-7b40-4f3e-9a61-0c2d4e8f1b37": {5, 3 + 6 + 10 + 8 + 4, 141 + 57 + 66 + 95 + 5, 11800 + 20920 + 5210, 9120 + 420 + 5210 + 1330 + 3870},
		"9e27b4f0-1c63-4d8a-b5e2-7f10a3c6d948": {2, 4 + 4, 7 + 9, 0, 3870 + 4410},
	}
	files, warn := Harness{}.Discover([]string{dir})
	recs, scanWarn := agentlog.Scan(context.Background(), files, agentlog.ScanOptions{})
	if warn = append(warn, scanWarn...); len(warn) != 0 {
		t.Errorf("warnings %q, want none", warn)
	}
	if len(recs) != len(wants) {
		t.Fatalf("%d sessions, want %d", len(recs), len(wants))
	}
	for _, r := range recs {
		w, ok := wants[r.SessionID]
		u := r.Tokens
		if got := (want{r.Calls, u.Input, u.Output, u.CacheRead, u.CacheWrite}); !ok || got != w {
			t.Errorf("session %s: %+v, want %+v", r.SessionID, got, w)
		}
	}
	main := filepath.Join(dir, "projects/-home-dev-src-api/5d1c8e2a-7b40-4f3e-9a61-0c2d4e8f1b37.jsonl")
	rec, err := ReadSession(main, agentlog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Calls != wants[rec.SessionID].calls || len(rec.Files) != 3 {
		t.Errorf("the transcript named: %d calls from %q, want %d from it and its two subagents'", rec.Calls, rec.Files, wants[rec.SessionID].calls)
	}
}

// TestClaudeSubagentsWithoutSession: a session's subagents directory whose session transcript is gone
// (testdata/versions/claude-2.1) is still that session, its calls billed as they were, each call once —
// never dropped, never a session per file. Figures are summed from the fixture's lines by hand.
func TestClaudeSubagentsWithoutSession(t *testing.T) {
	files, warn := Harness{}.Discover([]string{"testdata/versions/claude-2.1"})
	recs, scanWarn := agentlog.Scan(context.Background(), files, agentlog.ScanOptions{})
	if warn = append(warn, scanWarn...); len(warn) != 0 {
		t.Errorf("warnings %q, want none", warn)
	}
	if len(recs) != 1 {
		t.Fatalf("%d sessions, want the subagents' one", len(recs))
	}
	r := recs[0]
	want := agentlog.Tokens{Input: 12 + 3, Output: 71 + 912, CacheRead: 41250, CacheWrite: 6120}
	if r.SessionID != "4b8e1f27-9c35-4a60-8d12-e5f0a7b3c946" || r.Calls != 2 || r.Tokens != want || len(r.Files) != 2 {
		t.Errorf("session %s: %d calls, %+v from %q; want 2 calls, %+v from both subagents' transcripts", r.SessionID, r.Calls, r.Tokens, r.Files, want)
	}
}
