package state_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/saverd/saverd/state"
	"github.com/saverd/saverd/state/internal/statetest"
)

// validEntry is a stored entry that passes every rule.
func validEntry() map[string]any {
	return map[string]any{
		"id": "execution:full-suite", "category": "execution", "kind": "k", "why": "w", "alternative": "a",
		"confidence": 0.8, "estTokensPerTurn": nil, "lastDecision": nil, "signature": nil, "proposal": nil,
	}
}

func TestParseRegistryRules(t *testing.T) {
	for _, tc := range []struct {
		name  string
		key   string
		value any // "absent" deletes the key
		ok    bool
	}{
		{"the valid entry", "", nil, true},
		{"id with capitals", "id", "Execution:x", false},
		{"id without a slug", "id", "execution:", false},
		{"id slug of 40", "id", "execution:" + strings.Repeat("a", 40), true},
		{"id slug of 41", "id", "execution:" + strings.Repeat("a", 41), false},
		{"id with a trailing newline", "id", "execution:x\n", false},
		{"id not a string", "id", 5.0, false},
		{"category unknown", "category", "speed", false},
		{"category process", "category", "process", true},
		{"kind blank", "kind", " \t", false},
		{"kind of 120", "kind", strings.Repeat("k", 120), true},
		{"kind of 121", "kind", strings.Repeat("k", 121), false},
		{"kind of 120 units with an astral character", "kind", "😀" + strings.Repeat("k", 118), true},
		{"kind of 121 units with an astral character", "kind", "😀" + strings.Repeat("k", 119), false},
		{"alternative of 201", "alternative", strings.Repeat("a", 201), false},
		{"alternative missing", "alternative", "absent", false},
		{"why empty is fine", "why", "", true},
		{"why not a string", "why", nil, false},
		{"confidence 0.5", "confidence", 0.5, true},
		{"confidence 1", "confidence", 1.0, true},
		{"confidence under 0.5", "confidence", 0.49, false},
		{"confidence over 1", "confidence", 1.01, false},
		{"confidence a string", "confidence", "0.8", false},
		{"estimate 0", "estTokensPerTurn", 0.0, true},
		{"estimate negative", "estTokensPerTurn", -1.0, false},
		{"estimate a string", "estTokensPerTurn", "3", false},
		{"estimate missing", "estTokensPerTurn", "absent", false},
		{"lastDecision kill", "lastDecision", "kill", true},
		{"lastDecision unknown", "lastDecision", "ignore", false},
		{"lastDecision missing", "lastDecision", "absent", false},
		{"signature", "signature", map[string]any{"tool": "Bash", "key": "test:npm test"}, true},
		{"signature missing", "signature", "absent", false},
		{"signature without a key", "signature", map[string]any{"tool": "Bash"}, false},
		{"signature with a blank tool", "signature", map[string]any{"tool": " ", "key": "k"}, false},
		{"signature key of 201", "signature", map[string]any{"tool": "Bash", "key": strings.Repeat("k", 201)}, false},
		{"signature an array", "signature", []any{}, false},
		{"proposal", "proposal", map[string]any{"kind": "skill", "title": "t", "body": "b"}, true},
		{"proposal missing", "proposal", "absent", false},
		{"proposal of an unknown kind", "proposal", map[string]any{"kind": "hook", "title": "t", "body": "b"}, false},
		{"proposal with a blank title", "proposal", map[string]any{"kind": "skill", "title": " ", "body": "b"}, false},
		{"lean absent is fine", "lean", "absent", true},
		{"lean null is fine", "lean", nil, true},
		{"lean", "lean", "one review", true},
		{"lean empty", "lean", "", false},
		{"lean of 201", "lean", strings.Repeat("l", 201), false},
		{"lean not a string", "lean", 7.0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := validEntry()
			if tc.key != "" {
				e[tc.key] = tc.value
				if tc.value == "absent" {
					delete(e, tc.key)
				}
			}
			got := state.ParseRegistry([]any{e})
			if (len(got) == 1) != tc.ok {
				t.Fatalf("parsed %d entries, want ok=%v", len(got), tc.ok)
			}
		})
	}
}

func TestParseRegistry(t *testing.T) {
	a, b, c := validEntry(), validEntry(), validEntry()
	b["id"] = "reading:logs"
	c["kind"] = "newer"
	c["signature"] = map[string]any{"tool": "Bash", "key": "k", "extra": 1.0}
	c["lean"] = "lean way"
	got := state.ParseRegistry([]any{a, "junk", b, c, nil})
	want := []state.StoredPattern{
		{ID: "execution:full-suite", Category: "execution", Kind: "newer", Why: "w", Alternative: "a", Confidence: 0.8,
			Signature: &state.Signature{Tool: "Bash", Key: "k"}, Lean: new("lean way")},
		{ID: "reading:logs", Category: "execution", Kind: "k", Why: "w", Alternative: "a", Confidence: 0.8},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v\nwant %+v: a later duplicate wins in the first one's place", got, want)
	}
	for _, v := range []any{nil, map[string]any{"a": 1.0}, "x", 3.0} {
		if got := state.ParseRegistry(v); got == nil || len(got) != 0 {
			t.Fatalf("ParseRegistry(%v) = %v, want an empty registry", v, got)
		}
	}
	if _, err := state.ParseRegistryJSON([]byte("{")); err == nil || !strings.Contains(err.Error(), "pattern registry") {
		t.Fatalf("err %v", err)
	}
	data, _ := json.Marshal([]any{a})
	if got, err := state.ParseRegistryJSON(data); err != nil || len(got) != 1 {
		t.Fatalf("got %v err %v", got, err)
	}
}

func TestStoredRoundTrip(t *testing.T) {
	p := statetest.SuitePattern()
	p.Decision, p.Ignored, p.Cost = new(state.Fix), 2, &state.Cost{Tokens: 1}
	back := state.FromStored(state.ToStored(&p))
	if !reflect.DeepEqual(back.StoredPattern, p.StoredPattern) || back.Hits == nil || len(back.Hits) != 0 || back.Decision != nil ||
		back.Ignored != 0 || back.Cost != nil {
		t.Fatalf("%+v", back)
	}
	data, _ := json.Marshal([]state.StoredPattern{state.ToStored(&p)})
	if got, _ := state.ParseRegistryJSON(data); len(got) != 1 || !reflect.DeepEqual(got[0], state.ToStored(&p)) {
		t.Fatalf("a stored pattern does not read back: %+v", got)
	}
}

func TestStorableOf(t *testing.T) {
	const ask = "Please fix the failing login test in the auth module now"
	habit := statetest.SuitePattern()
	habit.Why = "the user said: PLEASE  fix the failing login test, and it ran"
	quiet := statetest.SuitePattern()
	quiet.ID, quiet.Why = "reading:quiet", "nothing typed here"
	kindQuote := statetest.SuitePattern()
	kindQuote.ID, kindQuote.Kind = "reading:quoted", "fix the failing login test in the auth module"
	short := statetest.SuitePattern()
	short.ID, short.Alternative = "reading:short", "xhe failing login test ix" // 23 characters of it: no quote
	proc := processPattern()
	s := statetest.Judged(t, habit, quiet, kindQuote, short, proc)
	got := state.StorableOf(s)
	var ids []string
	whys := map[string]string{}
	for _, p := range got {
		ids = append(ids, p.ID)
		whys[p.ID] = p.Why
	}
	if len(ids) != 5 || whys["execution:full-suite"] != habit.Why {
		t.Fatalf("with no ask everything is stored as it is but a process why: %v %v", ids, whys)
	}
	state.Reduce(s, state.AddAsk{Ask: state.Ask{Turn: 1, Head: ask}})
	got = state.StorableOf(s)
	ids = ids[:0]
	for _, p := range got {
		ids = append(ids, p.ID)
		whys[p.ID] = p.Why
	}
	if !slices.Equal(ids, []string{"execution:full-suite", "reading:quiet", "reading:short", "process:review-rounds"}) {
		t.Fatalf("stored %v: a kind quoting the ask stays in the session", ids)
	}
	if whys["execution:full-suite"] != "" || whys["reading:quiet"] != "nothing typed here" || whys["process:review-rounds"] != "" {
		t.Fatalf("whys %v: a why quoting the ask is blanked, a process why never stored", whys)
	}
}

func stored(id string, confidence float64, decided bool) state.StoredPattern {
	p := state.StoredPattern{ID: id, Category: "execution", Kind: "k", Alternative: "a", Confidence: confidence}
	if decided {
		p.LastDecision = new(state.Ignore)
	}
	return p
}

func TestMergeStored(t *testing.T) {
	a := []state.StoredPattern{stored("e:a", 0.6, false), stored("e:b", 0.6, false)}
	b := []state.StoredPattern{stored("e:c", 0.9, false), stored("e:a", 0.7, true)}
	got := state.MergeStored(a, b)
	if len(got) != 3 || got[0].ID != "e:a" || got[0].Confidence != 0.7 || got[1].ID != "e:b" || got[2].ID != "e:c" {
		t.Fatalf("merged %+v: b wins by id, in a's place", got)
	}
	// Past MaxPatterns the weakest undecided go: a decision outranks any confidence, the earlier wins a tie,
	// and the survivors keep their order.
	var many []state.StoredPattern
	for i := range state.MaxPatterns + 3 {
		conf := 0.9
		if i < 4 {
			conf = 0.5 // the four weakest: the first is decided, so it stays and three go
		}
		many = append(many, stored("e:p"+string(rune('a'+i%26))+string(rune('a'+i/26)), conf, i == 0))
	}
	got = state.MergeStored(nil, many)
	if len(got) != state.MaxPatterns || got[0].ID != many[0].ID || got[1].ID != many[4].ID || got[state.MaxPatterns-1].ID != many[len(many)-1].ID {
		t.Fatalf("capped to %d from %s, %s … %s", len(got), got[0].ID, got[1].ID, got[len(got)-1].ID)
	}
	if got := state.MergeStored(nil, nil); got == nil || len(got) != 0 {
		t.Fatalf("%v", got)
	}
}

// TestMergeStoredNewestWins: a session's older copy of a pattern never replaces the registry's newer one.
func TestMergeStoredNewestWins(t *testing.T) {
	at := func(p state.StoredPattern, ms int64) state.StoredPattern { p.ChangedAt = ms; return p }
	tests := []struct {
		name     string
		disk, me state.StoredPattern
		want     int64
		decided  bool
	}{
		{"mine newer", at(stored("e:a", 0.6, false), 100), at(stored("e:a", 0.6, true), 200), 200, true},
		{"disk newer", at(stored("e:a", 0.6, true), 300), at(stored("e:a", 0.6, false), 200), 300, true},
		{"a tie is mine", at(stored("e:a", 0.6, true), 200), at(stored("e:a", 0.6, false), 200), 200, false},
		{"never stamped loses to a stamp", at(stored("e:a", 0.6, true), 5), stored("e:a", 0.6, false), 5, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := state.MergeStored([]state.StoredPattern{tt.disk}, []state.StoredPattern{tt.me})
			if len(got) != 1 || got[0].ChangedAt != tt.want || (got[0].LastDecision != nil) != tt.decided {
				t.Fatalf("merged %+v", got)
			}
		})
	}
}

// TestChangedAtRoundTrips: the stamp survives the file; a bad one costs only the stamp.
func TestChangedAtRoundTrips(t *testing.T) {
	p := stored("execution:a", 0.6, true)
	p.ChangedAt = 1_700_000_000_123
	data, _ := json.Marshal([]state.StoredPattern{p})
	if got, err := state.ParseRegistryJSON(data); err != nil || len(got) != 1 || got[0].ChangedAt != p.ChangedAt {
		t.Fatalf("round trip = %+v, %v", got, err)
	}
	for _, bad := range []string{`-1`, `1.5`, `"7"`, `1e300`} {
		text := strings.Replace(string(data), "1700000000123", bad, 1)
		if got, err := state.ParseRegistryJSON([]byte(text)); err != nil || len(got) != 1 || got[0].ChangedAt != 0 {
			t.Errorf("changedAt %s: %+v, %v", bad, got, err)
		}
	}
}

// FuzzParseRegistry: any JSON text parses without a panic, and every entry it keeps validates again.
func FuzzParseRegistry(f *testing.F) {
	valid, _ := json.Marshal([]any{validEntry()})
	f.Add(string(valid))
	f.Add(`[{"id":"a:b","category":"other","kind":"k","why":"","alternative":"x","confidence":1,"estTokensPerTurn":3,"lastDecision":"steer","signature":{"tool":"T","key":"K"},"proposal":{"kind":"skill","title":"t","body":"b"},"lean":"l"}]`)
	f.Add(`[{"id":"a:b","id":"c:d"}, 1, null, [], "x"]`)
	f.Add(`{"not":"an array"}`)
	f.Add(`[{"id":"a:😀"}]`)
	f.Fuzz(func(t *testing.T, text string) {
		got, err := state.ParseRegistryJSON([]byte(text))
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, p := range got {
			if seen[p.ID] {
				t.Fatalf("id %s twice", p.ID)
			}
			seen[p.ID] = true
			data, err := json.Marshal([]state.StoredPattern{p})
			if err != nil {
				t.Fatal(err)
			}
			again, err := state.ParseRegistryJSON(data)
			if err != nil || len(again) != 1 || !reflect.DeepEqual(again[0], p) {
				t.Fatalf("%+v does not validate again: %+v %v", p, again, err)
			}
		}
	})
}
