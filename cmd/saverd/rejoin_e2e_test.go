package main

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/saverd/saverd/internal/claudeapi"
)

// TestRealClaudeCodeRejoin: a daemon stopped mid-session is not the end of what the person decided or
// spent. In the real Claude Code a detector's card is ignored, `/saver check` runs the judge and its card
// is fixed; then the daemon is stopped, and the next turn's hooks start another, which joins the session
// from its transcript, the project's registry and the forks log: the two decisions stand (no card comes
// back, the fix is not sent twice), no judge runs past the spent budget, and the pane, priced in dollars,
// counts every judge run the forks log names.
func TestRealClaudeCodeRejoin(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real Claude Code")
	}
	m := &metered{}
	srv, c, state := liveProject(t, m, `{}`)
	sock := filepath.Join(state, "run", "saverd.sock")
	tools := []string{"--allowedTools", "Bash Read Edit"}
	build, test := bashStep("npm run build"), bashStep("npm test")
	m.set(claudeapi.Steps(build, build, build, build, editStep(c, "a+b", "a + b"), test, editStep(c, "a + b", "a+b"), test, claudeapi.Text("Step done.")))
	id, shown := streamed(t, c, "step one", tools...)
	if len(shown) != 1 || !strings.Contains(shown[0], buildCard) {
		t.Fatalf("the turn showed %q, want the build's card", shown)
	}
	if r := c.Print(t, "/saver ignore 1", "--resume", id); !strings.Contains(r.Result, "· ignored") {
		t.Fatalf("/saver ignore 1 showed %q", r.Result)
	}
	if r := c.Print(t, "/saver check", "--resume", id); !strings.Contains(r.Result, "1 new waster") {
		t.Fatalf("/saver check showed %q", r.Result)
	}
	if r := c.Print(t, "/saver fix 1", "--resume", id); !strings.Contains(r.Result, "· fixed") {
		t.Fatalf("/saver fix 1 showed %q", r.Result)
	}
	m.set(claudeapi.Steps(claudeapi.Text("On it.")))
	streamed(t, c, "step two", append([]string{"--resume", id}, tools...)...)
	judgesIdle(t, sock, id)
	before := paneOf(t, sock, id)
	forks, _ := judgeForks(t, state)
	judged, old := m.judged, (&hookEnv{sock: sock}).daemonPID()
	if forks != 1 || judged != 1 || !strings.Contains(before, "DECIDED (2)") || !strings.Contains(before, "budget spent") {
		t.Fatalf("before the restart (%d judge forks, %d judge requests):\n%s", forks, judged, before)
	}

	if out, errOut, code := runBin(t, c.Env, "stop"); code != 0 {
		t.Fatalf("saverd stop: %d %s %s", code, out, errOut)
	}
	reqs := len(srv.Requests())
	m.set(claudeapi.Steps(claudeapi.Text("Still on it.")))
	streamed(t, c, "step three", append([]string{"--resume", id}, tools...)...)
	judgesIdle(t, sock, id)
	if now := (&hookEnv{sock: sock}).daemonPID(); now == 0 || now == old {
		t.Fatalf("the daemon was not restarted (before %d, now %d)", old, now)
	}
	after := paneOf(t, sock, id)
	if n, _ := judgeForks(t, state); n != forks || m.judged != judged {
		t.Fatalf("after the restart %d judge forks and %d judge requests, want %d: the budget was spent\n%s", n, m.judged, forks, after)
	}
	// The decisions stand; the judge's runs, their dollars and the instructions' are what they were.
	for _, want := range []string{"No wasters waiting", "DECIDED (2)", "- ignored · Claude keeps re-running `npm run build`",
		"- fixed · Claude keeps running the whole npm test suite", lineOf(before, "Judge "), lineOf(before, "Net ")} {
		if !strings.Contains(after, want) {
			t.Fatalf("after the restart the pane lacks %q:\n%s\nbefore it was:\n%s", want, after, before)
		}
	}
	if strings.Contains(after, "no price") || strings.Contains(after, "instructions $0.0000") || !strings.Contains(after, "judge $") {
		t.Fatalf("after the restart the money is not priced:\n%s", after)
	}
	// The fix reached the context once, before the restart, and the rejoined daemon did not send it again.
	sent := srv.Requests()[reqs:]
	if len(sent) != 1 || strings.Count(sent[0].Text(), fixFull) != 1 {
		t.Fatalf("%d requests after the restart; the first holds the fix %d times, want once", len(sent), strings.Count(sent[0].Text(), fixFull))
	}
	rec := sessionRecord(t, filepath.Join(state, "saverd", "sessions.jsonl"), id, func(rec map[string]any) bool {
		return decisionOf(rec, "execution:full-suite") == "fix"
	})
	if d := decisionOf(rec, "execution:rerun-npm-run-build"); d != "ignore" {
		t.Fatalf("the session record has the ignored build habit as %q: %v", d, rec["saver"])
	}
	// What the rejoined daemon counts as the judge's spend is what the session reader recomputes from the
	// fork's own transcript.
	saver, _ := rec["saver"].(map[string]any)
	judge, _ := rec["judge"].(map[string]any)
	if j, r := saver["judge_usd"].(float64), judge["cost"].(float64); r <= 0 || math.Abs(j-r) > 1e-6 {
		t.Fatalf("the daemon's judge spend $%v, the session reader's $%v", j, r)
	}
}

// fixFull is the instruction the judge's card sends once fixed.
const fixFull = "Stop this behaviour for the rest of the session: Claude keeps running the whole npm test suite after every edit. From now on: run only the tests covering the files you changed"

// lineOf is the line of text that starts with prefix, "" when none does.
func lineOf(text, prefix string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	return ""
}

// decisionOf is the decision a session record's saver part gives the habit id.
func decisionOf(rec map[string]any, id string) string {
	saver, _ := rec["saver"].(map[string]any)
	habits, _ := saver["habits"].([]any)
	for _, h := range habits {
		if h, _ := h.(map[string]any); h["id"] == id {
			d, _ := h["decision"].(string)
			return d
		}
	}
	return ""
}
