package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const twoTurns = fixtureClaude + "/projects/-home-dev-src-calc/c30d052a-2836-49f8-a652-5038e728a894.jsonl"

func runAuditTest(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := runAudit(t.Context(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestAuditText(t *testing.T) {
	code, out, errOut := runAuditTest(t, twoTurns)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden(t, "audit-two-turns.golden", []byte(out))
}

func TestAuditJSON(t *testing.T) {
	// By session id, found among the transcripts under --claude-dir.
	code, out, errOut := runAuditTest(t, "c30d052a-2836-49f8-a652-5038e728a894", "--claude-dir", fixtureClaude, "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		Audits []struct {
			Turns    int `json:"turns"`
			Calls    int `json:"calls"`
			Rows     int `json:"rows"`
			Repeated []repeatedKey
			Largest  []struct {
				Ms    int64  `json:"ms"`
				Tool  string `json:"tool"`
				Flags []string
			} `json:"largest"`
			Forecast  forecast `json:"forecast"`
			TurnUsage []struct {
				Calls   int   `json:"calls"`
				Context int64 `json:"context"`
			} `json:"turnUsage"`
		} `json:"audits"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Audits) != 1 {
		t.Fatalf("%v\n%s", err, out)
	}
	a := rep.Audits[0]
	if a.Turns != 2 || a.Calls != 13 || a.Rows != 11 {
		t.Errorf("turns %d calls %d rows %d; want 2 turns (one resume), 13 calls, 11 tool calls", a.Turns, a.Calls, a.Rows)
	}
	if len(a.TurnUsage) != 2 || a.TurnUsage[0].Calls != 9 || a.TurnUsage[1].Calls != 4 || a.TurnUsage[1].Context != 6250 {
		t.Errorf("turn usage %+v", a.TurnUsage)
	}
	// The first Bash ran from 19:33:49.680 (its tool_use line) to 19:33:50.706 (its tool_result line).
	if l := a.Largest[0]; l.Tool != "Bash" || l.Ms != 1026 {
		t.Errorf("largest %+v, want the first Bash with its real 1026 ms", l)
	}
	if len(a.Repeated) == 0 || a.Repeated[0].Count != 3 || a.Repeated[0].Key != "test:npm test" {
		t.Errorf("repeated %+v, want npm test three times first", a.Repeated)
	}
	if a.Forecast.TokensToCompaction == nil || *a.Forecast.TokensToCompaction != 900_000-6250 {
		t.Errorf("forecast %+v", a.Forecast)
	}
}

func TestAuditLastAndSince(t *testing.T) {
	code, out, errOut := runAuditTest(t, "--last", "--claude-dir", fixtureClaude, "--format", "json")
	if code != 0 || !strings.Contains(out, `"sessionId"`) {
		t.Fatalf("--last: exit %d: %s", code, errOut)
	}
	code, out, errOut = runAuditTest(t, "--since", "2000-01-01", "--claude-dir", fixtureClaude, "--format", "json")
	if code != 0 || strings.Count(out, `"sessionId"`) != 3 {
		t.Errorf("--since: exit %d, %d audits: %s", code, strings.Count(out, `"sessionId"`), errOut)
	}
}

func TestAuditErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	if err := os.WriteFile(bad, []byte("\x00\x01binary"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"nothing named", nil, 2, "name a TRANSCRIPT"},
		{"two named", []string{twoTurns, "--last"}, 2, "give one of"},
		{"bad format", []string{twoTurns, "--format", "xml"}, 2, "--format"},
		{"bad since", []string{"--since", "soon"}, 2, "--since"},
		{"unknown id", []string{"nope", "--claude-dir", fixtureClaude}, 1, `"nope" is neither a transcript file nor the id`},
		{"no transcripts", []string{"--last", "--claude-dir", t.TempDir()}, 1, "no Claude Code transcripts found"},
		{"binary transcript", []string{bad}, 1, "binary data"},
		{"help", []string{"-h"}, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errOut := runAuditTest(t, tc.args...)
			if code != tc.code || !strings.Contains(errOut, tc.stderr) {
				t.Errorf("exit %d, stderr %q; want %d with %q", code, errOut, tc.code, tc.stderr)
			}
		})
	}
}

// TestAuditJudge: --judge runs the habit judge through the fork command and prints its cards; the fork here is
// a configured command answering as `claude -p --output-format json` would.
func TestAuditJudge(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	reply, _ := json.Marshal(map[string]any{
		"focus": "fixing the math", "time": "the test runs", "context": "test output",
		"findings": []any{map[string]any{
			"id": "execution:full-suite", "category": "execution",
			"kind":        "Claude keeps rerunning the whole suite after each edit",
			"evidence":    []string{"r1", "r4"},
			"signature":   map[string]any{"tool": "Bash", "key": "test:npm test"},
			"why":         "npm test ran three times for one-line edits",
			"alternative": "run the one test file that covers the edit",
			"confidence":  0.9, "est_tokens_per_turn": nil, "proposal": nil,
		}},
	})
	result, _ := json.Marshal(map[string]any{"type": "result", "subtype": "success", "is_error": false,
		"result": string(reply), "session_id": "fork-1", "total_cost_usd": 0.0123,
		"usage": map[string]any{"input_tokens": 1200, "output_tokens": 300, "cache_read_input_tokens": 5000, "cache_creation_input_tokens": 0}})
	out := filepath.Join(dir, "result.json")
	if err := os.WriteFile(out, result, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SAVERD_JUDGE_CMD", "cat "+out)
	code, text, errOut := runAuditTest(t, twoTurns, "--judge")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"1 findings returned, 1 kept", "$0.0123", "Claude keeps rerunning the whole suite after each edit"} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}

	t.Setenv("SAVERD_JUDGE_CMD", "echo not json; exit 3")
	code, text, errOut = runAuditTest(t, twoTurns, "--judge")
	if code != 0 || !strings.Contains(errOut, "warning: judge:") || !strings.Contains(text, "REPEATED CALLS") {
		t.Errorf("a failed judge must leave the audit standing: exit %d, stderr %q", code, errOut)
	}
}
