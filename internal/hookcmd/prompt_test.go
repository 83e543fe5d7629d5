package hookcmd

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// noDaemon points the hook at a socket nobody serves, with its state and settings in a temp dir.
func noDaemon(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	// In a directory only this user can enter: one others can reach is refused before "no daemon" is seen.
	t.Setenv("SAVERD_SOCKET", filepath.Join(privateDir(t), "none.sock"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	t.Setenv("HOME", dir)
	t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(dir, "claude"))
	t.Setenv("CODEX_HOME", filepath.Join(dir, "codex"))
	t.Setenv("CLAUDE_PROJECT_DIR", filepath.Join(dir, "proj"))
	t.Setenv(EnvMarker, "")
	return dir
}

func run(t *testing.T, payload string, args ...string) map[string]any {
	t.Helper()
	var out bytes.Buffer
	if code := Run(args, strings.NewReader(payload), &out, ""); code != 0 {
		t.Fatalf("hook %q exited %d: a hook always exits 0", args, code)
	}
	if out.Len() == 0 {
		return nil
	}
	var a map[string]any
	if err := json.Unmarshal(out.Bytes(), &a); err != nil {
		t.Fatalf("hook %q printed %q: %v", args, out.String(), err)
	}
	return a
}

// TestNoDaemonStillBlocksSaver: with no daemon, a saverd command typed in any spelling is blocked all the
// same, saying why in the reason; any other prompt gets no answer (it goes to the model as typed).
func TestNoDaemonStillBlocksSaver(t *testing.T) {
	noDaemon(t)
	for _, c := range []struct {
		harness, prompt string
		block           bool
	}{
		{"claude-code", "/saver check", true},
		{"claude-code", "/saver:saver fix 1", true},
		{"codex", "$saver check", true},
		{"codex", " /saver ignore 1", true},
		{"claude-code", "fix the tests", false},
		{"codex", "$savers", false},
	} {
		payload, _ := json.Marshal(map[string]string{"session_id": "s", "cwd": "/p", "hook_event_name": "UserPromptSubmit", "prompt": c.prompt})
		a := run(t, string(payload), "--harness", c.harness, "UserPromptSubmit")
		if (a != nil) != c.block {
			t.Errorf("%s %q: answer %v, want a block: %v", c.harness, c.prompt, a, c.block)
			continue
		}
		if !c.block {
			continue
		}
		reason, _ := a["reason"].(string)
		if a["decision"] != "block" || !strings.Contains(reason, "no daemon answers at") || !strings.Contains(reason, "Nothing was sent to the model") || strings.Contains(reason, "\n") {
			t.Errorf("%s %q: answer %v; want a one-line block saying why", c.harness, c.prompt, a)
		}
		_, suppressed := a["hookSpecificOutput"]
		if suppressed != (c.harness == "claude-code") {
			t.Errorf("%s: hookSpecificOutput present %v; only Claude Code takes suppressOriginalPrompt", c.harness, suppressed)
		}
	}
}

// TestGuard: UserPromptExpansion blocks a /saver line without the daemon and says what it sees.
func TestGuard(t *testing.T) {
	noDaemon(t)
	a := run(t, `{"session_id":"s","cwd":"/p","hook_event_name":"UserPromptExpansion","command_name":"saver","command_args":"check","prompt":"/saver check"}`, "UserPromptExpansion")
	reason, _ := a["reason"].(string)
	if a["decision"] != "block" || !strings.Contains(reason, "/saver check") || !strings.Contains(reason, "no saverd daemon answers") {
		t.Errorf("guard answered %v", a)
	}
	if a := run(t, `{"session_id":"s","cwd":"/p","hook_event_name":"UserPromptExpansion","command_name":"review","prompt":"/review"}`, "UserPromptExpansion"); a != nil {
		t.Errorf("the guard answered another command: %v", a)
	}
}

// TestPluginStandsDown: the plugin's hooks do nothing while saverd's own hooks are in the settings.
func TestPluginStandsDown(t *testing.T) {
	dir := noDaemon(t)
	payload := `{"session_id":"s","cwd":"/p","hook_event_name":"UserPromptSubmit","prompt":"/saver:saver check"}`
	if a := run(t, payload, "--plugin", "UserPromptSubmit"); a == nil {
		t.Fatal("with no settings hooks the plugin's hook must answer")
	}
	settings := filepath.Join(dir, "proj", ".claude", "settings.local.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(settings, []byte(`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"'/my dir/saverd-hook' hook Stop"}]}]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if a := run(t, payload, "--plugin", "UserPromptSubmit"); a != nil {
		t.Errorf("the plugin's hook answered %v though saverd's hooks are in %s", a, settings)
	}
	if a := run(t, payload, "UserPromptSubmit"); a == nil {
		t.Error("the settings' own hook stood down")
	}
	if !hasSaverdHooks(settings) || hasSaverdHooks(filepath.Join(dir, "none.json")) {
		t.Error("hasSaverdHooks")
	}
}

// TestUninstalledStartsNoDaemon: after an uninstall's mark, a hook whose harness's settings name none of
// saverd's hooks starts no daemon (and a command typed says why); with hooks in any of its settings
// files, or no mark, it may start one as before.
func TestUninstalledStartsNoDaemon(t *testing.T) {
	dir := noDaemon(t)
	if d := uninstalled("codex"); d != nil {
		t.Fatalf("no mark: declined %v", d)
	}
	mark := filepath.Join(dir, "state", "saverd", "uninstalled")
	if err := os.MkdirAll(filepath.Dir(mark), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(mark, []byte("uninstalled\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	d := uninstalled("codex")
	if d == nil || d.mark != mark || len(d.files) != 2 || !strings.Contains(d.Error(), filepath.Join(dir, "codex", "hooks.json")) {
		t.Fatalf("mark, no hooks: declined %+v", d)
	}
	// The launcher: a program that leaves a file when it is started.
	started := filepath.Join(dir, "started")
	launcher := filepath.Join(dir, "saverd")
	if err := os.WriteFile(launcher, []byte("#!/bin/sh\ntouch '"+started+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	Run([]string{"--harness", "codex", "UserPromptSubmit"}, strings.NewReader(`{"session_id":"s","cwd":"/p","prompt":"$saver check"}`), &out, launcher)
	if _, err := os.Stat(started); err == nil {
		t.Error("a hook after the uninstall started the daemon")
	}
	var block struct{ Reason string }
	if err := json.Unmarshal(out.Bytes(), &block); err != nil {
		t.Fatalf("answer %q: %v", out.String(), err)
	}
	// Short, and ends with the command to type for this hook's harness; the paths are the log's.
	if want := "saverd was uninstalled, so $saver check did nothing. To use it again, run: saverd install codex"; block.Reason != want {
		t.Errorf("block %q; want %q", block.Reason, want)
	}
	for _, f := range []string{filepath.Join(dir, "codex", "hooks.json"), filepath.Join(dir, "proj", ".codex", "hooks.json")} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"saverd-hook hook --harness codex Stop"}]}]}}`), 0o644); err != nil {
			t.Fatal(err)
		}
		if d := uninstalled("codex"); d != nil {
			t.Errorf("hooks in %s: declined %v", f, d)
		}
		os.Remove(f)
	}
	if d := uninstalled("claude-code"); d == nil {
		t.Error("the mark holds for Claude Code's hooks too")
	}
}
