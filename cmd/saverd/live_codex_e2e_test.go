//go:build linux

package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/saverd/saverd/internal/codexapi"
	"github.com/saverd/saverd/internal/codexcli"
)

// codexMetered answers the real Codex CLI's requests: the main loop's with the steps the test queued,
// each judge fork's with findingsFor its prompt, every one reporting what a prompt cache would bill for
// it: the items after the model's last output (a prompt, command outputs, the judge's prompt) as new
// input, the rest of the request as cached input, at four characters a token, and 60 output tokens.
type codexMetered struct {
	mu       sync.Mutex
	steps    []codexapi.Step
	turn     int
	judgedAt []int
}

func (m *codexMetered) queue(steps ...codexapi.Step) {
	m.mu.Lock()
	m.steps = append(m.steps, steps...)
	m.mu.Unlock()
}

func (m *codexMetered) answer(r codexapi.Request) (codexapi.Step, bool) {
	if !strings.HasSuffix(r.Path, "/responses") {
		return codexapi.Step{}, false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var step codexapi.Step
	switch {
	case strings.Contains(string(r.Body), "You are auditing THIS session"):
		m.judgedAt = append(m.judgedAt, m.turn)
		step = codexapi.Step{Text: findingsFor(promptOf(r))}
	case len(m.steps) > 0:
		step, m.steps = m.steps[0], m.steps[1:]
	default:
		step = codexapi.Step{Text: "done"}
	}
	fresh := freshChars(r)
	step.Usage = codexapi.Usage{Input: len(r.Body) / 4, Cached: max(0, len(r.Body)-fresh) / 4, Output: 60}
	return step, true
}

// freshChars is the length of a request's items after the model's last output: what it sends anew.
func freshChars(r codexapi.Request) int {
	items := r.Input()
	from := 0
	for i, it := range items {
		if t, _ := it["type"].(string); t == "function_call" || t == "reasoning" || it["role"] == "assistant" {
			from = i + 1
		}
	}
	n := 0
	for _, it := range items[from:] {
		b, _ := json.Marshal(it)
		n += len(b)
	}
	return n
}

// codexLive is one project of the real Codex CLI with saverd installed, its daemon's state apart.
type codexLive struct {
	t     *testing.T
	bin   string
	home  string
	proj  string
	state string
	sock  string
	srv   *codexapi.Server
	m     *codexMetered
}

// newCodexLive sets up a project whose `npm run build` prints ~16k characters and `npm test` ~10k, with
// .saverd.json holding settings, and installs saverd for Codex. Call inside codexcli.Offline.
func newCodexLive(t *testing.T, bin, settings string) *codexLive {
	t.Helper()
	root := t.TempDir()
	e := &codexLive{t: t, bin: bin, proj: filepath.Join(root, "proj"), state: filepath.Join(root, "state"), m: &codexMetered{}}
	e.sock = filepath.Join(e.state, "run", "saverd.sock")
	if err := os.MkdirAll(e.proj, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		"package.json": `{"name":"calc","version":"1.0.0","scripts":{` +
			`"build":"node -e \"console.log(Array.from({length:900},(_,i)=>'built module '+i).join('\\n'))\"",` +
			`"test":"node -e \"console.log('212 pass\\n'.repeat(1100))\""}}`,
		"math.js":      "export function add(a,b){return a+b}\n",
		".saverd.json": settings,
	} {
		if err := os.WriteFile(filepath.Join(e.proj, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", root)
	t.Setenv("SAVERD_SOCKET", e.sock)
	t.Setenv("XDG_STATE_HOME", e.state)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(root, "config"))
	t.Setenv("GORACE", "atexit_sleep_ms=0")
	t.Setenv("npm_config_update_notifier", "false")
	t.Cleanup(func() { stopDaemonAt(e.sock) })
	srv, err := codexapi.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	srv.Intercept(e.m.answer)
	e.srv = srv
	e.home = codexcli.Home(t, filepath.Join(root, "codex"), srv.URL, "")
	t.Setenv("CODEX_HOME", e.home)
	if out, err := exec.Command(binPath, "install", "codex", "--scope", "user").CombinedOutput(); err != nil {
		t.Fatalf("saverd install codex: %v\n%s", err, out)
	}
	return e
}

var threadStarted = regexp.MustCompile(`"type":"thread.started","thread_id":"([^"]+)"`)

// run is one `codex exec` turn (resumed when id is set); it returns the thread's id.
func (e *codexLive) run(id, prompt string) string {
	e.t.Helper()
	args := []string{"exec", "--json", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", "-m", "gpt-5.5"}
	if id != "" {
		args = append(args, "resume", id)
	}
	r := codexcli.Run(e.t, e.bin, e.home, e.proj, "", append(args, prompt)...)
	if r.Err != nil {
		e.t.Fatalf("codex %q: %v\n%s\n%s", prompt, r.Err, r.Stdout, r.Stderr)
	}
	if id != "" {
		return id
	}
	m := threadStarted.FindStringSubmatch(r.Stdout)
	if m == nil {
		e.t.Fatalf("no thread.started in:\n%s", r.Stdout)
	}
	return m[1]
}

func execStep(cmd string) codexapi.Step {
	return codexapi.Step{Calls: []codexapi.Call{{Name: "exec_command", Arguments: map[string]any{"cmd": cmd}}}}
}

// cardless: no request the API received carried a detector's card.
func (e *codexLive) cardless() {
	e.t.Helper()
	for _, r := range e.srv.Requests() {
		if strings.Contains(string(r.Body), "found without a model") {
			e.t.Fatalf("a request carried a detector's card: %.300s", r.Body)
		}
	}
}

// TestRealCodexDetectorCard: in the real Codex CLI, four identical builds in one turn are a card at the
// turn's end with no model asked (codex exec shows no systemMessage: the daemon's pane is read), and
// `$saver fix 1` makes its fix the instruction the next request carries, once.
func TestRealCodexDetectorCard(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real Codex CLI")
	}
	bin := codexcli.Binary(t)
	if !codexcli.Offline(t) {
		return
	}
	e := newCodexLive(t, bin, `{}`)
	e.m.queue(execStep("npm run build"), execStep("npm run build"), execStep("npm run build"), execStep("npm run build"), codexapi.Step{Text: "Built."})
	id := e.run("", "build it")
	if pane := paneOf(t, e.sock, id); !strings.Contains(pane, "WASTERS (1)") || !strings.Contains(pane, "re-running `npm run build`") {
		t.Fatalf("the pane after the turn:\n%s\n%s", pane, debugOf(t, e.sock, id))
	}
	before := len(e.srv.Responses())
	e.run(id, "$saver fix 1")
	if pane := paneOf(t, e.sock, id); !strings.Contains(pane, "DECIDED (1)") || len(e.srv.Responses()) != before {
		t.Fatalf("after $saver fix 1 (%d requests) the pane is:\n%s", len(e.srv.Responses())-before, pane)
	}
	e.m.queue(codexapi.Step{Text: "On it."})
	e.run(id, "next step")
	reqs := e.srv.Responses()[before:]
	if len(reqs) != 1 || strings.Count(promptOf(reqs[0]), buildFix) != 1 {
		t.Fatalf("%d requests after the fix; want one that holds the fix once", len(reqs))
	}
	e.cardless()
	if n, _ := judgeForks(t, e.state); n != 0 || len(e.m.judgedAt) != 0 {
		t.Fatalf("%d judge forks: the card is no model's", n)
	}
}

// TestRealJudgeSpendCodex is TestRealJudgeSpendClaudeCode in the real Codex CLI: the same nine turns
// (four identical builds, then the suite after each of two one-line edits), the detectors off and on,
// the judge's forks read from the forks log.
func TestRealJudgeSpendCodex(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real Codex CLI")
	}
	bin := codexcli.Binary(t)
	if !codexcli.Offline(t) {
		return
	}
	type measured struct {
		forks  int
		billed int64
		after  []int
		pane   string
	}
	got := map[bool]measured{}
	for _, on := range []bool{false, true} {
		settings := `{"judgeBudget": 1, "detectors": false}`
		if on {
			settings = `{"judgeBudget": 1}`
		}
		e := newCodexLive(t, bin, settings)
		id := ""
		for turn := 1; turn <= liveTurns; turn++ {
			e.m.mu.Lock()
			e.m.turn = turn
			e.m.mu.Unlock()
			e.m.queue(execStep("npm run build"), execStep("npm run build"), execStep("npm run build"), execStep("npm run build"),
				execStep("cat math.js"), execStep("sed -i 's/a+b/a + b/' math.js"), execStep("npm test"),
				execStep("sed -i 's/a + b/a+b/' math.js"), execStep("npm test"), codexapi.Step{Text: "Step done."})
			id = e.run(id, "step "+strconv.Itoa(turn))
			judgesIdle(t, e.sock, id)
		}
		n, tokens := judgeForks(t, e.state)
		if n != len(e.m.judgedAt) {
			t.Fatalf("detectors %v: %d judge forks in the log, %d judge requests", on, n, len(e.m.judgedAt))
		}
		e.cardless()
		got[on] = measured{n, billed(tokens), e.m.judgedAt, paneOf(t, e.sock, id)}
		t.Logf("detectors %-5v: %d judge forks over %d turns (after turns %v), %d tokens billed (in %d, out %d; cached %d)",
			on, n, liveTurns, e.m.judgedAt, billed(tokens), tokens.Input, tokens.Output, tokens.CacheRead)
		stopDaemonAt(e.sock)
	}
	off, on := got[false], got[true]
	if !strings.Contains(on.pane, "re-running `npm run build`") || strings.Contains(off.pane, "re-running `npm run build`") {
		t.Fatalf("the build's card: with the detectors\n%s\nwithout\n%s", on.pane, off.pane)
	}
	// What only the judge sees (the suite after each edit) it still finds with the detectors on.
	const judged = "npm test suite after every edit"
	if !strings.Contains(on.pane, judged) || !strings.Contains(off.pane, judged) {
		t.Fatalf("the judge's card: with the detectors\n%s\nwithout\n%s", on.pane, off.pane)
	}
	if off.forks < 2 || on.forks >= off.forks || on.billed >= off.billed {
		t.Fatalf("the judge was asked %d times without the detectors and %d with: want fewer with", off.forks, on.forks)
	}
}
