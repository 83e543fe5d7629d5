package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/saverd/saverd/report"
	"github.com/saverd/saverd/state/view"
)

// The agentlog package's copies of the real Claude Code and Codex fixtures.
const (
	fixtureClaude = "../../harness/claude/testdata"
	fixtureCodex  = "../../harness/codex/testdata"
)

// runBinary runs the built saverd with a fixed zone and no user configuration, and returns its exit code,
// stdout and stderr.
func runBinary(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(binPath, args...)
	home := t.TempDir()
	cmd.Env = append(os.Environ(), "TZ=UTC", "HOME="+home, "XDG_CONFIG_HOME="+home, "XDG_STATE_HOME="+home,
		"CLAUDE_CONFIG_DIR=", "CODEX_HOME=", "GORACE=atexit_sleep_ms=0")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String(), errb.String()
}

var fixtureDirs = []string{"--claude-dir", fixtureClaude, "--codex-dir", fixtureCodex}

func TestSessionsJSON(t *testing.T) {
	code, out, errOut := runBinary(t, append([]string{"sessions", "--format", "json"}, fixtureDirs...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		Sessions []struct {
			SessionID string `json:"session_id"`
			Harness   string `json:"harness"`
			Calls     int    `json:"calls"`
			Cost      struct {
				Total *float64 `json:"total"`
			} `json:"cost"`
			Tokens map[string]int64 `json:"tokens"`
			Models map[string]any   `json:"models"`
		} `json:"sessions"`
		Totals   report.Group `json:"totals"`
		Warnings []string     `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("not the report: %v\n%s", err, out)
	}
	if len(rep.Sessions) != 7 || rep.Totals.Sessions != 7 || rep.Totals.Calls != 35 {
		t.Errorf("%d sessions, totals %+v; want 7 sessions and 35 calls", len(rep.Sessions), rep.Totals)
	}
	// gpt-5.6-terra has no price: the total is null, never 0, and the warning names the model.
	if rep.Totals.Cost != nil || len(rep.Totals.Unpriced) != 1 || !strings.Contains(errOut, `no price for model "gpt-5.6-terra"`) {
		t.Errorf("totals cost %v unpriced %v; stderr %q", rep.Totals.Cost, rep.Totals.Unpriced, errOut)
	}
	for _, key := range []string{`"session_id"`, `"harness"`, `"repo"`, `"project"`, `"start"`, `"end"`, `"calls"`, `"tools"`,
		`"cost"`, `"total"`, `"tokens"`, `"input"`, `"output"`, `"cache_read"`, `"cache_write"`, `"models"`, `"totals"`} {
		if !strings.Contains(out, key) {
			t.Errorf("JSON lacks %s", key)
		}
	}
}

func TestSessionsFormats(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		check func(t *testing.T, out string)
	}{
		{"ndjson", []string{"--format", "ndjson"}, func(t *testing.T, out string) {
			lines := strings.Split(strings.TrimSpace(out), "\n")
			if len(lines) != 7 {
				t.Fatalf("%d lines, want 7", len(lines))
			}
			for _, l := range lines {
				var v map[string]any
				if err := json.Unmarshal([]byte(l), &v); err != nil || v["session_id"] == nil {
					t.Errorf("line %q: %v", l, err)
				}
			}
		}},
		{"csv", []string{"--format", "csv"}, func(t *testing.T, out string) {
			rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
			if err != nil || len(rows) != 8 || rows[0][0] != "session_id" || len(rows[1]) != len(rows[0]) {
				t.Errorf("rows %v, %v", rows, err)
			}
		}},
		{"harness", []string{"--format", "ndjson", "--harness", "codex"}, func(t *testing.T, out string) {
			if n := strings.Count(out, "\n"); n != 4 || strings.Contains(out, `"claude-code"`) {
				t.Errorf("%d codex sessions, want 4:\n%s", n, out)
			}
		}},
		{"since", []string{"--format", "ndjson", "--since", "2026-12-02"}, func(t *testing.T, out string) {
			if out != "" {
				t.Errorf("sessions after the fixtures' day: %s", out)
			}
		}},
		{"repo", []string{"--format", "ndjson", "--repo", "/home/dev/src/calc"}, func(t *testing.T, out string) {
			if n := strings.Count(out, "\n"); n != 1 || !strings.Contains(out, `"cwd":"/home/dev/src/calc"`) {
				t.Errorf("%d sessions under the repo, want the calc one:\n%s", n, out)
			}
		}},
		{"by model csv", []string{"--format", "csv", "--by", "model"}, func(t *testing.T, out string) {
			if !strings.Contains(out, "claude-opus-5-5,3,20,20000,1000,100000,4000,0.14,0.14") || !strings.Contains(out, "gpt-5.6-terra,1,3,") {
				t.Errorf("by model:\n%s", out)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runBinary(t, append(append([]string{"sessions"}, tc.args...), fixtureDirs...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			tc.check(t, out)
		})
	}
}

func TestSessionsTables(t *testing.T) {
	for _, by := range []string{"", "day", "model", "project"} {
		t.Run("by "+by, func(t *testing.T) {
			args := append([]string{"sessions", "--format", "table"}, fixtureDirs...)
			name := "sessions.golden"
			if by != "" {
				args, name = append(args, "--by", by), "sessions-by-"+by+".golden"
			}
			code, out, errOut := runBinary(t, args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			golden(t, name, []byte(out))
		})
	}
}

func TestSessionsUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"--format", "xml"}, 2, "--format"},
		{[]string{"--by", "year"}, 2, `--by: want day, week, month, model, project, harness, got "year"`},
		{[]string{"--tz", "Mars/Olympus"}, 2, `--tz: want an IANA zone name`},
		{[]string{"--until", "tomorrow"}, 2, `--until: want a date`},
		{[]string{"--since", "2026-12-02", "--until", "2026-12-01"}, 2, `--until 2026-12-01 is not after --since 2026-12-02`},
		{[]string{"--harness", "claude"}, 2, `--harness: want one of claude-code, codex, gemini, opencode, qwen-code, got "claude"`},
		{[]string{"--since", "soon"}, 2, "--since"},
		{[]string{"extra"}, 2, `unexpected argument "extra"`},
		{[]string{"--prices", "/nonexistent/dir/"}, 1, "--prices: stat /nonexistent/dir/: no such file"}, // named, so it must be there
		{[]string{"-h"}, 0, ""},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, _, errOut := runBinary(t, append(append([]string{"sessions"}, tc.args...), fixtureDirs...)...)
			if code != tc.code || !strings.Contains(errOut, tc.stderr) {
				t.Errorf("exit %d, stderr %q; want %d with %q", code, errOut, tc.code, tc.stderr)
			}
		})
	}
	bad := t.TempDir() + "/prices.json"
	if err := os.WriteFile(bad, []byte(`{"models":{"x":[{"input":-1}]}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runBinary(t, append([]string{"sessions", "--prices", bad}, fixtureDirs...)...)
	if code != 1 || !strings.Contains(errOut, bad) || !strings.Contains(errOut, "negative price") {
		t.Errorf("bad prices file: exit %d, stderr %q", code, errOut)
	}
}

// TestSessionsForksLog: a session the daemon's forks log names is the judged session's judge spend, in
// the JSON and in the table's JUDGE column, and its copy of the parent's history is no warning.
func TestSessionsForksLog(t *testing.T) {
	state := t.TempDir()
	if err := os.MkdirAll(state+"/saverd", 0o700); err != nil {
		t.Fatal(err)
	}
	log := `{"session_id":"04f0f6ba-c937-4e53-aa5b-13778f5eb2f2","parent":"13c0eb32-b32a-4091-966d-1055a1ec77df","harness":"claude-code","purpose":"judge"}` + "\nnot json\n"
	if err := os.WriteFile(state+"/saverd/forks.jsonl", []byte(log), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binPath, "sessions", "--format", "json", "--claude-dir", fixtureClaude)
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+state, "XDG_CONFIG_HOME="+state, "GORACE=atexit_sleep_ms=0")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, errb.String())
	}
	var rep struct {
		Sessions []struct {
			SessionID string `json:"session_id"`
			Judge     *struct {
				Forks int      `json:"forks"`
				Calls int      `json:"calls"`
				Cost  *float64 `json:"cost"`
			} `json:"judge"`
		} `json:"sessions"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Sessions) != 2 {
		t.Fatalf("%d sessions, want the fork left out of 3", len(rep.Sessions))
	}
	var cost float64
	for _, s := range rep.Sessions {
		if s.SessionID == "13c0eb32-b32a-4091-966d-1055a1ec77df" {
			if s.Judge == nil || s.Judge.Forks != 1 || s.Judge.Calls != 3 || s.Judge.Cost == nil {
				t.Fatalf("judge spend %+v, want the fork's 3 calls", s.Judge)
			}
			cost = *s.Judge.Cost
		}
	}
	if !strings.Contains(errb.String(), "forks.jsonl:2: not a fork record") || strings.Contains(errb.String(), "repeats") {
		t.Errorf("stderr %q: want the bad line, and no warning about the fork's copy of its parent", errb.String())
	}
	cmd = exec.Command(binPath, "sessions", "--format", "table", "--claude-dir", fixtureClaude)
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+state, "XDG_CONFIG_HOME="+state, "GORACE=atexit_sleep_ms=0")
	table, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(string(table), "\n"); !strings.Contains(lines[0], " JUDGE ") ||
		!slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, " "+view.USD(cost)+" ") }) {
		t.Errorf("the table has no JUDGE column with the fork's %s:\n%s", view.USD(cost), table)
	}
}
