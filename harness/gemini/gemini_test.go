package gemini

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/saverd/saverd/agentlog"
	"github.com/saverd/saverd/prices"
)

// fixture is one captured Gemini CLI 0.61.0 home (testdata/<name>/.gemini, byte-exact), and what its
// session holds by the scripted server's own log of the main-agent calls it answered: tokens in the
// API's usageMetadata kinds, summed over those calls.
type fixture struct {
	name, session                                 string
	calls                                         int
	model                                         string
	prompt, cached, candidates, thoughts, toolUse int64
	tools                                         map[string]int
	files                                         int
	start                                         string
	cwd                                           string
	prompts                                       int
}

var fixtures = []fixture{
	// One `gemini -p` run: three main calls (the router's call went to the server too, and is not logged).
	{name: "A", session: "8b5bbf44-95bd-4c93-a9af-ba2023049c97", calls: 3, model: "gemini-3.1-pro-preview",
		prompt: 3900, cached: 90, candidates: 69, thoughts: 45, toolUse: 3,
		tools: map[string]int{"run_shell_command": 1, "read_file": 1}, files: 1, start: "2026-12-06T02:27:02.651Z", cwd: "/home/dev/proj", prompts: 1},
	// Three runs of one session: a resume in the file's own minute (a second header and snapshot that
	// lost the tokens) and one in the next minute (a stray two-line file).
	{name: "B", session: "5842a58e-37c9-4503-b1e9-7a805d24d1df", calls: 7, model: "gemini-3.8-flash",
		prompt: 10000, cached: 300, candidates: 170, thoughts: 150, toolUse: 3,
		tools: map[string]int{"run_shell_command": 2, "read_file": 1, "write_file": 1}, files: 2, start: "2026-12-06T02:27:38.959Z", cwd: "/home/dev/proj", prompts: 3},
	// The interactive UI, default settings and offline settings: the same log (no projects.json captured).
	{name: "C", session: "2457a723-f28e-4a0e-888c-c0c5fec88281", calls: 3, model: "gemini-3.8-flash",
		prompt: 9900, cached: 690, candidates: 129, thoughts: 345, toolUse: 3,
		tools: map[string]int{"run_shell_command": 1, "read_file": 1}, files: 1, start: "2026-12-06T02:28:50.680Z", prompts: 1},
	{name: "D", session: "4faf9226-7bf1-42b5-a075-dcf05fc5aeac", calls: 3, model: "gemini-3.8-flash",
		prompt: 12900, cached: 990, candidates: 159, thoughts: 495, toolUse: 3,
		tools: map[string]int{"run_shell_command": 1, "read_file": 1}, files: 1, start: "2026-12-06T02:29:26.713Z", prompts: 1},
	// A after `--list-sessions`: a summary and memory scratchpad appended as $set.
	{name: "E", session: "8b5bbf44-95bd-4c93-a9af-ba2023049c97", calls: 3, model: "gemini-3.1-pro-preview",
		prompt: 3900, cached: 90, candidates: 69, thoughts: 45, toolUse: 3,
		tools: map[string]int{"run_shell_command": 1, "read_file": 1}, files: 1, start: "2026-12-06T02:27:02.651Z", prompts: 1},
}

// TestFixtures reads each captured home as `saverd sessions` does (Discover, then agentlog.Scan) and
// holds every token kind to the server's figures: input is the prompt less its cached part plus the
// tool-use prompt, output the candidates plus the thoughts.
func TestFixtures(t *testing.T) {
	for _, fx := range fixtures {
		t.Run(fx.name, func(t *testing.T) {
			dir := filepath.Join("testdata", fx.name, ".gemini")
			files, warn := Logs{}.Discover([]string{dir})
			if len(warn) > 0 || len(files) != 1 {
				t.Fatalf("Discover: %d files %v, warnings %q", len(files), files, warn)
			}
			recs, warn := agentlog.Scan(context.Background(), files, agentlog.ScanOptions{})
			if len(warn) > 0 {
				t.Fatalf("warnings: %q", warn)
			}
			if len(recs) != 1 {
				t.Fatalf("%d records, want 1", len(recs))
			}
			r := recs[0]
			want := agentlog.Tokens{Input: fx.prompt - fx.cached + fx.toolUse, CacheRead: fx.cached, Output: fx.candidates + fx.thoughts}
			if r.SessionID != fx.session || r.Harness != "gemini" || r.Calls != fx.calls || r.Tokens != want {
				t.Errorf("record %s %s: %d calls, tokens %+v; want %s, %d calls, %+v", r.Harness, r.SessionID, r.Calls, r.Tokens, fx.session, fx.calls, want)
			}
			if m := r.Models[fx.model]; m == nil || m.Calls != fx.calls || m.Tokens != want {
				t.Errorf("models %+v, want all in %s", r.Models, fx.model)
			}
			if !maps.Equal(r.Tools, fx.tools) {
				t.Errorf("tools %v, want %v", r.Tools, fx.tools)
			}
			start, _ := time.Parse(time.RFC3339Nano, fx.start)
			if len(r.Files) != fx.files || !r.Start.Equal(start) || r.Cwd != fx.cwd {
				t.Errorf("files %q start %s cwd %q; want %d files, %s, %q", r.Files, r.Start, r.Cwd, fx.files, fx.start, fx.cwd)
			}
			if r.Project == nil || *r.Project != "proj" {
				t.Errorf("project %v, want proj", r.Project)
			}
			if r.Unlogged == "" {
				t.Error("the record does not say which calls its log omits")
			}
			if r.Cost.Total == nil {
				t.Errorf("cost not priced: %+v", r.Cost)
			}
			tr, err := Logs{}.History(files[0].Path, fx.session, agentlog.Options{})
			if err != nil {
				t.Fatal(err)
			}
			calls, tok := 0, agentlog.Tokens{}
			for _, turn := range tr.Turns {
				calls += turn.Calls
				tok.Add(turn.Tokens)
			}
			if len(tr.Turns) != fx.prompts || calls != fx.calls || tok != want || tr.Model != fx.model {
				t.Errorf("history: %d turns, %d calls, %+v, model %s; want %d, %d, %+v, %s", len(tr.Turns), calls, tok, tr.Model, fx.prompts, fx.calls, want, fx.model)
			}
			uses := map[string]int{}
			for _, m := range tr.Messages {
				for _, u := range m.ToolUses {
					uses[u.Tool]++
					if !u.HasResult || u.Text == nil || *u.Text == "" {
						t.Errorf("tool call %s (%s) has no result", u.ToolUseID, u.Tool)
					}
				}
			}
			if uses["Bash"] != fx.tools["run_shell_command"] || uses["Read"] != fx.tools["read_file"] || uses["Write"] != fx.tools["write_file"] {
				t.Errorf("history tool calls %v, want the ledger's names of %v", uses, fx.tools)
			}
		})
	}
}

// TestGeminiCostByKind prices one session by hand from the published rates the table holds.
func TestGeminiCostByKind(t *testing.T) {
	files, _ := Logs{}.Discover([]string{filepath.Join("testdata", "A", ".gemini")})
	recs, _ := agentlog.Scan(context.Background(), files, agentlog.ScanOptions{})
	tab := prices.Default()
	rate, ok := tab.RateAt("gemini-3.1-pro-preview", recs[0].Start)
	if !ok {
		t.Fatal("gemini-3.1-pro-preview has no price")
	}
	want := (float64(3900-90+3)*rate.Input + 90*rate.CacheRead + float64(69+45)*rate.Output) / 1e6
	if got := *recs[0].Cost.Total; got < want-1e-9 || got > want+1e-9 {
		t.Errorf("cost %v, want %v", got, want)
	}
}

// TestBadInput: what a reader must survive, each against A's log.
func TestBadInput(t *testing.T) {
	base, err := os.ReadFile(filepath.Join("testdata", "A", ".gemini", "tmp", "proj", "chats", "session-2026-12-06T02-27-8b5bbf44.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(base), "\n")
	for _, tc := range []struct {
		name      string
		log       string
		calls     int
		warning   string
		rewinds   bool
		turnCalls int
	}{
		{"as written", string(base), 3, "", false, 3},
		{"a malformed line", strings.Join(lines[:5], "") + "{not json\n" + strings.Join(lines[5:], ""), 3, "malformed line", false, 3},
		{"cut in its last line", string(base) + `{"id":"x","timestamp":"2026-12-06T02:27:03Z","type":"gem`, 3, "truncated last line", false, 3},
		// A rewind to the second API call's message drops it and the rest from the conversation, but the
		// calls were made: the record still bills all three.
		{"rewound", string(base) + `{"$rewindTo":"b927499d-dfc0-422e-adca-032a3d7c9f52"}` + "\n", 3, "", true, 1},
		{"no header", strings.Join(lines[1:], ""), 3, "", false, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), ".gemini", "tmp", "proj", "chats")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "session-2026-12-06T02-27-8b5bbf44.jsonl")
			if err := os.WriteFile(path, []byte(tc.log), 0o644); err != nil {
				t.Fatal(err)
			}
			files, _ := Logs{}.Discover([]string{filepath.Dir(filepath.Dir(filepath.Dir(dir)))})
			recs, warn := agentlog.Scan(context.Background(), files, agentlog.ScanOptions{})
			if len(recs) != 1 || recs[0].Calls != tc.calls {
				t.Fatalf("records %+v, want one with %d calls", recs, tc.calls)
			}
			if got := strings.Join(warn, "\n"); tc.warning == "" && got != "" || !strings.Contains(got, tc.warning) {
				t.Errorf("warnings %q, want one saying %q", warn, tc.warning)
			}
			tr, err := Logs{}.History(path, recs[0].SessionID, agentlog.Options{})
			if err != nil {
				t.Fatal(err)
			}
			calls := 0
			for _, turn := range tr.Turns {
				calls += turn.Calls
			}
			if calls != tc.turnCalls {
				t.Errorf("history bills %d calls, want %d", calls, tc.turnCalls)
			}
		})
	}
}

// TestOlderWholeFile: a session written as one .json object (Gemini CLI's older format) counts the same.
func TestOlderWholeFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "g", "tmp", "proj", "chats")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	whole := `{"sessionId":"s1","projectHash":"","startTime":"2026-06-01T10:00:00Z","lastUpdated":"2026-06-01T10:05:00Z","messages":[
{"id":"u1","timestamp":"2026-06-01T10:00:01Z","type":"user","content":[{"text":"hi"}]},
{"id":"g1","timestamp":"2026-06-01T10:00:02Z","type":"gemini","content":"hello","tokens":{"input":100,"output":5,"cached":40,"thoughts":2,"tool":0,"total":107},"model":"gemini-2.5-pro"}]}`
	if err := os.WriteFile(filepath.Join(dir, "session-2026-06-01T10-00-s1abcdef.json"), []byte(whole), 0o644); err != nil {
		t.Fatal(err)
	}
	files, _ := Logs{}.Discover([]string{filepath.Dir(filepath.Dir(filepath.Dir(dir)))})
	recs, warn := agentlog.Scan(context.Background(), files, agentlog.ScanOptions{})
	if len(recs) != 1 || len(warn) > 0 {
		t.Fatalf("records %+v, warnings %q", recs, warn)
	}
	if r := recs[0]; r.SessionID != "s1" || r.Calls != 1 || r.Tokens != (agentlog.Tokens{Input: 60, CacheRead: 40, Output: 7}) {
		t.Errorf("record %+v", r)
	}
}
