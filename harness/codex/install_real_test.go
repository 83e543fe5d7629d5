//go:build linux

package codex_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/saverd/saverd/harness/codex"
	"github.com/saverd/saverd/install"
	"github.com/saverd/saverd/internal/codexapi"
	"github.com/saverd/saverd/internal/codexcli"
	"github.com/saverd/saverd/internal/golden"
)

// codexEnv is one CODEX_HOME with saverd's hooks installed by install.Install, where the hook command
// is a stand-in `saverd` script that logs each payload and prints the answer the test chose.
type codexEnv struct {
	bin, home, proj, logDir, ansDir string
}

// payload is one hook invocation as the stand-in logged it.
type payload struct {
	Event string
	Raw   []byte
	Field map[string]any
}

const hookScript = `#!/bin/sh
# Stand-in for saverd: argv is "hook --harness codex EVENT".
ev="$4"
n=$(ls "LOGDIR" | wc -l)
cat > "LOGDIR/$(printf %03d "$n")-$ev.json"
a="ANSDIR/$ev.json"
if [ -f "$a.once" ]; then cat "$a.once"; rm -f "$a.once"; elif [ -f "$a" ]; then cat "$a"; fi
exit 0
`

func newCodexEnv(t *testing.T, bin string) *codexEnv {
	root := t.TempDir()
	e := &codexEnv{bin: bin, home: filepath.Join(root, "codex"), proj: filepath.Join(root, "proj"),
		logDir: filepath.Join(root, "log"), ansDir: filepath.Join(root, "answers")}
	for _, d := range []string{e.proj, e.logDir, e.ansDir, filepath.Join(root, "bin")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	self := filepath.Join(root, "bin", "saverd")
	script := strings.NewReplacer("LOGDIR", e.logDir, "ANSDIR", e.ansDir).Replace(hookScript)
	if err := os.WriteFile(self, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", root)
	t.Setenv("CODEX_HOME", e.home)
	return e
}

// start serves steps and points CODEX_HOME at them, then installs saverd's hooks and trust the way
// `saverd install codex` does.
func (e *codexEnv) start(t *testing.T, steps ...codexapi.Step) *codexapi.Server {
	srv, err := codexapi.Start(steps...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	codexcli.Home(t, e.home, srv.URL, "")
	if _, err := install.Install(install.Options{Target: codex.Harness{}, Scope: "user", Bin: filepath.Join(filepath.Dir(e.home), "bin", "saverd")}); err != nil {
		t.Fatal(err)
	}
	return srv
}

// run answers the events of answers (event → JSON; a key ending in ".once" answers once), runs
// `codex exec --json` with prompt and returns what it printed and every payload logged.
func (e *codexEnv) run(t *testing.T, answers map[string]string, prompt string, extra ...string) (codexcli.Result, []payload) {
	t.Helper()
	e.answer(t, answers)
	args := append([]string{"exec", "--json", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", "-m", "gpt-5.5"}, extra...)
	if prompt != "" {
		args = append(args, prompt)
	}
	res := codexcli.Run(t, e.bin, e.home, e.proj, "", args...)
	return res, e.payloads(t)
}

// answer clears the log and the answers, then writes answers (event → JSON; a key ending in ".once"
// answers once).
func (e *codexEnv) answer(t *testing.T, answers map[string]string) {
	t.Helper()
	for _, d := range []string{e.logDir, e.ansDir} {
		entries, _ := os.ReadDir(d)
		for _, f := range entries {
			os.Remove(filepath.Join(d, f.Name()))
		}
	}
	for ev, a := range answers {
		name := ev + ".json"
		if base, once := strings.CutSuffix(ev, ".once"); once {
			name = base + ".json.once"
		}
		if err := os.WriteFile(filepath.Join(e.ansDir, name), []byte(a), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// payloads is every hook payload logged since the last answer, in order.
func (e *codexEnv) payloads(t *testing.T) []payload {
	t.Helper()
	entries, _ := os.ReadDir(e.logDir)
	var out []payload
	for _, f := range entries {
		raw, err := os.ReadFile(filepath.Join(e.logDir, f.Name()))
		if err != nil {
			t.Fatal(err)
		}
		p := payload{Event: strings.TrimSuffix(f.Name()[4:], ".json"), Raw: raw}
		if err := json.Unmarshal(raw, &p.Field); err != nil {
			t.Errorf("%s: the payload is not JSON: %v\n%s", f.Name(), err, raw)
		}
		out = append(out, p)
	}
	return out
}

func events(ps []payload) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Event)
	}
	return out
}

var (
	echoHi    = codexapi.Step{Calls: []codexapi.Call{{Name: "exec_command", Arguments: map[string]any{"cmd": "echo hi"}}}, Usage: codexapi.Usage{Input: 1000, Cached: 200, Output: 50}}
	summary   = codexapi.Step{Text: "SUMMARY of the work so far", Usage: codexapi.Usage{Input: 900, Output: 30}}
	allDone   = codexapi.Step{Text: "all done", Usage: codexapi.Usage{Input: 1200, Cached: 1000, Output: 20, Reasoning: 5}}
	compactAt = []string{"-c", "model_auto_compact_token_limit=500"}
)

// TestRealCodex runs the real Codex CLI 0.169.0 offline against a scripted Responses API with the
// hooks and trust `saverd install codex` writes, and pins what each hook answer does. protocol.md's
// Codex section is this test's findings.
func TestRealCodex(t *testing.T) {
	bin := codexcli.Binary(t)
	if !codexcli.Offline(t) {
		return
	}
	e := newCodexEnv(t, bin)

	t.Run("trusted hooks run, payloads", func(t *testing.T) {
		srv := e.start(t, echoHi, summary, allDone)
		res, ps := e.run(t, nil, "hello", compactAt...)
		if res.Err != nil {
			t.Fatalf("codex exec: %v\n%s", res.Err, res.Stderr)
		}
		got := strings.Join(events(ps), " ")
		want := "SessionStart UserPromptSubmit PreToolUse PostToolUse PreCompact PostCompact SessionStart Stop SessionEnd"
		if got != want {
			t.Errorf("hooks fired: %s\nwant %s", got, want)
		}
		if n := len(srv.Responses()); n != 3 {
			t.Errorf("%d model requests, want 3 (tool call, compaction, answer)", n)
		}
		seen := map[string]int{}
		for _, p := range ps {
			name := p.Event
			if p.Event == "SessionStart" {
				name += "-" + fmt.Sprint(p.Field["source"])
			}
			seen[name]++
			if seen[name] == 1 {
				golden.Check(t, "codex-hooks/"+name+".json", sanitize(e, p.Raw))
			}
		}
	})

	t.Run("a hook without trust is skipped without a word", func(t *testing.T) {
		e.start(t, echoHi, allDone)
		cfg, _ := codex.ConfigPath()
		hooks, _ := codex.Harness{}.SettingsPath("user", "")
		text, _ := os.ReadFile(cfg)
		edit, err := codex.SetTrust(cfg, string(text), []string{hooks + ":pre_tool_use:0:0"}, nil)
		if err != nil || len(edit.Changes) != 1 {
			t.Fatalf("drop one trust entry: %v %v", edit.Changes, err)
		}
		if err := os.WriteFile(cfg, []byte(edit.Text), 0o600); err != nil {
			t.Fatal(err)
		}
		res, ps := e.run(t, nil, "hello")
		if got := strings.Join(events(ps), " "); got != "SessionStart UserPromptSubmit PostToolUse Stop SessionEnd" {
			t.Errorf("hooks fired: %s; want all but the untrusted PreToolUse", got)
		}
		if res.Err != nil || strings.Contains(strings.ToLower(res.Stdout+res.Stderr), "untrusted") {
			t.Errorf("exit %v; want a silent success:\n%s\n%s", res.Err, res.Stdout, res.Stderr)
		}
	})

	t.Run("project scope", func(t *testing.T) {
		e.start(t, echoHi, allDone, echoHi, allDone)
		self := filepath.Join(filepath.Dir(e.home), "bin", "saverd")
		if _, err := install.Uninstall(install.Options{Target: codex.Harness{}, Scope: "user"}); err != nil {
			t.Fatal(err)
		}
		if _, err := install.Install(install.Options{Target: codex.Harness{}, Scope: "project", Dir: e.proj, Bin: self}); err != nil {
			t.Fatal(err)
		}
		defer install.Uninstall(install.Options{Target: codex.Harness{}, Scope: "project", Dir: e.proj})
		// Not run until the project is trusted, trust entries or not.
		if res, ps := e.run(t, nil, "hello"); res.Err != nil || len(ps) != 0 {
			t.Errorf("an untrusted project's hooks: exit %v, fired %v; want none", res.Err, events(ps))
		}
		cfg, _ := codex.ConfigPath()
		trustProject(t, cfg, e.proj)
		res, ps := e.run(t, nil, "hello")
		if res.Err != nil {
			t.Fatal(res.Err)
		}
		if got := strings.Join(events(ps), " "); got != "SessionStart UserPromptSubmit PreToolUse PostToolUse Stop SessionEnd" {
			t.Errorf("hooks fired from DIR/.codex/hooks.json: %q", got)
		}
	})

	t.Run("additionalContext", func(t *testing.T) {
		for _, c := range []struct {
			event string
			want  bool
		}{
			{"SessionStart", true}, {"UserPromptSubmit", true}, {"PreToolUse", true}, {"PostToolUse", true},
			{"PreCompact", false}, {"PostCompact", false}, {"Stop", false},
		} {
			t.Run(c.event, func(t *testing.T) {
				srv := e.start(t, echoHi, summary, allDone, allDone)
				marker := "CTX-" + c.event
				answer := fmt.Sprintf(`{"hookSpecificOutput":{"hookEventName":%q,"additionalContext":%q}}`, c.event, marker)
				res, _ := e.run(t, map[string]string{c.event: answer}, "hello", compactAt...)
				if res.Err != nil {
					t.Fatalf("codex exec: %v\n%s", res.Err, res.Stderr)
				}
				// The next turn too, so context a Stop answer leaves would show.
				id := threadID(t, res.Stdout)
				if r := codexcli.Run(t, e.bin, e.home, e.proj, "", "exec", "--json", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", "resume", id, "again"); r.Err != nil {
					t.Fatalf("codex exec resume: %v\n%s", r.Err, r.Stderr)
				}
				got, role := false, ""
				for _, r := range srv.Responses() {
					for _, item := range r.Input() {
						if b, _ := json.Marshal(item); strings.Contains(string(b), marker) {
							got, role = true, fmt.Sprint(item["type"], "/", item["role"])
						}
					}
				}
				if got != c.want {
					t.Errorf("%s additionalContext reached the model: %v, want %v", c.event, got, c.want)
				}
				if got && role != "message/developer" {
					t.Errorf("%s additionalContext arrived as %s, want a developer message", c.event, role)
				}
			})
		}
	})

	t.Run("UserPromptSubmit block", func(t *testing.T) {
		srv := e.start(t, allDone)
		res, _ := e.run(t, map[string]string{"UserPromptSubmit": `{"decision":"block","reason":"REASON-saver-pane"}`}, "/saver check")
		if res.Err != nil {
			t.Fatalf("codex exec: %v\n%s", res.Err, res.Stderr)
		}
		if n := len(srv.Responses()); n != 0 {
			t.Errorf("%d model requests; a blocked prompt must reach no model", n)
		}
		if strings.Contains(res.Stdout+res.Stderr, "REASON-saver-pane") {
			t.Errorf("codex exec showed the reason (protocol.md says it does not):\n%s\n%s", res.Stdout, res.Stderr)
		}
		if !strings.Contains(res.Stdout, `"type":"turn.completed","usage":{"input_tokens":0`) {
			t.Errorf("want an empty turn.completed:\n%s", res.Stdout)
		}
		id := threadID(t, res.Stdout)
		if r := codexcli.Run(t, e.bin, e.home, e.proj, "", "exec", "--json", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", "resume", id, "next"); r.Err != nil {
			t.Fatalf("resume: %v\n%s", r.Err, r.Stderr)
		}
		for _, r := range srv.Responses() {
			if strings.Contains(string(r.Body), "/saver check") {
				t.Error("the blocked prompt reached the model on the next turn")
			}
		}
	})

	t.Run("PreToolUse updatedInput", func(t *testing.T) {
		for _, c := range []struct {
			name, answer, ran, output string
		}{
			{"with allow", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"echo changed"}}}`, "echo changed", "changed\n"},
			{"without a decision", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"echo changed"}}}`, "echo hi", "hi\n"},
			{"deny", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"DENY-why"}}`, "", "Command blocked by PreToolUse hook: DENY-why. Command: echo hi"},
			{"block", `{"decision":"block","reason":"BLOCK-why"}`, "", "Command blocked by PreToolUse hook: BLOCK-why. Command: echo hi"},
		} {
			t.Run(c.name, func(t *testing.T) {
				srv := e.start(t, echoHi, allDone)
				res, _ := e.run(t, map[string]string{"PreToolUse": c.answer}, "hello")
				if res.Err != nil {
					t.Fatalf("codex exec: %v\n%s", res.Err, res.Stderr)
				}
				ran := regexp.MustCompile(`"command":"/bin/bash -lc '([^']*)'`).FindStringSubmatch(res.Stdout)
				if (c.ran == "") != (ran == nil) || (ran != nil && ran[1] != c.ran) {
					t.Errorf("ran %q, want %q:\n%s", ran, c.ran, res.Stdout)
				}
				if out := toolOutput(srv); !strings.Contains(out, c.output) {
					t.Errorf("the model got %q, want it to contain %q", out, c.output)
				}
			})
		}
	})

	t.Run("PostToolUse block replaces the output", func(t *testing.T) {
		srv := e.start(t, echoHi, allDone)
		if res, _ := e.run(t, map[string]string{"PostToolUse": `{"decision":"block","reason":"PTU-why"}`}, "hello"); res.Err != nil {
			t.Fatal(res.Err)
		}
		if out := toolOutput(srv); out != "PTU-why" {
			t.Errorf("the model got %q, want the reason alone", out)
		}
	})

	t.Run("Stop block continues the turn", func(t *testing.T) {
		srv := e.start(t, allDone, allDone)
		res, ps := e.run(t, map[string]string{"Stop.once": `{"decision":"block","reason":"CONT-check the tests"}`}, "hello")
		if res.Err != nil {
			t.Fatal(res.Err)
		}
		reqs := srv.Responses()
		if len(reqs) != 2 || !strings.Contains(string(reqs[1].Body), "CONT-check the tests") {
			t.Fatalf("%d requests; want a second one carrying the reason", len(reqs))
		}
		var active []any
		for _, p := range ps {
			if p.Event == "Stop" {
				active = append(active, p.Field["stop_hook_active"])
			}
		}
		if fmt.Sprint(active) != "[false true]" {
			t.Errorf("stop_hook_active over the two Stops = %v", active)
		}
	})

	t.Run("the TUI shows a block reason and a systemMessage", func(t *testing.T) {
		srv := e.start(t, allDone)
		cfg, _ := codex.ConfigPath()
		trustProject(t, cfg, e.proj) // else the TUI first asks "Trust this folder?"
		e.answer(t, map[string]string{
			"SessionStart":     `{"systemMessage":"SYS-tui-toast"}`,
			"UserPromptSubmit": `{"decision":"block","reason":"REASON-tui-pane"}`,
		})
		migrated := 0
		screen := codexcli.TUI(t, e.bin, e.home, e.proj, 30*time.Second, func(s string) (string, bool) {
			switch {
			case strings.Contains(s, "REASON-tui-pane") && strings.Contains(s, "SYS-tui-toast"):
				return "", true
			case migrated == 0 && strings.Contains(s, "Useexistingmodel"):
				// A newer model's announcement comes first: keep the configured one.
				migrated = 1
				return "2", false
			case migrated == 1:
				migrated = 2
				return "\r", false
			}
			return "", false
		}, "--dangerously-bypass-approvals-and-sandbox", "-m", "gpt-5.5", "/saver check")
		if !strings.Contains(screen, "Blockedbyhook") || !strings.Contains(screen, "REASON-tui-pane") {
			t.Errorf("the TUI did not show the block reason; screen (flattened):\n%.3000s", screen)
		}
		if !strings.Contains(screen, "SYS-tui-toast") {
			t.Errorf("the TUI did not show the systemMessage; screen (flattened):\n%.3000s", screen)
		}
		if n := len(srv.Responses()); n != 0 {
			t.Errorf("%d model requests for a blocked prompt", n)
		}
	})

	t.Run("systemMessage is not shown by codex exec", func(t *testing.T) {
		srv := e.start(t, echoHi, allDone)
		answers := map[string]string{}
		for _, ev := range []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"} {
			answers[ev] = `{"systemMessage":"SYS-` + ev + `"}`
		}
		res, _ := e.run(t, answers, "hello")
		if res.Err != nil {
			t.Fatal(res.Err)
		}
		all := res.Stdout + res.Stderr
		for _, r := range srv.Responses() {
			all += string(r.Body)
		}
		if strings.Contains(all, "SYS-") {
			t.Errorf("a systemMessage showed up in codex exec's output or a model request")
		}
	})
}

// trustProject marks dir a trusted project in config.toml, as answering the TUI's "Trust this folder?" does.
func trustProject(t *testing.T, cfg, dir string) {
	t.Helper()
	f, err := os.OpenFile(cfg, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fmt.Fprintf(f, "\n[projects.%q]\ntrust_level = \"trusted\"\n", dir)
}

func threadID(t *testing.T, stdout string) string {
	t.Helper()
	m := regexp.MustCompile(`"type":"thread.started","thread_id":"([^"]+)"`).FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("no thread.started in:\n%s", stdout)
	}
	return m[1]
}

// toolOutput is the function_call_output the model received for the first call.
func toolOutput(srv *codexapi.Server) string {
	for _, r := range srv.Responses() {
		for _, item := range r.Input() {
			if item["type"] == "function_call_output" {
				s, _ := item["output"].(string)
				if i := strings.Index(s, "Output:\n"); i >= 0 {
					return s[i+len("Output:\n"):]
				}
				return s
			}
		}
	}
	return ""
}

var uuidLike = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
var rolloutStamp = regexp.MustCompile(`rollout-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-`)
var datePath = regexp.MustCompile(`sessions/\d{4}/\d\d/\d\d/`)

// sanitize renames a payload's temp paths and ids to stable ones, so the fixture compares across runs.
func sanitize(e *codexEnv, raw []byte) string {
	s := strings.NewReplacer(e.home, "/home/dev/.codex", e.proj, "/home/dev/src/demo-proj").Replace(string(raw))
	ids := map[string]string{}
	s = uuidLike.ReplaceAllStringFunc(s, func(id string) string {
		if _, ok := ids[id]; !ok {
			ids[id] = fmt.Sprintf("00000000-0000-7000-8000-%012d", len(ids)+1)
		}
		return ids[id]
	})
	s = rolloutStamp.ReplaceAllString(s, "rollout-2026-01-01T00-00-00-")
	s = datePath.ReplaceAllString(s, "sessions/2026/01/01/")
	return strings.TrimSpace(s) + "\n"
}
