package codex

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/harness"
)

// codexExpected is one entry of the fixtures' expected-summary.json, as the facts describe it.
type codexExpected struct {
	File      string         `json:"file"`
	ID        string         `json:"id"`
	Start     time.Time      `json:"start"`
	End       time.Time      `json:"end"`
	Cwd       string         `json:"cwd"`
	Models    []string       `json:"models"`
	APICalls  int            `json:"api_calls"`
	ToolCalls map[string]int `json:"tool_calls"`
	Tokens    struct {
		Input     int64 `json:"input_tokens"`
		Cached    int64 `json:"cached_input_tokens"`
		Output    int64 `json:"output_tokens"`
		NonCached int64 `json:"non_cached_input_tokens"`
	} `json:"tokens"`
}

func TestReadCodexRolloutFixtures(t *testing.T) {
	data, err := os.ReadFile("testdata/expected-summary.json")
	if err != nil {
		t.Fatal(err)
	}
	var want []codexExpected
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	// Bash counts the code-mode executions no function_call asked for; the summary lists them apart.
	codeModeBash := map[string]int{"01a23322-d88d-73b3-9fa7-823c5494f927": 1, "01a23323-60c7-75c1-92e2-437e40c2167f": 3}
	for _, w := range want {
		t.Run(w.ID, func(t *testing.T) {
			rec, err := ReadRollout(filepath.Join("testdata/sessions/2026/12/01", filepath.Base(w.File)), agentlog.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if rec.SessionID != w.ID || rec.Harness != string(harness.Codex) || rec.Cwd != w.Cwd {
				t.Errorf("id %q harness %q cwd %q", rec.SessionID, rec.Harness, rec.Cwd)
			}
			if !rec.Start.Equal(w.Start) || !rec.End.Equal(w.End) {
				t.Errorf("start–end %v–%v, want %v–%v", rec.Start, rec.End, w.Start, w.End)
			}
			if rec.Calls != w.APICalls {
				t.Errorf("calls = %d, want %d", rec.Calls, w.APICalls)
			}
			tools := map[string]int{}
			for k, v := range w.ToolCalls {
				tools[k] = v
			}
			if n := codeModeBash[w.ID]; n > 0 {
				tools["Bash"] = n
			}
			if !maps.Equal(rec.Tools, tools) {
				t.Errorf("tools = %v, want %v", rec.Tools, tools)
			}
			tok := agentlog.Tokens{Input: w.Tokens.NonCached, CacheRead: w.Tokens.Cached, Output: w.Tokens.Output}
			if rec.Tokens != tok {
				t.Errorf("tokens = %+v, want %+v", rec.Tokens, tok)
			}
			if len(rec.Models) != len(w.Models) {
				t.Errorf("models = %v, want %v", rec.Models, w.Models)
			}
			for _, m := range w.Models {
				if rec.Models[m] == nil {
					t.Errorf("model %s missing from %v", m, rec.Models)
				}
			}
		})
	}
}

func TestCodexCostAndUnknownModel(t *testing.T) {
	dir := "testdata/sessions/2026/12/01"
	// gpt-5.5 only: 2200 fresh input, 2400 cached, 260 output at 5 / 0.50 / 30.
	rec, err := ReadRollout(filepath.Join(dir, "rollout-2026-12-01T19-44-33-01a23323-2f6c-7410-9a90-799c96f92d5c.jsonl"), agentlog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := (2200*5 + 2400*0.5 + 260*30) / 1e6; rec.Cost.Total == nil || !near(*rec.Cost.Total, want) {
		t.Errorf("cost.total = %v, want %v", rec.Cost.Total, want)
	}
	// The resumed session switched to gpt-5.6-terra, which has no price: no total, a warning naming it, and the
	// gpt-5.5 calls still priced.
	rec, err = ReadRollout(filepath.Join(dir, "rollout-2026-12-01T19-44-11-01a23322-d88d-73b3-9fa7-823c5494f927.jsonl"), agentlog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Cost.Total != nil || len(rec.Cost.Unpriced) != 1 || rec.Cost.Unpriced[0] != "gpt-5.6-terra" {
		t.Errorf("cost = %+v, want a null total with gpt-5.6-terra unpriced", rec.Cost)
	}
	if !hasWarning(rec.Warnings, `no price for model "gpt-5.6-terra"`) {
		t.Errorf("warnings %q do not name the model", rec.Warnings)
	}
	m := rec.Models["gpt-5.5"]
	if want := (1000*5 + 300*5 + 800*0.5 + 400*5 + 800*0.5 + 180*30) / 1e6; m == nil || m.Cost == nil || !near(*m.Cost, want) || m.Calls != 3 {
		t.Errorf("gpt-5.5 = %+v, want 3 calls costing %v", m, want)
	}
	if m := rec.Models["gpt-5.6-terra"]; m == nil || m.Cost != nil || m.Calls != 3 {
		t.Errorf("gpt-5.6-terra = %+v, want 3 calls (the compaction among them) with a null cost", m)
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

// The lines the Codex reader skips undecoded are exactly the kinds it has no use for.
func TestCodexQuickSkipsOnlyUnused(t *testing.T) {
	data, err := os.ReadFile("testdata/sessions/2026/12/01/rollout-2026-12-01T19-44-11-01a23322-d88d-73b3-9fa7-823c5494f927.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	s := &codexSession{}
	skipped := 0
	for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var l struct {
			Type    string `json:"type"`
			Payload struct {
				Type string `json:"type"`
				Item struct {
					Type string `json:"type"`
				} `json:"item"`
			} `json:"payload"`
		}
		if err := json.Unmarshal(line, &l); err != nil {
			t.Fatal(err)
		}
		used := l.Type == "session_meta" || l.Type == "turn_context" || l.Type == "token_usage_record" ||
			l.Type == "response_item" && (l.Payload.Type == "function_call" || l.Payload.Type == "custom_tool_call") ||
			l.Type == "event_msg" && (l.Payload.Type == "token_count" || l.Payload.Item.Type == "CommandExecution")
		if s.quick(line) {
			skipped++
			if used {
				t.Errorf("skipped a line the reader uses: %s/%s", l.Type, l.Payload.Type)
			}
		}
	}
	if skipped < 30 {
		t.Errorf("only %d lines skipped undecoded", skipped)
	}
}

func hasWarning(ws []string, part string) bool {
	return slices.ContainsFunc(ws, func(w string) bool { return strings.Contains(w, part) })
}

// TestCodexUnloggedTitles: Codex 0.169.0 asks the session's model for a title with each prompt that
// reaches it and writes none of those requests to the rollout (a scripted API saw 7 title requests for a
// rollout of 7 such prompts, and 1 for 1). The record says so, with the count the rollout gives: its turns
// with a call; a prompt a hook blocked reached no model. A rollout whose calls name no turn gets the note
// without a count.
func TestCodexUnloggedTitles(t *testing.T) {
	fixture := "testdata/sessions/2026/12/01/rollout-2026-12-01T19-44-11-01a23322-d88d-73b3-9fa7-823c5494f927.jsonl"
	src, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	old, err := filepath.Glob("testdata/versions/codex-0.58/sessions/*/*/*/rollout-*.jsonl")
	if err != nil || len(old) == 0 {
		t.Fatalf("no codex-0.58 rollout: %v", err)
	}
	oldSrc, err := os.ReadFile(old[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, text, want string
	}{
		{"two prompts", string(src), ", 2 here, are billed but never written to the rollout"},
		{"two prompts and three blocked", blocked("2026-12-01T19:44:10") + string(src) + blocked("2026-12-01T19:44:40") + blocked("2026-12-01T19:44:41"),
			", 2 here, are billed but never written to the rollout"},
		{"calls naming no turn", string(oldSrc), "in Codex 0.169.0) are billed but never written to the rollout"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), filepath.Base(fixture))
			if err := os.WriteFile(path, []byte(tc.text), 0o600); err != nil {
				t.Fatal(err)
			}
			rec, err := ReadRollout(path, agentlog.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(rec.Unlogged, "Codex's title requests") || !strings.Contains(rec.Unlogged, tc.want) {
				t.Errorf("unlogged_calls %q, want it to say %q", rec.Unlogged, tc.want)
			}
		})
	}
}
