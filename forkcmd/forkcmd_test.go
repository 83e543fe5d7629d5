package forkcmd

import (
	"context"
	"os"
	"path/filepath"
	"slices"
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

func TestClaudeArgs(t *testing.T) {
	got := strings.Join(ClaudeArgs(Request{SessionID: "s1", Model: "claude-opus-5-5"}), " ")
	want := `-p --resume=s1 --fork-session --output-format json --max-turns 1 --permission-mode plan --settings {"disableAllHooks":true} --model=claude-opus-5-5`
	if got != want {
		t.Fatalf("args %q\nwant %q", got, want)
	}
}

// TestHostileIDs: a session id or a model a hook payload carries is data. None of these may reach a
// client's command line as an option or a second argument: each is refused with a reason, before any
// process starts, and the accepted ones ride inside their option's own argument.
func TestHostileIDs(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("SAVERD_JUDGE_CMD", "")
	// A claude and a codex that would record being run: none of the refused requests may start them.
	bin := t.TempDir()
	ran := filepath.Join(bin, "ran")
	for _, name := range []string{"claude", "codex"} {
		body := "#!/bin/sh\necho \"$0 $*\" >> " + ran + "\nexit 1\n"
		if err := os.WriteFile(filepath.Join(bin, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", bin)
	cases := []struct {
		name, harness, id, model, err string
	}{
		{"an option for an id", HarnessClaude, "--dangerously-skip-permissions", "", "is not one a client names a session by"},
		{"a short option", HarnessClaude, "-p", "", "is not one a client names a session by"},
		{"an option with a value", HarnessClaude, "--settings={}", "", "is not one a client names a session by"},
		{"a second argument", HarnessClaude, "s1 --dangerously-skip-permissions", "", "is not one a client names a session by"},
		{"a newline", HarnessClaude, "s1\n--verbose", "", "is not one a client names a session by"},
		{"a path", HarnessClaude, "../../etc/passwd", "", "is not one a client names a session by"},
		{"a leading dot", HarnessClaude, ".hidden", "", "is not one a client names a session by"},
		{"a NUL", HarnessClaude, "s1\x00x", "", "is not one a client names a session by"},
		{"not ASCII", HarnessClaude, "s\u0131d", "", "is not one a client names a session by"},
		{"too long", HarnessClaude, strings.Repeat("a", 129), "", "is not one a client names a session by"},
		{"empty", HarnessClaude, "", "", "no session id to fork"},
		{"an option for a model", HarnessClaude, "s1", "--dangerously-skip-permissions", "is not a model name"},
		{"a model with a space", HarnessClaude, "s1", "opus --verbose", "is not a model name"},
		{"a model with a newline", HarnessCodex, "", "gpt-5.5\n-c", "is not a model name"},
		{"a Codex option for a model", HarnessCodex, "", "--dangerously-bypass-approvals-and-sandbox", "is not a model name"},
		{"a model with a tab", HarnessCodex, "", "gpt\t5", "is not a model name"},
	}
	cfg, _ := Load()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := Request{Harness: c.harness, SessionID: c.id, Model: c.model, Purpose: "judge", Prompt: "p"}
			if err := Available(cfg, req); err == nil || !strings.Contains(err.Error(), c.err) {
				t.Fatalf("Available = %v, want %q", err, c.err)
			}
			if _, err := Run(context.Background(), cfg, req); err == nil || !strings.Contains(err.Error(), c.err) {
				t.Fatalf("Run = %v, want %q", err, c.err)
			}
		})
	}
	if b, err := os.ReadFile(ran); err == nil {
		t.Fatalf("a refused request ran the client:\n%s", b)
	}
	// What is accepted is handed over as one argument per option.
	for _, ok := range []struct{ id, model string }{
		{"0b4e7c1a-57f2-4a8e-9c1d-2f6a0b9e3d11", "claude-opus-4-6[1m]"},
		{"s1", "claude-sonnet-4-5-20250929"},
	} {
		if err := Available(cfg, Request{SessionID: ok.id, Model: ok.model}); err != nil {
			t.Fatalf("Available(%q, %q) = %v", ok.id, ok.model, err)
		}
		args := ClaudeArgs(Request{SessionID: ok.id, Model: ok.model})
		if !slices.Contains(args, "--resume="+ok.id) || !slices.Contains(args, "--model="+ok.model) {
			t.Fatalf("args %q", args)
		}
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
	res, err := Run(context.Background(), cfg, Request{SessionID: "s9", Purpose: "judge", Prompt: "judge me\n", Cwd: dir, Model: "m1"})
	if err != nil || res.Text != "judge me|s9|judge|1" || res.Model != "m1" {
		t.Fatalf("Run = %+v, %v", res, err)
	}
	// A client that exits 1 with a result saying it failed: its words, and what it spent.
	t.Setenv("SAVERD_JUDGE_CMD", `echo '{"is_error":true,"subtype":"error_max_turns","session_id":"f7","usage":{"input_tokens":5,"output_tokens":1}}'; exit 1`)
	cfg, _ = Load()
	res, err = Run(context.Background(), cfg, Request{SessionID: "s9"})
	if err == nil || !strings.Contains(err.Error(), "the fork failed (error_max_turns)") || res.ForkID != "f7" || res.Usage.InputTokens != 5 {
		t.Fatalf("a failed fork: %+v, %v", res, err)
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
