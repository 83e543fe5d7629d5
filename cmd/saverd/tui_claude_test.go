//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/saverd/saverd/internal/claudeapi"
	"github.com/saverd/saverd/internal/ptyterm"
)

// claudeTUI is the real Claude Code, its interactive UI on a pseudo-terminal, offline against the
// scripted API, with saverd installed from a bin directory of the test's own.
type claudeTUI struct {
	t    *testing.T
	p    *phased
	srv  *claudeapi.Server
	c    *claudeapi.Claude
	bins string
	sock string
	tm   *ptyterm.Term
	cols int // the terminal's width; 0: claudeapi.TUICols
}

func newClaudeTUI(t *testing.T) *claudeTUI {
	t.Helper()
	p := &phased{subagent: claudeapi.Steps(claudeapi.Text("Explored."))}
	srv, c := claudeapi.Offline(t, p.script)
	bins := tuiBins(t)
	state := t.TempDir()
	sock := filepath.Join(state, "run", "saverd.sock")
	c.Env = append(c.Env, "SAVERD_SOCKET="+sock, "XDG_STATE_HOME="+state, "XDG_CONFIG_HOME="+filepath.Join(state, "config"),
		"GORACE=atexit_sleep_ms=0", "npm_config_update_notifier=false", "GOPATH="+filepath.Join(c.Home, "go"), "PATH="+pathWithoutSaverd())
	t.Cleanup(func() { stopDaemonAt(sock) })
	for name, body := range map[string]string{
		"package.json": `{"name":"calc","version":"1.0.0","scripts":{"test":"node -e \"console.log('212 pass')\""}}`,
		"math.js":      "export function add(a,b){return a+b}\n", "a.txt": "one line\n"} {
		if err := os.WriteFile(filepath.Join(c.Dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return &claudeTUI{t: t, p: p, srv: srv, c: c, bins: bins, sock: sock}
}

// saverd runs the test's saverd with the client's environment.
func (e *claudeTUI) saverd(args ...string) string {
	e.t.Helper()
	cmd := exec.Command(filepath.Join(e.bins, "saverd"), args...)
	cmd.Env = e.c.Env
	out, err := cmd.CombinedOutput()
	if err != nil {
		e.t.Fatalf("saverd %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// start opens the interactive UI and waits for its prompt box.
func (e *claudeTUI) start(args ...string) {
	e.t.Helper()
	cols := e.cols
	if cols == 0 {
		cols = claudeapi.TUICols
	}
	e.tm = e.c.InteractiveSized(e.t, cols, claudeapi.TUIRows, append([]string{"--permission-mode", "default", "--allowedTools", "Bash Read Edit Agent"}, args...)...)
	e.tm.WaitText(60*time.Second, "Claude Code v", "❯")
}

// turn types a prompt, answered by steps, and waits for the last step's text on the screen.
func (e *claudeTUI) turn(prompt, done string, steps ...claudeapi.Reply) {
	e.t.Helper()
	e.p.set(claudeapi.Steps(append(steps, claudeapi.Text(done))...))
	typeLine(e.tm, prompt)
	e.tm.WaitText(90*time.Second, done)
	e.tm.WaitFor("the turn's end", 30*time.Second, func(s string) bool { return inputBox(s) == "" && !strings.Contains(s, "esc to interrupt") })
}

func (e *claudeTUI) bash(cmd string) claudeapi.Reply {
	return claudeapi.ToolUse("Bash", map[string]string{"command": cmd, "description": "run tests"}).
		WithUsage(claudeapi.Usage{Input: 500, Output: 40, CacheRead: 8000, CacheCreation: 300})
}

func (e *claudeTUI) read(f string) claudeapi.Reply {
	return claudeapi.ToolUse("Read", map[string]string{"file_path": filepath.Join(e.c.Dir, f)})
}

func (e *claudeTUI) edit(from, to string) claudeapi.Reply {
	return claudeapi.ToolUse("Edit", map[string]any{"file_path": filepath.Join(e.c.Dir, "math.js"), "old_string": from, "new_string": to})
}

// habit is three turns that each run the whole test suite after a one-line edit.
func (e *claudeTUI) habit() {
	e.t.Helper()
	e.turn("fix the math", "Turn one done.", e.read("math.js"), e.bash("npm test"), e.edit("a+b", "a + b"), e.bash("npm test"))
	e.turn("tidy it", "Turn two done.", e.edit("a + b", "(a) + b"), e.bash("npm test"), e.read("math.js"))
	e.turn("once more", "Turn three done.", e.edit("(a) + b", "a + (b)"), e.bash("npm test"), e.read("a.txt"))
}

// autocomplete types prefix as a person starts to, checks the UI offers command with saverd's
// description, and clears the box again.
func (e *claudeTUI) autocomplete(prefix, command string) {
	e.t.Helper()
	e.tm.Type(prefix)
	menu := e.tm.WaitText(10*time.Second, command, "saverd — the pane")
	if strings.Contains(menu, "No commands match") {
		e.t.Fatalf("the UI does not know %s:\n%s", command, menu)
	}
	e.tm.Press(ptyterm.CtrlU)
	e.tm.WaitFor("the box cleared", 5*time.Second, func(s string) bool { return inputBox(s) == "" })
}

// saverLine is one saverd command typed in the prompt box and what the screen must then show. A check
// may make the judge's requests; no other /saver line makes any.
type saverLine struct {
	line, shows string
	judge       bool
}

// judgeRequest: a request of the judge's fork, not of the session's own loop.
func judgeRequest(r claudeapi.Request) bool {
	return strings.Contains(r.LastUserText(), "You are auditing THIS session")
}

// lastAnswer is the newest answer to a blocked line on the screen: what follows the last
// "operation blocked by hook:" header, "" when there is none or the typed line's echo came after it.
func lastAnswer(screen string) string {
	i := strings.LastIndex(screen, "operation blocked by hook:")
	if i < 0 {
		return ""
	}
	rest := screen[i:]
	if j := strings.Index(rest, "\n─"); j >= 0 { // the prompt box's top border
		rest = rest[:j]
	}
	if strings.Contains(rest, "\n❯ ") { // a line typed after it is still being answered
		return ""
	}
	return rest
}

// busy: the UI is running a hook or a turn.
func busy(screen string) bool {
	return strings.Contains(screen, "esc to interrupt") || strings.Contains(screen, "running UserPrompt")
}

// saver types a saverd command and checks what the person sees: the answer as the newest thing in the
// transcript, the input box empty again, the typed line not repeated under the answer, and no request
// to the model but the judge's. It returns when the answer was on the screen.
func (e *claudeTUI) saver(l saverLine) time.Time {
	e.t.Helper()
	before := len(e.srv.Requests())
	e.tm.Type(l.line)
	e.tm.WaitFor(l.line+" typed", 10*time.Second, func(s string) bool { return inputBox(s) == l.line })
	e.tm.Press(ptyterm.Enter)
	s := e.tm.WaitFor(l.line+" answered", 120*time.Second, func(s string) bool {
		return inputBox(s) == "" && !busy(s) && strings.Contains(lastAnswer(s), l.shows)
	})
	answered := time.Now()
	if strings.Contains(lastAnswer(s), "Original prompt:") {
		e.t.Errorf("%s: the typed line is repeated under the answer (suppressOriginalPrompt not taken):\n%s", l.line, s)
	}
	for _, r := range e.srv.Requests()[before:] {
		if !l.judge || !judgeRequest(r) {
			e.t.Errorf("%s made a model request: %.300q", l.line, r.LastUserText())
		}
	}
	return answered
}

// bandAfter waits for the status line to show what ok wants, with no model turn in between, and
// returns how long after since that took.
func (e *claudeTUI) bandAfter(since time.Time, ok func(band string) bool) time.Duration {
	e.t.Helper()
	before := len(e.srv.Requests())
	e.tm.WaitFor("the band's change", 15*time.Second, func(s string) bool { return ok(statusLine(s)) })
	if n := len(e.srv.Requests()) - before; n > 0 {
		e.t.Errorf("%d model requests while the band changed: it must follow without a model turn", n)
	}
	return time.Since(since)
}

// TestClaudeCodeTUI drives the real Claude Code's interactive UI as a person does, with saverd installed
// by `saverd install claude-code`: three turns that show a habit, /saver picked from its autocomplete,
// /saver check, /saver fix 1, /saver write 1 and /saver undo (CLAUDE.md written, then gone again), the
// status line band following each without a model turn, the fix in the next request once, and no
// request for any /saver line — also when the daemon is down, saverd-hook fails, or saverd-hook is
// missing.
func TestClaudeCodeTUI(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real Claude Code")
	}
	t.Parallel() // mostly waiting on the client: the two TUI tests share the wall clock
	e := newClaudeTUI(t)
	// No judge runs in the background here (a budget of 0 leaves only /saver check), so the band's
	// change is the check's.
	if err := os.WriteFile(filepath.Join(e.c.Dir, ".saverd.json"), []byte(`{"judgeBudget": 0}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out := e.saverd("install", "claude-code")
	if !strings.Contains(out, "Next:") || !strings.Contains(out, "/saver check") {
		t.Errorf("install printed no next step:\n%s", out)
	}
	e.start()
	e.habit()
	if band := statusLine(e.tm.Screen()); !strings.Contains(band, "watching") {
		t.Errorf("the band after three turns: %q", band)
	}

	e.autocomplete("/sav", "/saver")
	e.saver(saverLine{line: "/saver", shows: "ContextSaver\n"})

	answered := e.saver(saverLine{line: "/saver check", shows: "1 new waster", judge: true})
	t.Logf("the band followed /saver check in %v", e.bandAfter(answered, func(band string) bool { return strings.Contains(band, "1 waster waiting") }))
	// The band keeps the net the judge cost, however narrow, recomputed from what its fork reported.
	net := "net −" + dollars(float64(e.p.judgeRuns())*byHand(judgeUsage))
	e.tm.WaitFor("the band's "+net, 15*time.Second, func(s string) bool { return strings.Contains(statusLine(s), net) })
	answered = e.saver(saverLine{line: "/saver fix 1", shows: "· fixed — run only the tests"}) // the reply names the fix it sends (the UI wraps it)
	if s := e.tm.Screen(); strings.Contains(s, "ContextSaver: fixed —") {
		t.Errorf("/saver fix 1 was answered twice (its reply and a toast saying the same):\n%s", s)
	}
	t.Logf("the band followed /saver fix 1 in %v", e.bandAfter(answered, func(band string) bool { return !strings.Contains(band, "waiting") }))
	claudeMD := filepath.Join(e.c.Dir, "CLAUDE.md")
	for _, l := range []saverLine{
		{line: "/saver", shows: "RULES TO WRITE (1)"},
		{line: "/saver write 1", shows: "/saver undo takes it back"},
		{line: "/saver undo", shows: "took back"},
		{line: "/saver debug", shows: "judge runs 1"},
		{line: "/saver ignore 7", shows: "nothing to decide on"},
	} {
		e.saver(l)
		if l.line == "/saver write 1" {
			if b, err := os.ReadFile(claudeMD); err != nil || !strings.Contains(string(b), "- run only the tests covering the files you changed") {
				t.Errorf("after /saver write 1, CLAUDE.md: %v\n%s", err, b)
			}
		}
	}
	if _, err := os.Stat(claudeMD); !os.IsNotExist(err) {
		t.Errorf("/saver undo left CLAUDE.md, which the write made: %v", err)
	}

	// The next prompt carries the fix, once.
	before := len(e.srv.Requests())
	e.turn("next step", "On it.")
	const instruction = "run only the tests covering the files you changed"
	reqs := e.srv.Requests()[before:]
	if len(reqs) == 0 {
		t.Fatal("the next prompt made no request")
	}
	if n := strings.Count(reqs[0].Text(), instruction); n != 1 {
		t.Errorf("the next request carries the fix %d times, want once:\n%.3000s", n, reqs[0].Text())
	}

	// When saverd cannot answer, the line is still kept from the model, and the person reads why.
	hook := filepath.Join(e.bins, "saverd-hook")
	daemon := filepath.Join(e.bins, "saverd")
	if err := os.Rename(daemon, daemon+".away"); err != nil { // first, so that no hook in flight starts one
		t.Fatal(err)
	}
	stopDaemonAt(e.sock)
	e.saver(saverLine{line: "/saver check", shows: "saverd did not answer /saver check: no daemon answers at"})
	if err := os.Rename(daemon+".away", daemon); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(hook, hook+".away"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(hook, []byte("#!/bin/sh\necho failing on purpose >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	e.saver(saverLine{line: "/saver fix 1", shows: "its UserPromptSubmit hook failed or is missing"})
	if err := os.Remove(hook); err != nil {
		t.Fatal(err)
	}
	e.saver(saverLine{line: "/saver check", shows: "its UserPromptSubmit hook failed or is missing"})
	if err := os.Rename(hook+".away", hook); err != nil {
		t.Fatal(err)
	}
	// Back: the daemon starts again with the next hook and answers.
	e.saver(saverLine{line: "/saver", shows: "ContextSaver\n"})
	for _, r := range e.srv.Requests() {
		if text := r.LastUserText(); strings.Contains(text, "/saver") && !judgeRequest(r) || strings.Contains(text, "saverd did not answer") {
			t.Errorf("a /saver line reached the model: %.300q", text)
		}
	}
}

// claude runs a claude CLI command (plugin validate, marketplace add, …) in the namespace and returns
// its output; it must exit 0.
func (e *claudeTUI) claude(args ...string) string {
	e.t.Helper()
	stdout, stderr, err := e.c.Run("", args...)
	if err != nil {
		e.t.Fatalf("claude %s: %v\n%s%s", strings.Join(args, " "), err, stdout, stderr)
	}
	return string(stdout) + string(stderr)
}

// TestClaudeCodePluginTUI installs saverd as a person does from this repository's marketplace — `claude
// plugin validate`, `marketplace add`, `plugin install saver@saverd`, then `saverd install claude-code`
// for the status line (which sees the plugin and adds no hooks) — and drives the interactive UI:
// three turns whose habit the background judge finds, the band following that result with the UI idle,
// /saver:saver from its autocomplete, fix and pane with no request, and the plugin's word when
// saverd-hook is not installed.
func TestClaudeCodePluginTUI(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real Claude Code")
	}
	t.Parallel()
	e := newClaudeTUI(t)
	e.p.judgeDelay = 2 * time.Second
	// The plugin's launcher finds saverd-hook on PATH, where go install's directory is.
	e.c.Env = append(e.c.Env, "PATH="+e.bins+string(os.PathListSeparator)+pathWithoutSaverd())
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{repo, filepath.Join(repo, "plugins", "saver")} {
		// What the plugin directory's catalog asks beyond (a licence, an icon) comes after its own
		// heading and "does not change the result".
		out := e.claude("plugin", "validate", dir)
		own, _, _ := strings.Cut(out, "Plugin directory checks")
		if !strings.Contains(out, "✔ Validation passed") || strings.ContainsAny(own, "⚠✘") {
			t.Errorf("claude plugin validate %s:\n%s", dir, out)
		}
	}
	if out := e.claude("plugin", "marketplace", "add", repo); !strings.Contains(out, "Successfully added marketplace: saverd") {
		t.Fatalf("marketplace add:\n%s", out)
	}
	if out := e.claude("plugin", "install", "saver@saverd"); !strings.Contains(out, "Successfully installed plugin: saver@saverd") {
		t.Fatalf("plugin install:\n%s", out)
	}
	out := e.saverd("install", "claude-code")
	settings := filepath.Join(e.c.Home, ".claude", "settings.json")
	text, _ := os.ReadFile(settings)
	if !strings.Contains(out, "the saver@saverd plugin is enabled") || strings.Contains(string(text), " hook ") || !strings.Contains(string(text), "statusline") {
		t.Errorf("install beside the plugin: want the status line and no hooks:\n%s\n%s", out, text)
	}
	doctor := exec.Command(filepath.Join(e.bins, "saverd"), "doctor")
	doctor.Env = e.c.Env
	if out, _ := doctor.CombinedOutput(); !strings.Contains(string(out), "ok  claude-code: the saver@saverd plugin brings saverd's hooks") ||
		!strings.Contains(string(out), "ok  claude-code: /saver is known") {
		t.Errorf("doctor:\n%s", out)
	}

	e.start()
	e.habit()
	// The judge runs in the background after the third turn and answers 2 s later; the band follows
	// with the UI idle.
	before := len(e.srv.Requests())
	e.tm.WaitFor("the background judge's result on the band", 60*time.Second, func(s string) bool {
		return strings.Contains(statusLine(s), "1 waster waiting")
	})
	e.p.mu.Lock()
	at, judged := e.p.judgedAt, len(e.p.judged)
	e.p.mu.Unlock()
	if judged != 1 {
		t.Fatalf("the judge ran %d times, want once in the background", judged)
	}
	t.Logf("the band followed the background judge's answer in %v", time.Since(at))
	for _, r := range e.srv.Requests()[before:] {
		if !judgeRequest(r) {
			t.Errorf("a model turn while the band changed: %.200q", r.LastUserText())
		}
	}

	e.autocomplete("/saver:", "/saver:saver")
	for i, l := range []saverLine{
		{line: "/saver:saver", shows: "WASTERS (1)"},
		{line: "/saver:saver fix 1", shows: "· fixed"},
		{line: "/saver:saver", shows: "DECIDED (1)"},
	} {
		e.saver(l)
		// The background run's toast comes with the first answer: one waster, named, with the commands
		// that fix or ignore it.
		if said := strings.Join(strings.Fields(lastAnswer(e.tm.Screen())), " "); i == 0 &&
			(!strings.Contains(said, "ContextSaver: 1 new waster: ") || !strings.Contains(said, "/saver:saver fix 1 fixes it, /saver:saver ignore 1 if it is fine")) {
			t.Errorf("the background run's toast with /saver:saver: %q", said)
		}
	}
	// saverd-hook not installed: the plugin says so, and the line still never reaches the model.
	hook := filepath.Join(e.bins, "saverd-hook")
	if err := os.Rename(hook, hook+".away"); err != nil {
		t.Fatal(err)
	}
	e.saver(saverLine{line: "/saver:saver check", shows: "saverd-hook is not on PATH"})
	if err := os.Rename(hook+".away", hook); err != nil {
		t.Fatal(err)
	}
}
