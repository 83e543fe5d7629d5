package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/audit"
	"github.com/saverd/saverd/state/detect"
)

const (
	twoTurns = fixtureClaude + "/projects/-home-dev-src-calc/c30d052a-2836-49f8-a652-5038e728a894.jsonl"
	// resumed is the Codex rollout resumed with a model switch that compacts, then code mode.
	resumed = fixtureCodex + "/sessions/2026/12/01/rollout-2026-12-01T19-44-11-01a23322-d88d-73b3-9fa7-823c5494f927.jsonl"
)

func runAuditTest(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(t.Context(), append([]string{"audit"}, args...), nil, &out, &errb)
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
			Repeated []detect.Repeat
			Largest  []struct {
				Ms    int64  `json:"ms"`
				Tool  string `json:"tool"`
				Flags []string
			} `json:"largest"`
			Forecast  audit.Forecast `json:"forecast"`
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
		{"no transcripts", []string{"--last", "--claude-dir", t.TempDir()}, 1, "no session logs found"},
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
// a configured command answering as `claude -p --output-format json` would. The fork is priced from its own
// usage at the price of the model the title names (never the client's total_cost_usd, which after --resume
// includes the resumed transcript's spend), and recorded in the forks log as the session's judge fork.
func TestAuditJudge(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	reply := habitAnswer{focus: "fixing the math", time: "the test runs", context: "test output",
		id: "execution:full-suite", kind: "Claude keeps rerunning the whole suite after each edit", key: "test:npm test",
		why: "npm test ran three times for one-line edits", alternative: "run the one test file that covers the edit",
		confidence: 0.9, evidence: []string{"r1", "r4"}}.text()
	result, _ := json.Marshal(map[string]any{"type": "result", "subtype": "success", "is_error": false,
		"result": reply, "session_id": "fork-1", "total_cost_usd": 0.0123,
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
	// claude-opus-5-5: 1200 × $4 + 300 × $20 + 5000 × $0.20 a million = $0.0118.
	for _, want := range []string{"session c30d052a-2836-49f8-a652-5038e728a894 · claude-code · claude-opus-5-5",
		"1 findings returned, 1 kept", "$0.0118", "Net      saved $0 · judge $0.01 · net −$0.01",
		"Claude keeps rerunning the whole suite after each edit"} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "0.0123") || strings.Contains(text, "model is not known") {
		t.Errorf("the client's cumulative figure, or no model, in:\n%s", text)
	}
	forks, warn := agentlog.ReadForks(filepath.Join(dir, "state", "saverd", "forks.jsonl"))
	f := forks["fork-1"]
	if len(warn) != 0 || f.Parent != "c30d052a-2836-49f8-a652-5038e728a894" || f.Purpose != "judge" || f.Model != "claude-opus-5-5" ||
		f.Tokens == nil || *f.Tokens != (agentlog.Tokens{Input: 1200, Output: 300, CacheRead: 5000}) {
		t.Errorf("forks log %+v %q: want fork-1 as the session's judge fork with its tokens", forks, warn)
	}

	t.Setenv("SAVERD_JUDGE_CMD", "echo not json; exit 3")
	code, text, errOut = runAuditTest(t, twoTurns, "--judge")
	if code != 0 || !strings.Contains(errOut, "warning: judge:") || !strings.Contains(text, "REPEATED CALLS") {
		t.Errorf("a failed judge must leave the audit standing: exit %d, stderr %q", code, errOut)
	}
}

// TestAuditCodex: a Codex rollout audits like a transcript, by path or by its session id under --codex-dir:
// its two turns (the resume), every call with its real duration, the command a code-mode script ran as
// a Bash row of its own.
func TestAuditCodex(t *testing.T) {
	code, out, errOut := runAuditTest(t, resumed)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden(t, "audit-codex-resumed.golden", []byte(out))

	code, out, errOut = runAuditTest(t, "01a23322-d88d-73b3-9fa7-823c5494f927", "--codex-dir", fixtureCodex, "--format", "json")
	if code != 0 {
		t.Fatalf("by id: exit %d: %s", code, errOut)
	}
	var rep struct {
		Audits []struct {
			Harness string `json:"harness"`
			Model   string `json:"model"`
			Window  int64  `json:"window"`
			Turns   int    `json:"turns"`
			Calls   int    `json:"calls"`
			Rows    int    `json:"rows"`
			Largest []struct {
				Tool string `json:"tool"`
				Ms   int64  `json:"ms"`
			} `json:"largest"`
		} `json:"audits"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Audits) != 1 {
		t.Fatalf("%v\n%s", err, out)
	}
	a := rep.Audits[0]
	if a.Harness != "codex" || a.Model != "gpt-5.6-terra" || a.Window != 272_000 || a.Turns != 2 || a.Calls != 6 || a.Rows != 4 {
		t.Errorf("audit %+v: want codex, gpt-5.6-terra's 272000 window, 2 turns, 6 calls, 4 tool calls", a)
	}
	for _, l := range a.Largest {
		if l.Ms <= 0 {
			t.Errorf("row %+v has no duration", l)
		}
	}

	code, out, errOut = runAuditTest(t, "--since", "2000-01-01", "--codex-dir", fixtureCodex, "--format", "json")
	if code != 0 || strings.Count(out, `"harness": "codex"`) != 4 {
		t.Errorf("--since over the rollouts: exit %d, %d codex audits: %s", code, strings.Count(out, `"harness": "codex"`), errOut)
	}
}

// TestAuditCodexJudge: --judge on a Codex session forks through the Codex judge command and reads its
// `codex exec --json` events.
func TestAuditCodexJudge(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	reply := habitAnswer{focus: "listing the project", time: "the shell", context: "file listings",
		id: "execution:ls-again", kind: "Claude keeps listing the same directory", key: "read:ls",
		why: "two listings one after the other", alternative: "list once", confidence: 0.8, evidence: []string{"r1", "r2"}}.text()
	item, _ := json.Marshal(map[string]any{"type": "item.completed", "item": map[string]any{"id": "item_0", "type": "agent_message", "text": reply}})
	events := `{"type":"thread.started","thread_id":"t-1"}` + "\n" + `{"type":"turn.started"}` + "\n" + string(item) + "\n" +
		`{"type":"turn.completed","usage":{"input_tokens":6100,"cached_input_tokens":5500,"cache_write_input_tokens":0,"output_tokens":100}}` + "\n"
	out := filepath.Join(dir, "events.jsonl")
	if err := os.WriteFile(out, []byte(events), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "saverd")
	if err := os.MkdirAll(cfg, 0o700); err != nil {
		t.Fatal(err)
	}
	conf, _ := json.Marshal(map[string]string{"judgeCommand": "exit 9", "codexJudgeCommand": "cat " + out})
	if err := os.WriteFile(filepath.Join(cfg, "config.json"), conf, 0o600); err != nil {
		t.Fatal(err)
	}
	code, text, errOut := runAuditTest(t, resumed, "--judge")
	if code != 0 || strings.Contains(errOut, "warning") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"1 findings returned, 1 kept", "Claude keeps listing the same directory"} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	// The --ephemeral fork leaves no rollout: its thread id and tokens in the forks log are all there is.
	forks, _ := agentlog.ReadForks(filepath.Join(dir, "state", "saverd", "forks.jsonl"))
	if f := forks["t-1"]; f.Parent != "01a23322-d88d-73b3-9fa7-823c5494f927" || f.Harness != "codex" || f.Tokens == nil ||
		*f.Tokens != (agentlog.Tokens{Input: 600, Output: 100, CacheRead: 5500}) {
		t.Errorf("forks log %+v: want t-1 as the session's judge fork with its tokens", forks)
	}
}

// TestAuditOlderVersions: logs of older clients audit with the main loop's turns, calls and window — a
// Codex 0.58 rollout (no task_started) and a Claude Code 1.0 transcript whose agents wrote inline — and an
// orphan summary file is named as one.
func TestAuditOlderVersions(t *testing.T) {
	const claudeVersions, codexVersions = "../../harness/claude/testdata/versions", "../../harness/codex/testdata/versions"
	for _, tc := range []struct {
		path               string
		turns, calls, rows int
		trend              []int64
	}{
		{codexVersions + "/codex-0.58/sessions/2025/11/14/rollout-2025-11-14T10-02-11-019a8200-1111-7222-8333-944455556666.jsonl", 2, 8, 6, []int64{10808, 12270}},
		{claudeVersions + "/claude-1.0/projects/-home-dev-src-web/7c1f3a52-9d4e-4b8a-a0c6-2e5f81d4b937.jsonl", 2, 8, 6, []int64{19643, 20835}},
	} {
		code, out, errOut := runAuditTest(t, tc.path, "--format", "json")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.path, code, errOut)
		}
		var rep struct {
			Audits []struct {
				Turns     int `json:"turns"`
				Calls     int `json:"calls"`
				Rows      int `json:"rows"`
				TurnUsage []struct {
					Context int64 `json:"context"`
				} `json:"turnUsage"`
			} `json:"audits"`
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Audits) != 1 {
			t.Fatalf("%v\n%s", err, out)
		}
		a := rep.Audits[0]
		var trend []int64
		for _, u := range a.TurnUsage {
			trend = append(trend, u.Context)
		}
		if a.Turns != tc.turns || a.Calls != tc.calls || a.Rows != tc.rows || !slices.Equal(trend, tc.trend) {
			t.Errorf("%s: %d turns, %d calls, %d rows, window %v; want %d, %d, %d, %v",
				filepath.Base(tc.path), a.Turns, a.Calls, a.Rows, trend, tc.turns, tc.calls, tc.rows, tc.trend)
		}
	}
	code, _, errOut := runAuditTest(t, claudeVersions+"/claude-1.0/projects/-home-dev-src-web/0b9d6e21-5f3a-4c87-b1e2-6a4d9c8f2e70.jsonl")
	if code != 1 || !strings.Contains(errOut, "an orphan summary file") {
		t.Errorf("orphan summary: exit %d, %q", code, errOut)
	}
}
