package judge

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/saverd/saverd/state"
)

func snapshot(t *testing.T, s *state.State) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func habit(id string, evidence ...string) state.Finding {
	return state.Finding{ID: id, Category: state.Category(id[:indexColon(id)]), Kind: "Claude keeps " + id, Evidence: evidence,
		Why: "new why", Alternative: "new alternative", Confidence: 0.9}
}

func TestMerge(t *testing.T) {
	s := smallSession() // r1..r10 over turns 1-4; execution:full-suite-after-each-edit undecided
	b := &session{s: s}
	s.Patterns[0].Hits = []string{"tu_1"}
	b.pattern("reading:steered", "Claude keeps re-reading", nil, choice(state.FixWithNote), new(2), nil)
	b.pattern("reading:killed-undated", "Claude keeps grepping", nil, choice(state.Fix), nil, nil)
	b.pattern("communication:queued", "Claude keeps asking", nil, nil, nil, nil)
	s.Cards = []string{"communication:queued"}
	before := snapshot(t, s)

	m := Merge(s, []state.Finding{
		habit("execution:full-suite-after-each-edit", "tu_5", "tu_1"),
		habit("reading:steered", "tu_4", "turn:3"), // turn 3 is after the steer at turn 2
		habit("reading:killed-undated", "turn:4"),
		habit("communication:queued", "turn:3"),
		habit("other:brand-new", "turn:1", "turn:2"),
	})
	if snapshot(t, s) != before {
		t.Fatalf("Merge changed its input")
	}
	p := findPattern(m.Patterns, "execution:full-suite-after-each-edit")
	if !reflect.DeepEqual(p.Hits, []string{"tu_1", "tu_5"}) || p.Why != "new why" || p.Alternative != "new alternative" ||
		p.Kind != "Claude keeps running the whole bun test suite after every single-file edit" {
		t.Errorf("updated pattern %+v", p)
	}
	n := findPattern(m.Patterns, "other:brand-new")
	if n == nil || n.Decision != nil || !reflect.DeepEqual(n.Hits, []string{"turn:1", "turn:2"}) || len(m.Patterns) != 5 {
		t.Errorf("added pattern %+v", n)
	}
	if want := []string{"execution:full-suite-after-each-edit", "other:brand-new"}; !reflect.DeepEqual(m.Fresh, want) {
		t.Errorf("fresh %q, want %q (a queued card is not news, a decided pattern is not fresh)", m.Fresh, want)
	}
	if want := []string{"reading:steered"}; !reflect.DeepEqual(m.Recurred, want) {
		t.Errorf("recurred %q, want %q", m.Recurred, want)
	}
	if len(m.Evicted) != 0 {
		t.Errorf("evicted %q", m.Evicted)
	}
	// Cited only before the steer: not a recurrence.
	m = Merge(s, []state.Finding{habit("reading:steered", "tu_2")})
	if len(m.Recurred) != 0 {
		t.Errorf("a citation from before the decision recurred: %q", m.Recurred)
	}
}

func TestMergeEvicts(t *testing.T) {
	s := state.New("/", 200_000)
	b := &session{s: s}
	for i := range state.MaxPatterns {
		var d *state.Choice
		if i%10 == 0 {
			d = choice(state.Ignore)
		}
		p := b.pattern(fmt.Sprintf("other:p%02d", i), "Claude keeps p", nil, d, new(1), nil)
		p.Confidence = 0.6 + float64(i%4)/10
	}
	s.Patterns[0].Confidence = 0.5 // decided: outranks every undecided pattern whatever its confidence
	low := habit("other:low", "turn:1")
	low.Confidence = 0.55
	high := habit("other:high", "turn:1")
	high.Confidence = 0.95
	m := Merge(s, []state.Finding{low, high})
	if len(m.Patterns) != state.MaxPatterns {
		t.Fatalf("%d patterns", len(m.Patterns))
	}
	// The two lowest undecided: other:low (0.55) and the first undecided at 0.6, other:p04.
	if findPattern(m.Patterns, "other:low") != nil || findPattern(m.Patterns, "other:p04") != nil || findPattern(m.Patterns, "other:p00") == nil {
		t.Errorf("wrong patterns evicted")
	}
	if !reflect.DeepEqual(m.Evicted, []string{"other:low"}) || !reflect.DeepEqual(m.Fresh, []string{"other:high"}) {
		t.Errorf("evicted %q fresh %q", m.Evicted, m.Fresh)
	}
}

func TestShouldRun(t *testing.T) {
	base := func() *state.State {
		s := smallSession() // 10 rows, 4 turns, 29,500 new tokens
		s.Judge.LastAtMs = 1_000
		return s
	}
	cases := []struct {
		name string
		edit func(s *state.State)
		now  int64
		want bool
	}{
		{"just under the token gate", nil, 1_000, false},
		{"the turn gate", func(s *state.State) { s.Turns[0].Output += 500 }, 1_000, true},
		{"too few turns since the last run", func(s *state.State) { s.Turns[0].Output += 500; s.Judge.LastAtTurn = 2 }, 1_000, false},
		{"the backoff doubles the tokens", func(s *state.State) { s.Turns[0].Output += 500; s.Judge.Backoff = 2 }, 1_000, false},
		{"running", func(s *state.State) { s.Turns[0].Output += 500; s.Judge.Running = true }, 1_000, false},
		{"under the row floor", func(s *state.State) { s.Turns[0].Output += 500; s.Rows = s.Rows[:7] }, 1_000, false},
		{"the row gate", func(s *state.State) { s.Seq = 40 }, 1_000 + state.JudgeMinGapMs, true},
		{"the row gate keeps its gap", func(s *state.State) { s.Seq = 40 }, 1_000 + state.JudgeMinGapMs - 1, false},
		{"the row gate backs off", func(s *state.State) { s.Seq = 79; s.Judge.Backoff = 2 }, 1e9, false},
		{"explained tokens are no new work", func(s *state.State) { s.Turns[0].Output += 500; explain(s, 1, 4) }, 1_000, false},
		{"explained rows are no new work", func(s *state.State) { s.Seq = 40; explain(s, 1, 0) }, 1_000 + state.JudgeMinGapMs, false},
		{"what a run weighed since is new again", func(s *state.State) {
			s.Turns[0].Output += 500
			explain(s, 1, 4)
			s.Judge.LastAtSeq = 1
		}, 1_000, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := base()
			if c.edit != nil {
				c.edit(s)
			}
			if got := ShouldRun(s, c.now); got != c.want {
				t.Errorf("got %v", got)
			}
		})
	}
}

// explain records a detection that explains rows rows and tokens tokens of the new work.
func explain(s *state.State, rows int, tokens int64) {
	s.Detections = state.Detections{Since: s.Judge.LastAtSeq, Rows: rows, Tokens: tokens}
}

func TestUsage(t *testing.T) {
	u := UsageOf(ForkUsage{InputTokens: 3, OutputTokens: 40, CacheReadInputTokens: 90_000, CacheCreationInputTokens: 500})
	if u != (state.JudgeUsage{Input: 3, Output: 40, CacheRead: 90_000, CacheCreate: 500}) {
		t.Fatalf("%+v", u)
	}
	if SpentOf(u) != 543 || CostOf(ForkUsage{InputTokens: 1, CacheReadInputTokens: 7}) != 1 {
		t.Fatalf("cache reads are free")
	}
	var f ForkUsage
	if err := json.Unmarshal([]byte(`{"input_tokens":1,"output_tokens":2,"cache_read_input_tokens":3,"cache_creation_input_tokens":4}`), &f); err != nil || f.CacheCreationInputTokens != 4 {
		t.Fatalf("the API's names: %+v %v", f, err)
	}
}
