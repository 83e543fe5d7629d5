package report

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/harness/claude"
	"github.com/saverd/saverd/harness/codex"
	"github.com/saverd/saverd/internal/jstext"
	"github.com/saverd/saverd/internal/textout"
)

// The agentlog package's copies of the real Claude Code and Codex fixtures.
const (
	fixtureClaude = "../harness/claude/testdata"
	fixtureCodex  = "../harness/codex/testdata"
)

// TestAppendIndentedIsIndent holds the report's indenter to json.Indent on what the encoder writes.
func TestAppendIndentedIsIndent(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    any
	}{
		{"scalars", []any{1, -2.5e-9, true, false, nil, "x"}},
		{"empty", map[string]any{"a": map[string]any{}, "b": []any{}, "c": "", "d": []any{[]any{}, map[string]any{}}}},
		{"escapes", []string{`a"b`, `a\b`, `\`, `\\`, `"`, `\"`, "tab\tnl\n", "<&>", "é 🙂", "\x00\x1f", "\xff"}},
		{"punctuation in strings", map[string]string{"{[,:]}": "}],[{:", `":"`: `","`}},
		{"nested", map[string]any{"a": []any{map[string]any{"b": []any{1, 2, map[string]any{"c": nil}}}}, "z": 3}},
		{"record", map[string]any{"session_id": "s", "tools": map[string]int{"Bash": 2, "Read": 1}, "files": []string{`/tmp/a "b"\c`}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, err := jstext.Marshal(tc.v)
			if err != nil {
				t.Fatal(err)
			}
			for _, prefix := range []string{"", "    "} {
				var want bytes.Buffer
				if err := json.Indent(&want, src, prefix, "  "); err != nil {
					t.Fatal(err)
				}
				if got := appendIndented([]byte("head"), src, prefix); string(got) != "head"+want.String() {
					t.Errorf("prefix %q:\n got %s\nwant %s", prefix, got[4:], want.String())
				}
			}
		})
	}
}

// TestSessionsJSONIsOneEncoder: the report written in parallel parts is the one textout.WriteJSON writes, for
// no, one and many sessions, with and without groups and warnings.
func TestSessionsJSONIsOneEncoder(t *testing.T) {
	recs, warn := scanFixtures(t)
	many := append(append(append([]agentlog.Record{}, recs...), recs...), recs...)
	for _, tc := range []struct {
		name string
		rep  sessionsJSON
	}{
		{"none", sessionsJSON{Sessions: []agentlog.Record{}, Totals: Totals(nil), Warnings: []string{}}},
		{"one", sessionsJSON{Sessions: recs[:1], Totals: Totals(recs[:1]), Warnings: []string{}}},
		{"fixtures", sessionsJSON{Sessions: recs, Totals: Totals(recs), Warnings: warn}},
		{"many by day", sessionsJSON{Sessions: many, By: By(many, "day", time.Local), Totals: Totals(many), Warnings: warn}},
		{"by model", sessionsJSON{Sessions: recs, By: By(recs, "model", time.Local), Totals: Totals(recs), Warnings: []string{"a <warning> & more"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var want, got bytes.Buffer
			if err := textout.WriteJSON(&want, tc.rep); err != nil {
				t.Fatal(err)
			}
			if err := writeSessionsJSON(&got, tc.rep); err != nil {
				t.Fatal(err)
			}
			if got.String() != want.String() {
				t.Errorf("got\n%s\nwant\n%s", got.String(), want.String())
			}
		})
	}
}

// scanFixtures reads the real Claude Code and Codex fixtures as `saverd sessions` does.
func scanFixtures(t testing.TB) ([]agentlog.Record, []string) {
	t.Helper()
	files, warn := claude.Harness{}.Discover([]string{fixtureClaude})
	f, w := codex.Harness{}.Discover([]string{fixtureCodex})
	files, warn = append(files, f...), append(warn, w...)
	recs, w := agentlog.Scan(context.Background(), files, agentlog.ScanOptions{})
	if len(recs) < 2 {
		t.Fatalf("%d sessions in the fixtures", len(recs))
	}
	return recs, append(warn, w...)
}

// FuzzAppendIndented: on any JSON the encoder writes, appendIndented is json.Indent.
func FuzzAppendIndented(f *testing.F) {
	for _, s := range []string{`{"a":[1,{"b":"c\"}"}],"d":{}}`, `["\\","\\\"",[]]`, `"x"`, `{"":"\u2028<>&"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var v any
		if json.Unmarshal([]byte(s), &v) != nil {
			return
		}
		src, err := jstext.Marshal(v)
		if err != nil {
			return
		}
		var want bytes.Buffer
		if err := json.Indent(&want, src, "    ", "  "); err != nil {
			t.Fatal(err)
		}
		if got := appendIndented(nil, src, "    "); string(got) != want.String() {
			t.Fatalf("got %s\nwant %s", got, want.String())
		}
	})
}

// TestSessionsCSVJudgeColumns: the csv carries what saverd's own forks spent on each session, as the
// table's JUDGE does: forks, their tokens of every kind, their cost (empty when none ran or one has no price).
func TestSessionsCSVJudgeColumns(t *testing.T) {
	cost := 0.0123
	recs := []agentlog.Record{
		{SessionID: "judged", Harness: "claude-code", Judge: &agentlog.ForkSpend{Forks: 2, Calls: 2,
			Tokens: agentlog.Tokens{Input: 100, Output: 20, CacheRead: 3000, CacheWrite: 40}, Cost: &cost}},
		{SessionID: "unpriced", Harness: "codex", Judge: &agentlog.ForkSpend{Forks: 1, Tokens: agentlog.Tokens{Input: 7}}},
		{SessionID: "none", Harness: "claude-code"},
	}
	var buf bytes.Buffer
	if err := writeSessionsCSV(&buf, recs); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	head := rows[0]
	col := func(row []string, name string) string {
		i := slices.Index(head, name)
		if i < 0 {
			t.Fatalf("no column %s in %v", name, head)
		}
		return row[i]
	}
	for i, want := range [][3]string{{"2", "3160", "0.0123"}, {"1", "7", ""}, {"0", "0", ""}} {
		row := rows[i+1]
		got := [3]string{col(row, "judge_forks"), col(row, "judge_tokens"), col(row, "judge_cost")}
		if got != want {
			t.Errorf("%s: judge columns %v, want %v", row[0], got, want)
		}
	}
}
