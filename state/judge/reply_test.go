package judge

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"strings"
	"testing"

	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/state"
)

// replyState is the small session plus two loops (a1 ran rows, a2 none yet) and a kept pattern.
// Every expected reason below is ContextSaver's (checked against its parseReply).
func replyState() *state.State {
	b := &session{s: smallSession()}
	b.loop("agent-a", nil, "review:C1-r1", "", "claude-opus-4-1") // 48k new tokens, first turn 4
	b.read("/src/auth.ts", "agent-a", 4, 4_000)                   // r11
	b.bash("test:bun test", state.ClassTest, "agent-a", 4, 30_000, 4_100)
	b.loop("agent-b", nil, "check:C1", "", "claude-sonnet-4-5", func(l *state.Loop) { l.Tokens = state.Tokens{Input: 10_000, Output: 6_000, CacheCreate: 12_000} })
	b.pattern("reading:reread-auth", "Claude keeps re-reading /src/auth.ts", sig("Read", "/src/auth.ts:-"), choice(state.Ignore), new(2), nil)
	return b.s
}

// finding is a valid signature finding with fields replaced; a nil value deletes the field.
func finding(over map[string]any) string {
	f := map[string]any{
		"id": "execution:full-suite-after-each-edit", "category": "execution",
		"kind": "Claude keeps running the whole bun test suite after every single-file edit", "evidence": []any{"r5", "r9"},
		"signature": map[string]any{"tool": "Bash", "key": "test:bun test"}, "why": "r1 was the baseline; r5 and r9 ran after one-file edits",
		"alternative": "Run only the tests covering the files you changed, then the whole suite once per phase.",
		"confidence":  0.9, "est_tokens_per_turn": nil, "proposal": nil,
	}
	for k, v := range over {
		if v == nil {
			delete(f, k)
		} else {
			f[k] = v
		}
	}
	b, _ := json.Marshal(f)
	return string(b)
}

// behavioural is a valid signature-null finding citing turns.
func behavioural(id string, over map[string]any) string {
	m := map[string]any{"id": id, "category": id[:strings.IndexByte(id, ':')], "signature": json.RawMessage("null"),
		"evidence": []any{"turn:3", "turn:4"}, "kind": "Claude keeps restating the plan each turn"}
	maps.Copy(m, over)
	return finding(m)
}

func replyOf(findings ...string) string {
	return `{"focus":"fixing the auth token refresh","time":"four suite runs","context":"the suite's output","findings":[` + strings.Join(findings, ",") + `]}`
}

func ids(fs []state.Finding) []string {
	out := []string{}
	for _, f := range fs {
		out = append(out, f.ID)
	}
	return out
}

func TestParseReplyDrops(t *testing.T) {
	raw := func(s string) json.RawMessage { return json.RawMessage(s) }
	cases := []struct {
		name    string
		text    string
		dropped []string
		kept    []string
	}{
		{"not JSON", "I found nothing worth a card.", []string{"reply was not JSON"}, nil},
		{"broken object", `[{"findings": [}]`, []string{"reply was not JSON"}, nil},
		{"nested past the depth bound", `{"findings":[],"x":` + strings.Repeat("[", 200) + strings.Repeat("]", 200) + `}`, []string{"reply was not JSON"}, nil},
		{"the first brace to the last", `[{"findings":[]}]`, []string{}, nil},
		{"findings not an array", `{"focus":"x","findings":{"id":"a"}}`, []string{"findings was not an array"}, nil},
		{"finding not an object", replyOf(`5`, `"x"`, `null`), []string{"#1: not an object", "#2: not an object", "#3: not an object"}, nil},
		{"id missing", replyOf(finding(map[string]any{"id": nil})), []string{"#1: id (missing) is not <category>:<kebab-slug>"}, nil},
		{"id shape", replyOf(finding(map[string]any{"id": "execution:bad_slug"})), []string{"#1: id execution:bad_slug is not <category>:<kebab-slug>"}, nil},
		{"id slug too long", replyOf(finding(map[string]any{"id": "execution:" + strings.Repeat("a", 41)})),
			[]string{"#1: id execution:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa… is not <category>:<kebab-slug>"}, nil},
		{"id multi-line quoted on one line", replyOf(finding(map[string]any{"id": "exec\nution:x y"})), []string{"#1: id exec ution:x y is not <category>:<kebab-slug>"}, nil},
		{"category not one of nine", replyOf(finding(map[string]any{"category": "speed"})), []string{"execution:full-suite-after-each-edit: category is not one of the nine"}, nil},
		{"category not a string", replyOf(finding(map[string]any{"category": 3})), []string{"execution:full-suite-after-each-edit: category is not one of the nine"}, nil},
		{"category mismatch", replyOf(finding(map[string]any{"category": "reading"})), []string{"execution:full-suite-after-each-edit: category reading does not match the id"}, nil},
		{"kind prefix", replyOf(finding(map[string]any{"kind": "claude keeps running tests"})), []string{`execution:full-suite-after-each-edit: kind must start with "Claude keeps "`}, nil},
		{"kind twice the cap", replyOf(finding(map[string]any{"kind": "Claude keeps " + strings.Repeat("k", 228)})), []string{"execution:full-suite-after-each-edit: kind is 241 chars, over twice 120"}, nil},
		{"kind twice the cap counts UTF-16", replyOf(finding(map[string]any{"kind": "Claude keeps " + strings.Repeat("😀", 114)})), []string{"execution:full-suite-after-each-edit: kind is 241 chars, over twice 120"}, nil},
		{"alternative empty", replyOf(finding(map[string]any{"alternative": ""})), []string{"execution:full-suite-after-each-edit: alternative is empty"}, nil},
		{"alternative not a string", replyOf(finding(map[string]any{"alternative": 7})), []string{"execution:full-suite-after-each-edit: alternative is empty"}, nil},
		{"alternative twice the cap", replyOf(finding(map[string]any{"alternative": strings.Repeat("a", 401)})), []string{"execution:full-suite-after-each-edit: alternative is 401 chars, over twice 200"}, nil},
		{"confidence a string", replyOf(finding(map[string]any{"confidence": "0.9"})), []string{"execution:full-suite-after-each-edit: confidence is not a number in 0.5..1"}, nil},
		{"confidence low", replyOf(finding(map[string]any{"confidence": 0.49})), []string{"execution:full-suite-after-each-edit: confidence is not a number in 0.5..1"}, nil},
		{"confidence high", replyOf(finding(map[string]any{"confidence": 1.01})), []string{"execution:full-suite-after-each-edit: confidence is not a number in 0.5..1"}, nil},
		{"confidence past a double", replyOf(finding(map[string]any{"confidence": raw("1e400")})), []string{"execution:full-suite-after-each-edit: confidence is not a number in 0.5..1"}, nil},
		{"confidence edges kept", replyOf(finding(map[string]any{"confidence": raw("5e-1")}), finding(map[string]any{"id": "execution:x", "confidence": raw("1.0")})), []string{}, []string{"execution:full-suite-after-each-edit", "execution:x"}},
		{"signature absent", replyOf(finding(map[string]any{"signature": nil})), []string{"execution:full-suite-after-each-edit: signature must be a (tool, key) pair or null"}, nil},
		{"signature a string", replyOf(finding(map[string]any{"signature": "Bash"})), []string{"execution:full-suite-after-each-edit: signature must be a (tool, key) pair or null"}, nil},
		{"signature matches no row", replyOf(finding(map[string]any{"signature": map[string]any{"tool": "Bash", "key": "test:bun test --watch"}})), []string{"execution:full-suite-after-each-edit: signature (Bash, test:bun test --watch) matches no row"}, nil},
		{"signature cells cut", replyOf(finding(map[string]any{"signature": map[string]any{"tool": strings.Repeat("T", 25), "key": 5}})), []string{"execution:full-suite-after-each-edit: signature (TTTTTTTTTTTTTTTTTTTT…, ) matches no row"}, nil},
		{"kept by id", replyOf(finding(map[string]any{"id": "reading:reread-auth", "category": "reading"})), []string{"reading:reread-auth: kept this session"}, nil},
		{"kept by signature", replyOf(finding(map[string]any{"id": "reading:same-file-twice", "category": "reading", "signature": map[string]any{"tool": "Read", "key": "/src/auth.ts:-"}, "evidence": []any{"r2", "r4"}})), []string{"reading:same-file-twice: kept this session"}, nil},
		{"evidence empty", replyOf(finding(map[string]any{"evidence": []any{}})), []string{"execution:full-suite-after-each-edit: evidence must be a non-empty array of row ids"}, nil},
		{"evidence not an array", replyOf(finding(map[string]any{"evidence": "r5"})), []string{"execution:full-suite-after-each-edit: evidence must be a non-empty array of row ids"}, nil},
		{"evidence row not in the ledger", replyOf(finding(map[string]any{"evidence": []any{"r5", "r999"}})), []string{"execution:full-suite-after-each-edit: evidence r999 not in the ledger"}, nil},
		{"evidence malformed", replyOf(finding(map[string]any{"evidence": []any{"r5", "row 9"}})), []string{"execution:full-suite-after-each-edit: evidence row 9 not in the ledger"}, nil},
		{"evidence not a string", replyOf(finding(map[string]any{"evidence": []any{"r5", 9}})), []string{"execution:full-suite-after-each-edit: evidence handle is not a string"}, nil},
		{"turn handle needs null signature", replyOf(finding(map[string]any{"evidence": []any{"r5", "turn:2"}})), []string{"execution:full-suite-after-each-edit: evidence turn:2 needs signature null"}, nil},
		{"agent handle needs null signature", replyOf(finding(map[string]any{"evidence": []any{"agent:a1", "r5"}})), []string{"execution:full-suite-after-each-edit: evidence agent:a1 needs signature null"}, nil},
		{"agent not in AGENTS", replyOf(behavioural("multi-agent:thin-brief", map[string]any{"evidence": []any{"agent:a1", "agent:a9"}})), []string{"multi-agent:thin-brief: evidence agent:a9 not in AGENTS"}, nil},
		{"turn not in TURNS", replyOf(behavioural("communication:restates-plan", map[string]any{"evidence": []any{"turn:3", "turn:9"}})), []string{"communication:restates-plan: evidence turn:9 not in the ledger"}, nil},
		{"one handle, no intent", replyOf(finding(map[string]any{"evidence": []any{"r9"}})), []string{"execution:full-suite-after-each-edit: one handle and no stated intent or correction in why"}, nil},
		{"one handle, 'correctly' is no correction", replyOf(finding(map[string]any{"evidence": []any{"r9"}, "why": "it ran correctly twice"})), []string{"execution:full-suite-after-each-edit: one handle and no stated intent or correction in why"}, nil},
		{"one handle, stated intent", replyOf(finding(map[string]any{"evidence": []any{"r9"}, "why": "you said it was your INTENTion to re-run it after each fix"})), []string{}, []string{"execution:full-suite-after-each-edit"}},
		{"one handle, a correction", replyOf(finding(map[string]any{"evidence": []any{"r9"}, "why": "the user Corrected this at turn 2"})), []string{}, []string{"execution:full-suite-after-each-edit"}},
		{"one handle, feedback memory", replyOf(finding(map[string]any{"evidence": []any{"r9"}, "why": "a saved feedback memory names it"})), []string{}, []string{"execution:full-suite-after-each-edit"}},
		{"two handles to one row is one handle", replyOf(finding(map[string]any{"evidence": []any{"r9", "r009"}})), []string{"execution:full-suite-after-each-edit: one handle and no stated intent or correction in why"}, nil},
		{"duplicate id", replyOf(finding(nil), finding(map[string]any{"id": "execution:Full-Suite-After-Each-Edit"})), []string{"execution:full-suite-after-each-edit: the reply already reported this id"}, []string{"execution:full-suite-after-each-edit"}},
		{"MAX_FINDINGS", replyOf(
			finding(map[string]any{"id": "execution:s1"}), finding(map[string]any{"id": "execution:s2"}), finding(map[string]any{"id": "execution:s3"}),
			finding(map[string]any{"id": "execution:s4"}), finding(map[string]any{"id": "execution:s5"}), finding(map[string]any{"id": "execution:s6"}),
			finding(map[string]any{"id": "execution:s7"}), finding(map[string]any{"id": "execution:s8", "confidence": 0.1})),
			[]string{"execution:s7: over MAX_FINDINGS (6)", "execution:s8: confidence is not a number in 0.5..1"},
			[]string{"execution:s1", "execution:s2", "execution:s3", "execution:s4", "execution:s5", "execution:s6"}},
		{"MAX_BEHAVIORAL_FINDINGS", replyOf(
			behavioural("communication:b1", nil), behavioural("communication:b2", nil), behavioural("communication:b3", nil),
			behavioural("communication:b4", nil), finding(map[string]any{"id": "execution:s1"})),
			[]string{"communication:b4: over MAX_BEHAVIORAL_FINDINGS (3)"},
			[]string{"communication:b1", "communication:b2", "communication:b3", "execution:s1"}},
		{"caps a kept finding overran", replyOf(finding(map[string]any{"kind": "Claude keeps " + strings.Repeat("k", 117), "alternative": strings.Repeat("a", 210)})),
			[]string{"execution:full-suite-after-each-edit: kind: 130 chars, over 120", "execution:full-suite-after-each-edit: alternative: 210 chars, over 200"},
			[]string{"execution:full-suite-after-each-edit"}},
		{"sentences trimmed, notes first", `{"time":"` + strings.Repeat("t", 250) + `","context":"` + strings.Repeat("c ", 150) + `","findings":[` + finding(map[string]any{"id": "execution:x", "evidence": []any{"r1"}}) + `]}`,
			[]string{"time: 250 chars, trimmed to 200", "context: 299 chars, trimmed to 200", "execution:x: one handle and no stated intent or correction in why"}, nil},
		{"trimmed sentences survive a bad findings value", `{"time":"` + strings.Repeat("t", 201) + `","findings":null}`,
			[]string{"time: 201 chars, trimmed to 200", "findings was not an array"}, nil},
		{"prose around the object", "Here is my audit:\n```json\n" + replyOf(finding(nil)) + "\n```\nDone.", []string{}, []string{"execution:full-suite-after-each-edit"}},
		{"a second object after the first", replyOf() + "\n" + replyOf(), []string{"reply was not JSON"}, nil},
		{"slug lowered", replyOf(finding(map[string]any{"id": "execution:Full-Suite-After-Each-Edit"})), []string{}, []string{"execution:full-suite-after-each-edit"}},
	}
	s := replyState()
	aliases := Aliases(s)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := ParseReply(c.text, s, aliases)
			if r.Dropped == nil {
				r.Dropped = []string{}
			}
			want := c.dropped
			if !reflect.DeepEqual(r.Dropped, want) {
				t.Errorf("dropped\n got %q\nwant %q", r.Dropped, want)
			}
			kept := c.kept
			if kept == nil {
				kept = []string{}
			}
			if got := ids(r.Findings); !reflect.DeepEqual(got, kept) {
				t.Errorf("kept %q, want %q", got, kept)
			}
		})
	}
}

func TestParseReplyFields(t *testing.T) {
	s := replyState()
	aliases := Aliases(s)
	long := strings.Repeat("word ", 60)
	text := `{"focus":"  fixing\n the   auth  ","time":"` + long + `","context":"  ","findings":[` +
		finding(map[string]any{"evidence": []any{"r5", "r09", "r5"}, "proposal": map[string]any{"kind": "settings-allow", "title": " Allow \n tests ", "body": " Bash(bun test:*) "}}) + `,` +
		behavioural("communication:restates-plan", map[string]any{"est_tokens_per_turn": 99_999, "proposal": map[string]any{"kind": "settings-allow", "title": "x", "body": "bun test"}}) + `,` +
		behavioural("multi-agent:check-loops", map[string]any{"evidence": []any{"agent:a1", "agent:a2"}, "est_tokens_per_turn": 1e9}) + `,` +
		behavioural("multi-agent:review-then-turn", map[string]any{"evidence": []any{"agent:a1", "turn:3"}, "est_tokens_per_turn": -40}) + `]}`
	r := ParseReply(text, s, aliases)
	if r.Returned != 4 || len(r.Findings) != 4 {
		t.Fatalf("returned %d kept %d, dropped %q", r.Returned, len(r.Findings), r.Dropped)
	}
	if r.Focus == nil || *r.Focus != "fixing the auth" {
		t.Errorf("focus %v", r.Focus)
	}
	if r.Time == nil || jstext.Len16(*r.Time) != 201 || !strings.HasSuffix(*r.Time, "…") {
		t.Errorf("time not cut to 200 with a mark: %v", r.Time)
	}
	if r.Context != nil {
		t.Errorf("blank context must be nil, got %q", *r.Context)
	}
	f := r.Findings[0]
	if !reflect.DeepEqual(f.Evidence, []string{"tu_5", "tu_9"}) {
		t.Errorf("evidence is stored as tool_use ids, once each: %q", f.Evidence)
	}
	if f.EstTokensPerTurn != nil {
		t.Errorf("a signature finding carries no estimate")
	}
	if f.Proposal == nil || f.Proposal.Title != "Allow tests" || f.Proposal.Body != "Bash(bun test:*)" {
		t.Errorf("proposal %+v", f.Proposal)
	}
	b := r.Findings[1]
	if b.Proposal != nil {
		t.Errorf("a settings-allow body that is no permission rule is no proposal")
	}
	// Turns 3 and 4 answered 5400 and 300 characters: the median over four characters a token.
	if b.EstTokensPerTurn == nil || *b.EstTokensPerTurn != 712 {
		t.Errorf("estimate %v, want 712 (grounded in the cited turns)", b.EstTokensPerTurn)
	}
	if !reflect.DeepEqual(b.Evidence, []string{"turn:3", "turn:4"}) {
		t.Errorf("turn evidence %q", b.Evidence)
	}
	l := r.Findings[2]
	// Loops alone: the median of their new tokens, 48000 and 28000.
	if l.EstTokensPerTurn == nil || *l.EstTokensPerTurn != 38_000 || !reflect.DeepEqual(l.Evidence, []string{"agent:agent-a", "agent:agent-b"}) {
		t.Errorf("loop finding est %v evidence %q", l.EstTokensPerTurn, l.Evidence)
	}
	if got := r.Dropped; !reflect.DeepEqual(got, []string{"time: 299 chars, trimmed to 200"}) {
		t.Errorf("dropped %q", got)
	}
	// A loop plus a turn grounds in the turns' answers (the loop's first turn, 4, and turn 3), and a
	// negative claim is 0.
	if m := r.Findings[3]; m.EstTokensPerTurn == nil || *m.EstTokensPerTurn != 0 {
		t.Errorf("a negative claim is 0: %v", m.EstTokensPerTurn)
	}
	r = ParseReply(replyOf(behavioural("multi-agent:review-then-turn", map[string]any{"evidence": []any{"agent:a1", "turn:3"}, "est_tokens_per_turn": 5000})), s, aliases)
	if len(r.Findings) != 1 || *r.Findings[0].EstTokensPerTurn != 712 {
		t.Errorf("mixed evidence estimate: %+v %q", r.Findings, r.Dropped)
	}
}

// A row that fell out of the citable window between the prompt and the reply is dropped: the window
// is the session's as it is when the reply is read.
func TestParseReplyCitesRowOutOfWindow(t *testing.T) {
	s := replyState()
	aliases := Aliases(s)
	b := &session{s: s}
	b.bash("test:bun test", state.ClassTest, "main", 5, 60_000, 9_000) // r13
	for i := range state.JudgeLedgerRows - 2 {
		b.bash("other:echo "+fmt.Sprint(i), state.ClassOther, "main", 5, 10, 10)
	}
	b.bash("test:bun test", state.ClassTest, "main", 5, 60_000, 9_000) // r162, the newest
	text := replyOf(finding(map[string]any{"evidence": []any{"r13", "r162"}}))
	if r := ParseReply(text, s, aliases); len(r.Findings) != 1 {
		t.Fatalf("r13 is the oldest row of the window: %q", r.Dropped)
	}
	b.bash("other:echo", state.ClassOther, "main", 5, 10, 10) // r163 pushes r13 out
	r := ParseReply(text, s, aliases)
	if want := []string{"execution:full-suite-after-each-edit: evidence r13 not in the ledger"}; !reflect.DeepEqual(r.Dropped, want) {
		t.Fatalf("dropped %q, want %q", r.Dropped, want)
	}
	// The signature too must be a row the window prints in full: r10 carried this pair, and it is gone.
	r = ParseReply(replyOf(finding(map[string]any{"id": "reading:wide-grep", "category": "reading",
		"signature": map[string]any{"tool": "Grep", "key": "Grep:refreshToken:/src"}, "evidence": []any{"r162"}, "why": "stated intent"})), s, aliases)
	if want := []string{"reading:wide-grep: signature (Grep, Grep:refreshToken:/src) matches no row"}; !reflect.DeepEqual(r.Dropped, want) {
		t.Fatalf("dropped %q, want %q", r.Dropped, want)
	}
}

// An alias the prompt printed still names the loop it meant after a new loop's first row renumbered
// today's table.
func TestParseReplyAliasRenumbered(t *testing.T) {
	b := newSession()
	b.loop("agent-x", nil, "", "", "claude-opus-4-1")
	b.bash("test:bun test", state.ClassTest, "agent-x", 1, 1_000, 100)
	b.loop("agent-y", nil, "", "", "claude-opus-4-1", func(l *state.Loop) { l.Tokens = state.Tokens{Input: 7_000} })
	b.loop("agent-z", nil, "", "", "claude-opus-4-1", func(l *state.Loop) { l.Tokens = state.Tokens{Input: 9_000} })
	b.turn(1, 1, 1, 1, 1, 1, 1)
	s := b.s
	printed := Aliases(s)
	if printed["agent-y"] != "a2" || printed["agent-z"] != "a3" {
		t.Fatalf("aliases %v", printed)
	}
	if !strings.Contains(BuildPrompt(s, printed), "a2 | - | - | opus | 2 | 3.0m | 7k |") {
		t.Fatalf("the prompt does not print agent-y as a2")
	}
	b.bash("test:bun test", state.ClassTest, "agent-z", 1, 1_000, 100) // agent-z's first row: z is now a2
	if now := Aliases(s); now["agent-z"] != "a2" || now["agent-y"] != "a3" {
		t.Fatalf("the fixture did not renumber: %v", now)
	}
	text := replyOf(behavioural("multi-agent:idle-loops", map[string]any{"evidence": []any{"agent:a2", "agent:a1"}}))
	r := ParseReply(text, s, printed)
	if len(r.Findings) != 1 || !reflect.DeepEqual(r.Findings[0].Evidence, []string{"agent:agent-y", "agent:agent-x"}) {
		t.Fatalf("with the printed table: %+v %q", r.Findings, r.Dropped)
	}
	r = ParseReply(text, s, nil) // today's table names another loop
	if len(r.Findings) != 1 || r.Findings[0].Evidence[0] != "agent:agent-z" {
		t.Fatalf("with today's table: %+v", r.Findings)
	}
}

// The window holds at most JudgeAgentRows rows of one loop, so a busy agent cannot push the main loop out.
func TestCitableRowsPerLoop(t *testing.T) {
	b := newSession()
	for i := range 150 {
		b.bash("other:main "+fmt.Sprint(i), state.ClassOther, "main", 1, 1, 1)
	}
	for i := range 200 {
		b.bash("other:busy "+fmt.Sprint(i), state.ClassOther, "agent-busy", 1, 1, 1)
	}
	rows := CitableRows(b.s)
	if len(rows) != state.JudgeLedgerRows {
		t.Fatalf("%d rows", len(rows))
	}
	busy := 0
	for i, r := range rows {
		if r.Agent == "agent-busy" {
			busy++
		}
		if i > 0 && rows[i-1].Seq >= r.Seq {
			t.Fatalf("not oldest first")
		}
	}
	if busy != state.JudgeAgentRows || rows[0].Seq != 41 || rows[len(rows)-1].Seq != 350 {
		t.Fatalf("busy %d, first r%d last r%d", busy, rows[0].Seq, rows[len(rows)-1].Seq)
	}
	// The busy loop's older rows fold with everything else.
	ledger := BuildPrompt(b.s, nil)
	if !strings.Contains(ledger, "~ | Bash | other:busy 0 | ×1 | Σ1chars") || strings.Contains(ledger, "\nr310 |") || !strings.Contains(ledger, "\nr311 |") {
		t.Fatalf("the busy loop's rows past its share must fold, its newest 40 print")
	}
	// A reply may cite a main row the busy loop would otherwise have pushed out, never a folded one.
	s := b.s
	r := ParseReply(replyOf(finding(map[string]any{"id": "other:x", "category": "other", "signature": json.RawMessage("null"), "evidence": []any{"r41", "r100"}}),
		finding(map[string]any{"id": "other:y", "category": "other", "signature": json.RawMessage("null"), "evidence": []any{"r41", "r200"}})), s, nil)
	if !reflect.DeepEqual(ids(r.Findings), []string{"other:x"}) || !reflect.DeepEqual(r.Dropped, []string{"other:y: evidence r200 not in the ledger"}) {
		t.Fatalf("%q %q", ids(r.Findings), r.Dropped)
	}
}

// A difference from ContextSaver (protocol.md): lower-casing follows Go's Unicode rules, one rune to one rune: `İ` lowers to `i`, so an
// id ContextSaver refused (its `İ` lowered to two characters) is a valid id here.
func TestParseReplyGoLowerCase(t *testing.T) {
	r := ParseReply(replyOf(finding(map[string]any{"id": "execution:Full-Suİte"})), replyState(), nil)
	if !reflect.DeepEqual(ids(r.Findings), []string{"execution:full-suite"}) {
		t.Fatalf("%q %q", ids(r.Findings), r.Dropped)
	}
}

func TestParseReplyNeverNil(t *testing.T) {
	for _, text := range []string{"", "{", "{}", `{"findings":[]}`, "nope"} {
		r := ParseReply(text, state.New("/", 1), nil)
		if r.Findings == nil || r.Dropped == nil {
			t.Errorf("%q: nil slices %+v", text, r)
		}
	}
}

// A difference from ContextSaver (protocol.md): cuts stop on whole characters (ContextSaver could leave half a surrogate pair), and
// whitespace is Go's unicode.IsSpace (NBSP collapses as in ContextSaver; U+FEFF is not whitespace here).
func TestParseReplyTextRules(t *testing.T) {
	text := `{"time":"` + strings.Repeat("a", 199) + `😀b","focus":" \u00a0plan\u00a0\u00a0 ahead ","context":"\ufeffctx","findings":[]}`
	r := ParseReply(text, replyState(), nil)
	if r.Time == nil || *r.Time != strings.Repeat("a", 199)+"…" {
		t.Errorf("time %q", *r.Time)
	}
	if !reflect.DeepEqual(r.Dropped, []string{"time: 202 chars, trimmed to 200"}) {
		t.Errorf("dropped %q", r.Dropped)
	}
	if r.Focus == nil || *r.Focus != "plan ahead" || r.Context == nil || *r.Context != "\ufeffctx" {
		t.Errorf("focus %q context %q", *r.Focus, *r.Context)
	}
}
