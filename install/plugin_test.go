//go:build unix

package install_test

import (
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/saverd/saverd/harness/claude"
	"github.com/saverd/saverd/harness/codex"
)

var writePlugin = flag.Bool("write-plugin", false, "rewrite the plugin's generated files under plugins/saver")

// pluginDir is saverd's plugin in this repository.
const pluginDir = "../plugins/saver"

// TestPluginFiles: the plugin's hooks, command and skill are what install declares and writes, so the
// two routes never drift apart (-write-plugin rewrites them).
func TestPluginFiles(t *testing.T) {
	for _, c := range []struct{ file, want string }{
		{"hooks/hooks.json", cc.PluginHooks()},
		{"hooks/codex.json", cx.PluginHooks()},
		{"commands/saver.md", claude.PluginCommandFile},
		{"codex-skills/saver/SKILL.md", codex.PluginSkill},
		{"codex-skills/saver/agents/openai.yaml", codex.SkillPolicy},
	} {
		path := filepath.Join(pluginDir, c.file)
		if *writePlugin {
			write(t, path, c.want, 0o644)
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != c.want {
			t.Errorf("%s is not what install declares (go test ./install -run PluginFiles -args -write-plugin): %v\n%s", path, err, got)
		}
	}
	for _, f := range []string{"hooks/hooks.json", "hooks/codex.json", ".claude-plugin/plugin.json", ".codex-plugin/plugin.json",
		"../../.claude-plugin/marketplace.json", "../../.agents/plugins/marketplace.json"} {
		b, err := os.ReadFile(filepath.Join(pluginDir, f))
		if err != nil || !json.Valid(b) {
			t.Errorf("%s: %v, valid JSON %v", f, err, json.Valid(b))
		}
	}
	var cmds []string
	var hooks struct {
		Hooks map[string][]struct {
			Matcher string
			Hooks   []struct{ Command string }
		}
	}
	b, _ := os.ReadFile(filepath.Join(pluginDir, "hooks/hooks.json"))
	if err := json.Unmarshal(b, &hooks); err != nil {
		t.Fatal(err)
	}
	for ev, groups := range hooks.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				cmds = append(cmds, h.Command)
				if !strings.Contains(h.Command, `sh "${CLAUDE_PLUGIN_ROOT}/hooks/run" `+ev) {
					t.Errorf("%s runs %q, not the launcher", ev, h.Command)
				}
			}
		}
	}
	if want := len(claude.Handlers("saverd")); len(cmds) != want {
		t.Errorf("%d plugin hooks, want %d", len(cmds), want)
	}
}

// TestPluginLauncher: the launcher finds saverd-hook on PATH or in ~/go/bin and runs it with --plugin;
// without it, it says so at the session's start, blocks a saverd command (the line must not reach the
// model) and answers nothing else.
func TestPluginLauncher(t *testing.T) {
	run := filepath.Join(pluginDir, "hooks", "run")
	home := t.TempDir()
	launch := func(path, stdin string, args ...string) string {
		t.Helper()
		cmd := exec.Command("sh", append([]string{run}, args...)...)
		cmd.Env = []string{"PATH=" + path, "HOME=" + home}
		cmd.Stdin = strings.NewReader(stdin)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("run %q: %v (a hook must exit 0)", args, err)
		}
		return string(out)
	}
	sysPath := "/usr/bin:/bin"
	answer := func(out string) map[string]any {
		t.Helper()
		var a map[string]any
		if err := json.Unmarshal([]byte(out), &a); err != nil {
			t.Fatalf("printed %q: %v", out, err)
		}
		return a
	}
	if a := answer(launch(sysPath, "{}", "SessionStart")); !strings.Contains(a["systemMessage"].(string), "saverd-hook is not on PATH") {
		t.Errorf("SessionStart without saverd-hook: %v", a)
	}
	for _, p := range []string{"/saver:saver check", "/saver", "$saver fix 1", "$saver:saver"} {
		payload, _ := json.Marshal(map[string]string{"hook_event_name": "UserPromptSubmit", "prompt": p})
		a := answer(launch(sysPath, string(payload), "--harness", "codex", "UserPromptSubmit"))
		if a["decision"] != "block" || !strings.Contains(a["reason"].(string), "nothing was sent to the model") || a["hookSpecificOutput"] != nil {
			t.Errorf("%q without saverd-hook, for Codex: %v", p, a)
		}
		a = answer(launch(sysPath, string(payload), "UserPromptSubmit"))
		if spec, _ := a["hookSpecificOutput"].(map[string]any); a["decision"] != "block" || spec["suppressOriginalPrompt"] != true {
			t.Errorf("%q without saverd-hook, for Claude Code: %v", p, a)
		}
	}
	for _, p := range []string{"/savers", "fix the /saver tests", "hello"} {
		payload, _ := json.Marshal(map[string]string{"prompt": p})
		if out := launch(sysPath, string(payload), "UserPromptSubmit"); out != "" {
			t.Errorf("%q without saverd-hook answered %q", p, out)
		}
	}
	if a := answer(launch(sysPath, `{"prompt":"/saver:saver"}`, "UserPromptExpansion")); a["decision"] != "block" {
		t.Errorf("the guard without saverd-hook: %v", a)
	}
	if out := launch(sysPath, "{}", "PostToolUse"); out != "" {
		t.Errorf("PostToolUse without saverd-hook printed %q", out)
	}
	// Found in ~/go/bin (go install's default), run with --plugin and the launcher's arguments.
	write(t, filepath.Join(home, "go", "bin", "saverd-hook"), "#!/bin/sh\necho \"ran $*\"\n", 0o755)
	if out := launch(sysPath, "{}", "--harness", "codex", "Stop"); out != "ran hook --plugin --harness codex Stop\n" {
		t.Errorf("with ~/go/bin/saverd-hook: %q", out)
	}
	onPath := t.TempDir()
	write(t, filepath.Join(onPath, "saverd-hook"), "#!/bin/sh\necho \"path $*\"\n", 0o755)
	if out := launch(onPath+":"+sysPath, "{}", "Stop"); out != "path hook --plugin Stop\n" {
		t.Errorf("with saverd-hook on PATH: %q", out)
	}
}
