package codex

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/state/intake"
)

// TestCodexTranscriptAgreesWithTheRecord: on every real rollout the audit's reader counts the calls and
// tokens the record reader counts (which TestReadCodexRolloutFixtures checks against the rollout's own
// figures), and rebuilds one row per tool call, each with an output and a duration.
func TestCodexTranscriptAgreesWithTheRecord(t *testing.T) {
	files, err := filepath.Glob("testdata/sessions/2026/12/01/rollout-*.jsonl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no rollouts: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			rec, err := ReadRollout(f, agentlog.Options{})
			if err != nil {
				t.Fatal(err)
			}
			tr, err := ReadTranscript(f, agentlog.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if tr.SessionID != rec.SessionID || tr.Cwd != rec.Cwd {
				t.Errorf("session %q in %q, want %q in %q", tr.SessionID, tr.Cwd, rec.SessionID, rec.Cwd)
			}
			var calls int
			var tokens agentlog.Tokens
			for _, u := range tr.Turns {
				calls += u.Calls
				tokens.Add(u.Tokens)
				if u.Context <= 0 || u.End.Before(u.Start) {
					t.Errorf("turn %+v: want a window and an end after its start", u)
				}
			}
			if calls != rec.Calls || tokens != rec.Tokens {
				t.Errorf("calls %d tokens %+v, the record says %d %+v", calls, tokens, rec.Calls, rec.Tokens)
			}
			tools := 0
			for _, n := range rec.Tools {
				tools += n
			}
			rows := intake.AdoptRows(tr.Messages)
			if len(rows) != tools {
				t.Errorf("%d rows, the record counts %d tool calls (%v)", len(rows), tools, rec.Tools)
			}
			for _, r := range rows {
				if _, ok := tr.Durations[r.ID]; !ok || r.Turn < 1 || r.Turn > len(tr.Turns) {
					t.Errorf("row %s (%s, turn %d of %d): no duration or no turn", r.ID, r.Tool, r.Turn, len(tr.Turns))
				}
			}
		})
	}
}

// TestCodexTranscriptTurns: the resumed rollout (a model switch that compacts, then code mode) is two
// turns, each with its own prompt; the injected environment message is no prompt; the last model wins;
// the command a code-mode script ran is a Bash row of its own.
func TestCodexTranscriptTurns(t *testing.T) {
	tr, err := ReadTranscript("testdata/sessions/2026/12/01/rollout-2026-12-01T19-44-11-01a23322-d88d-73b3-9fa7-823c5494f927.jsonl", agentlog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var prompts []string
	for _, m := range tr.Messages {
		if m.Role == "user" && m.Text != "" {
			prompts = append(prompts, m.Text)
		}
	}
	want := []string{"List the files in this project and summarize the README.", "Now show me the git history."}
	if strings.Join(prompts, "|") != strings.Join(want, "|") || len(tr.Turns) != 2 {
		t.Errorf("prompts %q over %d turns, want %q over 2", prompts, len(tr.Turns), want)
	}
	if tr.Model != "gpt-5.6-terra" {
		t.Errorf("model %q, want the resumed turn's gpt-5.6-terra", tr.Model)
	}
	rows := intake.AdoptRows(tr.Messages)
	if len(rows) != 4 || rows[0].Tool != "Bash" || rows[0].Key == "" || rows[1].Turn != 1 ||
		rows[2].Tool != "exec" || rows[2].Turn != 2 || rows[3].Tool != "Bash" || rows[3].Key != "git:git log --oneline -n 3" {
		t.Errorf("rows %+v: want two Bash calls in turn 1, then the exec and the command its script ran in turn 2", rows)
	}
	if d := tr.Durations[rows[3].ID]; d <= 0 {
		t.Errorf("the script's command took %d ms, want its item's own duration", d)
	}
}

// TestCodexTranscriptBadLines: a truncated last line and a line that is no JSON are warnings; the rest of
// the rollout still counts.
func TestCodexTranscriptBadLines(t *testing.T) {
	src, err := os.ReadFile("testdata/sessions/2026/12/01/rollout-2026-12-01T19-44-58-01a23323-91e8-7d92-a1fa-06ae8a787047.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "rollout-2026-12-01T19-44-58-01a23323-91e8-7d92-a1fa-06ae8a787047.jsonl")
	if err := os.WriteFile(path, append(append([]byte("not json\n"), src...), `{"timestamp":"2026-12-01T19:45:01Z","type":"respon`...), 0o600); err != nil {
		t.Fatal(err)
	}
	tr, err := ReadTranscript(path, agentlog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Warnings) != 2 || len(tr.Turns) != 1 || len(intake.AdoptRows(tr.Messages)) != 1 {
		t.Errorf("warnings %q, %d turns, want 2 warnings and the one turn with its row", tr.Warnings, len(tr.Turns))
	}
}

// blocked is what Codex 0.169.0 writes for a prompt a hook blocked (a `$saver debug`), at the second at.
func blocked(at string) string {
	return `{"timestamp":"` + at + `.100Z","type":"event_msg","payload":{"type":"task_started","turn_id":"b1","started_at":1,"model_context_window":258400}}` + "\n" +
		`{"timestamp":"` + at + `.110Z","type":"turn_context","payload":{"turn_id":"b1","cwd":"/home/dev/src/demo-proj","model":"gpt-5.5"}}` + "\n" +
		`{"timestamp":"` + at + `.300Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"b1","last_agent_message":null,"duration_ms":194}}` + "\n"
}

// TestCodexBlockedPromptsAreNoTurns: a prompt a hook blocked (saverd's own `$saver` commands) leaves a
// task_started and a task_complete in the rollout and nothing between them but the turn's context: it is
// no turn of the audit, as the live side never counts it, wherever it falls. A turn the person began and
// no call answered (a prompt, then Esc) still is one.
func TestCodexBlockedPromptsAreNoTurns(t *testing.T) {
	src, err := os.ReadFile("testdata/sessions/2026/12/01/rollout-2026-12-01T19-44-11-01a23322-d88d-73b3-9fa7-823c5494f927.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(src), "\n")
	aborted := `{"timestamp":"2026-12-01T19:45:00.100Z","type":"event_msg","payload":{"type":"task_started","turn_id":"a1"}}` + "\n" +
		`{"timestamp":"2026-12-01T19:45:00.200Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"never mind"}]}}` + "\n" +
		`{"timestamp":"2026-12-01T19:45:00.300Z","type":"event_msg","payload":{"type":"turn_aborted","turn_id":"a1"}}` + "\n"
	for _, tc := range []struct {
		name  string
		text  string
		turns int
	}{
		{"as written", strings.Join(lines, ""), 2},
		{"blocked before, between and after the turns",
			blocked("2026-12-01T19:44:10") + strings.Join(lines[:31], "") + blocked("2026-12-01T19:44:16") + blocked("2026-12-01T19:44:17") +
				strings.Join(lines[31:], "") + blocked("2026-12-01T19:44:40"), 2},
		{"a prompt no call answered", strings.Join(lines, "") + aborted + blocked("2026-12-01T19:45:10"), 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "rollout-2026-12-01T19-44-11-01a23322-d88d-73b3-9fa7-823c5494f927.jsonl")
			if err := os.WriteFile(path, []byte(tc.text), 0o600); err != nil {
				t.Fatal(err)
			}
			tr, err := ReadTranscript(path, agentlog.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(tr.Turns) != tc.turns {
				t.Fatalf("%d turns, want %d", len(tr.Turns), tc.turns)
			}
			calls := 0
			for _, u := range tr.Turns[:2] {
				calls += u.Calls
				if u.Calls == 0 {
					t.Errorf("turn %+v has no call: a blocked prompt took its place", u)
				}
			}
			if tc.turns == 3 && tr.Turns[2].Calls != 0 {
				t.Errorf("the aborted turn has %d calls", tr.Turns[2].Calls)
			}
		})
	}
}
