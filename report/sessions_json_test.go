package report

import (
	"math"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/internal/jstext"
)

// recordJSON is what encoding/json writes of r as the report's encoder does (no HTML escaping, no indent).
func recordJSON(t *testing.T, r *agentlog.Record) (string, error) {
	t.Helper()
	b, err := jstext.Marshal(r)
	return string(b), err
}

// checkRecordJSON: appendRecordJSON writes what encoding/json writes, or leaves r to it.
func checkRecordJSON(t *testing.T, r *agentlog.Record) (handled bool) {
	t.Helper()
	got, ok := appendRecordJSON([]byte("x"), r)
	want, err := recordJSON(t, r)
	if !ok {
		if string(got) != "x" {
			t.Errorf("left to encoding/json but wrote %q", got)
		}
		return false
	}
	if err != nil {
		t.Errorf("wrote %s where encoding/json fails: %v", got, err)
	} else if string(got[1:]) != want {
		t.Errorf("got  %s\nwant %s", got[1:], want)
	}
	return true
}

func TestRecordJSONIsEncodingJSON(t *testing.T) {
	recs, _ := scanFixtures(t)
	for i := range recs {
		if !checkRecordJSON(t, &recs[i]) {
			t.Errorf("fixture session %s left to encoding/json", recs[i].SessionID)
		}
	}
	str := func(s string) *string { return &s }
	num := func(f float64) *float64 { return &f }
	at := time.Date(2026, 12, 1, 19, 44, 33, 123456789, time.UTC)
	full := agentlog.Record{
		SessionID: "s", Harness: "codex", Repo: str("/src/r"), Project: str("r"), Cwd: "/src/r/x",
		Start: at, End: at.Add(time.Hour).In(time.FixedZone("", 3600+1800)), Calls: 3,
		Tools: map[string]int{"b": 1, "a": 2, "Bash": 3, "": 0}, Cost: agentlog.Cost{Total: nil, Priced: 1.5, Unpriced: []string{"m1", "m2"}, Harness: num(2)},
		Tokens: agentlog.Tokens{Input: 1, Output: 2, CacheRead: 3, CacheWrite: 4},
		Models: map[string]*agentlog.ModelUse{"z": {Calls: 1, Cost: nil}, "a": {Calls: 2, Cost: num(0.25)}, "n": nil},
		Judge:  &agentlog.ForkSpend{Forks: 1, Calls: 2, Cost: num(1e-7)}, Files: []string{"/a", "/b"},
		Unlogged: "the router's calls", Warnings: []string{"not written"},
	}
	for _, tc := range []struct {
		name    string
		edit    func(r *agentlog.Record)
		handled bool
	}{
		{"every field", func(*agentlog.Record) {}, true},
		{"zero", func(r *agentlog.Record) { *r = agentlog.Record{} }, true},
		{"empty maps and lists", func(r *agentlog.Record) {
			r.Tools, r.Models, r.Files, r.Cost.Unpriced = map[string]int{}, map[string]*agentlog.ModelUse{}, []string{}, []string{}
		}, true},
		{"floats", func(r *agentlog.Record) {
			r.Cost.Priced, r.Cost.Total, r.Cost.Harness = 1e21, num(1e-6), num(-0.000000123)
			r.Models["a"].Cost = num(123456789.123456789)
			r.Judge.Cost = num(math.Copysign(0, -1))
		}, true},
		{"big and negative", func(r *agentlog.Record) { r.Calls, r.Tokens.Input = -5, math.MaxInt64 }, true},
		{"local time", func(r *agentlog.Record) { r.Start = at.In(time.FixedZone("X", -7*3600)) }, true},
		{"quote in a path", func(r *agentlog.Record) { r.Files = []string{`/a"b`} }, false},
		{"non-ASCII project", func(r *agentlog.Record) { r.Project = str("café") }, false},
		{"control character", func(r *agentlog.Record) { r.Cwd = "a\tb" }, false},
		{"backslash in a tool", func(r *agentlog.Record) { r.Tools = map[string]int{`a\b`: 1} }, false},
		{"quote in the unlogged note", func(r *agentlog.Record) { r.Unlogged = `the "title" call` }, false},
		{"NaN", func(r *agentlog.Record) { r.Cost.Priced = math.NaN() }, false},
		{"infinite model cost", func(r *agentlog.Record) { r.Models["a"].Cost = num(math.Inf(1)) }, false},
		{"year 10000", func(r *agentlog.Record) { r.End = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC) }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := full
			r.Models = map[string]*agentlog.ModelUse{}
			for k, v := range full.Models {
				if v != nil {
					c := *v
					v = &c
				}
				r.Models[k] = v
			}
			j := *full.Judge
			r.Judge = &j
			tc.edit(&r)
			if got := checkRecordJSON(t, &r); got != tc.handled {
				t.Errorf("handled = %v, want %v", got, tc.handled)
			}
		})
	}
}

// FuzzRecordJSON: whatever the record holds, appendRecordJSON writes encoding/json's bytes or leaves it.
func FuzzRecordJSON(f *testing.F) {
	f.Add("s", "/src/x", "Bash", "claude-opus-5-5", int64(1764618273), int64(123), 0.169476, 1e-7, int64(29), true)
	f.Add("é", `a"b`, "", "m", int64(-62135596800), int64(0), math.Inf(1), 1e22, int64(-1), false)
	f.Fuzz(func(t *testing.T, id, path, tool, model string, sec, nsec int64, cost, harness float64, n int64, judged bool) {
		at := time.Unix(sec, nsec)
		r := agentlog.Record{
			SessionID: id, Harness: "claude-code", Repo: &path, Cwd: path, Start: at, End: at.Add(time.Duration(n)),
			Calls: int(n), Tools: map[string]int{tool: int(n), "Read": 1}, Cost: agentlog.Cost{Total: &cost, Priced: harness, Harness: &harness},
			Tokens: agentlog.Tokens{Input: n, Output: -n}, Models: map[string]*agentlog.ModelUse{model: {Calls: int(n), Cost: &cost}},
			Files: []string{path, id},
		}
		if judged {
			r.Judge = &agentlog.ForkSpend{Forks: int(n), Cost: &harness}
			r.Cost.Unpriced = []string{model}
			r.Project = &model
		}
		checkRecordJSON(t, &r)
	})
}

// TestRecordJSONKnowsEveryField fails when a type appendRecordJSON writes gains, loses or renames a
// field: appendRecordJSON is then to be changed with it.
func TestRecordJSONKnowsEveryField(t *testing.T) {
	for typ, want := range map[reflect.Type][]string{
		reflect.TypeFor[agentlog.Record]():    {"session_id", "harness", "repo", "project", "cwd,omitempty", "start", "end", "calls", "tools", "cost", "tokens", "models", "judge,omitempty", "files,omitempty", "unlogged_calls,omitempty", "saver,omitempty", "-"},
		reflect.TypeFor[agentlog.Cost]():      {"total", "priced", "unpriced_models,omitempty", "unpriced_tokens", "harness,omitempty"},
		reflect.TypeFor[agentlog.Tokens]():    {"input", "output", "cache_read", "cache_write"},
		reflect.TypeFor[agentlog.ModelUse]():  {"calls", "tokens", "cost"},
		reflect.TypeFor[agentlog.ForkSpend](): {"forks", "calls", "tokens", "cost"},
	} {
		var got []string
		for i := range typ.NumField() {
			if f := typ.Field(i); f.IsExported() {
				got = append(got, f.Tag.Get("json"))
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s's JSON fields are %q, appendRecordJSON writes %q", typ, got, want)
		}
	}
}
