package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/saverd/saverd/internal/claudeapi"
)

// The money test: one session in the real Claude Code, offline against a scripted API whose every reply
// carries a known usage, and every dollar figure saverd shows about it — the pane, `saverd audit --format
// json`, `saverd sessions --format json`, `saverd impact` — recomputed here from the requests the API
// received and claude-opus-5-5's published prices, written below by hand: nothing here calls saverd's
// own pricing, so a change to it that moves a figure fails this test.

// opus55 is claude-opus-5-5's price per million tokens (Anthropic's published table; Claude Code's own
// cost-state charged the same in the observed runs): input, output, cache read, 5-minute cache write.
var opus55 = struct{ in, out, read, write float64 }{4, 20, 0.20, 5}

// byHand is one request's dollars at opus55.
func byHand(u claudeapi.Usage) float64 {
	return (float64(u.Input)*opus55.in + float64(u.Output)*opus55.out + float64(u.CacheRead)*opus55.read +
		float64(u.CacheCreation)*opus55.write) / 1e6
}

// dollars is a figure as the pane prints it: rounded to six decimals, then whole cents, or four decimals
// under a cent, "$0" for nothing; written out here so that the test does not borrow the pane's formatter.
func dollars(x float64) string {
	x = math.Abs(math.Round(x*1e6) / 1e6)
	switch {
	case x == 0:
		return "$0"
	case x < 0.01:
		return "$" + strconv.FormatFloat(x, 'f', 4, 64)
	}
	return "$" + strconv.FormatFloat(x, 'f', 2, 64)
}

func round6(x float64) float64 { return math.Round(x*1e6) / 1e6 }

// billedCall is one request the scripted API answered and the usage it reported.
type billedCall struct {
	req   claudeapi.Request
	usage claudeapi.Usage
	judge bool
}

// ledger answers the main loop with the steps of the phase the test is in and each judge fork with
// findings citing the test rows of its prompt, every reply with an explicit usage, and keeps every request
// with what it was billed.
type ledger struct {
	mu     sync.Mutex
	main   claudeapi.Script
	judges []claudeapi.Usage // the usage of each judge fork, in order
	calls  []billedCall
}

func (l *ledger) set(main claudeapi.Script) {
	l.mu.Lock()
	l.main = main
	l.mu.Unlock()
}

func (l *ledger) script(req claudeapi.Request) claudeapi.Reply {
	l.mu.Lock()
	defer l.mu.Unlock()
	if last := req.LastUserText(); strings.Contains(last, "You are auditing THIS session") {
		n := 0
		for _, c := range l.calls {
			if c.judge {
				n++
			}
		}
		if n >= len(l.judges) {
			return claudeapi.Error(400, "invalid_request_error", "script: one judge fork too many")
		}
		l.calls = append(l.calls, billedCall{req, l.judges[n], true})
		return claudeapi.Text(findingsFor(last)).WithUsage(l.judges[n])
	}
	reply := l.main(req)
	if reply.Status == 0 {
		if reply.Usage == nil {
			return claudeapi.Error(400, "invalid_request_error", "script: a step with no usage")
		}
		l.calls = append(l.calls, billedCall{req, *reply.Usage, false})
	}
	return reply
}

// billed is the calls so far, and the main loop's and each judge fork's share.
func (l *ledger) billed() (main float64, judges []float64, calls []billedCall) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, c := range l.calls {
		if c.judge {
			judges = append(judges, byHand(c.usage))
		} else {
			main += byHand(c.usage)
		}
	}
	return main, judges, append([]billedCall(nil), l.calls...)
}

// TestRealMoney drives one scripted session through the real Claude Code — a habit (the whole suite after
// each edit), `/saver check` on the resumed session, `/saver fix 1`, the fix held (a narrow run), a later
// turn, the habit again (a relapse), `/saver check` again — and recomputes every dollar figure saverd
// shows about it from the scripted API's usage and the price above.
func TestRealMoney(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real Claude Code")
	}
	l := &ledger{judges: []claudeapi.Usage{
		{Input: 69, Output: 15, CacheRead: 321, CacheCreation: 20},
		{Input: 1234, Output: 517, CacheRead: 45_678, CacheCreation: 901},
		{Input: 777, Output: 333, CacheRead: 22_222, CacheCreation: 111},
	}}
	srv, c, state := realProject(t, l.script)
	// A suite that prints 3.6k characters, and one test file's run that prints a line.
	for name, body := range map[string]string{
		"package.json": `{"name":"calc","version":"1.0.0","scripts":{"test":"node t.js"}}`,
		"t.js":         `console.log(process.argv.length > 2 ? "1 pass" : "212 pass\n".repeat(400))` + "\n",
		".saverd.json": `{"judgeBudget": 0}`, // no automatic run: every fork is one this test asked for
	} {
		if err := os.WriteFile(filepath.Join(c.Dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", c.Dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	git("config", "user.email", "me@example.com")
	git("config", "user.name", "Me")

	// Every main-loop call reports the same usage, so the window after each turn is the same 9545 tokens.
	each := claudeapi.Usage{Input: 300, Output: 45, CacheRead: 9_000, CacheCreation: 200}
	const window, context = 1_000_000, 300 + 45 + 9_000 + 200
	step := func(r claudeapi.Reply) claudeapi.Reply { return r.WithUsage(each) }
	bash := func(cmd string) claudeapi.Reply {
		return step(claudeapi.ToolUse("Bash", map[string]string{"command": cmd, "description": "run tests"}))
	}
	edit := func(from, to string) claudeapi.Reply {
		return step(claudeapi.ToolUse("Edit", map[string]any{"file_path": filepath.Join(c.Dir, "math.js"), "old_string": from, "new_string": to}))
	}
	read := func(f string) claudeapi.Reply {
		return step(claudeapi.ToolUse("Read", map[string]string{"file_path": filepath.Join(c.Dir, f)}))
	}
	text := func(s string) claudeapi.Reply { return step(claudeapi.Text(s)) }
	tools := []string{"--allowedTools", "Bash Read Edit"}
	run := func(prompt string, resume string, steps ...claudeapi.Reply) claudeapi.Result {
		t.Helper()
		l.set(claudeapi.Steps(steps...))
		args := tools
		if resume != "" {
			args = append([]string{"--resume", resume}, tools...)
		}
		r := c.Print(t, prompt, args...)
		if r.IsError {
			t.Fatalf("%q: %+v", prompt, r)
		}
		return r
	}

	// Turns 1 and 2: the whole suite after every one-line edit.
	id := run("fix the math", "", read("math.js"), bash("npm test"), edit("a+b", "a + b"), bash("npm test"),
		edit("a + b", "(a) + b"), bash("npm test"), text("One.")).SessionID
	git("add", "-A")
	git("commit", "-q", "-m", "the math, fixed")
	run("tidy it", id, edit("(a) + b", "a + (b)"), bash("npm test"), text("Two."))

	// /saver check on the resumed session: its judge is billed what its fork's own request used, not the
	// resumed transcript's cost.
	check := run("/saver check", id)
	_, judges, _ := l.billed()
	if len(judges) != 1 {
		t.Fatalf("%d judge forks after /saver check, want 1", len(judges))
	}
	j1 := judges[0]
	if want := "Net      saved $0 · judge " + dollars(j1) + " · net −" + dollars(j1) + " · the judge cost more than it saved"; !strings.Contains(check.Result, want+"\n") {
		t.Fatalf("/saver check: the pane lacks %q (the fork's own usage at the price):\n%s", want, check.Result)
	}

	// /saver fix 1; turn 3 runs one test file (the fix holds: the suite's output is spared), turn 4 reads.
	if r := run("/saver fix 1", id); !strings.Contains(r.Result, "· fixed") {
		t.Fatalf("/saver fix 1 showed %q", r.Result)
	}
	fixedAt := len(srv.Requests())
	run("three", id, bash("npm test -- math"), text("Three."))
	run("four", id, read("a.txt"), text("Four."))
	pane1 := run("/saver", id).Result

	// What the model received: the suite's output and the one file's, and the instruction, once a request.
	instruction := "Instruction from the user (via ContextSaver): Stop this behaviour for the rest of the session: " +
		"Claude keeps running the whole npm test suite after every edit. From now on: run only the tests covering the files you changed"
	var suite, one int
	for _, r := range srv.Requests() {
		for _, out := range r.ToolResults() {
			switch {
			case strings.Contains(out, "212 pass"):
				suite = len(out)
			case strings.Contains(out, "1 pass"):
				one = len(out)
			}
		}
	}
	_, _, calls := l.billed()
	for _, b := range calls {
		if b.req.Seq > fixedAt && !b.judge {
			if n := strings.Count(b.req.Text(), instruction); n != 1 {
				t.Errorf("request %d holds the instruction %d times, want once", b.req.Seq, n)
			}
		}
	}
	if suite < 3_600 || one == 0 {
		t.Fatalf("tool results: the suite's %d characters, the one file's %d", suite, one)
	}
	// The fix spared the suite's output less the narrow run's, as tokens (4 characters each), re-read once
	// on each main-loop turn after turn 3 (the turn it settled in): turn 4 so far.
	spared := float64(suite-one) / 4
	saved1 := spared * opus55.read / 1e6
	// The instruction went out once, ahead of turn 3: written once, re-read on turn 4.
	instr := float64(len(instruction)) / 4
	instr1 := instr*opus55.write/1e6 + instr*opus55.read/1e6
	net1 := round6(saved1) - round6(j1) - round6(instr1)
	// Projected: the spared tokens on each turn left to compaction: 90% of the window at the session's
	// average fill (no turn grew the window, so there is no pace), 4 turns in.
	turnsLeft := math.Round(float64(window*9/10-context) / (float64(context) / 4))
	want1 := "Net      saved " + dollars(saved1) + " · judge " + dollars(j1) + " · instructions " + dollars(instr1) +
		" · net −" + dollars(net1) + "\n         the judge and the instructions cost more than they saved\n" +
		"         projected: on pace for ~" + dollars(spared*turnsLeft*opus55.read/1e6) + " more by compaction\n"
	if !strings.Contains(pane1, want1) {
		t.Fatalf("after turn 4 the pane lacks\n%s\nin:\n%s", want1, pane1)
	}

	// Turn 5 goes back to the whole suite: the credit is taken back whole. /saver check again.
	run("five", id, bash("npm test"), text("Five."))
	run("/saver check", id)
	pane2 := run("/saver", id).Result
	_, judges, _ = l.billed()
	if len(judges) != 2 {
		t.Fatalf("%d judge forks, want 2", len(judges))
	}
	j2 := judges[1]
	instr2 := instr*opus55.write/1e6 + 2*instr*opus55.read/1e6 // re-read on turns 4 and 5
	net2 := -round6(j1+j2) - round6(instr2)
	want2 := "Net      saved $0 · judge " + dollars(j1+j2) + " · instructions " + dollars(instr2) + " · net −" + dollars(net2) + "\n"
	if !strings.Contains(pane2, want2) || strings.Contains(pane2, "projected:") || !strings.Contains(pane2, "relapsed · Claude keeps running") {
		t.Fatalf("after the relapse the pane lacks %q, or projects, or the card is not relapsed:\n%s", want2, pane2)
	}

	// The daemon's sessions log: the record each run's SessionEnd appended carries the two checks' forks.
	sessionRecord(t, filepath.Join(state, "saverd", "sessions.jsonl"), id, func(rec map[string]any) bool {
		j, _ := rec["judge"].(map[string]any)
		cost, _ := j["cost"].(float64)
		return j != nil && j["forks"] == 2.0 && math.Abs(cost-(j1+j2)) < 1e-9
	})

	// saverd audit --judge: its fork is priced at the model the title names, from its own usage, and is
	// recorded as the session's judge fork.
	env := append(append([]string(nil), c.Env...), "PATH="+filepath.Dir(c.Path)+":"+os.Getenv("PATH"))
	saverd := func(args ...string) []byte {
		t.Helper()
		cmd := exec.Command(binPath, args...)
		cmd.Env, cmd.Dir = env, c.Dir
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := c.Netns.Run(cmd); err != nil {
			t.Fatalf("saverd %v: %v\n%s", args, err, errb.String())
		}
		if w := errb.String(); strings.Contains(w, "repeats") || strings.Contains(w, "fork ") {
			t.Errorf("saverd %v warned about saverd's own forks:\n%s", args, w)
		}
		return out.Bytes()
	}
	claudeDir := filepath.Join(c.Home, ".claude")
	var audited struct {
		Audits []struct {
			Model  string `json:"model"`
			Header struct {
				Money struct {
					SavedUSD float64 `json:"savedUsd"`
					JudgeUSD float64 `json:"judgeUsd"`
					NetUSD   float64 `json:"netUsd"`
					Text     string  `json:"text"`
				} `json:"money"`
			} `json:"header"`
			Judge *struct {
				CostUSD *float64 `json:"costUsd"`
				Model   string   `json:"model"`
			} `json:"judge"`
		} `json:"audits"`
	}
	if err := json.Unmarshal(saverd("audit", id, "--judge", "--format", "json", "--claude-dir", claudeDir), &audited); err != nil {
		t.Fatal(err)
	}
	mainCost, judges, _ := l.billed()
	if len(judges) != 3 {
		t.Fatalf("%d judge forks after audit --judge, want 3", len(judges))
	}
	ja := judges[2]
	a := audited.Audits
	if len(a) != 1 || a[0].Model != "claude-opus-5-5" || a[0].Judge == nil || a[0].Judge.Model != "claude-opus-5-5" || a[0].Judge.CostUSD == nil ||
		math.Abs(*a[0].Judge.CostUSD-ja) > 1e-9 {
		t.Fatalf("audit: %+v, want the fork's $%v", a, ja)
	}
	if m := a[0].Header.Money; m.SavedUSD != 0 || m.JudgeUSD != round6(ja) || m.NetUSD != -round6(ja) ||
		m.Text != "saved $0 · judge "+dollars(ja)+" · net −"+dollars(ja) {
		t.Fatalf("audit money %+v, want the fork's $%v", m, ja)
	}

	// saverd sessions: the session at its calls' price; its three forks (two checks, the audit's) as its
	// judge spend, none of them a session of its own.
	var listed struct {
		Sessions []struct {
			SessionID string `json:"session_id"`
			Calls     int    `json:"calls"`
			Cost      struct {
				Total *float64 `json:"total"`
			} `json:"cost"`
			Judge *struct {
				Forks int      `json:"forks"`
				Cost  *float64 `json:"cost"`
			} `json:"judge"`
		} `json:"sessions"`
	}
	if err := json.Unmarshal(saverd("sessions", "--format", "json", "--claude-dir", claudeDir), &listed); err != nil {
		t.Fatal(err)
	}
	judged := j1 + j2 + ja
	if s := listed.Sessions; len(s) != 1 || s[0].SessionID != id || s[0].Cost.Total == nil || math.Abs(*s[0].Cost.Total-mainCost) > 1e-9 ||
		s[0].Judge == nil || s[0].Judge.Forks != 3 || s[0].Judge.Cost == nil || math.Abs(*s[0].Judge.Cost-judged) > 1e-9 {
		t.Fatalf("sessions %+v, want %s alone at $%v with 3 forks' $%v", listed.Sessions, id, mainCost, judged)
	}

	// saverd impact: the commit made during the session waits on the session alone (a fork is never
	// offered it), at the session's cost with its judge spend, which it shows apart.
	var rep struct {
		Records []struct {
			SessionID string  `json:"session_id"`
			Cost      float64 `json:"cost"`
			JudgeCost float64 `json:"judge_cost"`
		} `json:"records"`
	}
	if err := json.Unmarshal(saverd("impact", "--repo", c.Dir, "--format", "json", "--claude-dir", claudeDir), &rep); err != nil {
		t.Fatal(err)
	}
	if r := rep.Records; len(r) != 1 || r[0].SessionID != id || math.Abs(r[0].JudgeCost-round6(judged)) > 1e-9 ||
		math.Abs(r[0].Cost-round6(mainCost+judged)) > 1e-9 {
		t.Fatalf("impact records %+v, want %s alone at $%v, $%v of it the judge's", rep.Records, id, mainCost+judged, judged)
	}
	t.Logf("pane after turn 4:\n%s\npane after the relapse:\n%s\njudges $%v $%v $%v, session $%v", pane1, pane2, j1, j2, ja, mainCost)
}
