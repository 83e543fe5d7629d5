package forkcmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	// total_cost_usd is cumulative over the resumed session: never the fork's figure. usage is its own.
	res, _ := ParseClaude([]byte(cases[0].out))
	if res.ForkID != "f1" || res.Usage.CacheReadInputTokens != 9000 || res.Model != "" {
		t.Fatalf("result %+v", res)
	}
	// modelUsage names the model when it names one only; a failed result still says what it spent.
	failed := `{"type":"result","subtype":"error_max_turns","is_error":true,"result":"","session_id":"f2","total_cost_usd":0.5,` +
		`"usage":{"input_tokens":69,"output_tokens":15,"cache_read_input_tokens":321,"cache_creation_input_tokens":20},` +
		`"modelUsage":{"claude-opus-5-5":{"costUSD":0.5}}}`
	res, err := ParseClaude([]byte(failed))
	if err == nil || !strings.Contains(err.Error(), "error_max_turns") || res.ForkID != "f2" || res.Model != "claude-opus-5-5" ||
		res.Usage.InputTokens != 69 || !res.Spent() || res.Text != "" {
		t.Fatalf("failed result %+v, %v", res, err)
	}
	two := `{"is_error":false,"result":"x","usage":{"input_tokens":1},"modelUsage":{"a":{},"b":{}}}`
	if res, _ := ParseClaude([]byte(two)); res.Model != "" {
		t.Fatalf("two models named: Model %q, want none", res.Model)
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
