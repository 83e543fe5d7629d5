package claude

import (
	"bufio"
	"bytes"
	"encoding/json"
	"maps"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/prices"
)

const claudeProjects = "testdata/projects"

// lastCostState is the fixture's own figure: the last cost-state line of a transcript.
func lastCostState(t *testing.T, path string) (usd float64, tok agentlog.Tokens) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l claudeLine
		if json.Unmarshal(sc.Bytes(), &l) != nil || l.Type != "cost-state" {
			continue
		}
		usd, tok = *l.Total, agentlog.Tokens{}
		for _, m := range l.ModelUse {
			tok.Add(agentlog.Tokens{Input: m.Input, Output: m.Output, CacheRead: m.CacheRead, CacheWrite: m.CacheCreate})
		}
	}
	return usd, tok
}

func TestReadClaudeSessionFixtures(t *testing.T) {
	tests := []struct {
		name      string
		path      string
		calls     int
		tools     map[string]int
		files     int
		mismatch  bool // the fixture's cost-state counts a subagent whose transcript is not in it
		wantStart string
		wantEnd   string
	}{
		{name: "two turns with a resume is one session", path: "-home-dev-src-calc/c30d052a-2836-49f8-a652-5038e728a894.jsonl",
			calls: 13, files: 1, tools: map[string]int{"Bash": 5, "Read": 2, "Edit": 1, "Write": 1, "Grep": 1, "Glob": 1},
			wantStart: "2026-12-01T19:33:49.349Z", wantEnd: "2026-12-01T19:33:53.52Z"},
		{name: "subagent counted once", path: "-home-dev-src-demo/13c0eb32-b32a-4091-966d-1055a1ec77df.jsonl",
			calls: 4, files: 2, tools: map[string]int{"Agent": 1}},
		{name: "async agent without its transcript", path: "-home-dev-src-demo/04f0f6ba-c937-4e53-aa5b-13778f5eb2f2.jsonl",
			calls: 3, files: 1, tools: map[string]int{"Agent": 1, "Read": 1}, mismatch: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(claudeProjects, tc.path)
			rec, err := ReadSession(path, agentlog.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if rec.Calls != tc.calls {
				t.Errorf("calls = %d, want %d", rec.Calls, tc.calls)
			}
			if len(rec.Files) != tc.files {
				t.Errorf("files = %v, want %d", rec.Files, tc.files)
			}
			if !maps.Equal(rec.Tools, tc.tools) {
				t.Errorf("tools = %v, want %v", rec.Tools, tc.tools)
			}
			usd, tok := lastCostState(t, path)
			if rec.Cost.Harness == nil || *rec.Cost.Harness != usd {
				t.Errorf("cost.harness = %v, want the cost-state's %v", rec.Cost.Harness, usd)
			}
			mismatch := hasWarning(rec.Warnings, "cost-state counts")
			if mismatch != tc.mismatch {
				t.Errorf("cost-state warning = %v, want %v: %q", mismatch, tc.mismatch, rec.Warnings)
			}
			if !tc.mismatch {
				if rec.Tokens != tok {
					t.Errorf("tokens = %+v, want the cost-state's %+v", rec.Tokens, tok)
				}
				if rec.Cost.Total == nil || math.Abs(*rec.Cost.Total-usd) > 1e-9 {
					t.Errorf("cost.total = %v, want the cost-state's %v", rec.Cost.Total, usd)
				}
				if len(rec.Warnings) > 0 {
					t.Errorf("warnings: %q", rec.Warnings)
				}
			}
			if rec.Cwd == "" || rec.Project == nil || *rec.Project != filepath.Base(rec.Cwd) {
				t.Errorf("cwd %q, project %v: want the project named after the lines' cwd", rec.Cwd, rec.Project)
			}
			if tc.wantStart != "" && (rec.Start.Format("2006-01-02T15:04:05.999Z07:00") != tc.wantStart ||
				rec.End.Format("2006-01-02T15:04:05.999Z07:00") != tc.wantEnd) {
				t.Errorf("start–end = %v–%v, want %s–%s", rec.Start, rec.End, tc.wantStart, tc.wantEnd)
			}
			if m := rec.Models["claude-opus-5-5"]; m == nil || m.Calls != tc.calls || m.Cost == nil {
				t.Errorf("models = %+v", rec.Models)
			}
		})
	}
}

func hasWarning(ws []string, part string) bool {
	for _, w := range ws {
		if strings.Contains(w, part) {
			return true
		}
	}
	return false
}

// The same calls priced otherwise than Claude Code priced them is said.
func TestCostStateDisagrees(t *testing.T) {
	over, err := prices.Parse([]byte(`{"models":{"claude-opus-5-5":[{"input":5,"output":25,"cache_read":0.5,"cache_write_5m":6.25,"cache_write_1h":10}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := ReadSession(filepath.Join(claudeProjects, "-home-dev-src-calc/c30d052a-2836-49f8-a652-5038e728a894.jsonl"),
		agentlog.Options{Prices: prices.Default().With(over)})
	if err != nil {
		t.Fatal(err)
	}
	if !hasWarning(rec.Warnings, "Claude Code's own cost-state says $0.0910") {
		t.Errorf("warnings %q, want the two figures named", rec.Warnings)
	}
}

// TestParseTimeIsTimeParse: the session's remembered last time answers as time.Parse does, for a text
// repeated, changed, too long to remember, empty or invalid.
func TestParseTimeIsTimeParse(t *testing.T) {
	s := &claudeSession{}
	long := "2026-12-01T19:44:33.123456789012345678901234567+01:00"
	for _, v := range []string{
		"2026-12-01T19:44:33.123Z", "2026-12-01T19:44:33.123Z", "2026-12-01T19:44:33.124Z",
		"2026-12-01T20:44:33.123+01:00", "2026-12-01T20:44:33.123+01:00", long, long,
		"2026-12-01T19:44:33.124Z", "", "", "not a time", "not a time", "2026-12-01T19:44:33.124Z",
	} {
		got, gotOK := s.parseTime(v)
		want, wantErr := time.Parse(time.RFC3339Nano, v)
		if !got.Equal(want) || got.String() != want.String() || gotOK != (wantErr == nil) {
			t.Errorf("parseTime(%q) = %v, %v; time.Parse: %v, %v", v, got, gotOK, want, wantErr)
		}
	}
}

// TestPricesTableChangesBetweenSessions: a reader's remembered price ids belong to one table; a session
// read with another table is priced by that one (a dated model id an override prices itself, the embedded
// table under its family's id).
func TestPricesTableChangesBetweenSessions(t *testing.T) {
	const dated = "claude-opus-5-5-20260101"
	over, err := prices.Parse([]byte(`{"models":{"` + dated + `":[{"input":50,"output":250,"cache_read":5,"cache_write_5m":60,"cache_write_1h":100}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(claudeProjects, "-home-dev-src-calc/c30d052a-2836-49f8-a652-5038e728a894.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "c30d052a-2836-49f8-a652-5038e728a894.jsonl")
	if err := os.WriteFile(path, bytes.ReplaceAll(data, []byte(`"claude-opus-5-5"`), []byte(`"`+dated+`"`)), 0o600); err != nil {
		t.Fatal(err)
	}
	embedded, overridden := prices.Default(), prices.Default().With(over)
	var totals [2]float64
	for i, tab := range []*prices.Table{embedded, overridden, embedded, overridden} {
		rec, err := ReadSession(path, agentlog.Options{Prices: tab})
		if err != nil || rec.Cost.Total == nil {
			t.Fatalf("read %d: %v, cost %v (unpriced %q)", i, err, rec.Cost.Total, rec.Cost.Unpriced)
		}
		if i < 2 {
			totals[i] = *rec.Cost.Total
		} else if *rec.Cost.Total != totals[i%2] {
			t.Errorf("read %d: $%v, want $%v as the first read with that table", i, *rec.Cost.Total, totals[i%2])
		}
	}
	if totals[0] == totals[1] {
		t.Errorf("the override's price ($%v) is the embedded one's ($%v)", totals[1], totals[0])
	}
}
