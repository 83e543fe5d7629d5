package judge

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/state"
)

// long is a string of n units that starts with tag, so distinct values stay distinct after a cut.
func long(tag string, n int) string { return tag + strings.Repeat("w", max(0, n-len(tag))) }

// worstSession fills every block to its caps with the widest cells a malformed session can hold.
func worstSession() *state.State {
	s := state.New(long("/cwd", 300), math.MaxInt64)
	minI, min64 := math.MinInt, int64(math.MinInt64)
	agents := []string{}
	for i := range 8 {
		agents = append(agents, long(fmt.Sprintf("agent-%d-", i), 90))
	}
	s.Seq = math.MaxInt - 10_000
	for i := range state.RowCap {
		key := long(fmt.Sprintf("k%03d-", i%61), 400)
		agent := agents[i%len(agents)]
		s.Seq++
		s.Rows = append(s.Rows, state.Row{
			Seq: -s.Seq, ID: fmt.Sprint("tu", i), Tool: long(fmt.Sprintf("T%02d", i%61), 90), Key: key, Cls: state.CommandClass(long("c", 40)),
			Agent: agent, Turn: minI, Ms: math.MaxInt64/4000 - int64(i), Chars: math.MaxInt64/4000 - int64(i),
			Flags: []string{long("err", 90), long("persist=", 90), "ask", "recommended"},
			Lines: &state.Lines{Add: min64, Del: min64},
			Paths: []string{long("/p1", 300), long("/p2", 300), long("/p3", 300), "/p4", "/p5"},
			Launch: &state.Launch{Type: long("t", 90), Resolved: new(long("m", 90)), Status: new(long("s", 90)),
				Tokens: new(-1.2345678901234567e-300), Edits: new(-1.2345678901234567e-300), PromptChars: minI},
		})
	}
	for i := range 200 {
		f := state.Folded{Tool: long(fmt.Sprintf("F%03d", i), 90), Key: long("fk", 400), Cls: "x", Agent: agents[0],
			Count: minI, Ms: min64, Chars: min64 + int64(i), FirstTurn: minI, LastTurn: minI}
		s.Folded[state.FoldKey(f.Tool, f.Key)] = f
	}
	for i := range 300 {
		big := -int64(math.MaxInt64 / 400)
		s.Turns = append(s.Turns, state.TurnStat{Turn: minI, Input: big, Output: big, CacheCreate: big, Calls: int(big), Ms: big,
			AnswerChars: int(big), Aborted: true, IdleMs: math.MaxInt64 - int64(i)})
	}
	for i := range 40 {
		s.Runs = append(s.Runs, state.Run{ID: long(fmt.Sprint("run", i), 90), Name: long("name", 200), Turn: minI})
	}
	for i := range state.LoopCap {
		run := s.Runs[i%len(s.Runs)].ID
		if i%2 == 0 {
			run = long(fmt.Sprint("gone", i), 90) // a run the session no longer holds: its own fold line
		}
		s.Loops = append(s.Loops, state.Loop{ID: long(fmt.Sprint("loop", i), 90), Run: &run, Label: new(long("label", 200)),
			Model: new(long("model", 200)), Turns: minI, Ms: math.MaxInt64 / 1000, Tokens: state.Tokens{Input: math.MaxInt64 / 1000},
			Ended: new(state.TurnEnd(long("ended", 90))), Outcome: &state.Outcome{Kind: state.OutcomeFindings, Critical: minI, High: minI, Medium: minI, Low: minI},
			Edits: minI, Checks: minI, Reads: minI})
	}
	for i := range 70 {
		d := state.Choice(long("keep", 40))
		if i%2 == 0 {
			d = state.Ignore
		}
		s.Patterns = append(s.Patterns, state.Pattern{StoredPattern: state.StoredPattern{ID: long(fmt.Sprint("id", i), 90),
			Kind: long("Claude keeps ", 600), Signature: &state.Signature{Tool: "T", Key: long("sk", 400)}, LastDecision: &d},
			Decision: &d, DecidedAtTurn: new(minI)})
	}
	for range 40 {
		s.Compactions = append(s.Compactions, minI)
	}
	s.Overhead = &state.Overhead{Memory: min64, MCP: min64, Agents: min64}
	return s
}

func TestPromptBound(t *testing.T) {
	s := worstSession()
	p := BuildPrompt(s, map[string]string{}) // no aliases: every agent cell is the raw id, cut
	got := jstext.Len16(p)
	if got > PromptMaxChars {
		t.Fatalf("prompt is %d units, over the bound %d", got, PromptMaxChars)
	}
	checks := []struct {
		heading string
		max     int
	}{
		{"KNOWN PATTERNS", knownMax}, {"DECISIONS", decisionsMax}, {"STATS", statsMax}, {"TIME", sinksMax},
		{"CONTEXT", sinksMax}, {"AGENTS", agentsBlockMax}, {"TURNS", turnsMax},
	}
	for _, c := range checks {
		b := block(t, p, c.heading)
		if n := jstext.Len16(b); n > c.max {
			t.Errorf("%s is %d units, over its bound %d", c.heading, n, c.max)
		}
		for _, line := range strings.Split(b, "\n") {
			if strings.Contains(line, "\n") {
				t.Errorf("%s: a cell broke its line", c.heading)
			}
		}
	}
	ledger := p[strings.Index(p, "\n## LEDGER"):]
	ledger = ledger[strings.Index(ledger[1:], "\n")+2 : len(ledger)-len("\n\nReturn the JSON object only.\n")]
	if n := jstext.Len16(ledger); n > ledgerMax {
		t.Errorf("LEDGER is %d units, over its bound %d", n, ledgerMax)
	}
	// The bound is a worst case, not a guess: the widest session comes close to it.
	if got < PromptMaxChars*3/4 {
		t.Errorf("the widest session is %d units, far under the bound %d: the bound is loose", got, PromptMaxChars)
	}
	t.Logf("worst prompt %d units of the bound %d (%.0f%%)", got, PromptMaxChars, 100*float64(got)/float64(PromptMaxChars))
}

// The bound itself, so a change to a cap is a visible change here.
func TestPromptBoundValue(t *testing.T) {
	if PromptMaxChars != 322_245 {
		t.Errorf("PromptMaxChars = %d; update this figure and the package docs if a cap changed on purpose", PromptMaxChars)
	}
	s := fullSession(400)
	if n := jstext.Len16(BuildProcessPrompt(s, nil)); n > ProcessPromptMaxChars {
		t.Errorf("process prompt %d over %d", n, ProcessPromptMaxChars)
	}
}
