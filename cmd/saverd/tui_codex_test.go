//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/saverd/saverd/internal/codexapi"
	"github.com/saverd/saverd/internal/codexcli"
	"github.com/saverd/saverd/internal/ptyterm"
)

// codexTUI is the real Codex CLI, its interactive UI on a pseudo-terminal, inside the test's own network
// namespace against the scripted Responses API, with saverd installed from a bin directory of the
// test's own.
type codexTUI struct {
	t          *testing.T
	bin        string
	srv        *codexapi.Server
	home, proj string
	bins       string
	sock       string
	tm         *ptyterm.Term

	mu     sync.Mutex
	judged int
	titles int
}

// codexTUIConfig starts the TUI at the composer: the project trusted, the model migration notice and
// the screen reader question answered.
const codexTUIConfig = `
[notice.model_migrations]
"gpt-5.5" = "gpt-6-sol"

[tui]
screen_reader_detection_done = true
`

func newCodexTUI(t *testing.T, bin string, extra string) *codexTUI {
	t.Helper()
	root := t.TempDir()
	e := &codexTUI{t: t, bin: bin, proj: filepath.Join(root, "proj"), bins: tuiBins(t)}
	state := filepath.Join(root, "state")
	e.sock = filepath.Join(state, "run", "saverd.sock")
	if err := os.MkdirAll(e.proj, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		"package.json": `{"name":"calc","version":"1.0.0","scripts":{"test":"node -e \"console.log('212 pass')\""}}`,
		"math.js":      "export function add(a,b){return a+b}\n"} {
		if err := os.WriteFile(filepath.Join(e.proj, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", root)
	t.Setenv("SAVERD_SOCKET", e.sock)
	t.Setenv("XDG_STATE_HOME", state)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(root, "config"))
	t.Setenv("GORACE", "atexit_sleep_ms=0")
	t.Setenv("GOPATH", filepath.Join(root, "go"))
	t.Setenv("PATH", pathWithoutSaverd())
	t.Cleanup(func() { stopDaemonAt(e.sock) })
	srv, err := codexapi.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	e.srv = srv
	srv.Intercept(func(r codexapi.Request) (codexapi.Step, bool) {
		body := string(r.Body)
		e.mu.Lock()
		defer e.mu.Unlock()
		switch {
		case strings.Contains(body, "You are auditing THIS session"):
			e.judged++
			return codexapi.Step{Text: findingsFor(promptOf(r)), Usage: codexapi.Usage{Input: 30000, Cached: 28000, Output: 300}}, true
		case strings.Contains(body, "Generate a concise"):
			e.titles++
			return codexapi.Step{Text: "Fix the math", Usage: codexapi.Usage{Input: 100, Output: 5}}, true
		}
		return codexapi.Step{}, false
	})
	e.home = codexcli.Home(t, filepath.Join(root, "codex"), srv.URL, codexTUIConfig+extra+"\n[projects."+quoteTOML(e.proj)+"]\ntrust_level = \"trusted\"\n")
	t.Setenv("CODEX_HOME", e.home)
	return e
}

func quoteTOML(s string) string {
	return `"` + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), `"`, `\"`) + `"`
}

// saverd runs the test's saverd.
func (e *codexTUI) saverd(args ...string) string {
	e.t.Helper()
	out, err := exec.Command(filepath.Join(e.bins, "saverd"), args...).CombinedOutput()
	if err != nil {
		e.t.Fatalf("saverd %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// start opens Codex's interactive UI and waits for its composer.
func (e *codexTUI) start(args ...string) {
	e.t.Helper()
	// Without daemon_auto_start off the TUI starts an app-server that outlives it.
	args = append([]string{"--disable", "daemon_auto_start", "--dangerously-bypass-approvals-and-sandbox", "-m", "gpt-5.5"}, args...)
	cmd := exec.Command(e.bin, args...)
	cmd.Dir = e.proj
	cmd.Env = append(os.Environ(), "CODEX_HOME="+e.home, "MOCK_API_KEY=test", "TERM=xterm-256color")
	e.tm = ptyterm.Start(e.t, cmd, 140, 50, nil)
	e.tm.WaitText(60*time.Second, "›")
}

func codexExec(cmd string) codexapi.Step {
	return codexapi.Step{Calls: []codexapi.Call{{Name: "exec_command", Arguments: map[string]any{"cmd": cmd}}}, Usage: codexapi.Usage{Input: 2000, Cached: 1500, Output: 40}}
}

func codexSay(text string) codexapi.Step {
	return codexapi.Step{Text: text, Usage: codexapi.Usage{Input: 2500, Output: 10}}
}

// turn types a prompt answered by steps and waits for done on the screen and the composer idle.
func (e *codexTUI) turn(prompt, done string, steps ...codexapi.Step) {
	e.t.Helper()
	e.srv.Add(append(steps, codexSay(done))...)
	e.tm.Type(prompt)
	time.Sleep(200 * time.Millisecond)
	e.tm.Press(ptyterm.Enter)
	e.tm.WaitText(90*time.Second, done)
	e.tm.WaitFor("the turn's end", 30*time.Second, func(s string) bool { return !strings.Contains(s, "esc to interrupt") })
}

// composer is the text in Codex's composer: its last "›" line, "" when it shows only its placeholder.
func composer(screen string) string {
	lines := strings.Split(screen, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(lines[i]), "›"); ok {
			rest = strings.TrimSpace(rest)
			if rest == "Ask Codex to do anything" {
				return ""
			}
			return rest
		}
	}
	return "(no composer)"
}

// lastBlock is the newest "Blocked by hook" answer on the screen, "" when a line typed after it is
// still being answered.
func lastBlock(screen string) string {
	i := strings.LastIndex(screen, "Blocked by hook")
	if i < 0 {
		return ""
	}
	rest := screen[i:]
	if j := strings.Index(rest, "Worked for"); j >= 0 {
		rest = rest[:j]
	}
	return rest
}

// codexRequest is not a turn of the session: the judge's fork or a title the TUI asks for.
func (e *codexTUI) sessionRequests(from int) []codexapi.Request {
	var out []codexapi.Request
	for _, r := range e.srv.Requests()[from:] {
		body := string(r.Body)
		if !strings.Contains(body, "You are auditing THIS session") && !strings.Contains(body, "Generate a concise") {
			out = append(out, r)
		}
	}
	return out
}

// saver types a saverd command in Codex's composer and checks what the person sees: the block's reason
// holding shows, the composer empty again, and no request at all but the judge's (not even a title).
func (e *codexTUI) saver(line, shows string) {
	e.t.Helper()
	before := len(e.srv.Requests())
	blocks := strings.Count(string(e.tm.Raw()), "Blocked by hook")
	e.tm.Type(line)
	s := e.tm.WaitFor(line+" typed", 10*time.Second, func(s string) bool { return composer(s) == strings.TrimSpace(line) })
	if strings.Contains(s, "esc close") { // the skill popup is still open over a bare $saver
		e.tm.Press(ptyterm.Escape)
		e.tm.WaitFor("the popup closed", 5*time.Second, func(s string) bool { return !strings.Contains(s, "esc close") })
	}
	e.tm.Press(ptyterm.Enter)
	e.tm.WaitFor(line+" answered", 120*time.Second, func(s string) bool {
		return strings.Count(string(e.tm.Raw()), "Blocked by hook") > blocks && strings.Contains(lastBlock(s), shows) &&
			composer(s) == "" && !strings.Contains(s, "esc to interrupt")
	})
	for _, r := range e.srv.Requests()[before:] {
		body := string(r.Body)
		// An earlier turn's title may still be asked for; the saver line must have none.
		earlierTitle := strings.Contains(body, "Generate a concise") && !strings.Contains(promptOf(r), strings.TrimSpace(line))
		if !strings.Contains(body, "You are auditing THIS session") && !earlierTitle {
			p := promptOf(r)
			e.t.Errorf("%s made a model request: %.600q", line, p[max(0, len(p)-600):])
		}
	}
}

// offlineCodexTUI is a codexTUI inside the test's own network namespace (nil in the test process that
// re-ran itself there), with a judge budget of 0 in the project: only a typed check runs the judge, so
// what it finds is the check's.
func offlineCodexTUI(t *testing.T) *codexTUI {
	t.Helper()
	bin := codexcli.Binary(t)
	if !codexcli.Offline(t) {
		return nil
	}
	e := newCodexTUI(t, bin, "")
	if err := os.WriteFile(filepath.Join(e.proj, ".saverd.json"), []byte(`{"judgeBudget": 0}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return e
}

// popup types $sav as a person starts to, checks the skill's popup shows entry, takes it with Enter
// (Codex inserts the name, it does not submit), and clears the composer again.
func (e *codexTUI) popup(entry, inserted string) {
	e.t.Helper()
	e.tm.Type("$sav")
	e.tm.WaitText(10*time.Second, entry)
	e.tm.Press(ptyterm.Enter)
	e.tm.WaitFor(inserted+" inserted", 5*time.Second, func(s string) bool { return composer(s) == inserted })
	e.tm.Press(ptyterm.CtrlU)
	e.tm.WaitFor("the composer cleared", 5*time.Second, func(s string) bool { return composer(s) == "" })
}

func (e *codexTUI) habit() {
	e.t.Helper()
	e.turn("fix the math", "Turn one done.", codexExec("npm test"), codexExec("cat math.js"), codexExec("sed -i s/a+b/a+b+0/ math.js"), codexExec("npm test"))
	e.turn("tidy it", "Turn two done.", codexExec("sed -i s/+0// math.js"), codexExec("npm test"), codexExec("cat math.js"))
	e.turn("once more", "Turn three done.", codexExec("sed -i s/a+b/b+a/ math.js"), codexExec("npm test"), codexExec("cat package.json"))
}

// TestCodexTUI drives the real Codex CLI's interactive UI with `saverd install codex`, in the spellings
// Codex allows: Codex 0.169.0 has no custom slash commands, so `$saver …` (the skill install writes,
// picked from its popup) and ` /saver …` (a leading space) reach the hook and are answered at zero
// requests, while `/saver` itself is refused by the TUI; a rule is written to AGENTS.md and taken back.
// The fix rides the next request once; with no daemon the line is still blocked, saying why.
func TestCodexTUI(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real Codex CLI")
	}
	e := offlineCodexTUI(t)
	if e == nil {
		return
	}
	if out := e.saverd("install", "codex"); !strings.Contains(out, "added the $saver skill") || !strings.Contains(out, "$saver check") {
		t.Errorf("install codex:\n%s", out)
	}
	e.start()
	e.habit()

	e.popup("[Skill] saverd — the pane", "$saver")

	e.saver("$saver check", "1 new waster")
	e.saver(" /saver fix 1", "· fixed")
	e.saver("$saver", "DECIDED (1)")
	// A Codex session's lasting rule is an AGENTS.md bullet, written and taken back from the composer.
	agentsMD := filepath.Join(e.proj, "AGENTS.md")
	e.saver("$saver write 1", "$saver undo takes it back")
	if b, err := os.ReadFile(agentsMD); err != nil || !strings.Contains(string(b), "- run only the tests covering the files you changed") {
		t.Errorf("after $saver write 1, AGENTS.md: %v\n%s", err, b)
	}
	e.saver(" /saver undo", "took back")
	if _, err := os.Stat(agentsMD); !os.IsNotExist(err) {
		t.Errorf("undo left AGENTS.md, which the write made: %v", err)
	}
	e.saver("$saver ignore 7", "nothing to decide on")

	// /saver itself is Codex's unknown command: refused in the TUI, no hook, no request.
	before := len(e.srv.Requests())
	e.tm.Type("/saver check")
	time.Sleep(300 * time.Millisecond)
	e.tm.Press(ptyterm.Enter)
	e.tm.WaitText(10*time.Second, "Unrecognized command '/saver'")
	if n := len(e.srv.Requests()) - before; n != 0 {
		t.Errorf("/saver made %d requests", n)
	}
	e.tm.Press(ptyterm.End) // Ctrl-C on the composer would quit Codex
	e.tm.Press(ptyterm.CtrlU)
	e.tm.WaitFor("the composer cleared", 5*time.Second, func(s string) bool { return composer(s) == "" })

	// The next prompt carries the fix, once.
	before = len(e.srv.Requests())
	e.turn("next step", "On it.")
	const instruction = "run only the tests covering the files you changed"
	reqs := e.sessionRequests(before)
	if len(reqs) == 0 {
		t.Fatal("the next prompt made no request")
	}
	if n := strings.Count(string(reqs[0].Body), instruction); n != 1 {
		t.Errorf("the next request carries the fix %d times, want once", n)
	}

	// No daemon, and none can start: the line is blocked all the same, saying why.
	daemon := filepath.Join(e.bins, "saverd")
	if err := os.Rename(daemon, daemon+".away"); err != nil { // first, so that no hook in flight starts one
		t.Fatal(err)
	}
	stopDaemonAt(e.sock)
	e.saver("$saver check", "saverd did not answer $saver check: no daemon answers at")
	if err := os.Rename(daemon+".away", daemon); err != nil {
		t.Fatal(err)
	}
	// saverd-hook missing: Codex has no second hook to stop the line, so the turn goes to the model with
	// the skill's body, which asks for one line back. That one small request is the cost protocol.md names.
	hook := filepath.Join(e.bins, "saverd-hook")
	if err := os.Rename(hook, hook+".away"); err != nil {
		t.Fatal(err)
	}
	before = len(e.srv.Requests())
	e.turn("$saver check", "saverd did not answer, run saverd doctor.")
	if err := os.Rename(hook+".away", hook); err != nil {
		t.Fatal(err)
	}
	reqs = e.sessionRequests(before)
	if len(reqs) != 1 || !strings.Contains(string(reqs[0].Body), "saverd's hook did not answer this $saver line") {
		t.Fatalf("with saverd-hook missing: %d session requests, want one carrying the skill's one-line body", len(reqs))
	}
	if i := strings.Index(string(reqs[0].Body), "<skill>"); i >= 0 {
		j := strings.Index(string(reqs[0].Body)[i:], "</skill>")
		t.Logf("with saverd-hook missing the model got the skill's block: %d bytes", j+len("</skill>"))
	}
	for _, r := range e.sessionRequests(0)[:len(e.sessionRequests(0))-1] { // all but the one just above
		for _, line := range []string{"$saver", "/saver"} {
			if strings.Contains(string(r.Body), `"text":"`+line) {
				t.Errorf("a %s line reached the model", line)
			}
		}
	}

	// Uninstalled while this Codex still runs the hooks it loaded: they start no daemon, and a line typed
	// is kept from the model, saying what to type to have saverd back.
	e.saverd("uninstall", "codex")
	// The uninstall stops the daemon; under load its shutdown can outlast the command's own wait (which
	// then says so), and a hook that reaches it before it is gone is answered by it, as it should be.
	for deadline := time.Now().Add(30 * time.Second); daemonAnswers(e.sock); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the daemon still answers 30 s after saverd uninstall codex")
		}
	}
	e.saver("$saver check", "run: saverd install codex")
	if _, err := os.Stat(e.sock); err == nil {
		t.Error("a hook after the uninstall started a daemon")
	}
}

// TestCodexPluginTUI installs saverd's plugin in the real Codex CLI from this repository's marketplace
// (`codex plugin marketplace add`, `codex plugin add saver@saverd`, plugins on in config.toml), goes
// through the TUI's hook review as a person does (Trust all and continue: Codex reads the plugin's
// eight hooks, not Claude Code's file beside them), and types `$saver:saver …` from its popup: answered
// at zero requests, and the skill kept out of what the model is told.
func TestCodexPluginTUI(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real Codex CLI")
	}
	e := offlineCodexTUI(t)
	if e == nil {
		return
	}
	cfg := filepath.Join(e.home, "config.toml")
	text, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte(strings.Replace(string(text), "plugins = false", "plugins = true", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", e.bins+string(os.PathListSeparator)+os.Getenv("PATH")) // where go install puts saverd-hook
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"plugin", "marketplace", "add", repo}, {"plugin", "add", "saver@saverd"}} {
		if r := codexcli.Run(t, e.bin, e.home, e.proj, "", args...); r.Err != nil {
			t.Fatalf("codex %s: %v\n%s%s", strings.Join(args, " "), r.Err, r.Stdout, r.Stderr)
		}
	}
	e.start()
	s := e.tm.WaitText(30*time.Second, "Hooks need review", "Trust all and continue")
	if !strings.Contains(s, "8 hooks are new or changed") {
		t.Errorf("the review names other hooks than the plugin's eight:\n%s", s)
	}
	// The dialog takes keys once it has drawn itself: choose 2 until it shows chosen.
	e.tm.WaitFor("Trust all chosen", 10*time.Second, func(s string) bool {
		if strings.Contains(s, "› 2. Trust all and continue") {
			return true
		}
		e.tm.Press("2")
		time.Sleep(200 * time.Millisecond)
		return false
	})
	e.tm.Press(ptyterm.Enter)
	e.tm.WaitFor("the composer", 30*time.Second, func(s string) bool { return composer(s) == "" && !strings.Contains(s, "Hooks need review") })
	if text, _ := os.ReadFile(cfg); !strings.Contains(string(text), `"saver@saverd:hooks/codex.json:user_prompt_submit:0:0"`) {
		t.Errorf("config.toml after Trust all holds no trust for the plugin's hooks:\n%s", text)
	}
	e.habit()

	e.popup("[Skill] saverd — the pane; $saver:saver", "$saver:saver")
	e.saver("$saver:saver check", "1 new waster")
	e.saver("$saver:saver fix 1", "· fixed")
	e.saver(" /saver:saver", "DECIDED (1)")
	for _, r := range e.sessionRequests(0) {
		body := string(r.Body)
		for _, listed := range []string{"saver:saver:", "source-command-saver"} {
			if strings.Contains(body, listed) {
				t.Errorf("a request lists the plugin's skill to the model (%q)", listed)
				break
			}
		}
	}
}
