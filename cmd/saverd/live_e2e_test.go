package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/internal/claudeapi"
	"github.com/saverd/saverd/internal/hookcmd"
)

// The detectors live in the real clients: a card in the Stop hook's answer at zero tokens, and the same
// scripted session with the detectors off and on to measure what the judge is asked.

// buildCard is the start of what the Stop hook shows for `npm run build` run again with nothing edited.
const buildCard = "ContextSaver: 1 new waster, found without a model: Claude keeps re-running `npm run build` with nothing edited since the last run"

// buildFix is the fix that card sends.
const buildFix = "Run `npm run build` again only after a change"

// metered answers the main loop with the steps of the turn the test is in and each judge fork with
// findingsFor its prompt, every reply reporting what a prompt cache would bill for its request: the
// request's last user message (the new text: a prompt, tool results, the judge's prompt) as cache
// writes, the rest as cache reads, at four characters a token, and 60 output tokens.
type metered struct {
	mu     sync.Mutex
	main   claudeapi.Script
	judged int
	// turn is the turn the test is in; judgedAt the turn each judge request came after.
	turn     int
	judgedAt []int
}

func (m *metered) set(main claudeapi.Script) {
	m.mu.Lock()
	m.main = main
	m.mu.Unlock()
}

func (m *metered) script(req claudeapi.Request) claudeapi.Reply {
	m.mu.Lock()
	var r claudeapi.Reply
	if judgeRequest(req) {
		m.judged++
		m.judgedAt = append(m.judgedAt, m.turn)
		r = claudeapi.Text(findingsFor(req.LastUserText()))
	} else {
		r = m.main(req)
	}
	m.mu.Unlock()
	if r.Status != 0 {
		return r
	}
	fresh, all := len(req.LastUserText()), len(req.Text())
	return r.WithUsage(claudeapi.Usage{Input: 3, Output: 60, CacheCreation: fresh / 4, CacheRead: max(0, all-fresh) / 4})
}

// liveProject is realProject for a metered script, with package scripts whose outputs weigh what a
// real build's and test run's do: `npm run build` prints ~16k characters, `npm test` ~10k.
func liveProject(t *testing.T, m *metered, settings string) (*claudeapi.Server, *claudeapi.Claude, string) {
	t.Helper()
	srv, c, state := realProject(t, m.script)
	for name, body := range map[string]string{
		"package.json": `{"name":"calc","version":"1.0.0","scripts":{` +
			`"build":"node -e \"console.log(Array.from({length:900},(_,i)=>'built module '+i).join('\\n'))\"",` +
			`"test":"node -e \"console.log('212 pass\\n'.repeat(2600))\""}}`,
		".saverd.json": settings,
	} {
		if err := os.WriteFile(filepath.Join(c.Dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return srv, c, state
}

// streamed runs one `claude -p` turn with the stream-json output and returns its session id and what
// the hooks' systemMessages showed the person (Claude Code prints each as a system line "<Event> says:").
func streamed(t *testing.T, c *claudeapi.Claude, prompt string, args ...string) (id string, shown []string) {
	t.Helper()
	out, _, err := c.Run("", append([]string{"-p", prompt, "--output-format", "stream-json", "--verbose"}, args...)...)
	if err != nil {
		t.Fatalf("%q: %v", prompt, err)
	}
	for _, line := range bytes.Split(out, []byte("\n")) {
		var ev struct {
			Type, Subtype, Content string
			SessionID              string `json:"session_id"`
			IsError                bool   `json:"is_error"`
		}
		if json.Unmarshal(line, &ev) != nil {
			continue
		}
		switch {
		case ev.Type == "system" && ev.Subtype == "informational":
			shown = append(shown, ev.Content)
		case ev.Type == "result":
			if ev.IsError {
				t.Fatalf("%q ended in an error: %s", prompt, line)
			}
			id = ev.SessionID
		}
	}
	if id == "" {
		t.Fatalf("%q: no result line in:\n%s", prompt, out)
	}
	return id, shown
}

// debugOf is the daemon's `/saver debug` dump of a session, over its socket.
func debugOf(t *testing.T, sock, id string) string {
	t.Helper()
	params, _ := json.Marshal(map[string]any{"sessionId": id, "view": "debug"})
	out, err := hookcmd.Call(sock, []byte(`{"jsonrpc":"2.0","id":1,"method":"view.text","params":`+string(params)+"}\n"), 5*time.Second, "")
	if err != nil {
		t.Fatalf("view.text debug: %v", err)
	}
	return string(out)
}

// judgesIdle waits until no judge or process run of the session is in flight, so the next turn starts
// after the last one answered, as a person's next prompt would most of the time.
func judgesIdle(t *testing.T, sock, id string) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for {
		d := debugOf(t, sock, id)
		if !strings.Contains(d, "running true") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("a judge still runs after 3 minutes:\n%s", d)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// judgeForks is the judge forks the daemon ran, from its forks log, and their tokens summed.
func judgeForks(t *testing.T, state string) (int, agentlog.Tokens) {
	t.Helper()
	forks, warnings := agentlog.ReadForks(filepath.Join(state, "saverd", "forks.jsonl"))
	if len(warnings) > 0 {
		t.Fatalf("forks log: %v", warnings)
	}
	var n int
	var sum agentlog.Tokens
	for _, f := range forks {
		if f.Purpose != "judge" || f.Tokens == nil {
			t.Fatalf("forks log line %+v: want a judge fork with its tokens", f)
		}
		n++
		sum.Add(*f.Tokens)
	}
	return n, sum
}

// bashStep is the model running cmd with Bash.
func bashStep(cmd string) claudeapi.Reply {
	return claudeapi.ToolUse("Bash", map[string]string{"command": cmd, "description": cmd})
}

// editStep is the model editing the project's math.js.
func editStep(c *claudeapi.Claude, from, to string) claudeapi.Reply {
	return claudeapi.ToolUse("Edit", map[string]any{"file_path": filepath.Join(c.Dir, "math.js"), "old_string": from, "new_string": to})
}

// billed is what a bill counts of tokens, as the judge budget does: cache reads left out.
func billed(t agentlog.Tokens) int64 { return t.Input + t.Output + t.CacheWrite }

// TestRealClaudeCodeDetectorCard: in the real Claude Code, four identical builds in one `claude -p` turn
// are a card in the Stop hook's answer — shown to the person, never sent to the model, no judge asked —
// and `/saver fix 1` makes its fix the instruction the next prompt carries, once.
func TestRealClaudeCodeDetectorCard(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real Claude Code")
	}
	m := &metered{}
	srv, c, state := liveProject(t, m, `{}`)
	sock := filepath.Join(state, "run", "saverd.sock")
	tools := []string{"--allowedTools", "Bash Read Edit"}
	build := claudeapi.ToolUse("Bash", map[string]string{"command": "npm run build", "description": "build"})
	m.set(claudeapi.Steps(build, build, build, build, claudeapi.Text("Built.")))
	id, shown := streamed(t, c, "build it", tools...)
	if len(shown) != 1 || !strings.HasPrefix(shown[0], "Stop says: "+buildCard) || !strings.Contains(shown[0], "/saver fix 1 fixes it, /saver ignore 1 if it is fine") {
		t.Fatalf("the turn showed %q, want the Stop hook's card", shown)
	}
	t.Logf("the turn showed: %s", shown[0])
	for _, r := range srv.Requests() {
		if judgeRequest(r) || bytes.Contains(r.Body, []byte("found without a model")) {
			t.Fatalf("a request was the judge's or carried the card: %.300q", r.LastUserText())
		}
	}
	if pane := paneOf(t, sock, id); !strings.Contains(pane, "WASTERS (1)") || !strings.Contains(pane, "re-running `npm run build`") {
		t.Fatalf("the pane after the turn:\n%s", pane)
	}

	before := len(srv.Requests())
	fix := c.Print(t, "/saver fix 1", "--resume", id)
	if !strings.Contains(fix.Result, "· fixed") || len(srv.Requests()) != before {
		t.Fatalf("/saver fix 1 showed %q with %d requests", fix.Result, len(srv.Requests())-before)
	}
	m.set(claudeapi.Steps(claudeapi.Text("On it.")))
	if r := c.Print(t, "next step", append([]string{"--resume", id}, tools...)...); r.IsError {
		t.Fatalf("next step: %+v", r)
	}
	reqs := srv.Requests()[before:]
	if len(reqs) != 1 || strings.Count(reqs[0].Text(), buildFix) != 1 {
		t.Fatalf("%d requests after the fix; the first holds the fix %d times, want once", len(reqs), strings.Count(reqs[0].Text(), buildFix))
	}
	if n, _ := judgeForks(t, state); n != 0 || m.judged != 0 {
		t.Fatalf("%d judge forks, %d judge requests: the card is no model's", n, m.judged)
	}
}

// liveTurns is how many turns the measured session runs: enough for the judge's cadence to open more
// than once without the detectors.
const liveTurns = 9

// claudeLiveTurns is how many turns the measured session runs in Claude Code: with every call of a turn
// counted (its last, written after the Stop hook, once was not), the cadence opens after turns 3, 6 and 10
// without the detectors and 3 and 9 with them, so nine turns showed no difference in forks.
const claudeLiveTurns = 12

// TestRealJudgeSpendClaudeCode runs one scripted session through the real Claude Code twice, the
// detectors off and on, and measures the judge's forks in the forks log: the tokens it was asked to
// spend. Each turn builds four times with nothing edited (16k characters each: what a detector names)
// and runs the suite after each of two one-line edits (what only the judge names; 23k characters a run,
// so that its share of a turn's billed tokens alone opens the judge's cadence within a few turns). The budget is
// lifted (judgeBudget 1) so that the cadence alone decides when the judge runs; the backoff stays.
func TestRealJudgeSpendClaudeCode(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real Claude Code")
	}
	type measured struct {
		forks  int
		tokens agentlog.Tokens
		cards  string
		after  []int // the turns the judge ran after
	}
	got := map[bool]measured{}
	for _, on := range []bool{false, true} {
		m := &metered{}
		settings := `{"judgeBudget": 1, "detectors": false}`
		if on {
			settings = `{"judgeBudget": 1}`
		}
		srv, c, state := liveProject(t, m, settings)
		sock := filepath.Join(state, "run", "saverd.sock")
		tools := []string{"--allowedTools", "Bash Read Edit"}
		bash := bashStep
		edit := func(from, to string) claudeapi.Reply { return editStep(c, from, to) }
		read := claudeapi.ToolUse("Read", map[string]string{"file_path": filepath.Join(c.Dir, "math.js")})
		id := ""
		for turn := 1; turn <= claudeLiveTurns; turn++ {
			m.mu.Lock()
			m.turn = turn
			m.mu.Unlock()
			m.set(claudeapi.Steps(bash("npm run build"), bash("npm run build"), bash("npm run build"), bash("npm run build"),
				read, edit("a+b", "a + b"), bash("npm test"), edit("a + b", "a+b"), bash("npm test"), claudeapi.Text("Step done.")))
			args := tools
			if id != "" {
				args = append([]string{"--resume", id}, tools...)
			}
			id, _ = streamed(t, c, "step "+string(rune('0'+turn)), args...)
			judgesIdle(t, sock, id)
		}
		n, tokens := judgeForks(t, state)
		if n != m.judged {
			t.Fatalf("detectors %v: %d judge forks in the log, %d judge requests", on, n, m.judged)
		}
		pane := paneOf(t, sock, id)
		got[on] = measured{n, tokens, pane, m.judgedAt}
		for _, r := range srv.Requests() {
			if bytes.Contains(r.Body, []byte("found without a model")) {
				t.Fatalf("detectors %v: a request carried a detector's card", on)
			}
		}
	}
	off, on := got[false], got[true]
	for _, c := range []struct {
		name string
		m    measured
	}{{"off", off}, {"on", on}} {
		t.Logf("detectors %-3s: %d judge forks over %d turns (after turns %v), %d tokens billed (in %d, out %d, cache writes %d; cache reads %d)",
			c.name, c.m.forks, claudeLiveTurns, c.m.after, billed(c.m.tokens), c.m.tokens.Input, c.m.tokens.Output, c.m.tokens.CacheWrite, c.m.tokens.CacheRead)
	}
	if !strings.Contains(on.cards, "re-running `npm run build`") || strings.Contains(off.cards, "re-running `npm run build`") {
		t.Fatalf("the build's card: with the detectors\n%s\nwithout\n%s", on.cards, off.cards)
	}
	// What only the judge sees (the suite after each edit) it still finds with the detectors on.
	const judged = "npm test suite after every edit"
	if !strings.Contains(on.cards, judged) || !strings.Contains(off.cards, judged) {
		t.Fatalf("the judge's card: with the detectors\n%s\nwithout\n%s", on.cards, off.cards)
	}
	if off.forks < 2 || on.forks >= off.forks || billed(on.tokens) >= billed(off.tokens) {
		t.Fatalf("the judge was asked %d times without the detectors and %d with: want fewer with", off.forks, on.forks)
	}
}
