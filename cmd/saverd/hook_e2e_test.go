package main

import (
	"bytes"
	"encoding/json"
	"github.com/saverd/saverd/internal/hookcmd"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hookEnv is one user's machine for the hook bridge: its own socket, state, config and home, and a judge
// command that answers with a canned claude -p result.
type hookEnv struct {
	t    *testing.T
	dir  string
	sock string
	env  []string
	cwd  string
}

func newHookEnv(t *testing.T) *hookEnv {
	t.Helper()
	dir := t.TempDir()
	e := &hookEnv{t: t, dir: dir, sock: filepath.Join(dir, "run", "saverd.sock"), cwd: filepath.Join(dir, "repo")}
	if err := os.MkdirAll(e.cwd, 0o755); err != nil {
		t.Fatal(err)
	}
	reply := filepath.Join(dir, "judge-reply.json")
	e.env = append(os.Environ(), "SAVERD_SOCKET="+e.sock, "XDG_STATE_HOME="+filepath.Join(dir, "state"),
		"XDG_CONFIG_HOME="+filepath.Join(dir, "config"), "HOME="+filepath.Join(dir, "home"),
		"SAVERD_JUDGE_CMD=cat >/dev/null; cat '"+reply+"'",
		// A -race binary sleeps a second at exit by default; a hook is one exec per event.
		"GORACE=atexit_sleep_ms=0")
	t.Cleanup(e.stopDaemon)
	return e
}

// judgeAnswers sets what the judge command prints: a claude -p result whose text is the findings.
func (e *hookEnv) judgeAnswers(findings ...map[string]any) {
	text, _ := json.Marshal(map[string]any{"focus": "fixing a.ts", "time": "suite runs", "context": "suite output", "findings": findings})
	out, _ := json.Marshal(map[string]any{"type": "result", "subtype": "success", "is_error": false, "result": string(text),
		"session_id": "fork-1", "total_cost_usd": 0.01,
		"usage": map[string]any{"input_tokens": 10, "output_tokens": 200, "cache_read_input_tokens": 90000, "cache_creation_input_tokens": 500}})
	if err := os.WriteFile(filepath.Join(e.dir, "judge-reply.json"), out, 0o600); err != nil {
		e.t.Fatal(err)
	}
}

// hook runs `saverd hook EVENT` with the payload; it must exit 0 with nothing on stderr.
func (e *hookEnv) hook(event string, fields map[string]any) string {
	e.t.Helper()
	p := map[string]any{"session_id": "cc-e2e", "transcript_path": filepath.Join(e.dir, "none.jsonl"), "cwd": e.cwd, "hook_event_name": event}
	for k, v := range fields {
		p[k] = v
	}
	payload, _ := json.Marshal(p)
	return e.hookRaw(event, payload)
}

func (e *hookEnv) hookRaw(event string, payload []byte) string {
	e.t.Helper()
	cmd := exec.Command(binPath, "hook", event)
	cmd.Env = e.env
	cmd.Stdin = bytes.NewReader(payload)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		e.t.Fatalf("saverd hook %s: %v (stderr %q): a hook must always exit 0", event, err, stderr.String())
	}
	if stderr.Len() > 0 {
		e.t.Fatalf("saverd hook %s wrote to stderr: %q", event, stderr.String())
	}
	return stdout.String()
}

// answer decodes what a hook printed.
func (e *hookEnv) answer(out string) map[string]any {
	e.t.Helper()
	if strings.TrimSpace(out) == "" {
		return nil
	}
	var a map[string]any
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		e.t.Fatalf("hook printed %q: %v", out, err)
	}
	return a
}

func (e *hookEnv) context(out string) string {
	a := e.answer(out)
	spec, _ := a["hookSpecificOutput"].(map[string]any)
	s, _ := spec["additionalContext"].(string)
	return s
}

// daemonPID finds the detached daemon serving this env's socket.
func (e *hookEnv) daemonPID() int {
	ents, _ := os.ReadDir("/proc")
	for _, ent := range ents {
		pid, err := strconv.Atoi(ent.Name())
		if err != nil {
			continue
		}
		cmdline, _ := os.ReadFile("/proc/" + ent.Name() + "/cmdline")
		if bytes.Contains(cmdline, []byte("--listen\x00"+e.sock)) {
			return pid
		}
	}
	return 0
}

// running reports whether process pid has not exited all through: it is there and not a zombie (a zombie
// has closed its files).
func running(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(stat, ')') // the state follows the command's name, which may hold anything
	return i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z' && stat[i+2] != 'X'
}

func (e *hookEnv) stopDaemon() {
	if pid := e.daemonPID(); pid > 0 {
		_ = syscall.Kill(pid, syscall.SIGTERM)
		for i := 0; i < 200 && e.daemonPID() == pid; i++ {
			time.Sleep(10 * time.Millisecond)
		}
	}
}

func (e *hookEnv) suiteRuns() {
	e.t.Helper()
	n := 0
	post := func(tool string, input, response map[string]any) {
		n++
		e.hook("PostToolUse", map[string]any{"tool_name": tool, "tool_input": input, "tool_use_id": "toolu_" + strconv.Itoa(n),
			"tool_response": response, "duration_ms": 1500})
	}
	suite := func() {
		post("Bash", map[string]any{"command": "bun test"}, map[string]any{"stdout": strings.Repeat("212 pass\n", 300)})
	}
	read := func(f string) {
		post("Read", map[string]any{"file_path": e.cwd + "/" + f}, map[string]any{"type": "text", "file": map[string]any{"content": "x"}})
	}
	edit := func(f string) {
		post("Edit", map[string]any{"file_path": e.cwd + "/" + f, "old_string": "a", "new_string": "b"}, map[string]any{"filePath": e.cwd + "/" + f})
	}
	suite()
	read("a.ts")
	edit("a.ts")
	suite()
	read("b.ts")
	edit("b.ts")
	suite()
	for _, f := range []string{"c.ts", "d.ts", "e.ts", "f.ts", "g.ts"} {
		read(f)
	}
}

func TestHookBridgeEndToEnd(t *testing.T) {
	e := newHookEnv(t)
	e.judgeAnswers(map[string]any{"id": "execution:full-suite", "category": "execution", "kind": "Claude keeps running the whole suite after every edit",
		"evidence": []string{"r4", "r7"}, "signature": map[string]any{"tool": "Bash", "key": "test:bun test"},
		"why": "the suite ran after each one-file edit", "alternative": "run only the tests covering the files you changed",
		"confidence": 0.9, "est_tokens_per_turn": nil, "proposal": nil})

	// No daemon runs: the first hook starts one.
	if out := e.hook("SessionStart", map[string]any{"source": "startup"}); out != "" {
		t.Fatalf("SessionStart printed %q", out)
	}
	if e.daemonPID() == 0 {
		t.Fatal("the first hook started no daemon")
	}
	if fi, err := os.Stat(e.sock); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("socket %v %v: want mode 0600", fi, err)
	}
	if fi, err := os.Stat(filepath.Dir(e.sock)); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("socket dir %v %v: want mode 0700", fi, err)
	}
	e.hook("UserPromptSubmit", map[string]any{"prompt": "fix the math"})
	e.suiteRuns()

	a := e.answer(e.hook("UserPromptSubmit", map[string]any{"prompt": "/saver check"}))
	if a["decision"] != "block" || !strings.Contains(a["reason"].(string), "1 new waster") || !strings.Contains(a["reason"].(string), "whole suite after every edit") {
		t.Fatalf("/saver check answered %v", a)
	}
	a = e.answer(e.hook("UserPromptSubmit", map[string]any{"prompt": "/saver fix 1"}))
	if a["decision"] != "block" || !strings.Contains(a["reason"].(string), "· fixed") {
		t.Fatalf("/saver fix 1 answered %v", a)
	}
	if ctx := e.context(e.hook("UserPromptSubmit", map[string]any{"prompt": "go on"})); !strings.Contains(ctx, "run only the tests covering the files you changed") {
		t.Fatalf("the next prompt carried %q, want the instruction", ctx)
	}
	out := e.hook("PreToolUse", map[string]any{"tool_name": "Agent", "tool_use_id": "toolu_ag",
		"tool_input": map[string]any{"description": "explore", "prompt": "read a.txt", "subagent_type": "general-purpose"}})
	spec, _ := e.answer(out)["hookSpecificOutput"].(map[string]any)
	in, _ := spec["updatedInput"].(map[string]any)
	if p, _ := in["prompt"].(string); !strings.Contains(p, "run only the tests covering") || in["subagent_type"] != "general-purpose" {
		t.Fatalf("PreToolUse Agent printed %q", out)
	}
	// The status line asks the daemon; it prints the band as one line.
	sl := exec.Command(binPath, "statusline")
	sl.Env = e.env
	sl.Stdin = strings.NewReader(`{"session_id":"cc-e2e","context_window":{"context_window_size":200000}}`)
	line, err := sl.Output()
	if err != nil || !strings.HasPrefix(string(line), "ContextSaver") || strings.Count(string(line), "\n") != 1 {
		t.Fatalf("statusline printed %q, %v", line, err)
	}

	// The daemon dies mid-session: the next hook starts another, which joins the session.
	old := e.daemonPID()
	_ = syscall.Kill(old, syscall.SIGKILL)
	// Until it has exited all through: a process being killed drops its command line before it closes its
	// files, and a hook that connects to its socket in between meets the dying daemon, not none.
	for i := 0; i < 500 && running(old); i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if out := e.hook("PostToolUse", map[string]any{"tool_name": "Bash", "tool_use_id": "toolu_after", "tool_input": map[string]any{"command": "ls"},
		"tool_response": map[string]any{"stdout": "a"}}); out != "" {
		t.Fatalf("after the restart, PostToolUse printed %q", out)
	}
	if pid := e.daemonPID(); pid == 0 || pid == old {
		t.Fatalf("no new daemon after the old one died (old %d, now %d)", old, pid)
	}
	if out := e.hook("SessionEnd", map[string]any{"reason": "other"}); out != "" {
		t.Fatalf("SessionEnd printed %q", out)
	}
}

func TestHookNeverBreaksTheAgent(t *testing.T) {
	e := newHookEnv(t)
	e.hook("SessionStart", map[string]any{"source": "startup"})
	cases := []struct {
		name, event string
		payload     []byte
	}{
		{"not json", "PostToolUse", []byte(`{"session_id": `)},
		{"unknown event", "Nope", []byte(`{"session_id":"x","cwd":"/"}`)},
		{"no session", "Stop", []byte(`{"cwd":"/"}`)},
		{"empty", "Stop", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if out := e.hookRaw(c.event, c.payload); out != "" {
				t.Fatalf("printed %q for a bad payload", out)
			}
		})
	}
	// A huge tool output never holds the agent past the hook's bound, and it is recorded (a -race daemon
	// may still be decoding it when the hook gives up: the row lands a little later).
	big := strings.Repeat("x", 20<<20) + strings.Repeat("\n", 100)
	start := time.Now()
	e.hook("PostToolUse", map[string]any{"tool_name": "Bash", "tool_use_id": "toolu_big", "tool_input": map[string]any{"command": "cat big.log"},
		"tool_response": map[string]any{"stdout": big}})
	// The bound is the hook's own wait plus the time a -race build on a loaded machine needs to start and
	// read 20 MB; the plain binary takes about a second for 30 MB (BenchmarkHookHugeToolOutput).
	if took := time.Since(start); took > hookcmd.EventWait+6*time.Second {
		t.Fatalf("a 20 MB PostToolUse held the agent %s", took)
	}
	var debug string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		a := e.answer(e.hook("UserPromptSubmit", map[string]any{"prompt": "/saver debug"}))
		if debug, _ = a["reason"].(string); strings.Contains(debug, "rows 1 ") {
			break
		}
	}
	if !strings.Contains(debug, "rows 1 ") {
		t.Fatalf("after a 20 MB tool output, /saver debug says %q", debug)
	}
	log, _ := os.ReadFile(filepath.Join(e.dir, "state", "saverd", "hook.log"))
	for _, want := range []string{"payload is not JSON", `unknown hook event "Nope"`, "session_id: required"} {
		if !strings.Contains(string(log), want) {
			t.Errorf("hook.log lacks %q:\n%s", want, log)
		}
	}
	// No daemon can be reached or started: still exit 0, nothing printed, the reason logged.
	e2 := newHookEnv(t)
	e2.env = append(e2.env, "SAVERD_SOCKET=/proc/no-such-dir/saverd.sock")
	if out := e2.hook("Stop", nil); out != "" {
		t.Fatalf("with no daemon, printed %q", out)
	}
	log2, _ := os.ReadFile(filepath.Join(e2.dir, "state", "saverd", "hook.log"))
	if !strings.Contains(string(log2), "no daemon at /proc/no-such-dir/saverd.sock") {
		t.Fatalf("hook.log: %q", log2)
	}
	// The judge's own fork records nothing.
	e3 := newHookEnv(t)
	e3.env = append(e3.env, "SAVERD_FORK=1")
	if out := e3.hook("SessionStart", map[string]any{"source": "startup"}); out != "" || e3.daemonPID() != 0 {
		t.Fatalf("a fork's hook printed %q or started a daemon", out)
	}
}

// TestSocketRefusesAnotherUser: a connection from another uid that reaches the socket (its directory
// opened by hand) is closed unanswered by the daemon and logged; the client's own checks are bypassed by
// dialing raw, so this is the daemon's peer check alone.
func TestSocketRefusesAnotherUser(t *testing.T) {
	bin, cred := otherUser(t)
	open := sharedDir(t, 0o755)
	e := newHookEnv(t)
	e.sock = filepath.Join(open, "run", "saverd.sock")
	e.env = append(e.env, "SAVERD_SOCKET="+e.sock)
	e.hook("SessionStart", map[string]any{"source": "startup"})
	mustDo(t, os.Chmod(filepath.Dir(e.sock), 0o755), os.Chmod(e.sock, 0o666))
	probe := exec.Command(bin)
	probe.Env = append(os.Environ(), "SAVERD_TEST_DIAL="+e.sock)
	probe.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, err := probe.CombinedOutput(); err != nil || string(out) != "connected; no answer\n" {
		t.Fatalf("another user's raw connection: %q, %v: the daemon must close it unanswered", out, err)
	}
	// The directory closed again, the daemon's own user is served.
	mustDo(t, os.Chmod(filepath.Dir(e.sock), 0o700))
	statusline := exec.Command(binPath, "statusline")
	statusline.Env = e.env
	statusline.Stdin = strings.NewReader(`{"session_id":"cc-e2e"}`)
	if out, err := statusline.Output(); err != nil || !strings.HasPrefix(string(out), "ContextSaver") {
		t.Fatalf("the daemon's own user's statusline printed %q, %v", out, err)
	}
	log, _ := os.ReadFile(filepath.Join(e.dir, "state", "saverd", "daemon.log"))
	if !strings.Contains(string(log), "refused a connection from another user") {
		t.Fatalf("daemon.log does not say it refused the other user:\n%s", log)
	}
}

// TestSmallHookBinary: saverd-hook, beside saverd, runs the same hook and starts the saverd beside it;
// saverd install writes it into the hooks.
func TestSmallHookBinary(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "saverd-hook")
	if out, err := exec.Command("go", "build", "-o", small, "../saverd-hook").CombinedOutput(); err != nil {
		t.Fatalf("build saverd-hook: %v\n%s", err, out)
	}
	data, err := os.ReadFile(binPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "saverd"), data, 0o755); err != nil {
		t.Fatal(err)
	}
	e := newHookEnv(t)
	run := func(stdin string, args ...string) string {
		t.Helper()
		cmd := exec.Command(small, args...)
		cmd.Env = e.env
		cmd.Stdin = strings.NewReader(stdin)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("saverd-hook %v: %v", args, err)
		}
		return string(out)
	}
	start := `{"session_id":"small","cwd":"` + e.cwd + `","hook_event_name":"SessionStart","source":"startup"}`
	if out := run(start, "hook", "SessionStart"); out != "" {
		t.Fatalf("SessionStart printed %q", out)
	}
	if e.daemonPID() == 0 {
		t.Fatal("saverd-hook started no daemon")
	}
	if out := run(`{"session_id":"small"}`, "statusline"); !strings.HasPrefix(out, "ContextSaver") {
		t.Fatalf("statusline printed %q", out)
	}
	install := exec.Command(filepath.Join(dir, "saverd"), "install", "claude-code", "--scope", "project", "--dir", e.cwd)
	install.Env = e.env
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("install: %v\n%s", err, out)
	}
	settings, _ := os.ReadFile(filepath.Join(e.cwd, ".claude", "settings.json"))
	if !strings.Contains(string(settings), small+" hook PostToolUse") || !strings.Contains(string(settings), small+" statusline") {
		t.Fatalf("install did not write saverd-hook into the hooks:\n%s", settings)
	}
}

// sessionRecord waits for the daemon's sessions log to hold a record of id that satisfies done, and
// returns it. Each run's SessionEnd appends a record, so an earlier run's record can be on disk before
// the last run's is: waiting only for "some record" would read a stale one.
func sessionRecord(t *testing.T, log, id string, done func(map[string]any) bool) map[string]any {
	t.Helper()
	var last map[string]any
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		data, _ := os.ReadFile(log)
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			var rec map[string]any
			if json.Unmarshal([]byte(line), &rec) == nil && rec["session_id"] == id {
				last = rec
				if done(rec) {
					return rec
				}
			}
		}
	}
	t.Fatalf("no record of session %s in %s meets the test; the last was %v", id, log, last)
	return nil
}

// TestNoJudgeCommand: with no claude to fork, no run starts on its own, none is counted, and /saver
// check says why at once.
func TestNoJudgeCommand(t *testing.T) {
	e := newHookEnv(t)
	env := e.env[:0:0]
	for _, kv := range e.env {
		if !strings.HasPrefix(kv, "SAVERD_JUDGE_CMD=") && !strings.HasPrefix(kv, "PATH=") {
			env = append(env, kv)
		}
	}
	e.env = append(env, "PATH="+t.TempDir())
	e.hook("SessionStart", map[string]any{"source": "startup"})
	e.suiteRuns()
	e.hook("Stop", map[string]any{"last_assistant_message": "done"})
	a := e.answer(e.hook("UserPromptSubmit", map[string]any{"prompt": "/saver check"}))
	if r, _ := a["reason"].(string); !strings.Contains(r, "check failed — no claude on PATH to run the judge (install Claude Code, or set SAVERD_JUDGE_CMD or ") {
		t.Fatalf("/saver check answered %v", a)
	}
	a = e.answer(e.hook("UserPromptSubmit", map[string]any{"prompt": "/saver debug"}))
	if r, _ := a["reason"].(string); !strings.Contains(r, "judge runs 0 ") {
		t.Fatalf("/saver debug says %q: a fork that cannot start is no run", r)
	}
	log, _ := os.ReadFile(filepath.Join(e.dir, "state", "saverd", "daemon.log"))
	if strings.Contains(string(log), "fork failed") {
		t.Fatalf("the daemon tried to fork with no claude:\n%s", log)
	}
}

func TestUninstallLeavesNothingBehind(t *testing.T) {
	dir := t.TempDir()
	home := t.TempDir()
	run := func(args ...string) (int, string) {
		cmd := exec.Command(binPath, args...)
		cmd.Env = append(os.Environ(), "HOME="+home, "CLAUDE_CONFIG_DIR="+filepath.Join(home, ".claude"), "CODEX_HOME="+filepath.Join(home, ".codex"))
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		return code, string(out)
	}
	for _, h := range []string{"claude-code", "codex"} {
		if code, out := run("install", h, "--scope", "project", "--dir", dir); code != 0 {
			t.Fatalf("install %s: %d %s", h, code, out)
		}
		if code, out := run("uninstall", h, "--scope", "project", "--dir", dir); code != 0 {
			t.Fatalf("uninstall %s: %d %s", h, code, out)
		}
	}
	for _, f := range []string{".claude/settings.json", ".codex/hooks.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); !os.IsNotExist(err) {
			t.Errorf("%s is left behind after uninstall (%v)", f, err)
		}
	}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"install", "claude-code", "--scope", "bogus"}, `--scope: want user or project or local, got "bogus"`},
		{[]string{"install", "codex", "--scope", "local"}, `--scope: want user or project, got "local"`},
		{[]string{"install", "aider"}, `unknown harness "aider": want claude-code or codex`},
	}
	for _, c := range cases {
		if code, out := run(c.args...); code != 2 || !strings.Contains(out, c.want) {
			t.Errorf("saverd %v: exit %d, %q; want 2 and %q", c.args, code, out, c.want)
		}
	}
}

// TestSocketDaemonIdleExit: a daemon nobody talks to exits after --idle-exit, its sessions flushed, and
// the next hook starts another.
func TestSocketDaemonIdleExit(t *testing.T) {
	e := newHookEnv(t)
	cmd := exec.Command(binPath, "serve", "--listen", e.sock, "--idle-exit", "300ms", "--log-file", filepath.Join(e.dir, "d.log"))
	cmd.Env = e.env
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	// The hook must find this daemon listening: one that found nothing would start its own.
	c, err := hookcmd.DialRetry(e.sock, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	if out := e.hook("SessionStart", map[string]any{"source": "startup"}); out != "" {
		t.Fatalf("SessionStart printed %q", out)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("the idle daemon exited with %v", err)
		}
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("the daemon did not exit after --idle-exit")
	}
	log, _ := os.ReadFile(filepath.Join(e.dir, "d.log"))
	if !strings.Contains(string(log), "idle; exiting") {
		t.Fatalf("d.log:\n%s", log)
	}
	if _, err := os.Stat(e.sock); !os.IsNotExist(err) {
		t.Fatalf("the socket is left behind: %v", err)
	}
	// A second daemon on a socket a live one holds exits at once, leaving the first alone.
	first := exec.Command(binPath, "serve", "--listen", e.sock, "--idle-exit", "0")
	first.Env = e.env
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = first.Process.Kill(); _ = first.Wait() }()
	if _, err := hookcmd.DialRetry(e.sock, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	second := exec.Command(binPath, "serve", "--listen", e.sock)
	second.Env = e.env
	if out, err := second.CombinedOutput(); err != nil || !strings.Contains(string(out), "a daemon already serves this socket") {
		t.Fatalf("second daemon: %v\n%s", err, out)
	}
}

// TestCodexHookNeverFailsATurn: Codex runs `saverd hook --harness codex EVENT`; a bad payload, or no
// daemon to be had, prints nothing and exits 0, as for Claude Code.
func TestCodexHookNeverFailsATurn(t *testing.T) {
	e := newHookEnv(t)
	run := func(env []string, event string, payload string) {
		t.Helper()
		cmd := exec.Command(binPath, "hook", "--harness", "codex", event)
		cmd.Env = env
		cmd.Stdin = strings.NewReader(payload)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil || stdout.Len() > 0 || stderr.Len() > 0 {
			t.Fatalf("codex %s: err %v, stdout %q, stderr %q", event, err, stdout.String(), stderr.String())
		}
	}
	ok := `{"session_id":"cx","cwd":"` + e.cwd + `","hook_event_name":"PostToolUse","model":"gpt-5.5","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"c1","tool_response":"a\n"}`
	run(e.env, "PostToolUse", ok)
	run(e.env, "PostToolUse", `{"session_id":`)
	run(e.env, "Stop", `{"cwd":"/"}`)
	run(append(append([]string(nil), e.env...), "SAVERD_SOCKET=/proc/none/saverd.sock"), "PostToolUse", ok)
	a := e.answer(e.hook("UserPromptSubmit", map[string]any{"session_id": "cx", "prompt": "/saver debug"}))
	if r, _ := a["reason"].(string); !strings.Contains(r, "rows 1 ") {
		t.Fatalf("the codex call was not recorded: %q", r)
	}
}
