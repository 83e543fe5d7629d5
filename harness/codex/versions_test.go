package codex

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/internal/agentlogtest"
)

// A Codex 0.58 rollout, shaped as that version wrote it (testdata/versions): no task_started or
// task_complete, and patches through the shell.
const codex058 = "testdata/versions/codex-0.58/sessions/2025/11/14/rollout-2025-11-14T10-02-11-019a8200-1111-7222-8333-944455556666.jsonl"

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestCodexWithoutTaskStarted: a rollout with no task_started opens a turn at each prompt the person
// typed (not the instructions or environment Codex writes as user messages), counts each response's
// calls in it and measures its window; a patch sent through the shell is an apply_patch call.
func TestCodexWithoutTaskStarted(t *testing.T) {
	tr, err := ReadTranscript(codex058, agentlog.Options{})
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
	if got, want := agentlogtest.Tools(tr), []string{"Bash", "Bash", "apply_patch", "Bash", "apply_patch", "Bash"}; !slices.Equal(got, want) {
		t.Errorf("tools %q, want %q", got, want)
	}
	rec, err := ReadRollout(codex058, agentlog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Calls != 8 {
		t.Errorf("the record counts %d calls, the transcript 8", rec.Calls)
	}
}

// TestCompactions: where a rollout compacted, the turn is noted.
func TestCompactions(t *testing.T) {
	codex, err := ReadTranscript("testdata/sessions/2026/12/01/rollout-2026-12-01T19-44-11-01a23322-d88d-73b3-9fa7-823c5494f927.jsonl", agentlog.Options{})
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
		tool, in := Tool("shell", c.args, "")
		if tool != c.tool || (c.patch != "" && in["patch"] != c.patch) {
			t.Errorf("Tool(shell, %s) = %s %v, want %s with the patch", c.args, tool, in, c.tool)
		}
	}
}

// A rollout of Codex CLI's first Rust releases (testdata/versions/codex-direct): the metadata bare on the
// first line, each item bare after it with no time, {"record_type":"state"} between them, no token
// counts. The audit rebuilds its turn and tool calls; the record counts no call and says why.
func TestCodexDirectItems(t *testing.T) {
	const path = "testdata/versions/codex-direct/sessions/2025/06/01/rollout-2025-06-01T10-00-00-0197ab12-3456-7890-abcd-ef0123456789.jsonl"
	tr, err := ReadTranscript(path, agentlog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Turns) != 1 || tr.Turns[0].Start.UTC().Format(time.RFC3339) != "2025-06-01T10:00:00Z" {
		t.Fatalf("turns %+v, want one, begun at the first line's time", tr.Turns)
	}
	if got, want := agentlogtest.Tools(tr), []string{"Bash", "apply_patch", "Bash"}; !slices.Equal(got, want) {
		t.Errorf("tools %q, want %q", got, want)
	}
	if len(tr.Warnings) != 0 {
		t.Errorf("warnings %q: the state lines are the format's, not bad lines", tr.Warnings)
	}
	for _, all := range []bool{false, true} {
		decodeAll = all
		rec, err := ReadRollout(path, agentlog.Options{})
		decodeAll = false
		if err != nil {
			t.Fatal(err)
		}
		if rec.SessionID != "0197ab12-3456-7890-abcd-ef0123456789" || rec.Calls != 0 || rec.Start.UTC().Format(time.RFC3339) != "2025-06-01T10:00:00Z" {
			t.Errorf("decodeAll %v: session %q, %d calls, start %v", all, rec.SessionID, rec.Calls, rec.Start)
		}
		if len(rec.Warnings) != 1 || !strings.Contains(rec.Warnings[0], "3 tool calls and no token counts") {
			t.Errorf("decodeAll %v: warnings %q, want one saying the cost is not known", all, rec.Warnings)
		}
	}
	// A rollout of today's layout that ended before its first count is warned of, not as one of those.
	cut := filepath.Join(t.TempDir(), "rollout-2026-12-01T10-00-00-0197ab12-3456-7890-abcd-ef0123456780.jsonl")
	if err := os.WriteFile(cut, []byte(`{"timestamp":"2026-12-01T10:00:00.000Z","type":"session_meta","payload":{"id":"0197ab12-3456-7890-abcd-ef0123456780","timestamp":"2026-12-01T10:00:00.000Z"}}`+"\n"+
		`{"timestamp":"2026-12-01T10:00:01.000Z","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{}","call_id":"c1"}}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if rec, err := ReadRollout(cut, agentlog.Options{}); err != nil || len(rec.Warnings) != 1 ||
		!strings.Contains(rec.Warnings[0], "1 tool calls and no token counts: ") {
		t.Errorf("a rollout cut before its first count: %v, warnings %q", err, rec.Warnings)
	}
}

// TestCodexWithoutModel: a rollout of a September 2025 Codex, before Codex recorded turn_context
// (testdata/versions/codex-0.30), names no model: the calls are counted, their cost is unknown, and the warning says the log names none —
// not that a model "" wants a price a prices file could give.
func TestCodexWithoutModel(t *testing.T) {
	const path = "testdata/versions/codex-0.30/sessions/2025/09/05/rollout-2025-09-05T09-12-30-01991c44-7a2e-7b10-9c3d-4e5f6a7b8c9d.jsonl"
	rec, err := ReadRollout(path, agentlog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := agentlog.Tokens{Input: 6120 + 6380 - 6016, Output: 58 + 33, CacheRead: 6016}
	if rec.Calls != 2 || rec.Tokens != want || rec.Cost.Total != nil {
		t.Errorf("%d calls, %+v, cost %v; want 2 calls, %+v, no cost", rec.Calls, rec.Tokens, rec.Cost.Total, want)
	}
	if !slices.ContainsFunc(rec.Warnings, func(w string) bool { return strings.Contains(w, "names no model") }) ||
		slices.ContainsFunc(rec.Warnings, func(w string) bool { return strings.Contains(w, `model ""`) }) {
		t.Errorf("warnings %q: want one saying the log names no model, none naming a model \"\"", rec.Warnings)
	}
}
