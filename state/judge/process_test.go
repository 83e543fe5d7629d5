package judge

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/saverd/saverd/state"
)

// processFinding is a valid process finding citing run w1, a loop and a turn, with fields replaced; a
// nil value deletes the field.
func processFinding(over map[string]any) string {
	f := map[string]any{
		"id": "process:review-after-every-chunk", "kind": "Runs a full review round after every chunk",
		"lean": "One review per phase over the merged chunks.", "alternative": "Review once per phase, not once per chunk.",
		"why": "  24 review loops at 48k tokens each.  ", "evidence": []any{"run:w1", "agent:a3", "turn:2"},
		"cost_tokens": 500_000, "cost_ms": 600_000, "confidence": 0.85, "proposal": nil,
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

func processReplyOf(findings ...string) string {
	return `{"findings":[` + strings.Join(findings, ",") + `]}`
}

func TestParseProcessReplyDrops(t *testing.T) {
	cases := []struct {
		name    string
		text    string
		dropped []string
		kept    []string
	}{
		{"not JSON", "no", []string{"reply was not JSON"}, nil},
		{"findings not an array", `{"findings":"none"}`, []string{"findings was not an array"}, nil},
		{"not an object", processReplyOf(`[1]`), []string{"#1: not an object"}, nil},
		{"id missing", processReplyOf(processFinding(map[string]any{"id": nil})), []string{"#1: id is missing"}, nil},
		{"id with no slug", processReplyOf(processFinding(map[string]any{"id": "process:!!!"})), []string{"#1: id is missing"}, nil},
		{"kind empty", processReplyOf(processFinding(map[string]any{"kind": "   "})), []string{"process:review-after-every-chunk: kind is empty"}, nil},
		{"kind twice the cap", processReplyOf(processFinding(map[string]any{"kind": strings.Repeat("k", 241)})), []string{"process:review-after-every-chunk: kind is 241 chars, over twice 120"}, nil},
		{"lean empty", processReplyOf(processFinding(map[string]any{"lean": nil})), []string{"process:review-after-every-chunk: lean is empty"}, nil},
		{"lean twice the cap", processReplyOf(processFinding(map[string]any{"lean": strings.Repeat("l", 401)})), []string{"process:review-after-every-chunk: lean is 401 chars, over twice 200"}, nil},
		{"alternative empty", processReplyOf(processFinding(map[string]any{"alternative": ""})), []string{"process:review-after-every-chunk: alternative is empty"}, nil},
		{"alternative twice the cap", processReplyOf(processFinding(map[string]any{"alternative": strings.Repeat("a", 401)})), []string{"process:review-after-every-chunk: alternative is 401 chars, over twice 200"}, nil},
		{"confidence a string", processReplyOf(processFinding(map[string]any{"confidence": "0.9"})), []string{"process:review-after-every-chunk: confidence is not a number up to 1"}, nil},
		{"confidence over 1", processReplyOf(processFinding(map[string]any{"confidence": 1.2})), []string{"process:review-after-every-chunk: confidence is not a number up to 1"}, nil},
		{"confidence below", processReplyOf(processFinding(map[string]any{"confidence": 0.7})), []string{"process:review-after-every-chunk: confidence 0.7 is below 0.75"}, nil},
		{"confidence below, as JavaScript writes it", processReplyOf(processFinding(map[string]any{"confidence": json.RawMessage("1e-7")})), []string{"process:review-after-every-chunk: confidence 1e-7 is below 0.75"}, nil},
		{"confidence -0", processReplyOf(processFinding(map[string]any{"confidence": json.RawMessage("-0")})), []string{"process:review-after-every-chunk: confidence 0 is below 0.75"}, nil},
		{"kept this session", processReplyOf(processFinding(map[string]any{"id": "process:Kept Already"})), []string{"process:kept-already: kept this session"}, nil},
		{"evidence empty", processReplyOf(processFinding(map[string]any{"evidence": []any{}})), []string{"process:review-after-every-chunk: evidence must be a non-empty array of handles"}, nil},
		{"evidence unknown run", processReplyOf(processFinding(map[string]any{"evidence": []any{"run:w1", "run:w9"}})), []string{"process:review-after-every-chunk: evidence run:w9 is not a run, agent or turn the digest printed"}, nil},
		{"evidence a row id", processReplyOf(processFinding(map[string]any{"evidence": []any{"r3"}})), []string{"process:review-after-every-chunk: evidence r3 is not a run, agent or turn the digest printed"}, nil},
		{"evidence not a string", processReplyOf(processFinding(map[string]any{"evidence": []any{"run:w1", map[string]any{}}})), []string{"process:review-after-every-chunk: evidence (not a string) is not a run, agent or turn the digest printed"}, nil},
		{"evidence unknown agent", processReplyOf(processFinding(map[string]any{"evidence": []any{"agent:a999"}})), []string{"process:review-after-every-chunk: evidence agent:a999 is not a run, agent or turn the digest printed"}, nil},
		{"evidence turn not printed", processReplyOf(processFinding(map[string]any{"evidence": []any{"turn:9"}})), []string{"process:review-after-every-chunk: evidence turn:9 is not a run, agent or turn the digest printed"}, nil},
		{"an ask's turn is printed", processReplyOf(processFinding(map[string]any{"evidence": []any{"turn:4"}})), []string{}, []string{"process:review-after-every-chunk"}},
		{"duplicate id", processReplyOf(processFinding(nil), processFinding(map[string]any{"id": "Review after every chunk"})), []string{"process:review-after-every-chunk: the reply already reported this id"}, []string{"process:review-after-every-chunk"}},
		{"MAX_PROCESS_FINDINGS", processReplyOf(processFinding(map[string]any{"id": "process:p1"}), processFinding(map[string]any{"id": "process:p2"}),
			processFinding(map[string]any{"id": "process:p3"}), processFinding(map[string]any{"id": "process:p1"}), processFinding(map[string]any{"id": "process:p4"})),
			[]string{"process:p1: the reply already reported this id", "process:p4: over MAX_PROCESS_FINDINGS (3)"}, []string{"process:p1", "process:p2", "process:p3"}},
		// A difference from ContextSaver (protocol.md): a slug is trimmed after its cut, so it never ends in a hyphen.
		{"slug trimmed after the cut", processReplyOf(processFinding(map[string]any{"id": "process:" + strings.Repeat("abc-", 12), "kind": ""})), []string{"process:abc-abc-abc-abc-abc-abc-abc-abc-abc-abc: kind is empty"}, nil},
	}
	s := processState()
	aliases := Aliases(s)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := ParseProcessReply(c.text, s, aliases)
			if !reflect.DeepEqual(r.Dropped, c.dropped) {
				t.Errorf("dropped\n got %q\nwant %q", r.Dropped, c.dropped)
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

// processState is the workflow session with an ask in the turn still running and a kept process finding.
func processState() *state.State {
	s := workflowSession()
	s.Asks = append(s.Asks, state.Ask{Turn: 4, At: 6_000_000, Head: "and the docs"})
	s.Patterns = append(s.Patterns, state.Pattern{StoredPattern: state.StoredPattern{ID: "process:kept-already", Category: "process",
		Kind: "k", Lean: new("l")}, Hits: []string{}, Decision: choice(state.Ignore), DecidedAtTurn: new(3)})
	return s
}

func TestParseProcessReplyFinding(t *testing.T) {
	s := processState()
	aliases := Aliases(s)
	r := ParseProcessReply(processReplyOf(processFinding(map[string]any{"proposal": map[string]any{"kind": "agent-brief", "title": "Reviewer", "body": "model: haiku\nReview."}})), s, aliases)
	if len(r.Findings) != 1 || r.Returned != 1 {
		t.Fatalf("%+v", r)
	}
	f := r.Findings[0]
	// Run w1's 72 loops and turn 2 measured far more than claimed: the claim stands.
	if f.Cost == nil || *f.Cost != (state.Cost{Tokens: 500_000, Ms: 600_000}) {
		t.Errorf("cost %+v", f.Cost)
	}
	if f.Category != "process" || f.Signature != nil || f.EstTokensPerTurn != nil || f.Lean == nil || *f.Lean != "One review per phase over the merged chunks." {
		t.Errorf("shape %+v", f)
	}
	if f.Why != "24 review loops at 48k tokens each." {
		t.Errorf("why not trimmed: %q", f.Why)
	}
	if !reflect.DeepEqual(f.Evidence, []string{"run:w1", "agent:" + s.Loops[2].ID, "turn:2"}) {
		t.Errorf("evidence %q", f.Evidence)
	}
	if f.Proposal == nil || f.Proposal.Kind != state.ArtifactAgentBrief {
		t.Errorf("proposal %+v", f.Proposal)
	}
	// A claim over what the cited handles measured is cut down to it; a non-number claims nothing.
	r = ParseProcessReply(processReplyOf(processFinding(map[string]any{"evidence": []any{"agent:a3", "turn:3"}, "cost_tokens": 1e12, "cost_ms": "lots"})), s, aliases)
	l := s.Loops[2]
	want := state.Cost{Tokens: state.LoopTokens(&l) + 3_000 + 9_000 + 2_000}
	if got := *r.Findings[0].Cost; got != want {
		t.Errorf("clamped cost %+v, want %+v", got, want)
	}
}

func TestIsPace(t *testing.T) {
	for text, want := range map[string]bool{
		"This is taking FOREVER":               true,
		"why so slow":                          true,
		"why is this so slow?":                 true,
		"hurry up":                             true,
		"it's way too long":                    true,
		"what is taking so long":               true,
		"still waiting":                        true,
		"this should have been much faster":    true,
		"expensive and slow":                   true,
		"speed things up":                      true,
		"been ages":                            true,
		"take so long":                         true,
		"slowly refactor the parser":           false,
		"make the test faster":                 false,
		"the long way round":                   false,
		"fix the slow query in /src/report.ts": false,
	} {
		if IsPace(text) != want {
			t.Errorf("IsPace(%q) = %v", text, !want)
		}
	}
}

func TestShouldProcess(t *testing.T) {
	s := state.New("/", 200_000)
	s.Seq = 10
	s.Asks = []state.Ask{{Turn: 1, At: 1_000}}
	cases := []struct {
		name    string
		edit    func(p *state.JudgeState[state.Process])
		now     int64
		trigger state.ProcessTrigger
		want    bool
	}{
		{"an event trigger runs at once", nil, 2_000, state.TriggerPlan, true},
		{"the clock waits from the first ask", nil, 1_000 + state.ProcessClockMs - 1, state.TriggerClock, false},
		{"the clock after thirty minutes", nil, 1_000 + state.ProcessClockMs, state.TriggerClock, true},
		{"not while running", func(p *state.JudgeState[state.Process]) { p.Running = true }, 1e9, state.TriggerClock, false},
		{"nothing new", func(p *state.JudgeState[state.Process]) { p.LastAtSeq = 10 }, 1e9, state.TriggerPace, false},
		{"over budget, an event waits too", func(p *state.JudgeState[state.Process]) { p.Backoff = 2; p.LastAtMs = 5_000 }, 5_000 + 2*state.ProcessClockMs - 1, state.TriggerWorkflow, false},
		{"over budget, after the doubled clock", func(p *state.JudgeState[state.Process]) { p.Backoff = 2; p.LastAtMs = 5_000 }, 5_000 + 2*state.ProcessClockMs, state.TriggerWorkflow, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x := *s
			x.Process = state.JudgeState[state.Process]{JudgeRecord: state.JudgeRecord{Backoff: 1}}
			if c.edit != nil {
				c.edit(&x.Process)
			}
			if got := ShouldProcess(&x, c.now, c.trigger); got != c.want {
				t.Errorf("got %v", got)
			}
		})
	}
	// With no ask and no run, the clock starts now.
	empty := state.New("/", 1)
	empty.Seq = 1
	if ShouldProcess(empty, 5, state.TriggerClock) {
		t.Errorf("a clock with nothing to date from waits a full period")
	}
}

func TestMergeProcess(t *testing.T) {
	s := processState()
	before := s.Patterns[0]
	r := ParseProcessReply(processReplyOf(processFinding(map[string]any{"kind": "A newer description", "lean": "newer lean"}),
		processFinding(map[string]any{"id": "process:heavy-model-for-checks", "evidence": []any{"agent:a2"}})), s, Aliases(s))
	m := MergeProcess(s, r.Findings)
	p := findPattern(m.Patterns, "process:review-after-every-chunk")
	if p == nil || p.Kind != "A newer description" || *p.Lean != "newer lean" || p.Cost == nil || p.Sent != 2 {
		t.Fatalf("updated %+v", p)
	}
	n := findPattern(m.Patterns, "process:heavy-model-for-checks")
	if n == nil || n.Cost == nil || n.Lean == nil || n.Decision != nil {
		t.Fatalf("added %+v", n)
	}
	// The open card is not news again; the new finding is.
	if !reflect.DeepEqual(m.Fresh, []string{"process:heavy-model-for-checks"}) {
		t.Errorf("fresh %q", m.Fresh)
	}
	if !reflect.DeepEqual(s.Patterns[0], before) || s.Patterns[0].Kind != "Runs a full review round after every chunk" {
		t.Errorf("MergeProcess changed its input")
	}
}

func findPattern(ps []state.Pattern, id string) *state.Pattern {
	for i := range ps {
		if ps[i].ID == id {
			return &ps[i]
		}
	}
	return nil
}
