package agentlog

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Logs of older client versions, shaped as those versions wrote them (testdata/versions): a Codex 0.58
// rollout, which writes no task_started or task_complete and patches through the shell; a Claude Code 1.0
// transcript whose Task agents wrote their lines into it (isSidechain) and which opens with a summary
// line; and the orphan summary file Claude Code 1.0 left beside it.
const (
	codex058      = "testdata/versions/codex-0.58/sessions/2025/11/14/rollout-2025-11-14T10-02-11-019a8200-1111-7222-8333-944455556666.jsonl"
	claude10      = "testdata/versions/claude-1.0/projects/-home-dev-src-web/7c1f3a52-9d4e-4b8a-a0c6-2e5f81d4b937.jsonl"
	orphanSummary = "testdata/versions/claude-1.0/projects/-home-dev-src-web/0b9d6e21-5f3a-4c87-b1e2-6a4d9c8f2e70.jsonl"
)

// toolsOf is the tool of every call the transcript's assistant messages made, in order.
func toolsOf(tr Transcript) []string {
	var out []string
	for _, m := range tr.Messages {
		for _, u := range m.ToolUses {
			out = append(out, u.Tool)
		}
	}
	return out
}

// TestCodexWithoutTaskStarted: a rollout with no task_started opens a turn at each prompt the person
// typed (not the instructions or environment Codex writes as user messages), counts each response's
// calls in it and measures its window; a patch sent through the shell is an apply_patch call.
func TestCodexWithoutTaskStarted(t *testing.T) {
	tr, err := ReadCodexTranscript(codex058, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Turns) != 2 {
		t.Fatalf("%d turns, want the two prompts'", len(tr.Turns))
	}
	for i, want := range []struct {
		calls   int
		context int64
		start   string
	}{{4, 10720 + 88, "2025-11-14T10:02:13.512Z"}, {4, 12200 + 70, "2025-11-14T10:03:31.012Z"}} {
		u := tr.Turns[i]
		if u.Calls != want.calls || u.Context != want.context || u.Start.UTC().Format("2006-01-02T15:04:05.000Z") != want.start || !u.End.After(u.Start) {
			t.Errorf("turn %d: %d calls, window %d, %v–%v; want %d calls, window %d, from %s", i+1, u.Calls, u.Context, u.Start, u.End, want.calls, want.context, want.start)
		}
	}
	if got, want := toolsOf(tr), []string{"Bash", "Bash", "apply_patch", "Bash", "apply_patch", "Bash"}; !slices.Equal(got, want) {
		t.Errorf("tools %q, want %q", got, want)
	}
	rec, err := ReadCodexRollout(codex058, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Calls != 8 {
		t.Errorf("the record counts %d calls, the transcript 8", rec.Calls)
	}
}

// TestClaudeInlineSidechain: a Task agent's lines inside the main transcript are the agent's: its prompt
// opens no turn, its tool calls are no row of the main loop, its context is not the main loop's window —
// and `saverd sessions` still counts its calls, which were billed.
func TestClaudeInlineSidechain(t *testing.T) {
	tr, err := ReadClaudeTranscript(claude10, Options{})
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
	if got, want := toolsOf(tr), []string{"Task", "Task", "Edit", "Task", "Write", "Bash"}; !slices.Equal(got, want) {
		t.Errorf("tools %q, want the main loop's %q", got, want)
	}
	rec, err := ReadClaudeSession(claude10, Options{})
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
	if _, err := ReadTranscript(orphanSummary, Options{}); !errors.Is(err, ErrOrphanSummary) {
		t.Errorf("ReadTranscript: %v, want ErrOrphanSummary", err)
	}
	files, _ := Discover(Sources{ClaudeDirs: []string{"testdata/versions/claude-1.0"}, CodexDirs: []string{}})
	recs, warn := Scan(context.Background(), files, ScanOptions{})
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

// TestCompactions: where a transcript or rollout compacted, the turn is noted, and the summary Claude
// Code sends after a compaction opens no turn.
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
	tr, err := ReadClaudeTranscript(claude, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Turns) != 2 || !slices.Equal(tr.Compactions, []int{1}) {
		t.Errorf("%d turns, compactions %v; want 2 turns and a compaction in turn 1", len(tr.Turns), tr.Compactions)
	}
	codex, err := ReadCodexTranscript("testdata/codex/sessions/2026/12/01/rollout-2026-12-01T19-44-11-01a23322-d88d-73b3-9fa7-823c5494f927.jsonl", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(codex.Compactions) != 1 {
		t.Errorf("compactions %v: want the rollout's one", codex.Compactions)
	}
}

// TestCodexToolPatches: an older Codex's patch through the shell is an apply_patch call with its patch,
// in either form it took; any other shell command stays Bash.
func TestCodexToolPatches(t *testing.T) {
	patch := "*** Begin Patch\n*** Update File: a.go\n-x\n+y\n*** End Patch\n"
	cases := []struct {
		args, tool, patch string
	}{
		{`{"command":["apply_patch",` + quoteJSON(patch) + `]}`, "apply_patch", patch},
		{`{"command":["bash","-lc",` + quoteJSON("apply_patch <<'EOF'\n"+patch+"EOF") + `]}`, "apply_patch", patch},
		{`{"command":["bash","-lc","npm test"]}`, "Bash", ""},
		{`{"command":["bash","-lc","apply_patch --help"]}`, "Bash", ""},
	}
	for _, c := range cases {
		tool, in := CodexTool("shell", c.args, "")
		if tool != c.tool || (c.patch != "" && in["patch"] != c.patch) {
			t.Errorf("CodexTool(shell, %s) = %s %v, want %s with the patch", c.args, tool, in, c.tool)
		}
	}
}
