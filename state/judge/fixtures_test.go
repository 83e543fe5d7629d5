package judge

import (
	"fmt"
	"strconv"

	"github.com/saverd/saverd/state"
)

// Fixture sessions, built as struct literals so the tests do not depend on the reducer.

// session is a builder over a fresh state.
type session struct{ s *state.State }

func newSession() *session { return &session{s: state.New("/repo", 200_000)} }

// row appends one row; seq and id follow the ledger's numbering.
func (b *session) row(tool, key string, cls state.CommandClass, agent string, turn int, ms, chars int64, opts ...func(*state.Row)) *state.Row {
	b.s.Seq++
	r := state.Row{
		Seq: b.s.Seq, ID: "tu_" + strconv.Itoa(b.s.Seq), Tool: tool, Key: key, Cls: cls, Agent: agent, Turn: turn,
		Ms: ms, Chars: chars, Flags: []string{}, Paths: []string{},
	}
	for _, o := range opts {
		o(&r)
	}
	b.s.Rows = append(b.s.Rows, r)
	return &b.s.Rows[len(b.s.Rows)-1]
}

func flags(f ...string) func(*state.Row) {
	return func(r *state.Row) { r.Flags = append(r.Flags, f...) }
}

func paths(p ...string) func(*state.Row) {
	return func(r *state.Row) { r.Paths = append(r.Paths, p...) }
}

func lines(add, del int64) func(*state.Row) {
	return func(r *state.Row) { r.Lines = &state.Lines{Add: add, Del: del} }
}

func spawn(typ, model, status string, tokens, edits float64, pch int) func(*state.Row) {
	return func(r *state.Row) {
		r.Launch = &state.Launch{Type: typ, Resolved: new(model), Status: new(status), Tokens: new(tokens), Edits: new(edits), PromptChars: pch}
	}
}

// edit is an Edit row that changed path.
func (b *session) edit(path, agent string, turn int, add, del int64) *state.Row {
	return b.row("Edit", path, state.ClassOther, agent, turn, 40, 300, lines(add, del), paths(path))
}

// read is a whole-file Read row.
func (b *session) read(path, agent string, turn int, chars int64, opts ...func(*state.Row)) *state.Row {
	return b.row("Read", path+":-", state.ClassRead, agent, turn, 15, chars, opts...)
}

func (b *session) bash(key string, cls state.CommandClass, agent string, turn int, ms, chars int64, opts ...func(*state.Row)) *state.Row {
	return b.row("Bash", key, cls, agent, turn, ms, chars, opts...)
}

// turn completes one turn of the main loop.
func (b *session) turn(n int, in, out, cc int64, calls int, ms int64, answer int, opts ...func(*state.TurnStat)) {
	t := state.TurnStat{Turn: n, Input: in, Output: out, CacheCreate: cc, Calls: calls, Ms: ms, AnswerChars: answer,
		Ended: state.EndAnswer, At: 1_000_000 + int64(n)*600_000}
	for _, o := range opts {
		o(&t)
	}
	b.s.Turns = append(b.s.Turns, t)
	b.s.Turn = n
}

func idle(ms int64) func(*state.TurnStat) { return func(t *state.TurnStat) { t.IdleMs = ms } }

func ended(e state.TurnEnd) func(*state.TurnStat) { return func(t *state.TurnStat) { t.Ended = e } }

func (b *session) loop(id string, run *string, label, phase, model string, opts ...func(*state.Loop)) *state.Loop {
	l := state.Loop{ID: id, Run: run, Model: new(model), Turns: 2, Ms: 180_000,
		Tokens: state.Tokens{Input: 30_000, Output: 6_000, CacheCreate: 12_000}, Ended: new(state.EndAnswer),
		FirstTurn: max(1, b.s.Turn), FirstSeq: b.s.Seq + 1}
	if label != "" {
		l.Label = new(label)
	}
	if phase != "" {
		l.Phase = new(phase)
	}
	for _, o := range opts {
		o(&l)
	}
	b.s.Loops = append(b.s.Loops, l)
	return &b.s.Loops[len(b.s.Loops)-1]
}

func outcome(o state.Outcome) func(*state.Loop) { return func(l *state.Loop) { l.Outcome = &o } }

func counts(calls, edits, checks, reads int) func(*state.Loop) {
	return func(l *state.Loop) { l.Calls, l.Edits, l.Checks, l.Reads = calls, edits, checks, reads }
}

func running() func(*state.Loop) { return func(l *state.Loop) { l.Ended = nil } }

func (b *session) run(id, name string, turn int, phases ...string) {
	b.s.Runs = append(b.s.Runs, state.Run{ID: id, Name: name, Turn: turn, Seq: b.s.Seq, At: 1_000_000 + int64(turn)*600_000,
		Phases: append([]string{}, phases...)})
}

func (b *session) pattern(id, kind string, sig *state.Signature, decision *state.Choice, at *int, last *state.Choice) *state.Pattern {
	cat := state.Category(id[:indexColon(id)])
	p := state.Pattern{StoredPattern: state.StoredPattern{ID: id, Category: cat, Kind: kind, Signature: sig,
		Why: "why", Alternative: "Do the narrow thing.", Confidence: 0.8, LastDecision: last},
		Hits: []string{}, Decision: decision, DecidedAtTurn: at}
	if cat == "process" {
		p.Lean = new("a lean way")
	}
	b.s.Patterns = append(b.s.Patterns, p)
	return &b.s.Patterns[len(b.s.Patterns)-1]
}

func indexColon(s string) int {
	for i := range s {
		if s[i] == ':' {
			return i
		}
	}
	return len(s)
}

func choice(c state.Choice) *state.Choice { return &c }

func sig(tool, key string) *state.Signature { return &state.Signature{Tool: tool, Key: key} }

// smallSession: one main loop, four turns, a suite run twice, a re-read, an ask.
func smallSession() *state.State {
	b := newSession()
	b.bash("test:bun test", state.ClassTest, "main", 1, 61_000, 9_700)
	b.read("/src/auth.ts", "main", 1, 4_200)
	b.edit("/src/auth.ts", "main", 2, 3, 1)
	b.read("/src/auth.ts", "main", 2, 4_300, flags("dedup"))
	b.bash("test:bun test", state.ClassTest, "main", 2, 59_000, 9_650, flags("err"))
	b.row("AskUserQuestion", `AskUserQuestion:{"questions":[{"question":"Which token store?"}]}`, state.ClassOther, "main", 3, 240_000, 120, flags("ask", "recommended"))
	b.row("Write", "/src/store.ts", state.ClassOther, "main", 3, 30, 90, lines(42, 0), paths("/src/store.ts"))
	b.bash("other:npx prisma migrate dev", state.ClassOther, "main", 3, 8_000, 2_100, paths("/prisma/schema.prisma", "/prisma/migrations/1/migration.sql"))
	b.bash("test:bun test", state.ClassTest, "main", 4, 60_500, 9_600, flags("persist=48213"))
	b.row("Grep", "Grep:refreshToken:/src", state.ClassSearch, "main", 4, 120, 1_800)
	b.turn(1, 1_200, 900, 14_000, 2, 70_000, 600)
	b.turn(2, 1_500, 1_100, 3_000, 3, 66_000, 400, idle(180_000))
	b.turn(3, 800, 2_400, 2_000, 3, 250_000, 5_400)
	b.turn(4, 900, 700, 1_000, 2, 62_000, 300)
	b.pattern("execution:full-suite-after-each-edit", "Claude keeps running the whole bun test suite after every single-file edit",
		sig("Bash", "test:bun test"), nil, nil, nil)
	return b.s
}

// compactedSession: the small session, then two compactions, a known fixed overhead, and turns that
// ended every way a turn can.
func compactedSession() *state.State {
	s := smallSession()
	b := &session{s: s}
	s.Compactions = []int{2, 4}
	s.Overhead = &state.Overhead{Memory: 3_100, MCP: 12_400, Agents: 900}
	b.read("/src/auth.ts", "main", 5, 4_300)
	b.bash("test:bun test", state.ClassTest, "main", 5, 1_000, 900, flags("timeout", "bg"))
	b.read("/repo/CLAUDE.md", "main", 5, 2_200)
	b.row("Write", "/home/u/.claude/projects/repo/memory/feedback_tests.md", state.ClassOther, "main", 5, 20, 60, lines(3, 0),
		paths("/home/u/.claude/projects/repo/memory/feedback_tests.md"))
	b.turn(5, 400, 300, 900, 2, 3_000, 120, ended(state.EndAborted))
	b.turn(6, 300, 0, 0, 0, 1_000, 0, ended(state.EndError), idle(59_999))
	b.turn(7, 300, 50, 0, 0, 900, 80, ended(state.EndRefusal), idle(3_540_000))
	s.Patterns[0].Decision = choice(state.FixWithNote)
	s.Patterns[0].DecidedAtTurn = new(3)
	b.pattern("reading:reread-after-compaction", "Claude keeps re-reading /src/auth.ts", nil, choice(state.Ignore), new(5), nil)
	b.pattern("environment:npx-prisma", "Claude keeps running prisma through npx", sig("Bash", "other:npx prisma migrate dev"), nil, nil, choice(state.Ignore))
	return s
}

// workflowSession: two workflow runs whose loops pass AgentsRows, a direct agent, checks, merges, asks.
func workflowSession() *state.State {
	b := newSession()
	b.s.Asks = []state.Ask{
		{Turn: 1, At: 1_000_000, Head: "implement chunks C1-C8 with a review after each"},
		{Turn: 3, At: 4_600_000, Head: "why is this so slow", Pace: true},
	}
	b.turn(1, 2_000, 1_000, 20_000, 2, 120_000, 800)
	b.run("w1", "impl-chunks", 1, "Impl", "Check", "Review")
	w1, w2 := new("w1"), new("w2")
	for c := 1; c <= 24; c++ {
		impl := b.loop(fmt.Sprintf("agent-impl-%02d", c), w1, fmt.Sprintf("impl:C%d", c), "Impl", "claude-opus-4-1",
			counts(6, 3, 0, 2), outcome(state.Outcome{Kind: state.OutcomeReport, Chars: 1_200 + c}))
		b.read(fmt.Sprintf("/src/chunk%d.ts", c), impl.ID, 2, 5_000)
		b.read("/docs/spec.md", impl.ID, 2, 12_000)
		b.edit(fmt.Sprintf("/src/chunk%d.ts", c), impl.ID, 2, int64(20+c), 4)
		check := b.loop(fmt.Sprintf("agent-check-%02d", c), w1, fmt.Sprintf("check:C%d", c), "Check", "claude-sonnet-4-5",
			counts(4, 0, 4, 0), outcome(state.Outcome{Kind: state.OutcomeReport, Chars: 1_600}))
		b.bash("test:bun test", state.ClassTest, check.ID, 2, 30_000, 4_000)
		b.bash("lint:biome lint", state.ClassLint, check.ID, 2, 6_000, 300)
		review := b.loop(fmt.Sprintf("agent-review-%02d", c), w1, fmt.Sprintf("review:C%d-r1", c), "Review", "claude-opus-4-1",
			counts(3, 0, 0, 3), outcome(state.Outcome{Kind: state.OutcomeFindings, High: c % 2, Low: 4}))
		b.read(fmt.Sprintf("/src/chunk%d.ts", c), review.ID, 2, 5_000)
		b.bash("git:git merge chunk-"+strconv.Itoa(c), state.ClassGit, "main", 2, 900, 200)
		if c%3 == 0 {
			b.bash("test:bun test", state.ClassTest, "main", 2, 45_000, 6_000)
		}
	}
	b.row("Agent", "agent:workflow", state.ClassOther, "main", 2, 5_400_000, 3_000, spawn("workflow", "claude-opus-4-1", "completed", 2_400_000, 72, 5_200))
	b.turn(2, 4_000, 3_000, 60_000, 80, 5_500_000, 2_200, idle(420_000))
	b.run("w2", "fix-round", 3, "Fix")
	fix := b.loop("agent-fix-01", w2, "fix:C2", "Fix", "claude-haiku-4", counts(5, 2, 1, 1), running())
	b.edit("/src/chunk2.ts", fix.ID, 3, 5, 5)
	direct := b.loop("agent-direct", nil, "", "", "claude-opus-4-1", counts(9, 0, 0, 9),
		outcome(state.Outcome{Kind: state.OutcomeReport, Chars: 5_900}))
	b.read("/docs/spec.md", direct.ID, 3, 12_000)
	b.row("Agent", "agent:general-purpose", state.ClassOther, "main", 3, 240_000, 5_900, spawn("general-purpose", "claude-opus-4-1", "completed", 41_000, 0, 300))
	b.read("/docs/spec.md", "main", 3, 12_000)
	b.bash("git:git commit -m chunks", state.ClassGit, "main", 3, 1_200, 400)
	b.turn(3, 3_000, 2_000, 9_000, 6, 700_000, 1_900)
	b.pattern("process:review-after-every-chunk", "Runs a full review round after every chunk", nil, nil, nil, nil).Sent = 2
	b.pattern("multi-agent:check-loops-for-shell-steps", "Claude keeps spawning an agent per chunk to run checks", nil, choice(state.Fix), new(2), nil).Ignored = 1
	b.s.Cards = []string{"process:review-after-every-chunk"}
	b.s.Standing = []string{"Run checks as a shell step."}
	b.s.Delivery.Agents = []string{"agent-fix-01"}
	return b.s
}

// fullSession: RowCap rows in the ledger, older rows folded, three busy loops, 50 patterns; with
// loops > 0 it also carries that many loops (the benchmark's 400).
func fullSession(loops int) *state.State {
	b := newSession()
	keys := []struct {
		tool, key string
		cls       state.CommandClass
	}{
		{"Bash", "test:go test ./...", state.ClassTest}, {"Bash", "build:go build ./...", state.ClassBuild},
		{"Bash", "git:git status", state.ClassGit}, {"Grep", "Grep:TODO:/src", state.ClassSearch},
		{"Bash", "other:ls -la", state.ClassOther}, {"Bash", "lint:golangci-lint run", state.ClassLint},
	}
	agents := []string{"main", "agent-alpha", "agent-alpha", "agent-alpha", "agent-beta", "main", "agent-gamma"}
	for i := range loops {
		b.loop(fmt.Sprintf("agent-l%03d", i), nil, fmt.Sprintf("stage:%d", i), "", "claude-sonnet-4-5", counts(4, 1, 1, 2))
	}
	if loops == 0 {
		for _, id := range []string{"agent-alpha", "agent-beta", "agent-gamma"} {
			b.loop(id, nil, "", "", "claude-opus-4-1", counts(200, 20, 10, 90))
		}
	}
	// The rows RowCap dropped long ago.
	for i := range 30 {
		f := state.Folded{Tool: "Read", Key: fmt.Sprintf("/old/file%02d.go:-", i), Cls: state.ClassRead, Agent: "main",
			Count: 1 + i%4, Ms: int64(20 * (1 + i%4)), Chars: int64(1_000 * (i + 1)), FirstTurn: 1, LastTurn: 3}
		b.s.Folded[state.FoldKey(f.Tool, f.Key)] = f
	}
	b.s.Folded[state.FoldKey("AskUserQuestion", "AskUserQuestion:{}")] = state.Folded{Tool: "AskUserQuestion", Key: "AskUserQuestion:{}",
		Cls: state.ClassOther, Agent: "main", Count: 2, Ms: 300_000, Chars: 200, FirstTurn: 2, LastTurn: 3, Flags: state.FoldFlags{Ask: 2, Recommended: 1}}
	b.s.Seq = 500 // the folded rows' seqs
	turn := 4
	for i := range state.RowCap {
		if i%15 == 0 {
			b.turn(turn, 3_000, 2_000, 8_000, 25, 600_000, 900+i%7*100)
			turn++
		}
		agent := agents[i%len(agents)]
		switch i % 9 {
		case 0:
			b.edit(fmt.Sprintf("/src/pkg%d/file.go", i%13), agent, turn, int64(i%17), int64(i%5))
		case 1, 2:
			b.read(fmt.Sprintf("/src/pkg%d/file.go", i%13), agent, turn, int64(2_000+i%11*300))
		default:
			k := keys[i%len(keys)]
			b.row(k.tool, k.key, k.cls, agent, turn, int64(1_000+i%23*900), int64(500+i%19*400))
		}
	}
	for i := range state.MaxPatterns {
		var d *state.Choice
		var at *int
		switch i % 5 {
		case 0:
			d, at = choice(state.Ignore), new(5+i)
		case 1:
			d, at = choice(state.FixWithNote), new(6+i)
		}
		var last *state.Choice
		if i%7 == 3 {
			last = choice(state.Ignore)
		}
		var sg *state.Signature
		if i%2 == 0 {
			k := keys[i%len(keys)]
			sg = sig(k.tool, k.key)
		}
		b.pattern(fmt.Sprintf("other:pattern-%02d", i), fmt.Sprintf("Claude keeps doing thing number %d", i), sg, d, at, last)
	}
	b.s.Overhead = &state.Overhead{Memory: 2_000, MCP: 8_000, Agents: 600}
	b.s.Compactions = []int{30}
	return b.s
}
