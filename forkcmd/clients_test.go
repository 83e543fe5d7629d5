package forkcmd_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/saverd/saverd/forkcmd"
	"github.com/saverd/saverd/harness"
	"github.com/saverd/saverd/harness/claude"
	"github.com/saverd/saverd/harness/codex"
)

// The forks of the live harnesses' own clients (harness/claude's and harness/codex's forkcmd.Client),
// run by forkcmd as the daemon runs them.

var (
	cc, cx  = string(harness.ClaudeCode), string(harness.Codex)
	clients = map[string]forkcmd.Client{cc: claude.Harness{}, cx: codex.Harness{}}
)

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
		{"an option for an id", cc, "--dangerously-skip-permissions", "", "is not one a client names a session by"},
		{"a short option", cc, "-p", "", "is not one a client names a session by"},
		{"an option with a value", cc, "--settings={}", "", "is not one a client names a session by"},
		{"a second argument", cc, "s1 --dangerously-skip-permissions", "", "is not one a client names a session by"},
		{"a newline", cc, "s1\n--verbose", "", "is not one a client names a session by"},
		{"a path", cc, "../../etc/passwd", "", "is not one a client names a session by"},
		{"a leading dot", cc, ".hidden", "", "is not one a client names a session by"},
		{"a NUL", cc, "s1\x00x", "", "is not one a client names a session by"},
		{"not ASCII", cc, "s\u0131d", "", "is not one a client names a session by"},
		{"too long", cc, strings.Repeat("a", 129), "", "is not one a client names a session by"},
		{"empty", cc, "", "", "no session id to fork"},
		{"an option for a model", cc, "s1", "--dangerously-skip-permissions", "is not a model name"},
		{"a model with a space", cc, "s1", "opus --verbose", "is not a model name"},
		{"a model with a newline", cx, "", "gpt-5.5\n-c", "is not a model name"},
		{"a Codex option for a model", cx, "", "--dangerously-bypass-approvals-and-sandbox", "is not a model name"},
		{"a model with a tab", cx, "", "gpt\t5", "is not a model name"},
	}
	cfg, _ := forkcmd.Load()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := forkcmd.Request{Harness: c.harness, SessionID: c.id, Model: c.model, Purpose: "judge", Prompt: "p"}
			if err := forkcmd.Available(cfg, clients[c.harness], req); err == nil || !strings.Contains(err.Error(), c.err) {
				t.Fatalf("Available = %v, want %q", err, c.err)
			}
			if _, err := forkcmd.Run(context.Background(), cfg, clients[c.harness], req); err == nil || !strings.Contains(err.Error(), c.err) {
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
		if err := forkcmd.Available(cfg, claude.Harness{}, forkcmd.Request{SessionID: ok.id, Model: ok.model}); err != nil {
			t.Fatalf("Available(%q, %q) = %v", ok.id, ok.model, err)
		}
		_, args, _ := claude.Harness{}.ForkCommand(forkcmd.Request{SessionID: ok.id, Model: ok.model})
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
	cfg, err := forkcmd.Load()
	if err != nil || cfg.Source != "SAVERD_JUDGE_CMD" {
		t.Fatalf("Load = %+v, %v", cfg, err)
	}
	res, err := forkcmd.Run(context.Background(), cfg, claude.Harness{}, forkcmd.Request{SessionID: "s9", Purpose: "judge", Prompt: "judge me\n", Cwd: dir, Model: "m1"})
	if err != nil || res.Text != "judge me|s9|judge|1" || res.Model != "m1" {
		t.Fatalf("Run = %+v, %v", res, err)
	}
	// A client that exits 1 with a result saying it failed: its words, and what it spent.
	t.Setenv("SAVERD_JUDGE_CMD", `echo '{"is_error":true,"subtype":"error_max_turns","session_id":"f7","usage":{"input_tokens":5,"output_tokens":1}}'; exit 1`)
	cfg, _ = forkcmd.Load()
	res, err = forkcmd.Run(context.Background(), cfg, claude.Harness{}, forkcmd.Request{SessionID: "s9"})
	if err == nil || !strings.Contains(err.Error(), "the fork failed (error_max_turns)") || res.ForkID != "f7" || res.Usage.InputTokens != 5 {
		t.Fatalf("a failed fork: %+v, %v", res, err)
	}

	t.Setenv("SAVERD_JUDGE_CMD", "echo 'rate limited' >&2; exit 3")
	cfg, _ = forkcmd.Load()
	if _, err := forkcmd.Run(context.Background(), cfg, claude.Harness{}, forkcmd.Request{SessionID: "s9"}); err == nil || !strings.Contains(err.Error(), "rate limited") {
		t.Fatalf("a failing command: %v, want its stderr", err)
	}
	t.Setenv("SAVERD_JUDGE_CMD", "sleep 30")
	cfg, _ = forkcmd.Load()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := forkcmd.Run(ctx, cfg, claude.Harness{}, forkcmd.Request{SessionID: "s9"}); err == nil || !strings.Contains(err.Error(), "did not answer") {
		t.Fatalf("a hanging command: %v", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("a timed-out fork took %s to end", took)
	}
}

func TestNoClaudeOnPath(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("SAVERD_JUDGE_CMD", "")
	t.Setenv("PATH", t.TempDir())
	cfg, _ := forkcmd.Load()
	if _, err := forkcmd.Run(context.Background(), cfg, claude.Harness{}, forkcmd.Request{SessionID: "s"}); err == nil || !strings.Contains(err.Error(), "no claude on PATH") {
		t.Fatalf("err = %v", err)
	}
	if _, err := forkcmd.Run(context.Background(), cfg, codex.Harness{}, forkcmd.Request{Harness: cx}); err == nil || !strings.Contains(err.Error(), "no codex on PATH") {
		t.Fatalf("err = %v", err)
	}
}
