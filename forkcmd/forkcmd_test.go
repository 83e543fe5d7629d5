package forkcmd

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseClaude(t *testing.T) {
	cases := []struct {
		name, out, text, err string
	}{
		{"result", `{"type":"result","subtype":"success","is_error":false,"result":"{\"findings\":[]}","session_id":"f1","total_cost_usd":0.02,"usage":{"input_tokens":3,"output_tokens":40,"cache_read_input_tokens":9000,"cache_creation_input_tokens":10}}`, `{"findings":[]}`, ""},
		{"events array", `[{"type":"system"},{"type":"result","is_error":false,"result":"ok","usage":{"input_tokens":1,"output_tokens":1}}]`, "ok", ""},
		{"max turns", `{"type":"result","subtype":"error_max_turns","is_error":true,"result":""}`, "", "the fork failed (error_max_turns)"},
		{"api error", `{"type":"result","subtype":"success","is_error":true,"result":"API Error: 400 bad"}`, "", "the fork failed (success: API Error: 400 bad)"},
		{"prose", "I could not do that", "", "not its JSON result"},
		{"no usage", `{"type":"result","is_error":false,"result":"x"}`, "", "no result text or usage"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := ParseClaude([]byte(c.out))
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err = %v, want %q", err, c.err)
				}
				return
			}
			if err != nil || res.Text != c.text {
				t.Fatalf("ParseClaude = %+v, %v", res, err)
			}
		})
	}
	res, _ := ParseClaude([]byte(cases[0].out))
	if res.ForkID != "f1" || res.CostUSD == nil || *res.CostUSD != 0.02 || res.Usage.CacheReadInputTokens != 9000 {
		t.Fatalf("result %+v", res)
	}
}

func TestClaudeArgs(t *testing.T) {
	got := strings.Join(ClaudeArgs(Request{SessionID: "s1", Model: "claude-opus-5-5"}), " ")
	want := `-p --resume s1 --fork-session --output-format json --max-turns 1 --permission-mode plan --settings {"disableAllHooks":true} --model claude-opus-5-5`
	if got != want {
		t.Fatalf("args %q\nwant %q", got, want)
	}
}

func TestRunConfiguredCommand(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := t.TempDir()
	script := filepath.Join(dir, "judge.sh")
	// The prompt arrives on stdin and the request in the environment; the marker keeps hooks quiet.
	body := `#!/bin/sh
read -r prompt
printf '{"is_error":false,"result":"%s|%s|%s|%s","usage":{"input_tokens":1,"output_tokens":2}}' "$prompt" "$SAVERD_SESSION_ID" "$SAVERD_PURPOSE" "$SAVERD_FORK"
`
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SAVERD_JUDGE_CMD", script)
	cfg, err := Load()
	if err != nil || cfg.Source != "SAVERD_JUDGE_CMD" {
		t.Fatalf("Load = %+v, %v", cfg, err)
	}
	res, err := Run(context.Background(), cfg, Request{SessionID: "s9", Purpose: "judge", Prompt: "judge me\n", Cwd: dir})
	if err != nil || res.Text != "judge me|s9|judge|1" {
		t.Fatalf("Run = %+v, %v", res, err)
	}

	t.Setenv("SAVERD_JUDGE_CMD", "echo 'rate limited' >&2; exit 3")
	cfg, _ = Load()
	if _, err := Run(context.Background(), cfg, Request{SessionID: "s9"}); err == nil || !strings.Contains(err.Error(), "rate limited") {
		t.Fatalf("a failing command: %v, want its stderr", err)
	}
	t.Setenv("SAVERD_JUDGE_CMD", "sleep 30")
	cfg, _ = Load()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := Run(ctx, cfg, Request{SessionID: "s9"}); err == nil || !strings.Contains(err.Error(), "did not answer") {
		t.Fatalf("a hanging command: %v", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("a timed-out fork took %s to end", took)
	}
}

func TestLoadRefusesABadConfig(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("SAVERD_JUDGE_CMD", "")
	if err := os.MkdirAll(filepath.Join(dir, "saverd"), 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "saverd", ConfigFile)
	if err := os.WriteFile(path, []byte(`{"judgeCommand": `), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(); err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("Load = %v, want an error naming %s", err, path)
	}
	if err := os.WriteFile(path, []byte(`{"judgeCommand": "my-judge"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if cfg, err := Load(); err != nil || cfg.Claude != "my-judge" || cfg.Source != path {
		t.Fatalf("Load = %+v, %v", cfg, err)
	}
}

func TestNoClaudeOnPath(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("SAVERD_JUDGE_CMD", "")
	t.Setenv("PATH", t.TempDir())
	cfg, _ := Load()
	if _, err := Run(context.Background(), cfg, Request{SessionID: "s"}); err == nil || !strings.Contains(err.Error(), "no claude on PATH") {
		t.Fatalf("err = %v", err)
	}
	if _, err := Run(context.Background(), cfg, Request{Harness: HarnessCodex}); err == nil || !strings.Contains(err.Error(), "no codex on PATH") {
		t.Fatalf("err = %v", err)
	}
}
